/**
 * The transcript, windowed: only rows near the viewport are in the DOM, between two spacers whose
 * heights (measured rows, estimates for the others) keep the scrollbar right. Follows the bottom while
 * streaming until the person scrolls up ("Jump to latest" brings it back). Scroll anchoring is done
 * by hand, so rows changing height above the viewport never make the text jump.
 *
 * A scroll costs little per frame: the scroll handler mounts the window's rows in one pass (their
 * estimated heights) and the ResizeObserver measures them once the frame is laid out, before it is
 * painted; the rows it then finds mounted are kept while they cover the viewport and half the
 * overscan (no second wave of rows for an estimate a few pixels off); rows leaving the DOM lend
 * their elements to the next rows of their kind (`RowPool`).
 */
import { l10n } from '../../core/shared/l10n';
import { h } from '../shared/dom';
import { advanceSections, newSectionState, type SectionState } from './markdown-sections';
import type { RowView, ViewContext } from './render/context';
import { RowPool } from './render/row-view';
import {
  buildRows,
  estimateRowHeight,
  groupOpenKey,
  toolOpenKey,
  type Metrics,
  type Row,
} from './render/rows';
import { blockKey, type StoreChanges } from './state';
import { computeWindow, prefixSums, rowAt } from '../shared/windowing';

/** A scroll position that survives rows above it changing height: a row's key and the pixels of it above the viewport. */
export interface Anchor {
  key: string;
  delta: number;
}

export class TranscriptView {
  readonly el: HTMLElement;
  readonly jump: HTMLButtonElement;
  private readonly list: HTMLElement;
  private readonly top: HTMLElement;
  private readonly bottom: HTMLElement;
  private readonly ctx: ViewContext;
  private rows: Row[] = [];
  private rowIndex = new Map<string, number>();
  private heights = new Map<string, number>();
  private estimates = new Map<string, number>();
  private sizes: Float64Array = new Float64Array(0);
  private offsets: Float64Array = new Float64Array(1);
  private mounted = new Map<string, { row: Row; view: RowView }>();
  /** The rows [start, end) in the DOM (undefined after a rebuild, until the next layout). */
  private range: { start: number; end: number } | undefined;
  /**
   * Mounted rows not measured since they were mounted or re-rendered: a layout measures only these
   * (each measure forces the browser's layout); the ResizeObserver reports any later change.
   */
  private unmeasured = new Set<string>();
  private keyOf = new WeakMap<Element, string>();
  private sections = new Map<string, SectionState>();
  private userTexts = new Map<string, string>();
  private following = true;
  /** A saved position whose row has not come yet (`restoreAnchor`). */
  private awaited: Anchor | undefined;
  /** Blocks in the transcript when the view stopped following (undefined: following). */
  private blocksWhenLeft: number | undefined;
  private blockCount = 0;
  /** The row key of each grouped tool call (`b\0…`) → its group's row key (`g\0…`). */
  private groupOfRow = new Map<string, string>();
  private expectedTop = 0;
  private metrics: Metrics = { lineHeight: 20, charsPerLine: 80 };
  private readonly ro: ResizeObserver | undefined;
  /** Views of rows that left the DOM, reused for the next rows of their kind. */
  private readonly pool: RowPool;

  /** Called when the scroll position changes (undefined: following the bottom). */
  onScroll: (scrollTop: number | undefined) => void = () => undefined;
  /** Called after every layout (rows may have entered the DOM or been re-rendered): Find's highlights. */
  onLayout: () => void = () => undefined;

