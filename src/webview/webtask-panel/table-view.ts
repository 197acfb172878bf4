/**
 * The results table, windowed: only the rows in view (and a few around them) are in the DOM, between
 * two spacer rows that keep the scrollbar right, so 10,000 rows or more stay responsive. Columns
 * sort on a click (or Enter / Space on the header) through `sortedIndexes`; the filter box narrows
 * the rows through `rowFilter`. Cells with an issue carry a class per kind, a `title` and hidden
 * words, so the issue is seen, hovered and heard.
 */
import { l10n } from '../../core/shared/l10n';
import { cellText, rowFilter, sortedIndexes, type Table } from '../../core/webtasks/flatten';
import { clear, h } from '../shared/dom';
import { computeWindow, prefixSums } from '../shared/windowing';
import { issueWords, rowsText, type IssueLookup } from './texts';

type Direction = 'asc' | 'desc';

/** Rows rendered beyond the viewport on each side, in px. */
const OVERSCAN_PX = 240;
/** Characters of a cell written into the page (the `title` holds them all). */
const MAX_CELL_CHARS = 300;

const ARIA_SORT: Record<Direction, string> = { asc: 'ascending', desc: 'descending' };
const ARROWS: Record<Direction, string> = { asc: ' ▲', desc: ' ▼' };

export class TableView {
  readonly el: HTMLElement;
  private readonly filter: HTMLInputElement;
  private readonly count: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly tableEl: HTMLTableElement;
  private readonly headRow: HTMLTableRowElement;
  private readonly body: HTMLTableSectionElement;
  private readonly top: HTMLTableRowElement;
  private readonly bottom: HTMLTableRowElement;
  private table: Table = { columns: [], rows: [] };
  private issue: IssueLookup = () => undefined;
  private match: (text: string) => number[] = () => [];
  private sort: { column: string; direction: Direction; indexes: number[] } | undefined;
  /** The shown rows (indexes into `table.rows`), sorted and filtered. */
  private order: number[] = [];
  private offsets: Float64Array = new Float64Array(1);
  private rowHeight = 24;
  private measured = false;
  private frame = 0;
  private shown = { start: -1, end: -1 };

  constructor() {
    this.filter = h('input', {
      id: 'wt-filter',
      attrs: {
        type: 'search',
        placeholder: l10n.t('Filter rows'),
        'aria-label': l10n.t('Filter rows'),
        'aria-controls': 'wt-table',
      },
      on: { input: () => this.apply() },
    });
    this.count = h('span', { id: 'wt-row-count', class: 'wt-note', attrs: { role: 'status' } });
    this.headRow = h('tr', { attrs: { 'aria-rowindex': '1' } });
    const spacer = (): HTMLTableRowElement =>
      h('tr', { class: 'wt-spacer', attrs: { 'aria-hidden': 'true' } }, [h('td')]);
    this.top = spacer();
    this.bottom = spacer();
    this.body = h('tbody', {}, [this.top, this.bottom]);
    this.tableEl = h(
      'table',
      { id: 'wt-table', class: 'wt-table', attrs: { 'aria-label': l10n.t('Results') } },
      [h('thead', {}, [this.headRow]), this.body],
    );
    this.scroller = h(
      'div',
      {
        id: 'wt-table-scroll',
        class: 'wt-table-scroll',
        attrs: { tabindex: '0', role: 'region', 'aria-label': l10n.t('Results table (arrow keys scroll)') },
        on: { keydown: (e) => this.key(e) },
      },
      [this.tableEl],
    );
    this.scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.el = h('div', { class: 'wt-table-wrap' }, [
      h('div', { class: 'wt-row' }, [this.filter, this.count]),
      this.scroller,
    ]);
  }

  /** Shows a new table (sort and filter start afresh). */
  setTable(table: Table, issue: IssueLookup): void {
    this.table = table;
    this.issue = issue;
    this.match = rowFilter(table.rows, table.columns);
    this.sort = undefined;
    this.filter.value = '';
    this.tableEl.style.setProperty('--wt-cols', String(table.columns.length));
    this.header();
    this.scroller.scrollTop = 0;
    this.apply();
  }

  /** The window may have changed size. */
  resized(): void {
    this.schedule();
  }

  private header(): void {
    clear(this.headRow);
    this.headRow.append(
      h('th', { class: 'wt-rownum', text: '#', attrs: { scope: 'col', title: l10n.t('Record number') } }),
    );
    for (const column of this.table.columns) {
      const sorted = this.sort?.column === column ? this.sort.direction : undefined;
      const th = h('th', { attrs: { scope: 'col', 'aria-sort': sorted ? ARIA_SORT[sorted] : 'none' } }, [
        h(
          'button',
          {
            class: 'wt-sort',
            attrs: { type: 'button', title: `Sort by ${column}`, 'data-column': column },
            on: { click: () => this.sortBy(column) },
          },
          // The arrow is for the eye; `aria-sort` says it to screen readers.
          [column, h('span', { text: sorted ? ARROWS[sorted] : '', attrs: { 'aria-hidden': 'true' } })],
        ),
      ]);
      this.headRow.append(th);
    }
  }

