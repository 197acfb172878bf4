/**
 * Where a task's turns go once it runs as attempts, without VS Code (`docs/review-and-apply.md`,
 * "Attempts"): how many attempts a composer's send asks for (checked, never trusted), where a
 * follow-up typed in an attempt's panel should go once another attempt was chosen, and whether a
 * finished turn is notified alone or with its group.
 */
import { firstLine } from '../../core/shared/format';
import { formatCount, l10n } from '../../core/shared/l10n';
import { isEndedState, MAX_ATTEMPTS, MIN_ATTEMPTS, type AttemptGroup } from './attempt-store';

/**
 * The attempts a composer's send asks for: `1` (a plain turn, also when left out) or 2–4, only in
 * a new session before its first turn. `error`: why the send is refused (an integer outside 1–4, or
 * attempts asked of a session that exists or has turns already).
 */
export function composerAttempts(asked: unknown, notNew: boolean): { attempts: number } | { error: string } {
  if (asked === undefined) return { attempts: 1 };
  if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1 || asked > MAX_ATTEMPTS)
    return {
      error: l10n.t(
        'Den: the attempts must be a whole number from 1 to {0} (1 is a single turn).',
        formatCount(MAX_ATTEMPTS),
      ),
    };
  if (asked >= MIN_ATTEMPTS && notNew)
    return {
      error: l10n.t(
        'Den: attempts start new sessions: run them from a new session (Den: New Session), not in a session that has turns.',
      ),
    };
  return { attempts: asked };
}

/** The chosen attempt a follow-up typed in `sessionId`'s panel may go to instead, with its number. */
export interface FollowUpTarget {
  sessionId: string;
  /** 1-based, in the order the attempts were started. */
  number: number;
}

/**
 * Where a follow-up typed in a session's composer should be offered to go: the group's chosen
 * attempt when the session is another (not chosen) attempt of it; undefined: send it here.
 */
export function followUpTarget(
  group: AttemptGroup | undefined,
  sessionId: string,
): FollowUpTarget | undefined {
  const chosen = group?.chosen;
  if (!group || !chosen || chosen === sessionId) return undefined;
  if (!group.attempts.some((a) => a.sessionId === sessionId)) return undefined;
  const index = group.attempts.findIndex((a) => a.sessionId === chosen);
  return index < 0 ? undefined : { sessionId: chosen, number: index + 1 };
}

/**
 * What a finished turn (completed or failed) of a session means for its group's notification:
 * `alone` (no attempt's first turn: notified as any turn), `held` (an attempt's first turn while
 * others still run: no notification of its own), `group` (the last attempt of the group to end: one
 * notification for all). `failed` counts the attempts that did not complete, this one included.
 */
export type GroupedFinish =
  { kind: 'alone' } | { kind: 'held' } | { kind: 'group'; attempts: number; failed: number };

export function groupedFinish(
  group: AttemptGroup | undefined,
  sessionId: string,
  agentMessageId: string,
  failedNow: boolean,
): GroupedFinish {
  const mine = group?.attempts.find((a) => a.sessionId === sessionId);
  if (!group || !mine) return { kind: 'alone' };
  // Only the first turn is the attempt's: a later one (the chosen attempt's follow-ups) is a turn like any.
  if (mine.agentMessageId !== undefined && mine.agentMessageId !== agentMessageId) return { kind: 'alone' };
  const others = group.attempts.filter((a) => a !== mine);
  if (!others.every((a) => isEndedState(a.state))) return { kind: 'held' };
  const failed = others.filter((a) => a.state !== 'completed').length + (failedNow ? 1 : 0);
  return { kind: 'group', attempts: group.attempts.length, failed };
}

/** The group's notification: how many attempts of the task ended, and how many did not complete. */
export function groupFinishedText(task: string, attempts: number, failed: number): string {
  const title = firstLine(task, 60) || l10n.t('Untitled session');
  return failed > 0
    ? l10n.t(
        'Den: {0} attempts of “{1}” finished ({2} did not complete)',
        formatCount(attempts),
        title,
        formatCount(failed),
      )
    : l10n.t('Den: {0} attempts of “{1}” finished', formatCount(attempts), title);
}
