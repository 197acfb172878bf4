/**
 * When to bring a followed turn in line with the service's stored history (`GET /sessions/{id}`):
 * at the turn's end, and soon after the live path saw a snapshot, a gap it could not fill or an
 * unreadable frame. Requests are coalesced into one fetch at a time; a turn that ended while the
 * stored copy lags behind what was shown is tried again a few times. No `vscode` import.
 */
import type { SessionDetail } from '../../core/client/types';
import { backoffDelay, type BackoffOptions } from '../../core/shared/backoff';
import type { Logger } from '../../core/shared/log';
import type { Clock } from '../shared/clock';

/** Why a turn is reconciled. */
export type ReconcileReason = 'end' | 'snapshot' | 'gap' | 'malformed';

/** What applying the stored copy to one turn came to. */
export type ReconcileOutcome =
  /** The turn shows the stored events now. */
  | 'applied'
  /** The stored copy has fewer events than the turn shows: kept as it is. */
  | 'behind'
  /** The stored copy has no events of the turn (not there yet, or a variant that stores none). */
  | 'missing';

/** What the reconciler works on: the stored history, and the transcript it brings in line with it. */
export interface ReconcileTarget {
  /** Fetches the session's stored history. */
  fetchStored(): Promise<SessionDetail>;
  /** Brings one turn in line with `detail` (`SessionTranscript.reconcileWith`). */
  reconcileWith(detail: SessionDetail, messageId: string): ReconcileOutcome;
}

export interface ReconcilerOptions {
  clock: Clock;
  logger: Logger;
  /** How long requests during a turn wait, so a burst of them costs one fetch (default 250 ms). */
  delayMs?: number;
  /** Fetches for an ended turn whose stored copy lags or could not be read (default 4). */
  maxTries?: number;
}

/** Counters for diagnostics and tests. */
export interface ReconcileStats {
  /** Requests by reason. */
  requested: Record<ReconcileReason, number>;
  fetches: number;
  applied: number;
}

interface Pending {
  /** The turn ended: worth trying again when the stored copy lags. */
  ended: boolean;
  tries: number;
}

export class Reconciler {
  readonly #target: ReconcileTarget;
  readonly #opts: ReconcilerOptions;
  readonly #delayMs: number;
  /** A turn that ended but is not stored yet is tried again after 2×, 4×, … the delay (no jitter). */
  readonly #retryBackoff: BackoffOptions;
  readonly #maxTries: number;
  #pending = new Map<string, Pending>();
  #timer: unknown;
  #dueAt = Number.POSITIVE_INFINITY;
  #running = false;
  #disposed = false;
  #waiters: (() => void)[] = [];
  readonly #counters: ReconcileStats = {
    requested: { end: 0, snapshot: 0, gap: 0, malformed: 0 },
    fetches: 0,
    applied: 0,
  };

  constructor(target: ReconcileTarget, options: ReconcilerOptions) {
    this.#target = target;
    this.#opts = options;
    this.#delayMs = Math.max(0, options.delayMs ?? 250);
    this.#retryBackoff = { initialMs: this.#delayMs, factor: 2, maxMs: Number.MAX_SAFE_INTEGER, jitter: 0 };
    this.#maxTries = Math.max(1, options.maxTries ?? 4);
  }

  get stats(): ReconcileStats {
    return { ...this.#counters, requested: { ...this.#counters.requested } };
  }

  /** Asks for one turn to be reconciled: at once when it ended, else after a short delay. */
  request(messageId: string, reason: ReconcileReason): void {
    if (this.#disposed) return;
    this.#counters.requested[reason]++;
    const ended = reason === 'end';
    const p = this.#pending.get(messageId);
    if (p) p.ended ||= ended;
    else this.#pending.set(messageId, { ended, tries: 0 });
    this.#opts.logger.debug(`Reconciling turn ${messageId} with the stored history (${reason})`);
    this.#schedule(ended ? 0 : this.#delayMs);
  }

  /** Resolves once nothing is pending, scheduled or being fetched. */
  settled(): Promise<void> {
    if (this.#idle()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  dispose(): void {
    this.#disposed = true;
    this.#pending.clear();
    this.#cancel();
    this.#wake();
  }

  #idle(): boolean {
    return this.#pending.size === 0 && !this.#running && this.#timer === undefined;
  }

  #schedule(delayMs: number): void {
    if (this.#disposed || this.#running) return;
    const at = this.#opts.clock.now() + delayMs;
    if (this.#timer !== undefined && at >= this.#dueAt) return;
    this.#cancel();
    this.#dueAt = at;
    this.#timer = this.#opts.clock.setTimeout(() => {
      this.#timer = undefined;
      this.#dueAt = Number.POSITIVE_INFINITY;
      void this.#run();
    }, delayMs);
  }

  #cancel(): void {
    if (this.#timer === undefined) return;
    this.#opts.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dueAt = Number.POSITIVE_INFINITY;
  }

  async #run(): Promise<void> {
    if (this.#disposed || this.#pending.size === 0) return this.#wake();
    this.#running = true;
    const batch = this.#pending;
    this.#pending = new Map();
    let detail: SessionDetail | undefined;
    try {
      this.#counters.fetches++;
      detail = await this.#target.fetchStored();
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      this.#opts.logger.debug(`Could not read the stored history to reconcile: ${msg}`);
    }
    let retry = 0;
    for (const [id, p] of batch) {
      if (this.#disposed) break;
      const outcome = detail ? this.#target.reconcileWith(detail, id) : 'missing';
      const again = this.#pending.get(id);
      if (outcome === 'applied') this.#counters.applied++;
      else if (again) again.ended ||= p.ended;
      else if (p.ended && p.tries + 1 < this.#maxTries) {
        this.#pending.set(id, { ended: true, tries: p.tries + 1 });
        retry = Math.max(retry, backoffDelay(p.tries + 2, this.#retryBackoff));
      }
    }
    this.#running = false;
    const endedMeanwhile = [...this.#pending.values()].some((x) => x.ended && x.tries === 0);
    if (this.#pending.size === 0) this.#wake();
    else this.#schedule(endedMeanwhile ? 0 : retry || this.#delayMs);
  }

  #wake(): void {
    if (!this.#idle()) return;
    const w = this.#waiters;
    this.#waiters = [];
    for (const resolve of w) resolve();
  }
}