  constructor(ctx: Omit<ViewContext, 'sectionText' | 'redraw' | 'regroup'>) {
    this.ctx = {
      ...ctx,
      sectionText: (t, b, p) => this.sectionText(t, b, p),
      redraw: (turnId) => this.redrawStatus(turnId),
      regroup: () => this.regroup(),
    };
    this.pool = new RowPool(this.ctx);
    this.top = h('div', { class: 'spacer', attrs: { 'aria-hidden': 'true' } });
    this.bottom = h('div', { class: 'spacer', attrs: { 'aria-hidden': 'true' } });
    this.list = h('div', { class: 'rows' });
    this.el = h(
      'main',
      { id: 'transcript', class: 'transcript', attrs: { tabindex: '0', 'aria-label': l10n.t('Transcript') } },
      [this.top, this.list, this.bottom],
    );
    this.jump = h('button', {
      id: 'jump-to-latest',
      class: 'jump-to-latest',
      text: l10n.t('Jump to latest ↓'),
      attrs: { type: 'button' },
      on: { click: () => this.jumpToLatest() },
    });
    this.jump.hidden = true;
    this.el.addEventListener('scroll', () => this.scrolled(), { passive: true });
    this.el.addEventListener('wheel', (e) => e.deltaY < 0 && this.stopFollowing(), { passive: true });
    this.el.addEventListener('keydown', (e) => {
      if (['PageUp', 'ArrowUp', 'Home'].includes(e.key)) this.stopFollowing();
    });
    if (typeof ResizeObserver !== 'undefined') {
      this.ro = new ResizeObserver((entries) => {
        let changed = false;
        for (const e of entries) {
          const key = this.keyOf.get(e.target);
          if (key === undefined || !this.mounted.has(key)) continue;
          this.unmeasured.delete(key);
          const hgt = e.borderBoxSize?.[0]?.blockSize ?? e.target.getBoundingClientRect().height;
          if (Math.abs((this.heights.get(key) ?? -1) - hgt) > 0.5) {
            this.heights.set(key, hgt);
            const i = this.rowIndex.get(key);
            if (i !== undefined && hgt > 0) this.sizes[i] = hgt;
            changed = true;
          }
        }
        // Heights the estimates got wrong move the window's edges a little: the rows already
        // mounted are kept while they still cover the viewport and half the overscan.
        if (changed) this.layout(this.anchor(), undefined, true, true);
      });
    }
  }

  /** Redraws a turn's status line where it is in the DOM (its answer box changed). */
  private redrawStatus(turnId: string): void {
    const key = `s\u0000${turnId}`;
    const row = this.mounted.get(key);
    if (!row) return;
    this.estimates.delete(key);
    const anchor = this.anchor();
    row.view.update();
    this.unmeasured.add(key);
    this.refreshSizes();
    this.layout(anchor);
  }

  /** Rebuilds the rows after a group of tool calls opened or closed, keeping the view where it was. */
  regroup(): void {
    const anchor = this.anchor();
    this.rebuild();
    this.layout(anchor);
  }

  /**
   * The row that shows a tool call's row (`b\0…`): itself, or while its group is closed the group's
   * row, or with `open` the call's own row after opening its group. Other keys come back as given.
   */
  rowShowing(rowKey: string, open: boolean): string {
    if (this.rowIndex.has(rowKey)) return rowKey;
    const group = this.groupOfRow.get(rowKey);
    if (group === undefined) return rowKey;
    if (!open) return group;
    this.ctx.expanded.add(groupOpenKey(group));
    this.regroup();
    return this.rowIndex.has(rowKey) ? rowKey : group;
  }

  /** The row key of the group a tool call's row (`b\0…`) belongs to, open or closed. */
  groupOf(rowKey: string): string | undefined {
    return this.groupOfRow.get(rowKey);
  }