  /** Ascending, then descending, then the records' own order. */
  private sortBy(column: string): void {
    const was = this.sort?.column === column ? this.sort.direction : undefined;
    const direction: Direction | undefined = was === undefined ? 'asc' : was === 'asc' ? 'desc' : undefined;
    this.sort = direction
      ? { column, direction, indexes: sortedIndexes(this.table.rows, column, direction) }
      : undefined;
    const hadFocus = this.headRow.contains(document.activeElement);
    this.header();
    // The header was rebuilt: keep the focus on the same column's button.
    if (hadFocus) {
      const i = this.table.columns.indexOf(column);
      this.headRow.querySelectorAll<HTMLButtonElement>('button.wt-sort')[i]?.focus();
    }
    this.apply();
  }

  /** Recomputes the shown rows from the sort and the filter. */
  private apply(): void {
    const matched = this.match(this.filter.value);
    const all = this.table.rows.length;
    if (this.sort) {
      const keep = new Uint8Array(all);
      for (const i of matched) keep[i] = 1;
      this.order = this.sort.indexes.filter((i) => keep[i] === 1);
    } else this.order = matched;
    this.count.textContent =
      this.order.length === all
        ? l10n.t('Showing all {0}', rowsText(all))
        : l10n.t('Showing {0} of {1}', this.order.length.toLocaleString('en-US'), rowsText(all));
    this.tableEl.setAttribute('aria-rowcount', String(this.order.length + 1));
    this.offsets = prefixSums(new Float64Array(this.order.length).fill(this.rowHeight));
    this.shown = { start: -1, end: -1 };
    this.render();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const headHeight = this.headRow.getBoundingClientRect().height;
    const y = Math.max(0, this.scroller.scrollTop - headHeight);
    const viewport = this.scroller.clientHeight;
    const w = computeWindow(this.offsets, y, viewport, OVERSCAN_PX);
    if (w.start === this.shown.start && w.end === this.shown.end) return;
    this.shown = { start: w.start, end: w.end };
    while (this.top.nextSibling && this.top.nextSibling !== this.bottom) this.top.nextSibling.remove();
    const rows = document.createDocumentFragment();
    for (let i = w.start; i < w.end; i++) rows.append(this.row(i));
    if (this.order.length === 0 && this.table.rows.length > 0)
      rows.append(h('tr', {}, [h('td', { class: 'wt-note', text: l10n.t('No rows match the filter.') })]));
    this.top.after(rows);
    this.top.style.height = `${w.top}px`;
    this.bottom.style.height = `${w.bottom}px`;
    this.top.hidden = w.top === 0;
    this.bottom.hidden = w.bottom === 0;
    if (!this.measured && w.end > w.start) this.measure();
    // The spacers can make the scroller taller than it was (up to its max height): fill it.
    if (this.scroller.clientHeight > viewport + 1) this.schedule();
  }

  /** Rows are one line high (CSS); the first rendered row says how high in px. */
  private measure(): void {
    const first = this.top.nextElementSibling;
    if (!(first instanceof HTMLElement) || first === this.bottom) return;
    const hgt = first.getBoundingClientRect().height;
    if (hgt <= 0) return;
    this.measured = true;
    if (Math.abs(hgt - this.rowHeight) < 0.5) return;
    this.rowHeight = hgt;
    this.apply();
  }

  private row(position: number): HTMLTableRowElement {
    const index = this.order[position];
    const record = this.table.rows[index];
    const tr = h('tr', { attrs: { 'aria-rowindex': String(position + 2), 'data-row': String(index) } }, [
      h('th', { class: 'wt-rownum', text: String(index + 1), attrs: { scope: 'row' } }),
    ]);
    for (const column of this.table.columns) {
      const text = cellText(record[column]);
      const td = h('td', { text: text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS)}…` : text });
      const kind = this.issue(index, column);
      if (kind) {
        const word = issueWords()[kind];
        td.className = `wt-issue wt-issue-${kind}`;
        // An empty cell shows its issue's word; a cell with text says it to screen readers only.
        td.append(
          text
            ? h('span', { class: 'visually-hidden', text: ` (${word})` })
            : h('span', { class: 'wt-issue-word', text: word }),
        );
        td.title = text ? `${word}: ${text}` : word;
      } else if (text) td.title = text;
      tr.append(td);
    }
    return tr;
  }

  private key(e: KeyboardEvent): void {
    if (e.target !== this.scroller) return;
    const page = Math.max(this.rowHeight, this.scroller.clientHeight - 2 * this.rowHeight);
    const by: Record<string, number> = {
      ArrowDown: this.rowHeight,
      ArrowUp: -this.rowHeight,
      PageDown: page,
      PageUp: -page,
      Home: -Infinity,
      End: Infinity,
    };
    const delta = by[e.key];
    if (delta === undefined) return;
    e.preventDefault();
    const max = this.scroller.scrollHeight - this.scroller.clientHeight;
    this.scroller.scrollTop = Math.min(max, Math.max(0, this.scroller.scrollTop + delta));
  }
}
