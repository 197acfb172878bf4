/** Time for the panel's timers, injectable so tests can run them on a fake clock. No `vscode` import. */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences are used). */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout | undefined),
};
