import type { AgentEvent } from '../api/types';

/** Where a stream starts and how patient it is with gaps. */
export interface SequencerOptions {
  /** Events with `event_id` ≤ this were delivered before; unknown when absent. */
  lastEventId?: number;
  /** `stream_entry_id` to resume from; `'0-0'` (the default) is the start of the message. */
  cursor?: string;
  /** How long a gap may stay open before a replay is asked for (default 1000 ms). */
  windowMs?: number;
  /** Most events held while waiting for a gap (default 1024); one more asks for a replay. */
  maxBuffered?: number;
  /** Replays from `0-0` that may disagree about the first event before the lowest is taken (default 3). */
  maxBaselineAttempts?: number;
}

/** What happened to one pushed event. */
export type PushOutcome = 'delivered' | 'duplicate' | 'buffered' | 'overflow';

export interface PushResult {
  outcome: PushOutcome;
  /** Events to deliver now, in order: the pushed one and any buffered ones it unblocked. */
  ready: AgentEvent[];
}

/**
 * What to do once a gap outlived the window: nothing (no gap, or not yet), ask the server for a
 * replay from the cursor (`resync`), or accept the lowest buffered event as where the message
 * starts (`baseline`, with the events that are now deliverable).
 */
export type ExpireResult =
  { action: 'none' } | { action: 'resync' } | { action: 'baseline'; ready: AgentEvent[] };

export const START_CURSOR = '0-0';

/**
 * Turns frames that may arrive duplicated, swapped or with holes into exactly-once, in-order
 * delivery by `event_id`. Pure: time is passed in, nothing is scheduled. The cursor is the
 * `stream_entry_id` of the last event handed out, never of one still held back.
 */
export class Sequencer {
  private last: number;
  private cur: string;
  /** Whether `last` is trustworthy: given by the caller, or an event was delivered. */
  private anchored: boolean;
  /** Whether the cursor is the position of the last delivered event (false after one without an id). */
  private cursorCurrent = true;
  private readonly held = new Map<number, AgentEvent>();
  private deadline: number | undefined;
  private candidate: number | undefined;
  private baselineAttempts = 0;
  private readonly windowMs: number;
  private readonly maxBuffered: number;
  private readonly maxBaselineAttempts: number;

  constructor(options: SequencerOptions = {}) {
    this.last = Math.max(0, Math.floor(options.lastEventId ?? 0));
    this.anchored = options.lastEventId !== undefined;
    this.cur = options.cursor || START_CURSOR;
    this.windowMs = Math.max(0, options.windowMs ?? 1000);
    this.maxBuffered = Math.max(1, options.maxBuffered ?? 1024);
    this.maxBaselineAttempts = Math.max(1, options.maxBaselineAttempts ?? 3);
  }

  /** `event_id` of the last delivered event (0 when none). */
  get lastEventId(): number {
    return this.last;
  }

  /** `stream_entry_id` to resume from. */
  get cursor(): string {
    return this.cur;
  }

  /** True when delivered events came without `stream_entry_id`, so a replay from the cursor repeats them. */
  get cursorBehind(): boolean {
    return !this.cursorCurrent;
  }

  /**
   * The `stream_entry_id` of an event, learnt elsewhere (the stored history). Becomes the cursor
   * when it belongs to the last delivered event.
   */
  resumeAt(eventId: number, cursor: string): boolean {
    if (eventId !== this.last || !cursor) return false;
    this.cur = cursor;
    this.cursorCurrent = true;
    return true;
  }

  /** Events held back waiting for a gap to fill. */
  get buffered(): number {
    return this.held.size;
  }

  /** When the current gap must be filled by (same clock as `now`); undefined without a gap. */
  get gapDeadline(): number | undefined {
    return this.deadline;
  }

  push(ev: AgentEvent, now: number): PushResult {
    const id = ev.event_id;
    if (id <= this.last || this.held.has(id)) return { outcome: 'duplicate', ready: [] };
    if (id === this.last + 1) {
      const ready = [ev];
      this.take(ev);
      this.drain(ready);
      this.rearm(now);
      return { outcome: 'delivered', ready };
    }
    if (this.held.size >= this.maxBuffered) return { outcome: 'overflow', ready: [] };
    this.held.set(id, ev);
    if (this.deadline === undefined) this.deadline = now + this.windowMs;
    return { outcome: 'buffered', ready: [] };
  }

  /**
   * Call when `now` reached `gapDeadline`, or with `connectionEnded` when the connection is gone:
   * the server sent all it would, so the gap is judged at once.
   */
  expire(now: number, connectionEnded = false): ExpireResult {
    if (this.held.size === 0) return { action: 'none' };
    if (!connectionEnded && (this.deadline === undefined || now < this.deadline)) return { action: 'none' };
    this.deadline = undefined;
    if (this.anchored) return { action: 'resync' };
    const lowest = Math.min(...this.held.keys());
    // A caller's cursor without an event id: what the server sends after it is the start.
    // From `0-0`, only a second fresh replay agreeing on the first event makes it the start,
    // so a frame swapped or lost on one connection cannot drop the real first events.
    const accept =
      this.cur !== START_CURSOR ||
      this.candidate === lowest ||
      this.baselineAttempts + 1 >= this.maxBaselineAttempts;
    if (!accept) {
      this.candidate = lowest;
      this.baselineAttempts++;
      return { action: 'resync' };
    }
    this.last = lowest - 1;
    this.anchored = true;
    const ready: AgentEvent[] = [];
    this.drain(ready);
    this.rearm(now);
    return { action: 'baseline', ready };
  }

  /**
   * A new connection starts: everything held is dropped (the server replays from the cursor, so
   * it comes again) and the gap clock stops.
   */
  beginConnection(): void {
    this.held.clear();
    this.deadline = undefined;
  }

  /**
   * The older variant's `state.snapshot` says what it already covers. Moves forward only: events
   * up to its `last_event_id` count as delivered. Returns held events that became deliverable.
   */
  applySnapshot(lastEventId: number | undefined, cursor: string | undefined, now: number): AgentEvent[] {
    if (lastEventId === undefined || !Number.isInteger(lastEventId) || lastEventId < this.last) return [];
    if (lastEventId === this.last && this.anchored) return [];
    this.last = lastEventId;
    this.anchored = true;
    if (cursor) this.cur = cursor;
    this.cursorCurrent = Boolean(cursor);
    for (const id of [...this.held.keys()]) if (id <= this.last) this.held.delete(id);
    const ready: AgentEvent[] = [];
    this.drain(ready);
    this.rearm(now);
    return ready;
  }

  private take(ev: AgentEvent): void {
    this.last = ev.event_id;
    this.anchored = true;
    if (typeof ev.stream_entry_id === 'string' && ev.stream_entry_id) {
      this.cur = ev.stream_entry_id;
      this.cursorCurrent = true;
    } else {
      this.cursorCurrent = false;
    }
  }

  private drain(into: AgentEvent[]): void {
    for (let next = this.held.get(this.last + 1); next; next = this.held.get(this.last + 1)) {
      this.held.delete(next.event_id);
      this.take(next);
      into.push(next);
    }
  }

  /** Progress was made: a remaining gap gets a fresh window, no gap means no deadline. */
  private rearm(now: number): void {
    this.deadline = this.held.size === 0 ? undefined : now + this.windowMs;
  }
}
