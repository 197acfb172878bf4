/**
 * A session's transcript as its panel shows it, and where everything that changes it lands: the
 * cached copy, the stored history, live events, snapshots, gaps and reconciling with the stored
 * copy. Every change goes to the view as deltas (or a fresh `init` when it cannot be told as
 * deltas). Turns shown from a summary are kept apart from the live events that would repeat them
 * until those catch up. No `vscode` import.
 */
import type { AgentEvent, SessionDetail } from '../../core/client/types';
import type { StreamGap } from '../../core/stream/stream-types';
import { foldAgentMessage } from '../../core/transcript/from-history';
import { isTerminalStatus, type ChangeSet, type Transcript, type Turn } from '../../core/transcript/model';
import { applyEvent, createTranscript, findTurn, newTurn } from '../../core/transcript/reducer';
import type { DeltaBatcher } from './delta-batcher';
import type { ReconcileOutcome, ReconcileReason } from './reconciler';
import { mergeFresh, reconcileTurn } from './transcript-merge';

export interface SessionTranscriptDeps {
  sessionId: string;
  title?: string;
  batcher: Pick<DeltaBatcher, 'push' | 'invalidate'>;
  /** A change set was posted (not one the reducer ignored). */
  recorded(cs: ChangeSet): void;
  /** The transcript was replaced or merged whole. */
  replaced(): void;
  /** Turns may have started or ended. */
  runningChanged(): void;
  /** Asks for a turn to be checked against the stored history. */
  reconcile(messageId: string, reason: ReconcileReason): void;
  /** The host was disposed: nothing more is applied. */
  disposed(): boolean;
}

/** Events of a summary turn folded aside; `covers`: the last snapshot's `last_event_id`. */
interface Shadow {
  turn: Turn;
  covers?: number;
}

/** A turn shown from a summary: content without an event position (the older variant's blocks). */
function isSummary(t: Turn): boolean {
  return t.lastEventId === 0 && (t.blocks.length > 0 || t.plan !== undefined);
}

export class SessionTranscript {
  #current: Transcript;
  /** Turns shown from a summary (no event position) whose events are folded aside until they catch up. */
  readonly #shadows = new Map<string, Shadow>();

  readonly #deps: SessionTranscriptDeps;
  constructor(deps: SessionTranscriptDeps) {
    this.#deps = deps;
    this.#current = createTranscript(deps.sessionId, deps.title);
  }

  get value(): Transcript {
    return this.#current;
  }

  /** Shows `cached` instead (painting from the cache before anything else is shown). */
  replace(cached: Transcript): void {
    this.#current = cached;
    this.#deps.batcher.invalidate();
    this.#deps.replaced();
  }

  /** Merges a fresh copy of the stored history into what is shown. */
  merge(fresh: Transcript): void {
    const merged = mergeFresh(this.#current, fresh);
    this.#current = merged.transcript;
    if (merged.changes) for (const cs of merged.changes) this.#deps.batcher.push(cs);
    else this.#deps.batcher.invalidate();
    for (const id of [...this.#shadows.keys()]) {
      const t = findTurn(this.#current, id);
      if (!t || !isSummary(t)) this.#shadows.delete(id);
    }
    this.#deps.replaced();
  }

  /** Posts what a change did. */
  record(cs: ChangeSet): void {
    if (cs.ignored) return;
    this.#deps.batcher.push(cs);
    this.#deps.recorded(cs);
  }

  /**
   * One live event. A turn shown from a summary (the older variant's blocks, no event position)
   * cannot take events on top, as they would repeat what it shows: they are folded into a shadow
   * turn instead, which replaces the summary once it covers as much (`catchUp`).
   */
  apply(messageId: string, ev: AgentEvent): void {
    if (this.#deps.disposed()) return;
    const shown = findTurn(this.#current, messageId);
    const shadow = shown && this.#shadowOf(messageId, shown);
    if (!shown || !shadow) {
      this.record(applyEvent(this.#current, messageId, ev));
      return;
    }
    const turns = this.#current.turns.map((t) => (t === shown ? shadow.turn : t));
    applyEvent({ sessionId: this.#deps.sessionId, turns }, messageId, ev);
    this.#catchUp(messageId, shown, shadow);
  }

  /**
   * A `state.snapshot` came: a summary only (its events are applied as the service replays them).
   * It says how far a summary turn's shadow must get, and asks for a reconciliation.
   */
  snapshotSeen(messageId: string, snapshot: Record<string, unknown>): void {
    if (this.#deps.disposed()) return;
    this.#deps.reconcile(messageId, 'snapshot');
    const shown = findTurn(this.#current, messageId);
    const shadow = shown && this.#shadowOf(messageId, shown);
    const covers = snapshot.last_event_id;
    if (!shown || !shadow || typeof covers !== 'number') return;
    shadow.covers = covers;
    this.#catchUp(messageId, shown, shadow);
  }

  /**
   * Events that will not come live: the snapshot that stands for them (if any) is shown in their
   * place until the stored history, asked for at once, brings the exact events.
   */
  gapSeen(messageId: string, gap: StreamGap): void {
    if (this.#deps.disposed()) return;
    this.#deps.reconcile(messageId, 'gap');
    if (!gap.snapshot) return;
    this.#shadows.delete(messageId);
    this.record(
      applyEvent(this.#current, messageId, {
        kind: 'state.snapshot',
        payload: gap.snapshot,
        timestamp: Date.now(),
      } as AgentEvent),
    );
  }

  /**
   * Brings one turn in line with the stored history: when the stored copy has events and covers at
   * least what is shown, the turn shows exactly its fold (see `reconcileTurn` for how this stays a
   * set of deltas). The stored message alone is folded, after the turns shown before it.
   */
  reconcileWith(detail: SessionDetail, messageId: string): ReconcileOutcome {
    const shown = findTurn(this.#current, messageId);
    const m = detail.messages.find((x) => x.type === 'agent' && x.id === messageId);
    if (this.#deps.disposed() || !shown || !m || m.events.length === 0) return 'missing';
    const stored = newTurn(messageId, shown.userMessage.createdAt);
    stored.userMessage = shown.userMessage;
    const before = this.#current.turns.slice(0, this.#current.turns.indexOf(shown));
    foldAgentMessage({ sessionId: this.#deps.sessionId, turns: [...before, stored] }, stored, m);
    if (stored.lastEventId < shown.lastEventId) return 'behind';
    this.#shadows.delete(messageId);
    this.#replaceWith(shown, stored);
    return 'applied';
  }

  #shadowOf(messageId: string, shown: Turn): Shadow | undefined {
    let s = this.#shadows.get(messageId);
    if (!s && isSummary(shown)) {
      const turn = newTurn(messageId, shown.userMessage.createdAt);
      turn.userMessage = shown.userMessage;
      s = { turn };
      this.#shadows.set(messageId, s);
    }
    return s;
  }

  /** The shadow replaces the summary once it reached what the last snapshot covered, or ended. */
  #catchUp(messageId: string, shown: Turn, shadow: Shadow): void {
    const t = shadow.turn;
    const covered = shadow.covers !== undefined && t.lastEventId > 0 && t.lastEventId >= shadow.covers;
    if (!covered && !isTerminalStatus(t.status)) return;
    this.#shadows.delete(messageId);
    this.#replaceWith(shown, t);
  }

  #replaceWith(shown: Turn, source: Turn): void {
    const cs = reconcileTurn(shown, source);
    if (cs) this.record(cs);
    else {
      this.#deps.batcher.invalidate();
      this.#deps.replaced();
    }
    if (!cs || cs.statusChanged) this.#deps.runningChanged();
  }
}
