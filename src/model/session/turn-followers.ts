/**
 * The live streams of one session's open turns: one `SessionStream` per agent message, resumed from
 * what the transcript already holds, and the connection state they add up to. No `vscode` import.
 */
import type { Agent } from 'node:http';
import { isProxyOrCertificateError } from '../../core/client/http-errors';
import type { AgentEvent } from '../../core/client/types';
import type { Logger } from '../../core/shared/log';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { Turn } from '../../core/transcript/model';
import { SessionStream } from '../../core/stream/session-stream';
import type {
  SessionStreamOptions,
  StreamDone,
  StreamGap,
  StreamState,
  StreamStateInfo,
} from '../../core/stream/stream-types';
import type { ConnectionView } from '../../protocol/session-panel/messages';

/** Where and how to open sockets (read at each `follow`). */
export interface FollowTarget {
  baseUrl: string;
  apiKey: () => string | undefined;
  agent?: Agent;
}

export interface TurnFollowersOptions {
  sessionId: string;
  /** Throws (a `config` DenError) when Den is not signed in. */
  target: () => FollowTarget;
  logger: Logger;
  /** Extra stream options (tests: backoff, timeouts). */
  streamOptions?: Partial<SessionStreamOptions>;
}

/** Who hears what the followed streams bring (the turns' side of a session's host). */
export interface FollowerListener {
  /** The stored `stream_entry_id` of an event, for streams whose live frames lack it. */
  resolveCursor(messageId: string, lastEventId: number): Promise<string | undefined>;
  event(messageId: string, ev: AgentEvent): void;
  /** A `state.snapshot` payload (a summary; the events it covers still come unless a gap says not). */
  snapshot(messageId: string, snapshot: Record<string, unknown>): void;
  /** Events the stream will never deliver (a snapshot may stand for them). */
  gap(messageId: string, gap: StreamGap): void;
  /** A frame that could not be read arrived. */
  malformed(messageId: string): void;
  /** The stream of a turn ended (not called after `close`/`closeAll`). */
  done(messageId: string, done: StreamDone): void;
  /** The aggregate connection view may have changed. */
  stateChanged(): void;
}

interface Follower {
  stream: SessionStream;
  state: StreamState;
  info: StreamStateInfo;
  /** Set when the stream reconnected because the machine slept: what the live state then says. */
  woke?: string;
}

/** How long timers were paused, when the stream reconnects because the machine slept. */
function sleptMs(info: StreamStateInfo): number | undefined {
  const ms = info.error?.details?.sleptMs;
  return typeof ms === 'number' ? ms : undefined;
}

/** Tries of one reconnect cycle after which a network failure reads as "offline". */
const OFFLINE_AFTER = 3;

export class TurnFollowers {
  readonly #opts: TurnFollowersOptions;
  readonly #listener: FollowerListener;
  readonly #followers = new Map<string, Follower>();

  constructor(options: TurnFollowersOptions, listener: FollowerListener) {
    this.#opts = options;
    this.#listener = listener;
  }

  has(messageId: string): boolean {
    return this.#followers.has(messageId);
  }

  get size(): number {
    return this.#followers.size;
  }