  /** Applies what changed in the store, then re-windows. */
  update(c: StoreChanges): void {
    const anchor = this.anchor();
    const dirty = new Set<string>();
    let rebuild = c.structure || c.reset;
    if (c.reset) {
      for (const key of [...this.mounted.keys()]) this.unmount(key);
      this.pool.clear();
      this.sections.clear();
      this.heights.clear();
      this.estimates.clear();
      this.userTexts.clear();
      this.measureMetrics();
    }
    const store = this.ctx.store;
    const markdownChanged = (key: string, replaced: boolean): void => {
      const [turnId, blockId] = splitKey(key);
      const b = store.block(turnId, blockId);
      if (b?.type !== 'markdown') return;
      let st = this.sections.get(key);
      const before = st?.cuts.length ?? 0;
      if (!st || replaced) {
        st = newSectionState();
        this.sections.set(key, st);
      }
      advanceSections(st, b.text);
      if (replaced || st.cuts.length !== before) rebuild = true;
      const from = replaced ? 0 : Math.max(0, before - 1);
      for (let p = from; p <= st.cuts.length; p++) dirty.add(`m\u0000${key}\u0000${p}`);
    };
    for (const key of c.blocks) {
      const b = store.block(...splitKey(key));
      if (b?.type === 'markdown') markdownChanged(key, true);
      else dirty.add(`b\u0000${key}`);
    }
    for (const key of c.appended) {
      if (c.blocks.has(key)) continue;
      const b = store.block(...splitKey(key));
      if (b?.type === 'markdown') markdownChanged(key, false);
      else dirty.add(`b\u0000${key}`);
    }
    for (const id of c.turns) {
      dirty.add(`u\u0000${id}`);
      dirty.add(`s\u0000${id}`);
      // a tool card shows whether its turn still runs (see ToolCardView)
      for (const b of store.turn(id)?.blocks ?? []) {
        if (b.type === 'tool' && b.status === 'running') dirty.add(`b\u0000${blockKey(id, b.id)}`);
      }
      const text = store.turn(id)?.header.userMessage.text ?? '';
      if (this.userTexts.get(id) !== text) rebuild = true;
      this.userTexts.set(id, text);
    }
    for (const id of c.plans) dirty.add(`p\u0000${id}`);
    for (const id of c.files) dirty.add(`f\u0000${id}`);
    if (rebuild) this.rebuild();
    // A group's line adds up its calls: it follows them.
    for (const key of [...dirty]) {
      const g = this.groupOfRow.get(key);
      if (g) dirty.add(g);
    }
    for (const a of c.logAppends) {
      const g = this.groupOfRow.get(`b\u0000${a.key}`);
      if (g) dirty.add(g);
    }
    for (const key of dirty) {
      this.estimates.delete(key);
      const m = this.mounted.get(key);
      if (!m) continue;
      m.view.update();
      this.unmeasured.add(key);
    }
    for (const a of c.logAppends) {
      const rowKey = `b\u0000${a.key}`;
      this.estimates.delete(rowKey);
      const m = this.mounted.get(rowKey);
      if (!m || dirty.has(rowKey)) continue;
      m.view.appendLog?.(a.text, a.stream);
      this.unmeasured.add(rowKey);
    }
    if (!rebuild && dirty.size + c.logAppends.length > 0) this.refreshSizes();
    if (this.awaited && this.rowIndex.has(this.awaited.key)) this.restoreAnchor(this.awaited);
    else this.layout(anchor);
  }

  /** Distinct blocks with at least one row in the DOM. */
  renderedBlocks(): number {
    const keys = new Set<string>();
    for (const { row } of this.mounted.values()) {
      if (row.kind === 'block' || row.kind === 'md') keys.add(blockKey(row.turnId, row.blockId));
    }
    return keys.size;
  }

  /** The rows in the DOM: their keys and elements. */
  *mountedRows(): Generator<[string, HTMLElement]> {
    for (const [key, m] of this.mounted) yield [key, m.view.el];
  }

  /** Whether the transcript has a row with this key. */
  hasRow(key: string): boolean {
    return this.rowIndex.has(key);
  }

  /**
   * Scrolls the row `key` into the DOM and the viewport's upper third (re-rendering it first when
   * `refresh`: something it shows was expanded); returns its element.
   */
  revealRow(key: string, refresh = false): HTMLElement | undefined {
    const i = this.rowIndex.get(key);
    if (i === undefined) return undefined;
    const m = this.mounted.get(key);
    if (refresh && m) {
      this.estimates.delete(key);
      m.view.update();
      this.unmeasured.add(key);
    }
    this.follow = false;
    const viewport = this.el.clientHeight || 600;
    // Twice: rows measured on the way change the row's offset.
    for (let pass = 0; pass < 2; pass++) this.layout(undefined, Math.max(0, this.offsets[i] - viewport / 3));
    this.onScroll(this.el.scrollTop);
    return this.mounted.get(key)?.view.el;
  }

