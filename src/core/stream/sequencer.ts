import type { AgentEvent } from '../client/types';
import { compareEntries, entryPosition } from './entry-id';

/** Where a stream starts and how patient it is with gaps. */
export interface SequencerOptions {
  /** Events with `event_id` ≤ this were delivered before; unknown when absent. */
  lastEventId?: number;
  /** `stream_entry_id` to resume from; `'0-0'` (the default) is the start of the message. */
  cursor?: string;
  /**
   * The cursor is a guess (the session's last known position before a new message started), not
   * the position of a delivered event: until one is delivered, a gap that does not fill makes the
   * replay start over from `'0-0'`.
   */
  cursorIsHint?: boolean;
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
 * replay from the cursor (`resync`), accept the lowest buffered event as where the message starts
 * (`baseline`), or take a snapshot as standing for events `from`..`to` that did not come
 * (`snapshot`). The last two carry the events now deliverable.
 */
export type ExpireResult =
  | { action: 'none' }
  | { action: 'resync' }
  | { action: 'baseline'; ready: AgentEvent[]; from: number; to: number }
  | { action: 'snapshot'; ready: AgentEvent[]; from: number; to: number };

/** What a `state.snapshot` claims to cover, until the events it summarizes arrive. */
interface SnapshotClaim {
  lastEventId: number;
  cursor?: string;
  /** The snapshot says the turn is over: nothing but its replay can follow. */
  final: boolean;
}

export const START_CURSOR = '0-0';

/**
 * Turns frames that may arrive duplicated, swapped or with holes into exactly-once, in-order
 * delivery by `event_id`. Pure: time is passed in, nothing is scheduled. The cursor is the
 * `stream_entry_id` of the last event handed out, never of one still held back.
 *
 * A `state.snapshot` is a summary, never a reason to drop an event: duplicates are judged against
 * what was delivered. Its `last_event_id` only says which events to expect; when they do not come
 * within the window (the service resumed after the snapshot instead of replaying), the snapshot is
 * taken as standing for them (`snapshot` from `expire`) so that the caller can show it instead.
 */
export class Sequencer {
  #last: number;
  #cur: string;
  /** Whether `last` is trustworthy: given by the caller, or an event was delivered. */
  #anchored: boolean;
  /** Whether the cursor is the position of the last delivered event (false after one without an id). */
  #cursorCurrent = true;
  readonly #held = new Map<number, AgentEvent>();
  #deadline: number | undefined;
  #candidate: number | undefined;
  #baselineAttempts = 0;
  #claim: SnapshotClaim | undefined;
  /** The cursor is the caller's guess and no event was delivered yet. */
  #hint: boolean;
  readonly #windowMs: number;
  readonly #maxBuffered: number;
  readonly #maxBaselineAttempts: number;

  constructor(options: SequencerOptions = {}) {
    this.#last = Math.max(0, Math.floor(options.lastEventId ?? 0));
    this.#anchored = options.lastEventId !== undefined;
    this.#cur = options.cursor || START_CURSOR;
    this.#hint = Boolean(options.cursorIsHint) && this.#cur !== START_CURSOR;
    this.#windowMs = Math.max(0, options.windowMs ?? 1000);
    this.#maxBuffered = Math.max(1, options.maxBuffered ?? 1024);
    this.#maxBaselineAttempts = Math.max(1, options.maxBaselineAttempts ?? 3);
  }

  /** `event_id` of the last delivered event (0 when none). */
  get lastEventId(): number {
    return this.#last;
  }

  /** `stream_entry_id` to resume from. */
  get cursor(): string {
    return this.#cur;
  }

  /** True when delivered events came without `stream_entry_id`, so a replay from the cursor repeats them. */
  get cursorBehind(): boolean {
    return !this.#cursorCurrent;
  }

