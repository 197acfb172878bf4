/**
 * Attempts (`docs/review-and-apply.md`, "Attempts"): starts one task as 2–4 sessions together,
 * without opening their panels, and follows each first turn (state, end, the answer's first lines)
 * into the group's store (`model/attempts`). The Attempts view draws the groups
 * (`attempts-tree.ts`); the commands live in `attempt-commands.ts`.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Effort, Mode } from '../../core/client/types';
import { firstLine } from '../../core/shared/format';
import { formatCount, l10n } from '../../core/shared/l10n';
import { answerHead, attemptStateOf } from '../../model/attempts/attempt-rows';
import { isEndedState, type AttemptGroup, type AttemptStore } from '../../model/attempts/attempt-store';
import type { SessionRegistry } from '../../model/session/session-registry';
import type { TurnRequest } from '../../model/session/turn-request';

/** What a task's attempts are started with. */
export interface AttemptsRequest {
  task: string;
  attempts: number;
  mode: Mode;
  effort: Effort;
  /**
   * A session with no turn yet that is the first attempt (the composer's of a new session); the
   * others are new sessions.
   */
  firstSessionId?: string;
  /**
   * What each attempt's first turn carries besides the task (attachments, each session uploading its
   * own copy, and their bases); `error`: that attempt does not start, and says why.
   */
  turnFor?: (sessionId: string, index: number) => Promise<AttemptTurn | { error: string }>;
}

/** What an attempt's first turn carries besides its task, mode and effort. */
export type AttemptTurn = Omit<TurnRequest, 'task' | 'mode' | 'effort'>;

type Registry = Pick<SessionRegistry, 'startTurn' | 'onDidChangeTurn' | 'onDidEndTurn'>;

const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class Attempts implements vscode.Disposable {
  readonly #subscriptions: { dispose(): void }[] = [];
  readonly store: AttemptStore;
  readonly #registry: Registry;
  readonly #now: () => number;

  constructor(store: AttemptStore, registry: Registry, now: () => number = Date.now) {
    this.store = store;
    this.#registry = registry;
    this.#now = now;
    this.#subscriptions.push(
      registry.onDidChangeTurn(({ event, turn }) => {
        const found = store.groupOf(event.sessionId);
        if (!found) return;
        const mine = found.group.attempts[found.index].agentMessageId;
        // Only the first turn is the attempt's: later ones (the chosen attempt's follow-ups) are not compared.
        if (mine !== undefined && mine !== event.agentMessageId) return;
        const state = attemptStateOf(turn);
        void store.update(event.sessionId, {
          agentMessageId: event.agentMessageId,
          state,
          ...(isEndedState(state) ? { endedAt: this.#now(), answer: answerHead(turn) } : {}),
        });
      }),
      store.onDidChange(() => this.#setContext()),
    );
    this.#setContext();
  }

  /** Starts the attempts: a group of new sessions with the same turn. Resolves to the group. */
  async start(req: AttemptsRequest): Promise<AttemptGroup> {
    const sessionIds = Array.from({ length: req.attempts }, (_, i) =>
      i === 0 && req.firstSessionId ? req.firstSessionId : randomUUID(),
    );
    const group = await this.store.add({
      id: randomUUID(),
      task: req.task,
      mode: req.mode,
      effort: req.effort,
      createdAt: this.#now(),
      sessionIds,
    });
    const title = (i: number): string => l10n.t('{0} (attempt {1})', firstLine(req.task), formatCount(i + 1));
    await Promise.all(
      sessionIds.map(async (id, i) => {
        const extra = req.turnFor
          ? await req.turnFor(id, i).catch((err: unknown) => ({ error: errorMessage(err) }))
          : {};
        const r =
          'error' in extra
            ? extra
            : await this.#registry.startTurn(
                id,
                { ...extra, task: req.task, mode: req.mode, effort: req.effort },
                { title: title(i), isNew: true },
              );
        if ('error' in r)
          await this.store.update(id, { state: 'failed', answer: r.error, endedAt: this.#now() });
        else await this.store.update(id, { agentMessageId: r.agentMessageId });
      }),
    );
    return this.store.get(group.id) ?? group;
  }

  /** Says how many attempts of a group did not start, and why the first did not; nothing when all did. */
  warnFailed(group: AttemptGroup): void {
    const failed = group.attempts.filter((a) => a.state === 'failed');
    if (!failed.length) return;
    void vscode.window.showWarningMessage(
      l10n.t(
        'Den: {0} of {1} attempts did not start: {2}',
        formatCount(failed.length),
        formatCount(group.attempts.length),
        failed[0].answer ?? '',
      ),
    );
  }

  /** The Sessions tree's mark of a session: `attempt 2 of 3`, `chosen attempt`; undefined: none. */
  markOf(sessionId: string): string | undefined {
    const found = this.store.groupOf(sessionId);
    if (!found) return undefined;
    if (found.group.chosen === sessionId) return l10n.t('chosen attempt');
    return l10n.t(
      'attempt {0} of {1}',
      formatCount(found.index + 1),
      formatCount(found.group.attempts.length),
    );
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
  }

  #setContext(): void {
    void vscode.commands.executeCommand('setContext', 'den.hasAttempts', this.store.groups().length > 0);
  }
}
