import { l10n } from '../shared/l10n';
import { performance } from 'node:perf_hooks';
import type { RawData } from 'ws';
import { DenError, MISSING_KEY, redact } from '../client/errors';
import type { AgentEvent, TurnFile } from '../client/types';
import { redactingLogger, silentLogger, type Logger } from '../shared/log';
import { backoffDelay, delayWithRetryAfter, type BackoffOptions } from '../shared/backoff';
import { frameText, parseFrame, terminalKind, terminalPhase } from './frames';
import { Sequencer, START_CURSOR, type ExpireResult } from './sequencer';
import { StreamConnection } from './stream-connection';
import { streamUrl } from './stream-url';
import type {
  SessionStreamListener,
  SessionStreamOptions,
  StreamDone,
  StreamGap,
  StreamState,
  StreamStateInfo,
  StreamStats,
} from './stream-types';
import { STREAM_BACKOFF } from './stream-types';
import { WakeWatch } from './wake-watch';

export type * from './stream-types';

const MAX_OUTBOX = 256;
const MAX_RAW = 4096;

type Phase = 'idle' | 'running' | 'finished';

/**
 * Follows one agent message over `/ws/sessions/{id}` and hands each of its events to the listener
 * exactly once, in `event_id` order, across drops, silence, duplicates, reordering and garbage.
 * Reconnects resume from the `stream_entry_id` of the last delivered event. A terminal event, a
 * refused key or `close()` ends it; `done` says how.
 */
export class SessionStream {
  /** Resolves once, when the stream is over; never rejects. */
  readonly done: Promise<StreamDone>;

