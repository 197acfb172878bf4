/**
 * Notices a turn started somewhere else (another window, another machine, the API) in a session
 * shown here. The service pushes nothing for a turn this window did not start (the socket follows
 * one agent message, named by its id), so while a panel shows the session and follows no turn it
 * looks now and then, cheaply: it asks for the first small page of the session list, newest update
 * first, and reads the whole stored history only when the session's `updatedAt` there moved since
 * the history was last read (or the session fell off that page after newer updates, so it may have
 * moved unseen). A new turn found in the history is followed live from its stored cursor, as after
 * a reload. When the list tells nothing usable (no `updatedAt`, not sorted by it, the session not
 * in it, the request failed) the look reads the whole history instead. Looks back off while
 * nothing changes (list looks 5 s → 30 s, whole reads 5 s → 60 s) and start again at 5 s when
 * something changed or the panel is shown or focused again. No request goes out while the panel
 * is hidden, while a turn is followed (it ends with a reconcile anyway), or before the history was
 * loaded once. No `vscode` import.
 */
import type { ListSessionsQuery, Session, SessionPage } from '../../core/client/types';
import type { Logger } from '../../core/shared/log';
import type { Clock } from '../shared/clock';

/** The first interval between two looks (and the one after a change, a show or a focus). */
export const TURN_WATCH_INTERVAL_MS = 5_000;
/** The longest interval between two looks that ask the session list. */
export const TURN_WATCH_MAX_INTERVAL_MS = 30_000;
/** The longest interval between two looks that read the whole history (the list tells nothing). */
export const TURN_WATCH_FALLBACK_MAX_MS = 60_000;
/** The page of the session list a look asks for: small, the most recently updated first. */
export const TURN_WATCH_QUERY: ListSessionsQuery = { page: 1, limit: 10, sort: 'updatedAt', order: 'desc' };

/** What a whole read of the history found: a new turn (merged and followed), none, or it did not read. */
export type WatchRead = 'new' | 'none' | 'not-read';

/** The session the watch looks after (the turns' side of its host). */
export interface WatchedSession {
  /** Whether the session is shown: the looks go on while it is (and stop while it is hidden). */
  readonly shown: boolean;
  /** Whether a look is worth it now: loaded once, nothing followed, nothing being sent or loaded. */
  readonly idle: boolean;
  /** One page of the session list (`GET /sessions`). */
  listSessions(query: ListSessionsQuery): Promise<SessionPage>;
  /** Reads the stored history and merges a turn not shown yet (`HistoryLoader.refresh`). */
  readHistory(): Promise<WatchRead>;
}

export interface TurnWatchDeps {
  sessionId: string;
  clock: Clock;
  logger: Logger;
  /** The first interval (tests); the longest ones keep their ratio to it. */
  intervalMs?: number;
}

/** What the watch did so far (tests, diagnostics). */
export interface TurnWatchStats {
  /** Looks that asked the session list. */
  looks: number;
  /** Whole reads of the stored history. */
  reads: number;
  /** The time left before the next look, while one is armed. */
  nextInMs?: number;
}

/** What a look learned from the list: nothing moved, the session moved (to `at`), or nothing usable. */
type ListAnswer = { kind: 'same' } | { kind: 'moved'; at: number } | { kind: 'unusable'; sticky: boolean };

export class TurnWatch {
  readonly #session: WatchedSession;
  readonly #deps: TurnWatchDeps;
  readonly #minMs: number;
  readonly #listMaxMs: number;
  readonly #readMaxMs: number;
  #delayMs: number;
  #timer: unknown;
  #wasShown = false;
  /** A look is under way: the next one is armed when it ends, with the interval it chose. */
  #looking = false;
  /** The session's `updatedAt` up to which the history read covers what the watch looks for. */
  #seen: number | undefined;
  /** The list said nothing usable for this session; until shown again, looks read the history. */
  #listUseless = false;
  /** Shows and focuses so far: a look that ends after one keeps the first interval. */
  #resets = 0;
  #stats = { looks: 0, reads: 0 };
  /** When the armed look is due (`clock.now()` scale). */
  #dueAt: number | undefined;
  #disposed = false;

  constructor(session: WatchedSession, deps: TurnWatchDeps) {
    this.#session = session;
    this.#deps = deps;
    this.#minMs = Math.max(1, deps.intervalMs ?? TURN_WATCH_INTERVAL_MS);
    this.#listMaxMs = (this.#minMs * TURN_WATCH_MAX_INTERVAL_MS) / TURN_WATCH_INTERVAL_MS;
    this.#readMaxMs = (this.#minMs * TURN_WATCH_FALLBACK_MAX_MS) / TURN_WATCH_INTERVAL_MS;
    this.#delayMs = this.#minMs;
  }