  /**
   * The `stream_entry_id` of an event, learnt elsewhere (the stored history). Becomes the cursor
   * when it belongs to the last delivered event.
   */
  resumeAt(eventId: number, cursor: string): boolean {
    if (eventId !== this.#last || !cursor) return false;
    this.#cur = cursor;
    this.#cursorCurrent = true;
    return true;
  }

  /** Events held back waiting for a gap to fill. */
  get buffered(): number {
    return this.#held.size;
  }

  /** When the current gap must be filled by (same clock as `now`); undefined without a gap. */
  get gapDeadline(): number | undefined {
    return this.#deadline;
  }

  /**
   * `push` for the common case, without allocating its result: when `ev` is the next event and
   * nothing is held back, takes it (as `push` would) and returns true: deliver it, alone, now.
   * Otherwise changes nothing and returns false: call `push`.
   */
  pushNext(ev: AgentEvent, now: number): boolean {
    if (ev.event_id !== this.#last + 1 || this.#held.size > 0) return false;
    this.#take(ev);
    this.#rearm(now);
    return true;
  }

  push(ev: AgentEvent, now: number): PushResult {
    const id = ev.event_id;
    if (id <= this.#last || this.#held.has(id)) return { outcome: 'duplicate', ready: [] };
    if (id === this.#last + 1) {
      const ready = [ev];
      this.#take(ev);
      this.#drain(ready);
      this.#rearm(now);
      return { outcome: 'delivered', ready };
    }
    if (this.#held.size >= this.#maxBuffered) {
      this.#dropHint();
      return { outcome: 'overflow', ready: [] };
    }
    this.#held.set(id, ev);
    if (this.#deadline === undefined) this.#deadline = now + this.#windowMs;
    return { outcome: 'buffered', ready: [] };
  }

  /**
   * Call when `now` reached `gapDeadline`, or with `connectionEnded` when the connection is gone
   * (`closedByServer`: with a normal close, not cut):
   * the server sent all it would, so the gap is judged at once; a snapshot's claim then only when
   * the connection showed that its events will not come (see `claimFailed`).
   */
  expire(now: number, connectionEnded = false, closedByServer = false): ExpireResult {
    const claim = this.#claim;
    if (this.#held.size === 0 && !claim) {
      this.#deadline = undefined;
      return { action: 'none' };
    }
    const due = this.#deadline !== undefined && now >= this.#deadline;
    if (claim && (due || (connectionEnded && this.#claimFailed(claim, closedByServer))))
      return this.#takeSnapshot(claim, now);
    if (this.#held.size === 0) return { action: 'none' };
    if (!connectionEnded && !due) return { action: 'none' };
    this.#deadline = undefined;
    if (this.#anchored) {
      this.#dropHint();
      return { action: 'resync' };
    }
    const lowest = Math.min(...this.#held.keys());
    // A caller's cursor without an event id: what the server sends after it is the start.
    // From `0-0`, only a second fresh replay agreeing on the first event makes it the start,
    // so a frame swapped or lost on one connection cannot drop the real first events.
    const accept =
      this.#cur !== START_CURSOR ||
      this.#candidate === lowest ||
      this.#baselineAttempts + 1 >= this.#maxBaselineAttempts;
    if (!accept) {
      this.#candidate = lowest;
      this.#baselineAttempts++;
      return { action: 'resync' };
    }
    const from = this.#last + 1;
    this.#last = lowest - 1;
    this.#anchored = true;
    const ready: AgentEvent[] = [];
    this.#drain(ready);
    this.#rearm(now);
    return { action: 'baseline', ready, from, to: lowest - 1 };
  }

  /**
   * A new connection starts: everything held is dropped (the server replays from the cursor, so
   * it comes again), and so is a snapshot's claim (the new connection sends its own); the gap
   * clock stops.
   */
  beginConnection(): void {
    this.#held.clear();
    this.#claim = undefined;
    this.#deadline = undefined;
  }

  /**
   * A `state.snapshot` arrived: it summarizes the events up to `lastEventId` (at `cursor`), `final`
   * when it says the turn is over. Nothing counts as delivered because of it; events it covers
   * that were not delivered yet are expected (the replay from the cursor brings them), and only
   * when they do not come within the window does `expire` take the snapshot in their place.
   */
  applySnapshot(
    lastEventId: number | undefined,
    cursor: string | undefined,
    now: number,
    final = false,
  ): void {
    if (lastEventId === undefined || !Number.isInteger(lastEventId) || lastEventId <= this.#last) return;
    this.#claim = cursor ? { lastEventId, cursor, final } : { lastEventId, final };
    if (this.#deadline === undefined) this.#deadline = now + this.#windowMs;
  }

  /**
   * Whether a connection that ended shows that the events a snapshot claims will not be replayed:
   * events after the snapshot came without them (the service sends in order), or the service
   * closed the connection after a finished turn's snapshot (a cut may come right after a snapshot;
   * the replay then comes on the next connection).
   */
  #claimFailed(claim: SnapshotClaim, closedByServer: boolean): boolean {
    if (this.#held.size > 0) return Math.min(...this.#held.keys()) > claim.lastEventId;
    return claim.final && closedByServer;
  }

  /** Whether a snapshot claims events that were not delivered yet. */
  get snapshotPending(): boolean {
    return this.#claim !== undefined;
  }

  #takeSnapshot(claim: SnapshotClaim, now: number): ExpireResult {
    const from = this.#last + 1;
    this.#claim = undefined;
    this.#last = claim.lastEventId;
    this.#anchored = true;
    this.#hint = false;
    if (claim.cursor) this.#cur = claim.cursor;
    this.#cursorCurrent = Boolean(claim.cursor);
    for (const id of [...this.#held.keys()]) if (id <= this.#last) this.#held.delete(id);
    const ready: AgentEvent[] = [];
    this.#drain(ready);
    this.#rearm(now);
    return { action: 'snapshot', ready, from, to: claim.lastEventId };
  }

  /**
   * An event of another agent message went by (the service replays the session's whole stream). Its
   * `stream_entry_id` becomes the cursor when no event of this message is held: the service sends
   * the stream in order, so every event of this message before it was sent already, and a replay
   * from there skips the other messages' events instead of sending them again after each cut.
   */
  passForeign(streamEntryId: string | undefined): void {
    if (!streamEntryId || this.#held.size > 0) return;
    const next = entryPosition(streamEntryId);
    const cur = entryPosition(this.#cur);
    if (!next || !cur || compareEntries(next, cur) <= 0) return;
    this.#cur = streamEntryId;
    this.#cursorCurrent = true;
  }

  /**
   * A connection that the service answered ended before anything was delivered: a guessed cursor
   * may be past the message's events, so the next connection starts over from `0-0`.
   */
  answeredWithoutEvents(): void {
    this.#dropHint();
  }

  /** The guessed cursor led to a gap before anything was delivered: start over from `0-0`. */
  #dropHint(): void {
    if (!this.#hint) return;
    this.#hint = false;
    this.#cur = START_CURSOR;
  }

  #take(ev: AgentEvent): void {
    this.#last = ev.event_id;
    this.#anchored = true;
    this.#hint = false;
    if (this.#claim && this.#last >= this.#claim.lastEventId) this.#claim = undefined;
    if (typeof ev.stream_entry_id === 'string' && ev.stream_entry_id) {
      this.#cur = ev.stream_entry_id;
      this.#cursorCurrent = true;
    } else {
      this.#cursorCurrent = false;
    }
  }

  #drain(into: AgentEvent[]): void {
    for (let next = this.#held.get(this.#last + 1); next; next = this.#held.get(this.#last + 1)) {
      this.#held.delete(next.event_id);
      this.#take(next);
      into.push(next);
    }
  }

  /** Progress was made: a remaining gap (or snapshot claim) gets a fresh window, none means no deadline. */
  #rearm(now: number): void {
    this.#deadline = this.#held.size === 0 && !this.#claim ? undefined : now + this.#windowMs;
  }
}
