/**
 * A value that may be long, clipped with a "more"/"less" toggle remembered in `ctx.expanded`
 * (tool parameters and results, fields of JSON).
 */
import { l10n } from '../../../core/shared/l10n';
import { parseAnsi, type AnsiSegment } from '../ansi';
import { clear, h } from '../../shared/dom';
import type { ViewContext } from './context';

/** Characters of a parameter value (or of the output) shown before "more". */
export const VALUE_CLIP = 300;
const LINE_CLIP = 6;

/** The first `count` characters of styled segments. */
function firstChars(segments: readonly AnsiSegment[], count: number): AnsiSegment[] {
  const out: AnsiSegment[] = [];
  let left = count;
  for (const s of segments) {
    if (left <= 0) break;
    out.push(s.text.length > left ? { ...s, text: s.text.slice(0, left) } : s);
    left -= s.text.length;
  }
  return out;
}

/**
 * A value that may be long: clipped, with a "more"/"less" toggle remembered in `ctx.expanded`.
 * With `ansi`, escape codes are rendered as styles, as in a tool's log (and clipping counts only
 * what shows).
 */
export function clippedValue(
  ctx: ViewContext,
  expandKey: string,
  raw: string,
  className: string,
  ansi = false,
): HTMLElement {
  const segments: AnsiSegment[] = ansi ? parseAnsi(raw) : [{ text: raw, classes: '' }];
  const full = segments.map((s) => s.text).join('');
  const lines = full.split('\n');
  const long = full.length > VALUE_CLIP || lines.length > LINE_CLIP;
  const clipAt = lines.slice(0, LINE_CLIP).join('\n').slice(0, VALUE_CLIP).length;
  const box = h('div', { class: className });
  const body = h('span', { class: 'value-text' });
  box.appendChild(body);
  const render = (): void => {
    const open = ctx.expanded.has(expandKey);
    const shown = !long || open ? segments : firstChars(segments, clipAt);
    clear(body);
    for (const s of shown)
      body.appendChild(
        s.classes ? h('span', { class: s.classes, text: s.text }) : document.createTextNode(s.text),
      );
    if (long && !open) body.appendChild(document.createTextNode('…'));
    more.textContent = open ? l10n.t('less') : l10n.t('more');
    more.setAttribute('aria-expanded', String(open));
  };
  const more = h('button', {
    class: 'more link-button',
    attrs: { type: 'button' },
    on: {
      click: () => {
        if (ctx.expanded.has(expandKey)) ctx.expanded.delete(expandKey);
        else ctx.expanded.add(expandKey);
        render();
      },
    },
  });
  if (long) box.appendChild(more);
  render();
  return box;
}
