/**
 * JSON as readable fields: an object as a `key: value` list, an array as a numbered list, nested up
 * to {@link MAX_DEPTH} levels (deeper values as compact JSON), long lists and long texts clipped
 * with "more" (remembered in `ctx.expanded`, so nothing is out of reach). Every text is set as text
 * (agent output is untrusted: no markup is ever parsed).
 */
import { l10n } from '../../../core/shared/l10n';
import { h } from '../../shared/dom';
import type { ViewContext } from './context';
import { clippedValue } from './clipped-value';

/** Levels of nesting shown as lists; deeper values are shown as compact JSON. */
export const MAX_DEPTH = 3;
/** Entries of an object or items of an array shown before "more". */
export const MAX_ENTRIES = 20;

function compact(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function scalar(ctx: ViewContext, key: string, v: unknown): HTMLElement {
  if (typeof v === 'string') return clippedValue(ctx, key, v, 'json-text');
  return h('span', { class: `json-${v === null ? 'null' : typeof v}`, text: String(v) });
}

/** A "N more" / "fewer" toggle for a long list, remembered under `key`. */
function moreToggle(ctx: ViewContext, key: string, hidden: number, redraw: () => void): HTMLElement {
  const open = ctx.expanded.has(key);
  return h('button', {
    class: 'more link-button json-more',
    text: open ? l10n.t('fewer') : l10n.t('{0} more', hidden),
    attrs: { type: 'button', 'aria-expanded': String(open) },
    on: {
      click: () => {
        if (ctx.expanded.has(key)) ctx.expanded.delete(key);
        else ctx.expanded.add(key);
        redraw();
      },
    },
  });
}

/**
 * The `ctx.expanded` key that shows the fields under `key` whole: every entry, no text clipped
 * (Find in a session sets it when a match is inside).
 */
export function wholeKey(key: string): string {
  return `whole\u0000${key}`;
}

/** `value` as fields; `key` names it in `ctx.expanded` (each nested value adds its path). */
export function jsonFields(ctx: ViewContext, key: string, value: unknown): HTMLElement {
  return fieldsAt(ctx, key, value, 0, ctx.expanded.has(wholeKey(key)));
}

function fieldsAt(ctx: ViewContext, key: string, value: unknown, depth: number, whole: boolean): HTMLElement {
  if (value === null || typeof value !== 'object') {
    if (whole && typeof value === 'string') return h('span', { class: 'json-text', text: value });
    return scalar(ctx, key, value);
  }
  if (depth >= MAX_DEPTH)
    return whole
      ? h('span', { class: 'json-text json-compact', text: compact(value) })
      : clippedValue(ctx, key, compact(value), 'json-text json-compact');
  const box = h('div', { class: 'json-value' });
  const draw = (): void => {
    box.replaceChildren(list(ctx, key, value, depth, whole, draw));
  };
  draw();
  return box;
}

function list(
  ctx: ViewContext,
  key: string,
  value: object,
  depth: number,
  whole: boolean,
  redraw: () => void,
): HTMLElement {
  const array = Array.isArray(value);
  const entries: [string, unknown][] = array
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value);
  const moreKey = `${key}\u0000more`;
  const all = whole || ctx.expanded.has(moreKey) || entries.length <= MAX_ENTRIES;
  const shown = all ? entries : entries.slice(0, MAX_ENTRIES);
  const items = shown.map(([k, v]) => {
    const inner = fieldsAt(ctx, `${key}\u0000${k}`, v, depth + 1, whole);
    return array
      ? h('li', { class: 'json-item' }, [inner])
      : h('div', { class: 'json-field' }, [h('dt', { class: 'json-key', text: k }), h('dd', {}, [inner])]);
  });
  const el = array
    ? h('ol', { class: 'json-list', attrs: { start: '1' } }, items)
    : h('dl', { class: 'json-fields' }, items);
  if (entries.length === 0) return h('span', { class: 'json-empty', text: array ? '[]' : '{}' });
  if (entries.length <= MAX_ENTRIES || whole) return el;
  return h('div', {}, [el, moreToggle(ctx, moreKey, entries.length - MAX_ENTRIES, redraw)]);
}
