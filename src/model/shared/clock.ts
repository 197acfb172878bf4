/** Time for the panel's timers, injectable so tests can run them on a fake clock. No `vscode` import. */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences are used). */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * Runs `fn` once the current synchronous work is done, before any timer or I/O (a microtask).
   * Optional: without it, a 0 ms timeout stands in (a fake clock runs it on its next `advance`).
   */
  defer?(fn: () => void): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout | undefined),
  defer: (fn) => queueMicrotask(fn),
};
