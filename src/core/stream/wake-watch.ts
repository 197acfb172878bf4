/**
 * Notices that timers were paused: the machine slept (or the process was frozen). Node's timers and
 * `performance.now()` stand still while a laptop sleeps on Linux and macOS, so a socket's idle timer
 * would still wait its whole timeout after waking, on a socket the service has likely dropped
 * meanwhile. The wall clock does move on: a look every `intervalMs` that finds it `WAKE_JUMP_MS`
 * further than expected says the machine slept. No `vscode` import.
 */
import { WAKE_JUMP_MS } from './stream-types';

export class WakeWatch {
  readonly #intervalMs: number;
  readonly #wall: () => number;
  readonly #woke: (sleptMs: number) => void;
  #timer: NodeJS.Timeout | undefined;
  #wallAt = 0;

  /** `woke` gets about how long the timers were paused. */
  constructor(intervalMs: number, wall: () => number, woke: (sleptMs: number) => void) {
    this.#intervalMs = Math.max(1, intervalMs);
    this.#wall = wall;
    this.#woke = woke;
  }

  start(): void {
    if (this.#timer) return;
    this.#arm();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    this.#wallAt = this.#wall();
    this.#timer = setTimeout(() => {
      const sleptMs = this.#wall() - this.#wallAt - this.#intervalMs;
      this.#arm();
      if (sleptMs >= WAKE_JUMP_MS) this.#woke(sleptMs);
    }, this.#intervalMs);
  }
}
