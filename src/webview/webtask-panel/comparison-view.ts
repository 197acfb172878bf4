/**
 * Compare with Previous Run: the counts against the earlier run (or why there is none), then the
 * added, removed and changed records, each list bounded ("and N more").
 */
import { l10n } from '../../core/shared/l10n';
import { cellText, flattenRecord, type Cell } from '../../core/webtasks/flatten';
import type { WebTaskComparisonView } from '../../protocol/webtask-panel/webtask-messages';
import { clear, h } from '../shared/dom';
import { section } from './parts';
import { bounded, comparisonHeadline } from './texts';

/** Records listed per kind, at most. */
const MAX_LISTED = 200;
/** Characters of a record or value written into the page (the `title` holds more). */
const MAX_TEXT = 160;

const clip = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** A value as clipped text, with the whole text in the title. */
function value(text: string, cls: string): HTMLElement {
  return h('span', { class: cls, text: clip(text) || l10n.t('(empty)'), attrs: { title: text } });
}

/** A changed cell: absent, null and empty text say which they are. */
function cell(c: Cell, cls: string): HTMLElement {
  if (c === undefined || c === null)
    return h('span', { class: `${cls} wt-absent`, text: c === null ? 'null' : l10n.t('(missing)') });
  return value(cellText(c), cls);
}

export class ComparisonView {
  readonly el: HTMLElement;
  private readonly headline: HTMLElement;
  private readonly lists: HTMLElement;

  constructor() {
    this.headline = h('p', { id: 'wt-comparison-headline' });
    this.lists = h('div', { class: 'wt-diff' });
    this.el = section('wt-comparison', l10n.t('Comparison with the previous run'), [
      this.headline,
      this.lists,
    ]);
  }

  /** The comparison shown (null: none); returns its headline, to announce. */
  set(c: WebTaskComparisonView | null): string {
    this.el.hidden = !c;
    clear(this.lists);
    if (!c) return '';
    const headline = comparisonHeadline(c);
    this.headline.textContent = headline;
    if (!c.previous) return headline;
    const keyOf = (r: Record<string, unknown>): string | undefined =>
      c.keyField !== undefined ? cellText(flattenRecord(r)[c.keyField]) : undefined;
    const record = (r: Record<string, unknown>): HTMLElement => {
      const key = keyOf(r);
      return h('li', {}, [
        ...(key !== undefined ? [h('strong', { text: clip(key) }), ' '] : []),
        value(JSON.stringify(r), 'wt-record'),
      ]);
    };
    this.list('added', l10n.t('Added'), c.added, record);
    this.list('removed', l10n.t('Removed'), c.removed, record);
    this.list('changed', l10n.t('Changed'), c.changed, (ch) => {
      const before = flattenRecord(ch.before);
      const after = flattenRecord(ch.after);
      return h('li', {}, [
        h('strong', { text: clip(ch.key) }),
        l10n.t(' changed {0}', ch.fields.join(', ')),
        h(
          'ul',
          {},
          ch.fields.map((f) =>
            h('li', {}, [
              h('code', { text: f }),
              ': ',
              cell(before[f], 'wt-before'),
              ' → ',
              cell(after[f], 'wt-after'),
            ]),
          ),
        ),
      ]);
    });
    return headline;
  }

  private list<T>(kind: string, title: string, items: readonly T[], item: (x: T) => HTMLElement): void {
    if (items.length === 0) return;
    const { shown, more } = bounded(items, MAX_LISTED);
    const ul = h('ul', { id: `wt-${kind}`, class: `wt-diff-${kind}` }, shown.map(item));
    if (more > 0)
      ul.append(h('li', { class: 'wt-note', text: l10n.t('and {0} more', more.toLocaleString('en-US')) }));
    this.lists.append(h('h3', { text: `${title} (${items.length.toLocaleString('en-US')})` }), ul);
  }
}
