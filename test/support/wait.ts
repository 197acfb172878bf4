/**
 * The one bounded wait of Den's tests (unit, extension host, e2e and benchmarks alike).
 *
 * `waitFor(what, probe, options?)` calls `probe` (sync or async) until its value counts as arrived,
 * and resolves with that value: by default a truthy value, or whatever `until` accepts (for values
 * that may rightly be falsy, such as `''` or `[]`). A probe that throws ends the wait with its error.
 * `options` may be just the timeout in ms.
 * Between probes it yields for `intervalMs`; that is the polling cadence, not a sleep standing in
 * for something to happen. The timeout is a safety net that turns a hang into a failure naming
 * `what` and the last value seen: never a statement about how fast anything is, so keep it generous.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';

/** How long a wait may run and how often it probes. */
export interface WaitBounds {
  /** The safety net: fail after this long. Default 10 s. */
  timeoutMs?: number;
  /** Pause between probes. Default 10 ms; raise it when a probe is costly (a round trip to a browser). */
  intervalMs?: number;
}

/** A wait whose probe's value counts as arrived when `until` accepts it. */
export interface WaitUntil<T> extends WaitBounds {
  until: (value: T) => boolean;
}

type Falsy = false | 0 | '' | null | undefined;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_INTERVAL_MS = 10;
const SHOWN_CHARS = 600;

/** Resolves with the first value of `probe` that `until` accepts. */
export function waitFor<T>(what: string, probe: () => T | PromiseLike<T>, options: WaitUntil<T>): Promise<T>;
/** Resolves with the first truthy value of `probe`. */
export function waitFor<T>(
  what: string,
  probe: () => T | Falsy | PromiseLike<T | Falsy>,
  options?: WaitBounds | number,
): Promise<T>;
export async function waitFor<T>(
  what: string,
  probe: () => T | PromiseLike<T>,
  options: (WaitBounds & { until?: (value: T) => boolean }) | number = {},
): Promise<T> {
  const {
    until = Boolean,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (until(value)) return value;
    if (Date.now() >= deadline) {
      assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${shown(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A value as a failure message shows it: one line, cut short. */
function shown(value: unknown): string {
  const text = inspect(value, {
    depth: 3,
    breakLength: Infinity,
    maxArrayLength: 20,
    maxStringLength: SHOWN_CHARS,
  });
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}
