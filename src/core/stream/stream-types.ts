import type { Agent } from 'node:http';
import type { DenError } from '../client/errors';
import type { AgentEvent } from '../client/types';
import type { Logger } from '../shared/log';
import type { BackoffOptions } from '../shared/backoff';

/** How the stream spaces its reconnects: 250 ms doubling to 10 s, up to half of it taken off at random. */
export const STREAM_BACKOFF: Readonly<BackoffOptions> = Object.freeze({
  initialMs: 250,
  maxMs: 10_000,
  factor: 2,
  jitter: 0.5,
});

/** Wall-clock time beyond the expected that says the machine slept (timers were paused). */
export const WAKE_JUMP_MS = 15_000;

/** `details` of the error a stream reconnects with after the machine slept: `{ sleptMs }`. */
export interface WakeDetails {
  sleptMs: number;
}

/** Life of a `SessionStream`. `ended`, `failed` and `closed` are final. */
export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'ended' | 'failed' | 'closed';

/** Facts that come with a state change. Never carries the key. */
export interface StreamStateInfo {
  /** Which try this is since the last connection that received a frame (1 = first). */
  attempt: number;
  /** With `reconnecting`: how long until the next try. */
  delayMs?: number;
  /** Why the stream is reconnecting or failed. */
  error?: DenError;
}

/** Counters for diagnostics and tests. */
export interface StreamStats {
  /** Every text or binary frame received, whatever it held. */
  framesReceived: number;
  /** Events dropped because they were delivered or held already. */
  duplicates: number;
  /** Frames that were not an ack, a snapshot or an event. */
  malformed: number;
  /** Connections opened after the first (after drops, errors, silence or a gap). */
  reconnects: number;
  /** Events that arrived ahead of a gap and were held back. */
  reordered: number;
  /** Events of another agent message, ignored. */
  foreign: number;
}

/** How a stream finished. */
export interface StreamDone {
  /** `completed`/`aborted`/`error`: the turn's terminal event; `closed`: `close()`; `failed`: gave up. */
  kind: 'completed' | 'aborted' | 'error' | 'closed' | 'failed';
  /** The terminal event; absent when an older-variant snapshot already said the turn was over. */
  event?: AgentEvent;
  /** Why it failed. */
  error?: DenError;
}

/**
 * Events the stream skipped and will never deliver, `from`..`to` (inclusive): a `state.snapshot`
 * stood in for them because the service did not replay them (`snapshot`, with that snapshot's
 * payload), or a replay from `0-0` kept starting later than event 1 (`baseline`). The stored
 * history (`GET /sessions/{id}`) has them.
 */
export interface StreamGap {
  from: number;
  to: number;
  reason: 'snapshot' | 'baseline';
  snapshot?: Record<string, unknown>;
}

/** Receives what a `SessionStream` sees. A listener that throws is logged, never fatal. */
export interface SessionStreamListener {
  /** Each event of the agent message, exactly once, in `event_id` order. */
  onEvent(ev: AgentEvent): void;
  /**
   * A `state.snapshot` payload, as sent: a summary only. The events it covers are still delivered
   * when the service replays them; the ones it does not replay come as an `onGap`.
   */
  onSnapshot?(snapshot: Record<string, unknown>): void;
  /** Events that will never be delivered live (called before the events after them). */
  onGap?(gap: StreamGap): void;
  onState?(state: StreamState, info: StreamStateInfo): void;
  /** A frame that could not be read; `raw` is its text (credentials removed, truncated). */
  onProtocolError?(err: DenError, raw: string): void;
}

/** What a `SessionStream` follows and how patiently. */
export interface SessionStreamOptions {
  /** The service base URL (`http(s)://…`); the socket uses `ws(s)://` on the same host. */
  baseUrl: string;
  /** Read at every connection attempt, so a changed key is picked up on reconnect. */
  apiKey: () => string | undefined;
  sessionId: string;
  /** The agent message to follow; always sent as `message_id`. */
  messageId: string;
  /** `stream_entry_id` to resume after (default `'0-0'`, the start). */
  lastStreamEntryId?: string;
  /**
   * For a message with nothing delivered yet (no `lastStreamEntryId`): the session's last known
   * `stream_entry_id` from before the message started. The first connection resumes there, so the
   * service does not resend the session's earlier messages; if the message's first event does not
   * come after it, the stream starts over from `'0-0'`.
   */
  sessionCursor?: string;
  /** Events with `event_id` ≤ this were delivered before and are skipped. */
  lastEventId?: number;
  /** Proxy tunnel for the socket. */
  agent?: Agent;
  /** No frame for this long means a dead socket: reconnect (default 45,000 ms). */
  idleTimeoutMs?: number;
  /**
   * How often the stream looks whether the machine slept (default 5,000 ms): when the wall clock
   * moved on by `WAKE_JUMP_MS` more than that between two looks, timers were paused (sleep,
   * suspend, a frozen process), the socket is likely dead without knowing it, and the stream
   * reconnects at once from its cursor instead of waiting out the idle timeout.
   */
  wakeCheckMs?: number;
  /** The wall clock for that look (default `Date.now`; tests jump it). */
  wallClock?: () => number;
  /** Reconnect delays, over `STREAM_BACKOFF`. */
  backoff?: Partial<BackoffOptions>;
  /** Failed tries in a row before giving up with state `failed` (default 12). */
  maxConsecutiveFailures?: number;
  /** How long a gap in `event_id`s may stay open before a replay is asked for (default 1000 ms). */
  reorderWindowMs?: number;
  /** Most events held back while waiting for a gap (default 1024). */
  reorderBufferSize?: number;
  logger?: Logger;
  /** Source of jitter, `[0, 1)` (default `Math.random`). */
  random?: () => number;
  /** `/ws/sessions/{id}` (default) or the older `/ws/chat/{id}`. */
  path?: 'sessions' | 'chat';
  /**
   * Optional. When delivered events came without `stream_entry_id`, asked before a reconnect for
   * the stored `stream_entry_id` of event `lastEventId` (e.g. from `GET /sessions/{id}`), so the
   * replay starts there instead of at the last known cursor. Undefined or a rejection: resume
   * from the last known cursor; duplicates are then dropped by `event_id`.
   */
  resolveCursor?: (lastEventId: number) => Promise<string | undefined>;
}