  /** Restores a saved scroll position (undefined: follow the bottom). */
  restoreScroll(scrollTop: number | undefined): void {
    this.follow = scrollTop === undefined;
    this.layout(undefined, scrollTop);
  }

  /** Where the view is (a saved scroll position, or the one it waits to go back to); undefined while it follows the end. */
  scrollAnchor(): Anchor | undefined {
    return this.awaited ?? this.anchor();
  }

  /**
   * Goes back to a saved position (undefined: the end, followed). A row not shown yet (the session's
   * history still loading) is waited for: the view follows the end meanwhile, and goes there when the
   * row comes, unless the person scrolled first.
   */
  restoreAnchor(anchor: Anchor | undefined): void {
    this.awaited = anchor && !this.rowIndex.has(anchor.key) ? anchor : undefined;
    this.follow = anchor === undefined || this.awaited !== undefined;
    this.layout(this.follow ? undefined : anchor);
    this.onScroll(this.follow ? undefined : this.el.scrollTop);
  }

  /** Whether the view follows the bottom (a streaming turn stays in sight). */
  get follow(): boolean {
    return this.following;
  }

  private set follow(on: boolean) {
    if (on === this.following) return;
    this.following = on;
    this.blocksWhenLeft = on ? undefined : this.blockCount;
  }

  /** The turn of the row a third down the viewport (the last turn while following the bottom). */
  turnInView(): string | undefined {
    if (this.rows.length === 0) return undefined;
    if (this.follow) return this.rows[this.rows.length - 1].turnId;
    const viewport = this.el.clientHeight || 600;
    return this.rows[rowAt(this.offsets, this.el.scrollTop + viewport / 3)]?.turnId;
  }

  jumpToLatest(): void {
    this.follow = true;
    this.layout();
    this.onScroll(undefined);
  }

  /** Re-windows after the viewport changed size (text reflows: heights measured before are stale). */
  resized(): void {
    const anchor = this.anchor();
    const width = this.metrics.charsPerLine;
    this.measureMetrics();
    if (this.metrics.charsPerLine !== width) {
      this.heights.clear();
      this.estimates.clear();
      for (const key of this.mounted.keys()) this.unmeasured.add(key);
      this.refreshSizes();
    }
    this.layout(anchor);
  }

  private stopFollowing(): void {
    if (this.follow && this.el.scrollHeight > this.el.clientHeight) this.follow = false;
  }

  /**
   * The person scrolled (layout's own scrolling is told apart by `expectedTop`). Scrolling up always
   * stops following, however little (a trackpad's small steps must not be pulled back down while a
   * turn streams); following resumes only by scrolling down to the bottom.
   */
  private scrolled(): void {
    const top = this.el.scrollTop;
    if (Math.abs(top - this.expectedTop) < 1) return;
    const distance = this.el.scrollHeight - this.el.clientHeight - top;
    const up = top < this.expectedTop;
    this.awaited = undefined;
    this.follow = !up && distance <= Math.max(4, this.metrics.lineHeight);
    // The rows mounted here are measured by the ResizeObserver once the frame is laid out (before
    // it is painted), not here: measuring them now would force a layout in the scroll handler.
    this.layout(this.anchor(), undefined, this.ro === undefined);
    this.onScroll(this.follow ? undefined : this.el.scrollTop);
  }

  /** The section of a markdown block holding the character at `offset`, and where it starts. */
  sectionAt(turnId: string, blockId: string, offset: number): { part: number; start: number } {
    const cuts = this.sections.get(blockKey(turnId, blockId))?.cuts ?? [];
    let part = 0;
    while (part < cuts.length && cuts[part].at <= offset) part++;
    return { part, start: part === 0 ? 0 : cuts[part - 1].at };
  }

