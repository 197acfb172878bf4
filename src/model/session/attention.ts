/**
 * Whether a turn's change asks for the person's attention: a notification, a count on the Sessions
 * view's badge. Pure: the editor's part (`editor/session-panel/attention-signals.ts`) says what the person is looking at.
 */
import { l10n } from '../../core/shared/l10n';
import { firstLine } from '../../core/shared/format';
import type { SessionActivityEvent } from './session-activity';

/** `den.notifications.turnFinished`. */
export const TURN_FINISHED_NOTIFY = ['whenUnfocused', 'always', 'never'] as const;
export type TurnFinishedNotify = (typeof TURN_FINISHED_NOTIFY)[number];

export interface AttentionSettings {
  /** When a completed or failed turn is notified (`whenUnfocused`: unless the person looks at it). */
  turnFinished: TurnFinishedNotify;
  /** Notify a turn that needs input, unless the person looks at it. */
  needsInput: boolean;
  /** Count turns that finished unseen on the Sessions view's badge. */
  badge: boolean;
}

/** What the person is looking at when the change comes. */
export interface Looking {
  windowFocused: boolean;
  /** The session's panel is open and visible. */
  panelVisible: boolean;
}

export interface AttentionDecision {
  notify: boolean;
  /** The turn finished without being seen: it counts on the badge. */
  unseen: boolean;
}

/**
 * Completed and failed turns, and turns that need input, may notify; nothing shows while the
 * person looks at the session (window focused and its panel visible) but with `always`. Started
 * and stopped turns never do (a stop is the person's own doing, or says so in the panel).
 */
export function decideAttention(
  kind: SessionActivityEvent['kind'],
  settings: AttentionSettings,
  looking: Looking,
): AttentionDecision {
  const watching = looking.windowFocused && looking.panelVisible;
  if (kind === 'needsInput') return { notify: settings.needsInput && !watching, unseen: false };
  if (kind !== 'completed' && kind !== 'failed') return { notify: false, unseen: false };
  const when = settings.turnFinished;
  return {
    notify: when === 'always' || (when === 'whenUnfocused' && !watching),
    unseen: settings.badge && !watching,
  };
}

/** The notification's text. */
export function attentionText(e: SessionActivityEvent): string {
  const title = firstLine(e.title, 60) || l10n.t('Untitled session');
  const detail = firstLine(e.detail ?? '', 200);
  if (e.kind === 'needsInput') return l10n.t('Den: “{0}” needs your input: {1}', title, detail);
  if (e.kind === 'failed') return l10n.t('Den: “{0}” failed: {1}', title, detail);
  return l10n.t('Den: “{0}” finished', title);
}

/** Turns that finished unseen, by session: what the badge counts. */
export class UnseenTurns {
  readonly #bySession = new Map<string, Set<string>>();

  add(sessionId: string, agentMessageId: string): void {
    const set = this.#bySession.get(sessionId) ?? new Set<string>();
    set.add(agentMessageId);
    this.#bySession.set(sessionId, set);
  }

  /** Forgets a session's unseen turns (its panel was shown), or all of them. */
  clear(sessionId?: string): boolean {
    if (sessionId === undefined) {
      const had = this.#bySession.size > 0;
      this.#bySession.clear();
      return had;
    }
    return this.#bySession.delete(sessionId);
  }

  sessions(): string[] {
    return [...this.#bySession.keys()];
  }

  get count(): number {
    let n = 0;
    for (const s of this.#bySession.values()) n += s.size;
    return n;
  }
}
