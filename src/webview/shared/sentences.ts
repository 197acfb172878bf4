/**
 * Turns streamed answer text into sentence-sized pieces for the screen-reader live region: text is
 * buffered until a sentence ends (". ", "! ", "? ", a line break), Markdown punctuation is dropped,
 * and code fences are summarized instead of read out.
 */
import { l10n } from '../../core/shared/l10n';

/** Longest piece held back waiting for a sentence end before it is announced anyway. */
const MAX_PENDING = 400;

export class SentenceChunker {
  private pending = '';
  private inFence = false;

  /** Adds streamed text; returns the complete sentences it finished (maybe none). */
  push(text: string): string[] {
    this.pending += text;
    const out: string[] = [];
    for (;;) {
      const m = /[.!?](?=\s)|\n/.exec(this.pending);
      if (!m) break;
      const end = m.index + m[0].length;
      this.take(this.pending.slice(0, end), out);
      this.pending = this.pending.slice(end);
    }
    while (this.pending.length > MAX_PENDING) {
      const space = this.pending.lastIndexOf(' ', MAX_PENDING);
      const cut = space > 0 ? space + 1 : MAX_PENDING;
      this.take(this.pending.slice(0, cut), out);
      this.pending = this.pending.slice(cut);
    }
    return out;
  }

  /** Whatever is still buffered (the answer ended without a full stop). */
  flush(): string[] {
    const out: string[] = [];
    this.take(this.pending, out);
    this.pending = '';
    this.inFence = false;
    return out;
  }

  private take(raw: string, out: string[]): void {
    if (/^\s*(```|~~~)/.test(raw)) {
      if (!this.inFence) out.push(l10n.t('Code block.'));
      this.inFence = !this.inFence;
      return;
    }
    if (this.inFence) return;
    const s = speakable(raw);
    if (s) out.push(s);
  }
}

/** Markdown text as it should be read: no markers, no link targets. */
export function speakable(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d{1,9}[.)]\s+)/gm, '')
    .replace(/[*_~`|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
