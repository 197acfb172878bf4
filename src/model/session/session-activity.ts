/**
 * The lifecycle of the turns Den follows, as events: `started`, `needsInput` (once per request),
 * then one of `completed`, `failed` (with the error) or `stopped`. The shape of each event is the
 * public API's `DenSessionChangeEvent`. No `vscode` import.
 */
import { Emitter } from '../../core/shared/emitter';
import { l10n } from '../../core/shared/l10n';
import type { Turn } from '../../core/transcript/model';

export type SessionActivityKind = 'started' | 'needsInput' | 'completed' | 'failed' | 'stopped';

/** One change of a turn (the public API's `DenSessionChangeEvent`). */
export interface SessionActivityEvent {
  readonly kind: SessionActivityKind;
  readonly sessionId: string;
  readonly agentMessageId: string;
  /** The session's title (or its first task while the service has not named it). */
  readonly title: string;
  /** For `failed`: the error; for `needsInput`: what the agent asks. */
  readonly detail?: string;
}

/** An event with the turn it is about (for Den's own notifications: its files). */
export interface TurnActivity {
  readonly event: SessionActivityEvent;
  readonly turn: Turn;
}

/** Turns remembered to fire each event once; the oldest ended ones are forgotten past this. */
const REMEMBERED = 500;

export class SessionActivity {
  readonly #emitter = new Emitter<TurnActivity>();
  readonly onDidChange = this.#emitter.event;
  /** By agent message id: what the last `needsInput` asked, and whether the turn's end was told. */
  readonly #turns = new Map<string, { asked?: string; ended?: boolean }>();

  /** `failed`: told when a listener throws (the others still run; the turn is followed on). */
  readonly #failed: (err: unknown) => void;
  constructor(failed: (err: unknown) => void = () => undefined) {
    this.#failed = failed;
  }

  /** A followed turn as it is now: `started` the first time, `needsInput` when it asks anew. */
  seen(sessionId: string, title: string, turn: Turn): void {
    const r = this.#record(sessionId, title, turn);
    if (r.ended || turn.needsInput === r.asked) return;
    r.asked = turn.needsInput;
    if (r.asked !== undefined) this.#fire('needsInput', sessionId, title, turn, r.asked);
  }

  /** A followed turn reached its terminal status. */
  ended(sessionId: string, title: string, turn: Turn): void {
    const r = this.#record(sessionId, title, turn);
    if (r.ended) return;
    r.ended = true;
    const s = turn.status;
    if (s === 'completed') this.#fire('completed', sessionId, title, turn);
    else if (s === 'error')
      this.#fire('failed', sessionId, title, turn, turn.error?.message ?? l10n.t('The turn failed.'));
    else if (s === 'aborted') this.#fire('stopped', sessionId, title, turn);
    this.#prune();
  }

  dispose(): void {
    this.#emitter.dispose();
  }

  #record(sessionId: string, title: string, turn: Turn): { asked?: string; ended?: boolean } {
    let r = this.#turns.get(turn.agentMessageId);
    if (!r) {
      this.#turns.set(turn.agentMessageId, (r = {}));
      this.#fire('started', sessionId, title, turn);
    }
    return r;
  }

  #prune(): void {
    for (const [id, r] of this.#turns) {
      if (this.#turns.size <= REMEMBERED) return;
      if (r.ended) this.#turns.delete(id);
    }
  }

  #fire(kind: SessionActivityKind, sessionId: string, title: string, turn: Turn, detail?: string): void {
    const event: SessionActivityEvent = { kind, sessionId, agentMessageId: turn.agentMessageId, title };
    try {
      this.#emitter.fire({ event: detail === undefined ? event : { ...event, detail }, turn });
    } catch (err) {
      this.#failed(err);
    }
  }
}