  readonly #opts: SessionStreamOptions;
  readonly #listener: SessionStreamListener;
  readonly #log: Logger;
  readonly #seq: Sequencer;
  readonly #backoff: BackoffOptions;
  readonly #idleMs: number;
  readonly #maxFailures: number;
  readonly #wake: WakeWatch;
  readonly #counters: StreamStats = {
    framesReceived: 0,
    duplicates: 0,
    malformed: 0,
    reconnects: 0,
    reordered: 0,
    foreign: 0,
  };
  #phase: Phase = 'idle';
  #conn: StreamConnection | undefined;
  #connections = 0;
  #failures = 0;
  #connFrames = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #gapTimer: NodeJS.Timeout | undefined;
  #outbox: string[] = [];
  /** The last `state.snapshot`: what stands in for events that are not replayed. */
  #snapshot: { payload: Record<string, unknown>; end?: 'completed' | 'aborted' | 'error' } | undefined;
  /** The stream began at `0-0` (not at a cursor the caller gave). */
  readonly #fromStart: boolean;
  #resolveDone!: (d: StreamDone) => void;

  constructor(options: SessionStreamOptions, listener: SessionStreamListener) {
    this.#opts = options;
    this.#listener = listener;
    this.#log = redactingLogger(options.logger ?? silentLogger, () => [options.apiKey()]);
    const hint = !options.lastStreamEntryId && options.sessionCursor ? options.sessionCursor : undefined;
    this.#fromStart = !options.lastStreamEntryId && !hint;
    this.#seq = new Sequencer({
      lastEventId: options.lastEventId,
      cursor: options.lastStreamEntryId || hint || START_CURSOR,
      cursorIsHint: hint !== undefined,
      windowMs: options.reorderWindowMs ?? 1000,
      maxBuffered: options.reorderBufferSize ?? 1024,
    });
    this.#backoff = { ...STREAM_BACKOFF, ...options.backoff };
    this.#idleMs = Math.max(1, options.idleTimeoutMs ?? 45_000);
    this.#maxFailures = Math.max(1, options.maxConsecutiveFailures ?? 12);
    this.#wake = new WakeWatch(options.wakeCheckMs ?? 5_000, options.wallClock ?? Date.now, (ms) =>
      this.#woke(ms),
    );
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  /** `stream_entry_id` to resume from: the last delivered event's, or the starting cursor. */
  get cursor(): string {
    return this.#seq.cursor;
  }

  /** `event_id` of the last delivered event (0 when none). */
  get lastEventId(): number {
    return this.#seq.lastEventId;
  }

  get stats(): Readonly<StreamStats> {
    return { ...this.#counters };
  }

  /** Opens the first connection. Calling it again does nothing. */
  start(): void {
    if (this.#phase !== 'idle') return;
    this.#phase = 'running';
    this.#wake.start();
    this.#connect();
  }

  /** Stops everything now: the socket, every timer, every callback after `closed`. */
  close(): void {
    if (this.#phase === 'finished') return;
    this.#finish({ kind: 'closed' }, 'closed', { attempt: this.#failures });
  }

  /** Asks the service to stop the turn (`{"type":"stop"}`). Returns false once the stream is over. */
  sendStop(): boolean {
    return this.#send({ type: 'stop' });
  }

  /** Queues a follow-up message for the running task, with files shaped as in a turn request. */
  sendMessage(text: string, files?: TurnFile[]): boolean {
    return this.#send({ type: 'message', text, files: files ?? [] });
  }

  /** Retracts the last queued message. */
  sendRetract(): boolean {
    return this.#send({ type: 'retract' });
  }

  /** Tells the service about files the user edited. */
  sendFileEdits(files: { path: string; content: string }[]): boolean {
    return this.#send({ type: 'file_edits', files });
  }

  /** Frames go out now when the socket is open, otherwise as soon as the next one opens. */
  #send(frame: Record<string, unknown>): boolean {
    if (this.#phase === 'finished') {
      this.#log.debug(`stream: dropped a ${String(frame.type)} frame, the stream is over`);
      return false;
    }
    const text = JSON.stringify(frame);
    if (!this.#conn?.send(text)) {
      if (this.#outbox.length >= MAX_OUTBOX) this.#outbox.shift();
      this.#outbox.push(text);
    }
    return true;
  }

  #connect(): void {
    if (this.#phase !== 'running') return;
    const resolve = this.#opts.resolveCursor;
    if (resolve && this.#seq.cursorBehind) {
      // Delivered events came without stream_entry_id: learn the last one's from the stored
      // history, so the replay starts there instead of repeating everything since the cursor.
      const last = this.#seq.lastEventId;
      resolve(last)
        .then((cursor) => {
          if (cursor) this.#seq.resumeAt(last, cursor);
        })
        .catch((err: unknown) => {
          const msg = err instanceof Error ? err.message : String(err);
          this.#log.debug(`stream: could not look up the cursor of event ${last}: ${msg}`);
        })
        .finally(() => this.#open());
      return;
    }
    this.#open();
  }

  #open(): void {
    if (this.#phase !== 'running') return;
    const key = this.#opts.apiKey();
    let url: string;
    try {
      if (!key)
        throw new DenError({
          code: 'config',
          message: l10n.t('No API key is set: set one to follow live sessions'),
          details: MISSING_KEY,
        });
      url = streamUrl({
        baseUrl: this.#opts.baseUrl,
        path: this.#opts.path,
        sessionId: this.#opts.sessionId,
        token: key,
        messageId: this.#opts.messageId,
        cursor: this.#seq.cursor,
      });
    } catch (err) {
      this.#fail(err instanceof DenError ? err : new DenError({ code: 'config', message: String(err) }));
      return;
    }
    if (this.#connections++ > 0) this.#counters.reconnects++;
    this.#seq.beginConnection();
    this.#connFrames = 0;
    this.#log.debug(`stream: connecting to ${redact(url, key)} (try ${this.#failures + 1})`);
    this.#emitState('connecting', { attempt: this.#failures + 1 });
    if (this.#phase !== 'running') return;
    const conn: StreamConnection = new StreamConnection(
      url,
      { agent: this.#opts.agent, idleMs: this.#idleMs, secret: key },
      {
        open: () => {
          this.#log.debug(`stream: open at cursor ${this.#seq.cursor}`);
          this.#emitState('open', { attempt: this.#failures + 1 });
          if (this.#conn !== conn) return;
          const pending = this.#outbox;
          this.#outbox = [];
          for (const text of pending) conn.send(text);
        },
        frame: (data, isBinary, now) => this.#onFrame(data, isBinary, now),
        lost: (error) => {
          if (this.#conn === conn) this.#lost(error);
        },
      },
    );
    this.#conn = conn;
  }

  #onFrame(data: RawData, isBinary: boolean, now: number): void {
    this.#counters.framesReceived++;
    if (this.#connFrames++ === 0) this.#failures = 0;
    if (isBinary) {
      this.#malformed('binary frame', '<binary frame>');
      return;
    }
    const text = frameText(data);
    const frame = parseFrame(text);
    switch (frame.type) {
      case 'ack':
        this.#log.debug(`stream: ack, resuming from ${frame.resumeFrom ?? '(not said)'}`);
        return;
      case 'snapshot': {
        this.#safely('onSnapshot', () => this.#listener.onSnapshot?.(frame.payload));
        if (this.#phase !== 'running') return;
        const end = terminalPhase(frame.phase);
        this.#snapshot = end ? { payload: frame.payload, end } : { payload: frame.payload };
        // A snapshot counts nothing as delivered: what the service replays after it is.
        this.#seq.applySnapshot(frame.lastEventId, frame.lastStreamEntryId, now, !!end);
        // A finished turn whose events were all delivered but whose end is only in the snapshot.
        const covered = frame.lastEventId !== undefined && this.#seq.lastEventId >= frame.lastEventId;
        if (end && covered) {
          this.#finish({ kind: end }, 'ended', { attempt: this.#failures });
          return;
        }
        this.#armGap();
        return;
      }
      case 'malformed':
        this.#malformed(frame.reason, text);
        return;
      case 'event':
        this.#onEventFrame(frame.event, now);
        return;
    }
  }

  #onEventFrame(ev: AgentEvent, now: number): void {
    if (ev.message_id !== undefined && ev.message_id !== this.#opts.messageId) {
      this.#counters.foreign++;
      this.#seq.passForeign(ev.stream_entry_id);
      return;
    }
    // The next event with nothing held back (a healthy stream): straight to the listener.
    if (this.#seq.pushNext(ev, now)) {
      this.#deliverOne(ev);
      return;
    }
    const r = this.#seq.push(ev, now);
    switch (r.outcome) {
      case 'duplicate':
        this.#counters.duplicates++;
        return;
      case 'buffered':
        this.#counters.reordered++;
        this.#armGap();
        return;
      case 'overflow':
        this.#log.info(
          `stream: too many events ahead of a gap after ${this.#seq.lastEventId}; asking for a replay`,
        );
        this.#resync();
        return;
      case 'delivered':
        this.#deliver(r.ready);
        return;
    }
  }

  #deliver(events: AgentEvent[]): void {
    for (const ev of events) if (!this.#deliverOne(ev)) return;
  }

  /** Hands one event to the listener; false once the stream is over (its end, or closed). */
  #deliverOne(ev: AgentEvent): boolean {
    if (this.#phase !== 'running') return false;
    // Inline rather than through #safely: this runs once per event, and a closure per event shows.
    try {
      this.#listener.onEvent(ev);
    } catch (err) {
      this.#listenerThrew('onEvent', err);
    }
    const end = terminalKind(ev.kind);
    if (end && this.#phase === 'running') {
      this.#finish({ kind: end, event: ev }, 'ended', { attempt: this.#failures });
      return false;
    }
    return true;
  }

  #malformed(reason: string, raw: string): void {
    this.#counters.malformed++;
    const clean = redact(raw.length > MAX_RAW ? raw.slice(0, MAX_RAW) : raw, this.#opts.apiKey());
    const err = new DenError({
      code: 'protocol',
      message: `Skipped an unreadable frame on the live stream (${reason})`, // l10n-ignore: only logged (the follower asks for a replay)
    });
    this.#log.debug(`stream: ${err.message}`);
    this.#safely('onProtocolError', () => this.#listener.onProtocolError?.(err, clean));
  }

  /** The socket is gone (refused, closed, errored or silent) without a terminal event. */
  #lost(error: DenError): void {
    this.#drop();
    if (this.#phase !== 'running') return;
    if (error.status !== undefined && !error.retryable) {
      this.#fail(error, this.#failures + 1);
      return;
    }
    if (this.#connFrames > 0) this.#seq.answeredWithoutEvents();
    // Held events and a finished turn's snapshot wait for a decision; the connection's end is one.
    const closed = error.details?.closeCode === 1000;
    this.#judge(this.#seq.expire(performance.now(), true, closed));
    if (this.#phase !== 'running') return;
    this.#retry(error);
  }

  /** Acts on a gap's verdict. A `resync` is left to the caller (a lost connection retries anyway). */
  #judge(r: ExpireResult): 'resync' | undefined {
    switch (r.action) {
      case 'none':
        return undefined;
      case 'resync':
        return 'resync';
      case 'baseline':
        this.#log.info(`stream: taking event ${r.to + 1} as the first one`);
        if (this.#fromStart && r.from <= r.to) this.#gap({ from: r.from, to: r.to, reason: 'baseline' });
        this.#deliver(r.ready);
        return undefined;
      case 'snapshot': {
        const snap = this.#snapshot;
        this.#log.info(`stream: events ${r.from} to ${r.to} were not replayed; the snapshot stands for them`);
        if (r.from <= r.to)
          this.#gap(
            snap
              ? { from: r.from, to: r.to, reason: 'snapshot', snapshot: snap.payload }
              : { from: r.from, to: r.to, reason: 'snapshot' },
          );
        this.#deliver(r.ready);
        const end = snap?.end;
        if (end && this.#phase === 'running' && r.ready.length === 0)
          this.#finish({ kind: end }, 'ended', { attempt: this.#failures });
        return undefined;
      }
    }
  }

  #gap(g: StreamGap): void {
    this.#safely('onGap', () => this.#listener.onGap?.(g));
  }

  #retry(error: DenError): void {
    this.#failures++;
    if (this.#failures >= this.#maxFailures) {
      this.#log.warn(`stream: giving up after ${this.#failures} failed tries`);
      this.#fail(error);
      return;
    }
    const delayMs = delayWithRetryAfter(
      backoffDelay(this.#failures, this.#backoff, this.#opts.random),
      error.retryAfter,
    );
    this.#log.info(`stream: ${error.message}; reconnecting in ${delayMs} ms`);
    this.#emitState('reconnecting', { attempt: this.#failures + 1, delayMs, error });
    this.#schedule(delayMs);
  }

  /** A gap did not fill or overflowed: reconnect now from the cursor, without counting a failure. */
  #resync(): void {
    this.#drop();
    this.#emitState('reconnecting', { attempt: this.#failures + 1, delayMs: 0 });
    this.#schedule(0);
  }

  #schedule(delayMs: number): void {
    if (this.#phase !== 'running') return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#connect();
    }, delayMs);
  }

  /**
   * Timers were paused for `sleptMs` (the machine slept): the socket may be half-open (the service
   * dropped it meanwhile and the close never arrived), so it is replaced now, resuming from the
   * cursor; a reconnect that was waiting goes now. Not counted as a failure.
   */
  #woke(sleptMs: number): void {
    if (this.#phase !== 'running') return;
    this.#log.info(
      `stream: timers were paused for about ${Math.round(sleptMs / 1000)} s (the machine slept?); reconnecting from ${this.#seq.cursor}`,
    );
    const error = new DenError({
      code: 'network',
      message: l10n.t(
        'Den was paused for {0} s (the computer slept); catching up with the turn.',
        Math.round(sleptMs / 1000),
      ),
      details: { sleptMs },
    });
    this.#drop();
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#failures = 0;
    this.#emitState('reconnecting', { attempt: 1, delayMs: 0, error });
    this.#schedule(0);
  }

  #armGap(): void {
    const deadline = this.#seq.gapDeadline;
    if (this.#gapTimer || deadline === undefined) return;
    this.#gapTimer = setTimeout(
      () => {
        this.#gapTimer = undefined;
        if (!this.#conn || this.#phase !== 'running') return;
        const now = performance.now();
        const due = this.#seq.gapDeadline;
        if (due === undefined) return;
        if (now < due) {
          this.#armGap();
          return;
        }
        if (this.#judge(this.#seq.expire(now)) === 'resync') {
          this.#log.info(
            `stream: event ${this.#seq.lastEventId + 1} did not arrive in time; asking for a replay`,
          );
          this.#resync();
        } else if (this.#phase === 'running') this.#armGap();
      },
      Math.max(0, deadline - performance.now()),
    );
  }

  /** Forgets the current connection (no more of its callbacks) and the gap timer. */
  #drop(graceful = false): void {
    clearTimeout(this.#gapTimer);
    this.#gapTimer = undefined;
    const conn = this.#conn;
    this.#conn = undefined;
    conn?.close(graceful);
  }

  #finish(done: StreamDone, state: StreamState, info: StreamStateInfo): void {
    if (this.#phase === 'finished') return;
    this.#phase = 'finished';
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#wake.stop();
    this.#outbox = [];
    // After the turn's end a polite close; the service may close first, or never answer.
    this.#drop(state === 'ended');
    if (done.error) this.#log.warn(`stream: ${done.error.message}`);
    else this.#log.debug(`stream: ${state}`);
    this.#emitState(state, info);
    this.#resolveDone(done);
  }

  #fail(error: DenError, attempt = this.#failures): void {
    this.#finish({ kind: 'failed', error }, 'failed', { attempt, error });
  }

  #emitState(state: StreamState, info: StreamStateInfo): void {
    this.#safely('onState', () => this.#listener.onState?.(state, info));
  }

  #safely(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#listenerThrew(what, err);
    }
  }

  #listenerThrew(what: string, err: unknown): void {
    const msg = err instanceof Error ? err.message : String(err);
    this.#log.error(`stream: the ${what} listener threw: ${msg}`);
  }
}
