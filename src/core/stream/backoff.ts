/**
 * Reconnect delays: exponential growth from `initialMs` by `factor`, capped at `maxMs`, with a
 * random share of up to `jitter` taken off so that many clients dropped together do not come back
 * in lockstep.
 */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Fraction (0..1) of the delay that may be removed at random. */
  jitter: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = Object.freeze({
  initialMs: 250,
  maxMs: 10_000,
  factor: 2,
  jitter: 0.5,
});

/**
 * The delay before reconnect attempt `attempt` (1 = first retry): `min(maxMs, initialMs *
 * factor^(attempt-1))`, minus up to `jitter` of it. Always within `[0, maxMs]`. `random` returns
 * a number in `[0, 1)` like `Math.random`.
 */
export function backoffDelay(
  attempt: number,
  options: Partial<BackoffOptions> = {},
  random: () => number = Math.random,
): number {
  const o = { ...DEFAULT_BACKOFF, ...options };
  const maxMs = Math.max(0, o.maxMs);
  const n = Math.max(1, Math.floor(attempt));
  // Grow step by step so a huge attempt count cannot overflow to Infinity/NaN before the cap.
  let base = Math.max(0, o.initialMs);
  for (let i = 1; i < n && base < maxMs; i++) base *= Math.max(1, o.factor);
  base = Math.min(base, maxMs);
  const jitter = clamp(o.jitter, 0, 1);
  const r = clamp(random(), 0, 1);
  return Math.round(base * (1 - jitter * r));
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