  private sectionText(turnId: string, blockId: string, part: number): string {
    const key = blockKey(turnId, blockId);
    const b = this.ctx.store.block(turnId, blockId);
    if (b?.type !== 'markdown') return '';
    const cuts = this.sections.get(key)?.cuts ?? [];
    const start = part === 0 ? 0 : (cuts[part - 1]?.at ?? b.text.length);
    const end = part < cuts.length ? cuts[part].at : b.text.length;
    return (part === 0 ? '' : (cuts[part - 1]?.prefix ?? '')) + b.text.slice(start, end);
  }

  private rebuild(): void {
    const store = this.ctx.store;
    for (const t of store.turns) {
      for (const b of t.blocks) {
        const key = blockKey(t.header.id, b.id);
        if (b.type === 'markdown' && !this.sections.has(key)) {
          const st = newSectionState();
          advanceSections(st, b.text);
          this.sections.set(key, st);
        }
      }
    }
    this.rows = buildRows(
      store.turns,
      (key) => (this.sections.get(key)?.cuts.length ?? 0) + 1,
      (key) => this.ctx.expanded.has(groupOpenKey(key)),
    );
    this.rowIndex = new Map(this.rows.map((r, i) => [r.key, i]));
    this.range = undefined;
    // every block once, whether shown in its own row(s) or inside a closed group of tool calls
    this.blockCount = 0;
    for (const t of store.turns) this.blockCount += t.blocks.length;
    this.groupOfRow.clear();
    for (const r of this.rows) {
      if (r.kind !== 'group') continue;
      for (const id of r.blockIds) this.groupOfRow.set(`b\u0000${blockKey(r.turnId, id)}`, r.key);
    }
    for (const key of [...this.mounted.keys()]) if (!this.rowIndex.has(key)) this.unmount(key);
    // A group that gained a call keeps its row (same key): it is told its calls.
    for (const [key, m] of this.mounted) {
      const r = this.rows[this.rowIndex.get(key)!];
      if (r.kind === 'group' && m.row.kind === 'group' && r.blockIds.length !== m.row.blockIds.length) {
        m.view.setBlocks?.(r.blockIds);
        this.estimates.delete(key);
      }
      m.row = r;
    }
    this.refreshSizes();
  }

  private refreshSizes(): void {
    if (this.sizes.length !== this.rows.length) this.sizes = new Float64Array(this.rows.length);
    this.rows.forEach((r, i) => (this.sizes[i] = this.heights.get(r.key) ?? this.estimate(r)));
  }

  private estimate(r: Row): number {
    let e = this.estimates.get(r.key);
    if (e === undefined) {
      const store = this.ctx.store;
      const turn = store.turn(r.turnId);
      const block = r.kind === 'block' || r.kind === 'md' ? store.block(r.turnId, r.blockId) : undefined;
      const len = r.kind === 'md' ? this.sectionText(r.turnId, r.blockId, r.part).length : 0;
      const open = r.kind === 'block' && this.ctx.expanded.has(toolOpenKey(r.turnId, r.blockId));
      e = estimateRowHeight(r, turn, block, len, this.metrics, open);
      this.estimates.set(r.key, e);
    }
    return e;
  }

  private anchor(): Anchor | undefined {
    if (this.follow || this.rows.length === 0) return undefined;
    const top = this.el.scrollTop;
    const i = rowAt(this.offsets, top);
    const row = this.rows[i];
    return row ? { key: row.key, delta: top - this.offsets[i] } : undefined;
  }

