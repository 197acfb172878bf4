/**
 * Keeps the session search index (`session-index.ts`) fed: the sessions in the transcript cache,
 * once in the background (only those written since they were indexed), and each session whose
 * transcript changes while Den holds it, debounced per session as the transcript cache debounces
 * its writes. Also fetches sessions stored only on the service, one at a time, for "index the
 * rest". Failures are logged, never thrown at the caller's timers. No `vscode` import.
 */
import type { Transcript } from '../../core/transcript/model';
import { silentLogger, type Logger } from '../../core/shared/log';
import { systemClock, type Clock } from '../shared/clock';
import { indexSessions, type SessionSearchIndex } from './session-index';

/** The transcript cache as the feeder reads it (`TranscriptCache` is one). */
export interface CachedTranscripts {
  list(): Promise<{ sessionId: string; usedAt: number }[]>;
  read(sessionId: string, options: { touch?: boolean }): Promise<Transcript | undefined>;
}

export interface IndexFeederDeps {
  index: SessionSearchIndex;
  /** A session's transcript as Den holds it now (undefined: not held). */
  transcriptOf: (sessionId: string) => Transcript | undefined;
  cache?: CachedTranscripts;
  /** Quiet time before a changed session is indexed again (default 2,000 ms). */
  debounceMs?: number;
  /** Longest a changed session waits while changes keep coming (default 10,000 ms). */
  maxWaitMs?: number;
  clock?: Clock;
  logger?: Logger;
}

interface Pending {
  timer: unknown;
  firstAt: number;
  lastAt: number;
}

export interface FetchHooks {
  cancelled?: () => boolean;
  progress?: (done: number, total: number) => void;
}

export class IndexFeeder {
  readonly #deps: IndexFeederDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #pending = new Map<string, Pending>();
  #disposed = false;

  constructor(deps: IndexFeederDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
    this.#log = deps.logger ?? silentLogger;
    this.#debounceMs = Math.max(0, deps.debounceMs ?? 2_000);
    this.#maxWaitMs = Math.max(this.#debounceMs, deps.maxWaitMs ?? 10_000);
  }

  /** A session's transcript changed: it is indexed again after a quiet time. */
  changed(sessionId: string): void {
    if (this.#disposed) return;
    const now = this.#clock.now();
    const known = this.#pending.get(sessionId);
    if (known) {
      known.lastAt = now;
      return;
    }
    const p: Pending = { timer: undefined, firstAt: now, lastAt: now };
    this.#pending.set(sessionId, p);
    this.#arm(sessionId, p, this.#debounceMs);
  }

  #arm(sessionId: string, p: Pending, delay: number): void {
    p.timer = this.#clock.setTimeout(() => {
      if (this.#pending.get(sessionId) !== p) return;
      const now = this.#clock.now();
      const quiet = now - p.lastAt;
      const waited = now - p.firstAt;
      if (quiet >= this.#debounceMs || waited >= this.#maxWaitMs) void this.#put(sessionId);
      else this.#arm(sessionId, p, Math.min(this.#debounceMs - quiet, this.#maxWaitMs - waited));
    }, delay);
  }

  async #put(sessionId: string): Promise<void> {
    const p = this.#pending.get(sessionId);
    if (p) this.#clock.clearTimeout(p.timer);
    this.#pending.delete(sessionId);
    const t = this.#deps.transcriptOf(sessionId);
    if (!t || t.turns.length === 0) return;
    try {
      await this.#deps.index.putTranscript(t);
    } catch (err) {
      this.#log.warn(`Search index: could not index session ${sessionId}: ${String(err)}`);
    }
  }

  /** Indexes every changed session now (tests, and before a search). */
  async flush(): Promise<void> {
    await Promise.all([...this.#pending.keys()].map((id) => this.#put(id)));
  }

  /**
   * Indexes the cached sessions written since they were indexed (or never indexed), one at a time.
   * Resolves to how many were indexed.
   */
  async indexCache(hooks: FetchHooks = {}): Promise<number> {
    const { cache, index } = this.#deps;
    if (!cache) return 0;
    try {
      await index.open();
      const stale = (await cache.list())
        .filter((c) => (index.usedAt(c.sessionId) ?? -1) < c.usedAt)
        .sort((a, b) => b.usedAt - a.usedAt)
        .map((c) => c.sessionId);
      return await indexSessions(index, stale, (id) => cache.read(id, { touch: false }), {
        cancelled: () => this.#disposed || (hooks.cancelled?.() ?? false),
        progress: hooks.progress,
      });
    } catch (err) {
      this.#log.warn(`Search index: could not index the cached sessions: ${String(err)}`);
      return 0;
    }
  }

  /**
   * Fetches and indexes sessions the index lacks, one at a time (`load` reads one from the
   * service; a failure skips that session and is counted). Resolves to the counts.
   */
  async fetchAndIndex(
    sessionIds: readonly string[],
    load: (sessionId: string) => Promise<Transcript | undefined>,
    hooks: FetchHooks = {},
  ): Promise<{ indexed: number; failed: number }> {
    let failed = 0;
    const indexed = await indexSessions(
      this.#deps.index,
      sessionIds.filter((id) => !this.#deps.index.has(id)),
      async (id) => {
        try {
          return await load(id);
        } catch (err) {
          failed++;
          this.#log.warn(`Search index: could not fetch session ${id}: ${String(err)}`);
          return undefined;
        }
      },
      { cancelled: () => this.#disposed || (hooks.cancelled?.() ?? false), progress: hooks.progress },
    );
    return { indexed, failed };
  }

  /** Stops the timers (what was pending is dropped: it is indexed again from the cache next time). */
  dispose(): void {
    this.#disposed = true;
    for (const p of this.#pending.values()) this.#clock.clearTimeout(p.timer);
    this.#pending.clear();
  }
}