  ids(): string[] {
    return [...this.#followers.keys()];
  }

  stream(messageId: string): SessionStream | undefined {
    return this.#followers.get(messageId)?.stream;
  }

  /**
   * Follows a turn from where it stands (its `lastStreamEntryId`/`lastEventId`); a turn with no
   * cursor of its own from `sessionCursor`, the session's last known position before it started.
   * Does nothing for a turn without an id or already followed. Throws when there is no service to
   * follow it on.
   */
  follow(turn: Turn, sessionCursor?: string): void {
    const id = turn.agentMessageId;
    if (!id || this.#followers.has(id)) return;
    const target = this.#opts.target();
    const options: SessionStreamOptions = {
      ...this.#opts.streamOptions,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      sessionId: this.#opts.sessionId,
      messageId: id,
      lastEventId: turn.lastEventId,
      resolveCursor: (last) => this.#listener.resolveCursor(id, last),
      logger: this.#opts.logger,
    };
    if (turn.lastStreamEntryId) options.lastStreamEntryId = turn.lastStreamEntryId;
    else if (sessionCursor) options.sessionCursor = sessionCursor;
    if (target.agent) options.agent = target.agent;
    const follower = { state: 'connecting', info: { attempt: 1 } } as Follower;
    const stream = new SessionStream(options, {
      onEvent: (ev) => this.#listener.event(id, ev),
      onSnapshot: (s) => this.#listener.snapshot(id, s),
      onGap: (g) => this.#listener.gap(id, g),
      onProtocolError: () => this.#listener.malformed(id),
      onState: (state, info) => {
        if (this.#followers.get(id) !== follower) return;
        follower.state = state;
        follower.info = info;
        const slept = sleptMs(info);
        if (slept !== undefined)
          follower.woke = l10n.t(
            'Caught up after the computer slept ({0} s without a connection).',
            formatCount(Math.round(slept / 1000)),
          );
        this.#listener.stateChanged();
      },
    });
    follower.stream = stream;
    this.#followers.set(id, follower);
    void stream.done.then((done) => {
      if (this.#followers.get(id) !== follower) return;
      this.#followers.delete(id);
      if (done.kind !== 'closed') this.#listener.done(id, done);
      this.#listener.stateChanged();
    });
    stream.start();
  }

  /** Stops following one turn (no `onDone`). */
  close(messageId: string): void {
    const f = this.#followers.get(messageId);
    if (!f) return;
    this.#followers.delete(messageId);
    f.stream.close();
  }

  closeAll(): void {
    for (const id of [...this.#followers.keys()]) this.close(id);
  }

  /** What the streams add up to; undefined when none is open. */
  view(): ConnectionView | undefined {
    if (this.#followers.size === 0) return undefined;
    let best: ConnectionView | undefined;
    let rank = -1;
    for (const f of this.#followers.values()) {
      const [r, v] = describe(f);
      if (r > rank) {
        rank = r;
        best = v;
      }
    }
    return best;
  }
}

/** A stream's state as the panel shows it, ranked: the most worrying one is shown. */
function describe(f: Follower): [number, ConnectionView] {
  const { state, info } = f;
  switch (state) {
    case 'reconnecting': {
      if (sleptMs(info) !== undefined && info.error)
        return [3, { state: 'reconnecting', message: info.error.message }];
      const s =
        info.delayMs !== undefined ? formatCount(Math.max(1, Math.ceil(info.delayMs / 1000))) : undefined;
      // A proxy or a certificate in the way: its own words say which setting to change.
      if (info.error && isProxyOrCertificateError(info.error)) {
        const why = info.error.message.replace(/[.\s]*$/, '');
        const message = s ? l10n.t('{0}. Retrying in {1} s.', why, s) : `${why}.`;
        return [4, { state: 'offline', message }];
      }
      if (info.error?.fault === 'network' && info.attempt >= OFFLINE_AFTER) {
        const message = s
          ? l10n.t('Den cannot reach the service. Retrying in {0} s.', s)
          : l10n.t('Den cannot reach the service.');
        return [4, { state: 'offline', message }];
      }
      const message = s
        ? l10n.t('Connection lost; reconnecting. Retrying in {0} s.', s)
        : l10n.t('Connection lost; reconnecting.');
      return [3, { state: 'reconnecting', message }];
    }
    case 'connecting':
      return info.attempt > 1
        ? [
            3,
            { state: 'reconnecting', message: l10n.t('Reconnecting (try {0}).', formatCount(info.attempt)) },
          ]
        : [2, { state: 'loading' }];
    case 'open':
      return [1, f.woke ? { state: 'live', message: f.woke } : { state: 'live' }];
    default:
      return [0, { state: 'idle' }];
  }
}
