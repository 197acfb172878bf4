/**
 * A first `init` short enough to cross VS Code's webview channel quickly: a long session's older
 * texts left out, so the rows in view (the newest, where a shown session opens) paint first; the
 * whole `init` follows at once (`DeltaBatcher`). No `vscode` import.
 *
 * Why: a 10,000-event session's `init` (131 KB) took 120–160 ms from the click to reach the page in
 * code-server against about 60 ms for a 1 KB one, almost all of it in the workbench's transport
 * (docs/benchmarks.md, issue 26).
 */
import type { Block } from '../../core/transcript/model';
import type { TurnView } from '../../protocol/session-panel/view';

/** Texts that a short `init` may shorten. */
type TextBlock = Extract<Block, { type: 'markdown' | 'thought' | 'text' }>;

const isText = (b: Block): b is TextBlock =>
  b.type === 'markdown' || b.type === 'thought' || b.type === 'text';

/** The characters of text the turns carry (texts of answer, thought and text blocks). */
export function textChars(turns: readonly TurnView[]): number {
  let n = 0;
  for (const t of turns) for (const b of t.blocks) if (isText(b)) n += b.text.length;
  return n;
}

/**
 * The turns with at most `budget` characters of text, kept from the end: the newest texts whole, the
 * one that crosses the budget cut to its last paragraphs (at a blank line, so its markdown reads
 * the same), the older ones empty. Undefined when the turns fit as they are.
 */
export function shortTurns(turns: readonly TurnView[], budget: number): TurnView[] | undefined {
  if (textChars(turns) <= budget) return undefined;
  let left = Math.max(0, budget);
  const out: TurnView[] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    const blocks = new Array<Block>(t.blocks.length);
    for (let j = t.blocks.length - 1; j >= 0; j--) {
      const b = t.blocks[j];
      if (!isText(b) || b.text.length <= left) {
        if (isText(b)) left -= b.text.length;
        blocks[j] = b;
        continue;
      }
      blocks[j] = { ...b, text: tail(b.text, left) };
      left = 0;
    }
    out.push({ ...t, blocks });
  }
  return out.reverse();
}

/**
 * The last paragraphs of `text` within `max` characters ('' when not even one fits): cut after a
 * blank line outside any code fence, so what is kept reads as it does in the whole text.
 */
function tail(text: string, max: number): string {
  if (max <= 0) return '';
  let at = text.indexOf('\n\n', text.length - max);
  while (at >= 0 && insideFence(text, at)) at = text.indexOf('\n\n', at + 2);
  return at < 0 ? '' : text.slice(at + 2);
}

/** Whether `at` lies inside a fenced code block (an odd number of fence lines before it). */
function insideFence(text: string, at: number): boolean {
  return (text.slice(0, at).match(/^ {0,3}(```|~~~)/gm)?.length ?? 0) % 2 === 1;
}