  get stats(): TurnWatchStats {
    const s: TurnWatchStats = { ...this.#stats };
    if (this.#dueAt !== undefined) s.nextInMs = this.#dueAt - this.#deps.clock.now();
    return s;
  }

  /**
   * The stored history was read and every turn in it merged (a load, or a look's read): its
   * `updatedAt` is what the next looks compare the list with.
   */
  historyRead(updatedAt: number): void {
    this.#seen = updatedAt;
  }

  /** Arms the next look when the session is shown and none is armed; disarms it when hidden. */
  update(): void {
    if (this.#disposed) return;
    const wanted = this.#session.shown;
    if (wanted && !this.#wasShown) this.#reset();
    this.#wasShown = wanted;
    if (wanted && this.#timer === undefined && !this.#looking) this.#arm();
    else if (!wanted && this.#timer !== undefined) this.#disarm();
  }

  /** The person looks at the panel again (focused): the next look comes after the first interval. */
  again(): void {
    if (this.#disposed) return;
    this.#reset();
    if (this.#timer === undefined) return;
    this.#disarm();
    this.update();
  }

  dispose(): void {
    this.#disposed = true;
    this.#disarm();
  }

  #reset(): void {
    this.#resets++;
    this.#delayMs = this.#minMs;
    this.#listUseless = false;
  }

  #arm(): void {
    const { clock } = this.#deps;
    this.#dueAt = clock.now() + this.#delayMs;
    this.#timer = clock.setTimeout(() => {
      this.#timer = undefined;
      this.#dueAt = undefined;
      if (this.#disposed) return;
      if (!this.#session.idle) {
        // A turn followed or a load under way: things change; look soon after they settle.
        this.#delayMs = this.#minMs;
        this.update();
        return;
      }
      this.#looking = true;
      this.#look()
        .catch((err: unknown) => this.#deps.logger.debug(`turn watch: ${String(err)}`))
        .finally(() => {
          this.#looking = false;
          this.update();
        });
    }, this.#delayMs);
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dueAt = undefined;
  }

  /** One look; then the interval before the next (unless the panel was shown or focused meanwhile). */
  async #look(): Promise<void> {
    const resets = this.#resets;
    const next = await this.#lookOnce();
    if (resets === this.#resets) this.#delayMs = next;
  }

  async #lookOnce(): Promise<number> {
    const answer: ListAnswer = this.#listUseless ? { kind: 'unusable', sticky: true } : await this.#ask();
    if (answer.kind === 'same' || this.#disposed) return Math.min(this.#delayMs * 2, this.#listMaxMs);
    if (answer.kind === 'unusable') this.#listUseless ||= answer.sticky;
    this.#stats.reads++;
    const found = await this.#session.readHistory();
    const backOff = Math.min(this.#delayMs * 2, this.#readMaxMs);
    if (found === 'not-read') return backOff;
    if (answer.kind === 'moved') {
      this.#seen = answer.at;
      return this.#minMs;
    }
    return found === 'new' ? this.#minMs : backOff;
  }

  /** Asks the first page of the list what moved. */
  async #ask(): Promise<ListAnswer> {
    const { sessionId, logger } = this.#deps;
    this.#stats.looks++;
    let page: SessionPage;
    try {
      page = await this.#session.listSessions(TURN_WATCH_QUERY);
    } catch (err) {
      logger.debug(`Session ${sessionId}: the session list failed (${String(err)}); reading the history`);
      return { kind: 'unusable', sticky: false };
    }
    const list = page.sessions;
    // Without an `updatedAt`, `normalizeSession` puts the creation time there: it tells nothing.
    const dated = (s: Session): boolean => s.updatedAt > 0 && s.updatedAt !== s.createdAt;
    const sorted = list.every((s, i) => i === 0 || s.updatedAt <= list[i - 1].updatedAt);
    const mine = list.find((s) => s.sessionId === sessionId);
    if (mine) {
      if (!sorted || !dated(mine)) {
        logger.debug(`Session ${sessionId}: the session list has no usable updatedAt; reading the history`);
        return { kind: 'unusable', sticky: true };
      }
      return mine.updatedAt === this.#seen ? { kind: 'same' } : { kind: 'moved', at: mine.updatedAt };
    }
    const oldest = list.at(-1);
    const limit = TURN_WATCH_QUERY.limit ?? list.length;
    // A short page is the whole list, and the session is not in it: nothing to compare.
    if (!oldest || list.length < limit || !sorted || !dated(oldest))
      return { kind: 'unusable', sticky: false };
    // Sorted newest first: the session, not on the page, was updated at or before its oldest entry.
    if (this.#seen !== undefined && oldest.updatedAt <= this.#seen) return { kind: 'same' };
    return { kind: 'moved', at: oldest.updatedAt };
  }
}
