/**
 * The DOM side of Find in a session: a query's matches in the rendered text as DOM ranges, shown as
 * CSS Custom Highlights (`den-find`, and `den-find-current` for the current match) so that the
 * sanitized DOM of agent output is never changed; and the bar's words for a query it cannot run.
 */
import { l10n } from '../../core/shared/l10n';
import type { CompiledQuery, QueryError } from '../../core/search/matcher';

const ALL = 'den-find';
const CURRENT = 'den-find-current';

/** What the bar says of a query it cannot run. */
export function queryErrorText(e: QueryError): string {
  switch (e.code) {
    case 'empty':
      return '';
    case 'invalid-regex':
      return l10n.t('Not a valid regular expression: {0}', e.detail);
    case 'too-long':
      return l10n.t('The search text is too long.');
    case 'too-costly':
      return l10n.t('This pattern could take too long to run (a repeated group or a back-reference).');
  }
}

/** Text nodes under `el` joined, with where each starts. */
function textOf(el: Element): { text: string; nodes: { node: Text; at: number }[] } {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const nodes: { node: Text; at: number }[] = [];
  let text = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    nodes.push({ node: n as Text, at: text.length });
    text += (n as Text).data;
  }
  return { text, nodes };
}

/** DOM ranges of `q`'s matches in the text under `el`. */
export function domRanges(el: Element, q: CompiledQuery): Range[] {
  const { text, nodes } = textOf(el);
  const out: Range[] = [];
  if (!text) return out;
  let i = 0;
  const locate = (offset: number, end: boolean): [Text, number] => {
    while (i < nodes.length - 1 && (end ? nodes[i + 1].at < offset : nodes[i + 1].at <= offset)) i++;
    return [nodes[i].node, offset - nodes[i].at];
  };
  for (const m of q.find(text)) {
    const r = document.createRange();
    r.setStart(...locate(m.start, false));
    r.setEnd(...locate(m.end, true));
    out.push(r);
  }
  return out;
}

interface HighlightRegistry {
  set(name: string, h: unknown): void;
  delete(name: string): void;
}

function registry(): { highlights: HighlightRegistry; make: (ranges: Range[]) => unknown } | undefined {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  const Ctor = (globalThis as { Highlight?: new (...r: Range[]) => unknown }).Highlight;
  if (!css?.highlights || !Ctor) return undefined;
  return { highlights: css.highlights, make: (ranges) => new Ctor(...ranges) };
}

/** Whether this browser shows CSS Custom Highlights (else Find counts and scrolls, unhighlighted). */
export function highlightsSupported(): boolean {
  return registry() !== undefined;
}

/** Shows `all` as the matches and `current` (if shown) as the current one. */
export function setFindHighlights(all: Range[], current: Range | undefined): void {
  const reg = registry();
  if (!reg) return;
  reg.highlights.set(ALL, reg.make(all));
  if (current) reg.highlights.set(CURRENT, reg.make([current]));
  else reg.highlights.delete(CURRENT);
}

/** Removes the find highlights. */
export function clearFindHighlights(): void {
  const reg = registry();
  reg?.highlights.delete(ALL);
  reg?.highlights.delete(CURRENT);
}
