/**
 * The transcript store: a session's transcript as its panel shows it, and where everything that
 * changes it lands: the cached copy, the stored history, live events, snapshots, gaps and
 * reconciling with the stored copy. Who hears about changes registers a `TranscriptListener` (the
 * view shows them as deltas, or repaints whole when they cannot be told as deltas; the host's
 * events; the turns' side, which reconciles turns in doubt). It keeps the local cache up to date.
 * Turns shown from a summary are kept apart from the live events that would repeat them until
 * those catch up. No `vscode` import.
 */
import type { AgentEvent, SessionDetail } from '../../core/client/types';
import { firstLine } from '../../core/shared/format';
import { l10n } from '../../core/shared/l10n';
import type { StreamGap } from '../../core/stream/stream-types';
import { foldAgentMessage } from '../../core/transcript/from-history';
import { isTerminalStatus, type ChangeSet, type Transcript, type Turn } from '../../core/transcript/model';
import { applyEvent, createTranscript, findTurn, newTurn } from '../../core/transcript/reducer';
import type { ReconcileOutcome, ReconcileReason } from './reconciler';
import type { TranscriptCache } from './transcript-cache';
import { mergeFresh, reconcileTurn } from './transcript-merge';

/** Who hears about the transcript's changes (every method optional: each listener takes what it needs). */
export interface TranscriptListener {
  /** What one change did, to be shown: every change set posted, recorded or merged. */
  changed?(cs: ChangeSet): void;
  /** The transcript can only be shown whole again (replaced, or a turn replaced without deltas). */
  repaint?(): void;
  /** A change was recorded (an event, a turn begun; not the change sets of a merge). */
  recorded?(cs: ChangeSet): void;
  /** The transcript was replaced or merged whole. */
  replaced?(): void;
  /** Turns may have started or ended (a turn brought in line with a summary or the stored copy). */
  runningChanged?(): void;
  /** What is shown of a turn may differ from what the service stored: worth reconciling. */
  doubted?(messageId: string, reason: ReconcileReason): void;
}

/** What the store is made with. */
export interface SessionTranscriptDeps {
  sessionId: string;
  /** The title known before the service names the session (shown until it does). */
  title?: string;
  /** Where the transcript is kept between windows; written after changes and when closed. */
  cache?: TranscriptCache;
}

/** What readers of the store see: the transcript now, its title, and whether the store was closed. */
export interface TranscriptReader {
  readonly sessionId: string;
  readonly value: Transcript;
  readonly title: string;
  /** The host was disposed: nothing more is applied. */
  readonly closed: boolean;
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

export class SessionTranscript implements TranscriptReader {
  readonly sessionId: string;
  #current: Transcript;
  /** Turns shown from a summary (no event position) whose events are folded aside until they catch up. */
  readonly #shadows = new Map<string, Shadow>();
  readonly #listeners: TranscriptListener[] = [];
  #closed = false;

  readonly #deps: SessionTranscriptDeps;
  constructor(deps: SessionTranscriptDeps) {
    this.#deps = deps;
    this.sessionId = deps.sessionId;
    this.#current = createTranscript(deps.sessionId, deps.title);
  }

  get value(): Transcript {
    return this.#current;
  }

  /** The session's title; before the service names it, the first task. */
  get title(): string {
    const first = this.#current.turns[0]?.userMessage.text;
    return (
      this.#current.title || this.#deps.title || (first && firstLine(first, 60)) || l10n.t('Untitled session')
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Adds a listener; listeners hear in the order they were added. */
  listen(listener: TranscriptListener): void {
    this.#listeners.push(listener);
  }

  /** Writes the transcript to the cache soon (after a change the listeners cannot see, such as a turn's end). */
  saveLater(): void {
    this.#deps.cache?.schedule(this.sessionId, () => this.#current);
  }

  /** Nothing more is applied; the cache gets the last state (and keeps it in memory for a while). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#current.turns.length > 0)
      void this.#deps.cache?.write(this.sessionId, this.#current, { keep: true });
  }

  /** Shows `cached` instead (painting from the cache before anything else is shown). */
  replace(cached: Transcript): void {
    this.#current = cached;
    this.#repaint();
    this.#replaced();
  }

  /** Merges a fresh copy of the stored history into what is shown. */
  merge(fresh: Transcript): void {
    const merged = mergeFresh(this.#current, fresh);
    this.#current = merged.transcript;
    if (merged.changes) for (const cs of merged.changes) this.#tell((l) => l.changed?.(cs));
    else this.#repaint();
    for (const id of [...this.#shadows.keys()]) {
      const t = findTurn(this.#current, id);
      if (!t || !isSummary(t)) this.#shadows.delete(id);
    }
    this.#replaced();
  }

  /** Posts what a change did. */
  record(cs: ChangeSet): void {
    if (cs.ignored) return;
    this.#tell((l) => l.changed?.(cs));
    this.saveLater();
    this.#tell((l) => l.recorded?.(cs));
  }

  /**
   * One live event. A turn shown from a summary (the older variant's blocks, no event position)
   * cannot take events on top, as they would repeat what it shows: they are folded into a shadow
   * turn instead, which replaces the summary once it covers as much (`catchUp`).
   */
  apply(messageId: string, ev: AgentEvent): void {
    if (this.#closed) return;
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
    if (this.#closed) return;
    this.#tell((l) => l.doubted?.(messageId, 'snapshot'));
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
    if (this.#closed) return;
    this.#tell((l) => l.doubted?.(messageId, 'gap'));
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
    if (this.#closed || !shown || !m || m.events.length === 0) return 'missing';
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
      this.#repaint();
      this.#replaced();
    }
    if (!cs || cs.statusChanged) this.#tell((l) => l.runningChanged?.());
  }

  #repaint(): void {
    this.#tell((l) => l.repaint?.());
  }

  #replaced(): void {
    this.saveLater();
    this.#tell((l) => l.replaced?.());
  }

  #tell(call: (l: TranscriptListener) => void): void {
    for (const l of this.#listeners) call(l);
  }
}
