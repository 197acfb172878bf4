/** A manual clock for the panel's timers: time moves only with `advance`. */
import type { Clock } from '../../../../src/model/shared/clock';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  private t = 0;
  private nextId = 1;
  private timers: Timer[] = [];

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }

  /** Timers waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward, running every timer due on the way, in order (bounded). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (let guard = 0; guard < 100_000; guard++) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = end;
  }
}

/**
 * A fake clock whose timers run `late(n)` ms after they are due (the n-th timer set, from 0), as a
 * busy event loop runs them, and which runs `defer`red work on `drain()` (the end of the
 * synchronous work that deferred it), or on the next `advance` as a 0 ms timer would.
 */
export class LateClock extends FakeClock {
  #n = 0;
  #deferred: (() => void)[] = [];
  constructor(private readonly late: (n: number) => number = () => 0) {
    super();
  }
  override setTimeout(fn: () => void, ms: number): unknown {
    return super.setTimeout(fn, ms + this.late(this.#n++));
  }
  defer(fn: () => void): void {
    this.#deferred.push(fn);
  }
  /** Runs what was deferred (the microtasks after the current synchronous work). */
  drain(): void {
    const fns = this.#deferred;
    this.#deferred = [];
    for (const fn of fns) fn();
  }
  override advance(ms: number): void {
    this.drain();
    super.advance(ms);
  }
}
