/**
 * The one reconnect/retry delay of Den: exponential growth from `initialMs` by `factor`, capped
 * at `maxMs`, with a random share of up to `jitter` taken off so that many clients dropped together
 * do not come back in lockstep. Used by the session stream's reconnect, the HTTP client's retry,
 * the Sessions list's retry and the reconciler's retry, each with its own options. No `vscode` import.
 */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Fraction (0..1) of the delay that may be removed at random (1 = "full jitter"). */
  jitter: number;
}

/** setTimeout fires at once past 2^31-1 ms: no delay is longer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The delay before retry `attempt` (1 = first retry): `min(maxMs, initialMs * factor^(attempt-1))`,
 * minus up to `jitter` of it, rounded down. Always within `[0, maxMs]`. `random` returns a number
 * in `[0, 1)` like `Math.random`: 0 keeps the whole delay, values towards 1 take off the most.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const maxMs = clamp(options.maxMs, 0, MAX_TIMER_MS);
  const factor = Math.max(1, options.factor);
  const n = Math.max(1, Math.floor(attempt));
  // Grow step by step so a huge attempt count cannot overflow to Infinity/NaN before the cap.
  let base = Math.max(0, options.initialMs);
  for (let i = 1; i < n && base > 0 && base < maxMs && factor > 1; i++) base *= factor;
  base = Math.min(base, maxMs);
  const jitter = clamp(options.jitter, 0, 1);
  const r = clamp(random(), 0, 1);
  return Math.floor(base * (1 - jitter * r));
}

/**
 * The delay to use when the server said how long to wait (`Retry-After`, in seconds): never
 * shorter than the server asked, never shorter than the backoff.
 */
export function delayWithRetryAfter(backoffMs: number, retryAfterSeconds: number | undefined): number {
  if (retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds) || retryAfterSeconds <= 0) {
    return backoffMs;
  }
  return Math.max(backoffMs, Math.round(retryAfterSeconds * 1000));
}

function clamp(x: number, lo: number, hi: number): number {
  if (Number.isNaN(x)) return lo;
  return Math.min(hi, Math.max(lo, x));
}
