/**
 * Public option and control types of the local emulator of the Agent Session Service.
 * `index.ts` re-exports them; see /tmp/emu-contract.md and shared/spec/service-behaviour.md.
 */
import type { AgentEvent, FileInfo, Mode } from '../../src/core/client/types';

/** How the emulator starts. Every field is optional. */
export interface EmulatorOptions {
  /** Default 0 (ephemeral). The emulator always binds 127.0.0.1. */
  port?: number;
  /** Default true: sample sessions with realistic completed history for the primary user. */
  seed?: boolean;
  /** Extra generated sessions for the primary user (paging tests, e.g. 1000 or 10000). */
  extraSessions?: number;
  /**
   * `legacy`: list key `chats` + ids `chatId`; detail `chat` instead of `session`; agent messages with
   * `blocks` + `status` instead of `events`; `assistant_message_id` instead of `agent_message_id`;
   * the socket sends a `state.snapshot` frame after the ack.
   */
  variant?: 'current' | 'legacy';
  /**
   * Default true; false: WebSocket event frames (live and replayed) omit `stream_entry_id`; stored
   * events (`GET /sessions/{id}`) keep it.
   */
  liveStreamEntryIds?: boolean;
  /** Default true; false (with `liveStreamEntryIds: false`): replayed stored events omit it too. */
  replayStreamEntryIds?: boolean;
  /**
   * Send a `state.snapshot` frame after the ack. Default: on for `legacy`, off for `current` (the
   * documentation names the frame for the older variant; services of either shape may send it).
   */
  stateSnapshot?: boolean;
  /**
   * What follows a snapshot. `before` (default, as the service does): the replay from the client's
   * cursor, so it repeats events the snapshot already summarizes. `after`: only events past the
   * snapshot's `last_event_id` (the summary stands in for the rest).
   */
  snapshotReplay?: 'before' | 'after';
  /**
   * Which stored events a connection replays after its cursor. `session` (default, as the service
   * does): the session's whole stream, every agent message's events in stream order, each frame
   * with its own `message_id` (so `0-0` in a long session resends all of it). `message`: only the
   * followed message's.
   */
  replayScope?: 'session' | 'message';
  /** Default true: the server closes the socket (1000) after a turn's terminal event. */
  closeAfterTerminal?: boolean;
  /** Pause between scripted events, default 2 ms (0 = as fast as the event loop allows). */
  eventDelayMs?: number;
  /** Per-user running turns before 429 (default 3); sent as `X-Rate-Limit-Max-Concurrent`. */
  maxConcurrent?: number;
  /** How generated files can be fetched (default `template`: `GET /media/{key}` with Bearer). */
  downloads?: 'template' | 'absolute-url' | 'none';
  /** Fixed keys to use instead of the built-in ones (all `sk_live_…`). */
  keys?: Partial<EmulatorKeys>;
  /**
   * Each `/lam/run` also creates a session with the run's `sessionId` in the caller's list (default
   * false), so a client can open the session a web task links to.
   */
  lamSessions?: boolean;
  /**
   * Default true; false: `GET /sessions` entries carry no `updatedAt` (a service whose list does not
   * say when a session changed; it still sorts by it, and `GET /sessions/{id}` still has it).
   */
  listUpdatedAt?: boolean;
  /** Serve HTTPS (and WSS) with this PEM key and certificate instead of plain HTTP. */
  tls?: { key: string; cert: string };
}

/** The three API keys the emulator accepts. */
export interface EmulatorKeys {
  primary: string;
  second: string;
  /** The primary user's data, GET only (403 on writes). */
  readOnly: string;
}

/** Faults applied to traffic; mutable at any time through `emulator.faults`. */
export interface FaultPlan {
  /** Destroy the TCP socket (no close frame) after every N event frames sent on one connection. */
  dropAfterFrames?: number;
  /** 0..1: probability an event frame is sent twice. */
  duplicateRate?: number;
  /** 0..1: probability two adjacent event frames are swapped. */
  reorderRate?: number;
  /** 0..1: probability a connection is cut right after its `state.snapshot` frame (before any event). */
  dropAfterSnapshot?: number;
  /** 0..1: probability a garbage frame (not JSON / JSON without event fields) is inserted. */
  malformedRate?: number;
  /** Delay before every HTTP response. */
  latencyMs?: number;
  /** HTTP JSON responses: send about half the body, then destroy the socket. */
  truncateBodies?: boolean;
  /** RNG seed for the rates above (deterministic). */
  seed?: number;
}

/** One injected HTTP failure, matched against the next requests. */
export interface HttpFaultRule {
  method?: string;
  /** A regular-expression source matched against the URL path. */
  path: string;
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
  /** How many matching requests fail (default 1). */
  times?: number;
}

/** One socket connection the emulator accepted, counted while it lives. */
export interface SocketRecord {
  sessionId: string;
  /** The followed agent message. */
  messageId: string;
  /** The `last_stream_entry_id` the client asked for (`0-0` when absent). */
  lastStreamEntryId: string;
  /** Event frames written (replayed and live, every message's, a duplicate counting twice). */
  eventFrames: number;
  /** Of those, frames of other agent messages than the followed one. */
  foreignFrames: number;
  /** Whether a `state.snapshot` frame was sent. */
  snapshot: boolean;
}

/** A running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`); the WebSocket URL is the same host with the `ws`/`wss` scheme. */
  readonly url: string;
  readonly keys: EmulatorKeys;
  faults: FaultPlan;
  failNext(rule: HttpFaultRule): void;
  /**
   * HTTP requests received (headers read) and not answered yet, e.g. held by `latencyMs`; lets a
   * test act once a request has surely reached the server.
   */
  readonly requestsInFlight: number;
  /** The HTTP requests received so far (method, path and query; the last 10 000), upgrades too. */
  requests(): { method: string; url: string }[];
  /** The server's stored events of one agent message, in order. */
  storedEvents(sessionId: string, agentMessageId: string): AgentEvent[];
  /**
   * Records a completed turn in a session at once (created for the primary user when missing), with
   * stored events as the scripted turn of `task` would emit them, before any live event's position.
   */
  seedTurn(sessionId: string, task: string, mode?: Mode): { agentMessageId: string; events: number };
  /**
   * Stores a file in a session's `fileSnapshot` and media as a turn's write would (any bytes, e.g.
   * an image), without an event; the session must exist.
   */
  putGeneratedFile(sessionId: string, path: string, content: string | Uint8Array): FileInfo;
  /** Every socket connection so far, oldest first (live objects: counts grow while they stream). */
  sockets(): SocketRecord[];
  /**
   * The client's machine went to sleep: every open socket connection goes silent without a close
   * (half-open; the turns go on and are stored); connections opened later work. Returns how many.
   */
  silenceSockets(): number;
  /** `/lam/run` request bodies as received (passcode included), oldest first, the last 100. */
  lamRequests(): Record<string, unknown>[];
  /** Resolves when the turn has emitted its terminal event. */
  turnEnded(sessionId: string, agentMessageId: string): Promise<void>;
  /**
   * A restart of the service: stops listening (connections are refused) and cuts every connection
   * at once, while the turns under way go on running; listens again on the same port once
   * `refuseForMs` has passed (the emulator's own timer) and every turn has ended, so it comes back
   * with the turns finished. Resolves when it is back (or closed meanwhile).
   */
  outage(refuseForMs: number): Promise<void>;
  /** Whether an `outage` is refusing connections now. */
  readonly refusing: boolean;
  /** Stops the server, destroys every socket, cancels running turns' timers. */
  close(): Promise<void>;
}