  /**
   * Measures mounted rows, positions the scroll, mounts the rows of the window; settles in ≤ 3 passes.
   * Without `measure`, one pass that leaves the rows it mounts to the ResizeObserver; with `keep`,
   * the mounted rows stay as they are while they cover the viewport and half the overscan.
   */
  private layout(anchor?: Anchor, explicitTop?: number, measure = true, keep = false): void {
    const viewport = this.el.clientHeight || 600;
    let target = 0;
    for (let pass = 0; pass < (measure ? 3 : 1); pass++) {
      if (measure) this.measureMounted();
      this.offsets = prefixSums(this.sizes, this.offsets);
      const total = this.offsets[this.offsets.length - 1];
      const max = Math.max(0, total - viewport);
      if (this.follow) target = max;
      else if (explicitTop !== undefined) target = Math.min(explicitTop, max);
      else if (anchor && this.rowIndex.has(anchor.key))
        target = this.offsets[this.rowIndex.get(anchor.key)!] + anchor.delta;
      else target = Math.min(this.el.scrollTop, max);
      let w = computeWindow(this.offsets, target, viewport, viewport);
      const r = this.range;
      if (keep && r && r.end <= this.rows.length) {
        const need = computeWindow(this.offsets, target, viewport, viewport / 2);
        if (r.start <= need.start && r.end >= need.end)
          w = { start: r.start, end: r.end, top: this.offsets[r.start], bottom: total - this.offsets[r.end] };
      }
      const added = this.mountRange(w.start, w.end);
      this.top.style.height = `${w.top}px`;
      this.bottom.style.height = `${w.bottom}px`;
      if (!added) break;
    }
    this.expectedTop = target;
    if (Math.abs(this.el.scrollTop - target) >= 1) this.el.scrollTop = target;
    this.expectedTop = this.el.scrollTop;
    const distance = this.el.scrollHeight - this.el.clientHeight - this.el.scrollTop;
    this.jump.hidden = this.follow || distance <= this.metrics.lineHeight * 2;
    if (!this.jump.hidden) this.labelJump();
    this.onLayout();
  }

  /** "Jump to latest", with how many blocks arrived since the view stopped following. */
  private labelJump(): void {
    const added = Math.max(0, this.blockCount - (this.blocksWhenLeft ?? this.blockCount));
    const text =
      added === 0
        ? l10n.t('Jump to latest ↓')
        : added === 1
          ? l10n.t('Jump to latest · 1 new ↓')
          : l10n.t('Jump to latest · {0} new ↓', added);
    if (this.jump.textContent !== text) this.jump.textContent = text;
  }

  /** Makes the DOM hold exactly rows [start, end), in order; returns whether rows were created. */
  private mountRange(start: number, end: number): boolean {
    this.range = { start, end };
    // (deleting the entry being visited is safe while iterating a Map)
    for (const key of this.mounted.keys()) {
      const i = this.rowIndex.get(key);
      if (i === undefined || i < start || i >= end) this.unmount(key);
    }
    let added = false;
    let cursor = this.list.firstChild;
    for (let i = start; i < end; i++) {
      const row = this.rows[i];
      let m = this.mounted.get(row.key);
      if (!m) {
        m = { row, view: this.pool.take(row) };
        this.mounted.set(row.key, m);
        this.keyOf.set(m.view.el, row.key);
        this.ro?.observe(m.view.el);
        this.unmeasured.add(row.key);
        added = true;
      }
      if (m.view.el === cursor) cursor = cursor.nextSibling;
      else this.list.insertBefore(m.view.el, cursor);
    }
    return added;
  }

  private unmount(key: string): void {
    const m = this.mounted.get(key);
    if (!m) return;
    this.ro?.unobserve(m.view.el);
    m.view.el.remove();
    this.mounted.delete(key);
    this.unmeasured.delete(key);
    this.pool.give(m.view);
  }

  /** Measures the rows not measured since mounted or re-rendered (all of them without a ResizeObserver). */
  private measureMounted(): void {
    const keys = this.ro ? [...this.unmeasured] : [...this.mounted.keys()];
    this.unmeasured.clear();
    for (const key of keys) {
      const m = this.mounted.get(key);
      if (!m) continue;
      const i = this.rowIndex.get(key);
      const hgt = m.view.el.getBoundingClientRect().height;
      if (hgt > 0) this.heights.set(key, hgt);
      if (i !== undefined && hgt > 0) this.sizes[i] = hgt;
    }
  }

  private measureMetrics(): void {
    const cs = getComputedStyle(this.el);
    const font = parseFloat(cs.fontSize) || 13;
    const lh = parseFloat(cs.lineHeight) || font * 1.5;
    const width = this.el.clientWidth || 600;
    this.metrics = { lineHeight: lh, charsPerLine: Math.max(20, Math.floor(width / (font * 0.55))) };
  }
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('\u0000');
  return [key.slice(0, i), key.slice(i + 1)];
}
