/**
 * The polite ARIA live region: streamed answer text in sentence-sized pieces and turn status changes,
 * at most one update per interval so a screen reader is never flooded token by token.
 */
import { h } from './dom';
import { SentenceChunker } from './sentences';

/** Minimum time between two updates of the live region. */
const INTERVAL_MS = 1200;
/** Longest text kept waiting (older sentences are dropped: the transcript still has them). */
const MAX_QUEUED = 600;

export class Announcer {
  readonly el: HTMLElement;
  private readonly chunker = new SentenceChunker();
  private queue: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = 0;

  constructor() {
    this.el = h('div', {
      id: 'live-region',
      class: 'visually-hidden',
      attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' },
    });
  }

  /** Streamed answer text. */
  answer(text: string): void {
    for (const s of this.chunker.push(text)) this.enqueue(s);
  }

  /** A status change (flushes the answer's unfinished sentence first). */
  status(text: string): void {
    for (const s of this.chunker.flush()) this.enqueue(s);
    this.enqueue(text);
  }

  private enqueue(s: string): void {
    this.queue.push(s);
    let len = this.queue.reduce((n, q) => n + q.length, 0);
    while (len > MAX_QUEUED && this.queue.length > 1) len -= this.queue.shift()!.length;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.last + INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.queue.length === 0) return;
      this.el.textContent = this.queue.join(' ');
      this.queue = [];
      this.last = Date.now();
    }, wait);
  }
}
