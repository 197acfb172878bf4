/**
 * Every timer the emulator starts goes through here, so `close()` can cancel them all and leave
 * the process free to exit.
 */
export class TimerSet {
  private readonly live = new Set<NodeJS.Timeout | NodeJS.Immediate>();
  private closed = false;

  /** Runs `fn` after `ms` (0 = on the next turn of the event loop). Returns a cancel function. */
  later(ms: number, fn: () => void): () => void {
    if (this.closed) return () => {};
    if (ms <= 0) {
      const h = setImmediate(() => {
        this.live.delete(h);
        fn();
      });
      this.live.add(h);
      return () => {
        clearImmediate(h);
        this.live.delete(h);
      };
    }
    const h = setTimeout(() => {
      this.live.delete(h);
      fn();
    }, ms);
    this.live.add(h);
    return () => {
      clearTimeout(h);
      this.live.delete(h);
    };
  }

  /** A promise resolved after `ms`; never resolves once the set is closed. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(ms, resolve));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  clearAll(): void {
    this.closed = true;
    for (const h of this.live) {
      clearTimeout(h as NodeJS.Timeout);
      clearImmediate(h as NodeJS.Immediate);
    }
    this.live.clear();
  }
}
