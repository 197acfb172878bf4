import { backoffDelay } from '../shared/backoff';
import { DenError } from './errors';
import { isConnectRefused } from './http-errors';

/** How idempotent requests are repeated. */
export interface RetryPolicy {
  /** Extra attempts after the first (0 = never retry). */
  retries: number;
  /** First backoff step; doubles each attempt. */
  baseDelayMs: number;
  /** Ceiling of one backoff step. */
  maxDelayMs: number;
  /** A 429 whose retry-after exceeds this is surfaced instead of waited out. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

/**
 * Full-jitter exponential backoff for retry `attempt` (0 = the first retry): a random delay in
 * [0, min(max, base·2^attempt)). The shared `backoffDelay` takes its random share off the top; this
 * draw has always counted up from 0, so it is handed over mirrored (same spread, same values).
 */
export function retryBackoff(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  return backoffDelay(
    attempt + 1,
    { initialMs: policy.baseDelayMs, maxMs: policy.maxDelayMs, factor: 2, jitter: 1 },
    () => 1 - random(),
  );
}

/**
 * The wait before retrying after `err`, or undefined when the error must surface.
 * `idempotent` requests retry on network failures, timeouts, 5xx, truncated bodies and 429s with
 * a bounded retry-after; any request retries when the connection was refused, since then nothing
 * reached the service (this is the only retry a turn start ever gets).
 */
export function retryDelay(
  err: DenError,
  attempt: number,
  policy: RetryPolicy,
  idempotent: boolean,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (isConnectRefused(err.cause)) return retryBackoff(attempt, policy, random);
  if (!idempotent) return undefined;
  switch (err.code) {
    case 'network':
    case 'timeout':
    case 'server':
      return retryBackoff(attempt, policy, random);
    case 'protocol':
      return err.details?.truncated === true ? retryBackoff(attempt, policy, random) : undefined;
    case 'rate_limited': {
      if (err.retryAfter === undefined) return Math.max(retryBackoff(attempt, policy, random), 1_000);
      const ms = err.retryAfter * 1000;
      return ms <= (policy.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs ?? 0) ? ms : undefined;
    }
    default:
      return undefined;
  }
}

/** Waits `ms`, rejecting with `onAbort()` as soon as `signal` fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort());
      return;
    }
    const done = (): void => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
