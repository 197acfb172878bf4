/**
 * Find in a session: a bar over the transcript (Ctrl/Cmd+F, or `den.findInSession` through the
 * host's `openFind`) that searches the store's transcript fields, not the DOM (the transcript is
 * windowed: most rows are not in it). Next/previous scrolls the row holding the match into the DOM,
 * opening what hides it first: a closed thought or event, a closed group of tool calls, a tool
 * line's card, a clipped value, a result's fields shown whole. Highlights are CSS Custom Highlights:
 * ranges over the rendered text nodes, so the sanitized DOM of agent output is never changed (and
 * the nodes `patchDom` keeps stay as they were).
 */
import { l10n } from '../../core/shared/l10n';
import { addressKey, type FieldAddress } from '../../core/search/fields';
import { findInFields } from '../../core/search/find';
import { compileQuery, type CompiledQuery } from '../../core/search/matcher';
import type { WebviewMessage } from '../../protocol/session-panel/messages';
import { h } from '../shared/dom';
import { locateMatch, type Match } from './find-locate';
import {
  clearFindHighlights,
  domRanges,
  highlightsSupported,
  queryErrorText,
  setFindHighlights,
} from './find-highlights';
import type { FindFields } from './find-fields';
import type { Store } from './state';
import type { TranscriptView } from './transcript-view';

export interface FindDeps {
  store: Store;
  transcript: TranscriptView;
  fields: FindFields;
  /** The UI state rows keep across re-renders (open thoughts, expanded values). */
  expanded: Set<string>;
  /** Says a text through the panel's live region. */
  announce(text: string): void;
  /** Posts to the host (asks for a tool's whole log when the match is in its hidden head). */
  post(m: WebviewMessage): void;
}

/** How long a streaming turn's changes wait before the count is done again. */
const RECOUNT_MS = 150;

export class FindBar {
  readonly el: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private readonly toggles: Record<'matchCase' | 'wholeWord' | 'regex', HTMLButtonElement>;
  private readonly options = { matchCase: false, wholeWord: false, regex: false };
  private query: CompiledQuery | undefined;
  private matches: Match[] = [];
  private capped = false;
  private current = -1;
  private version = -1;
  private returnFocus: Element | null = null;
  private recountTimer: ReturnType<typeof setTimeout> | undefined;
  private highlightFrame = 0;
  /** The current match waits for its row to show it (a whole log asked of the host): scroll to it then. */
  private pendingScroll = false;
  /**
   * A match to make current (`revealAt`) that the transcript does not hold yet (its history is
   * still loading): looked for again on each recount until the query changes.
   */
  private target: { key: string; start: number } | undefined;

  constructor(private readonly deps: FindDeps) {
    this.input = h('input', {
      class: 'find-input',
      attrs: { type: 'text', 'aria-label': l10n.t('Find'), placeholder: l10n.t('Find'), spellcheck: 'false' },
      on: {
        input: () => {
          this.target = undefined;
          this.run(true);
        },
      },
    }) as HTMLInputElement;
    const toggle = (key: keyof typeof this.options, label: string, text: string): HTMLButtonElement =>
      h('button', {
        class: 'find-toggle',
        text,
        attrs: { type: 'button', 'aria-pressed': 'false', 'aria-label': label, title: label },
        on: { click: () => this.toggle(key) },
      }) as HTMLButtonElement;
    this.toggles = {
      matchCase: toggle('matchCase', l10n.t('Match Case (Alt+C)'), 'Aa'),
      wholeWord: toggle('wholeWord', l10n.t('Match Whole Word (Alt+W)'), 'ab'),
      regex: toggle('regex', l10n.t('Use Regular Expression (Alt+R)'), '.*'),
    };
    this.count = h('span', { class: 'find-count', attrs: { 'aria-hidden': 'true' } });
    const nav = (label: string, icon: string, step: number): HTMLElement =>
      h('button', {
        class: 'find-nav',
        text: icon,
        attrs: { type: 'button', 'aria-label': label, title: label },
        on: { click: () => this.step(step) },
      });
    this.el = h(
      'div',
      { class: 'find-bar', attrs: { role: 'search', 'aria-label': l10n.t('Find in session') } },
      [
        this.input,
        this.toggles.matchCase,
        this.toggles.wholeWord,
        this.toggles.regex,
        this.count,
        nav(l10n.t('Previous Match (Shift+Enter)'), '↑', -1),
        nav(l10n.t('Next Match (Enter)'), '↓', 1),
        h('button', {
          class: 'find-close',
          text: '×',
          attrs: { type: 'button', 'aria-label': l10n.t('Close (Escape)'), title: l10n.t('Close (Escape)') },
          on: { click: () => this.close() },
        }),
      ],
    );
    this.el.hidden = true;
    this.el.addEventListener('keydown', (e) => this.barKey(e));
    deps.transcript.onLayout = () => this.scheduleHighlights();
  }

  /** What the `probe` digest says of the bar (absent while it is closed). */
  digest(): { query: string; count: string; current?: { address: string; start: number } } | undefined {
    if (!this.isOpen) return undefined;
    const m = this.matches[this.current];
    const d = { query: this.input.value, count: this.count.textContent ?? '' };
    return m ? { ...d, current: { address: addressKey(m.address), start: m.range.start } } : d;
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  /** Opens the bar (or focuses it), with `query` typed in when given. */
  open(query?: string): void {
    const active = document.activeElement;
    if (!this.isOpen || !this.el.contains(active))
      this.returnFocus = this.el.contains(active) ? null : active;
    this.el.hidden = false;
    if (query !== undefined) this.input.value = query;
    this.input.focus();
    this.input.select();
    this.run(true);
  }

  /**
   * Opens the bar on `query` with these options and makes current the match starting at `start` in
   * the field at `address` (a Search in Sessions result); until the transcript holds it (a history
   * still loading), the first match, and the target is looked for again as the transcript grows.
   */
  revealAt(query: string, options: typeof this.options, address: FieldAddress, start: number): void {
    for (const key of Object.keys(this.options) as (keyof typeof this.options)[]) {
      this.options[key] = options[key];
      this.toggles[key].setAttribute('aria-pressed', String(options[key]));
    }
    this.target = { key: addressKey(address), start };
    this.open(query);
  }

  /** The match `target` names: the one at its start, else the first of its field; -1 when absent. */
  private targetIndex(): number {
    const t = this.target;
    if (!t) return -1;
    let first = -1;
    for (let i = 0; i < this.matches.length; i++) {
      const m = this.matches[i];
      if (addressKey(m.address) !== t.key) continue;
      if (m.range.start === t.start) return i;
      if (first < 0) first = i;
    }
    return first;
  }

  close(): void {
    if (!this.isOpen) return;
    this.target = undefined;
    this.el.hidden = true;
    this.query = undefined;
    this.matches = [];
    this.current = -1;
    this.pendingScroll = false;
    clearFindHighlights();
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
    else this.deps.transcript.el.focus();
  }

  /** Keys anywhere in the panel: Ctrl/Cmd+F opens, F3 / Shift+F3 move while open. */
  globalKey(e: KeyboardEvent): void {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      this.open();
    } else if (e.key === 'F3' && this.isOpen) {
      e.preventDefault();
      this.step(e.shiftKey ? -1 : 1);
    }
  }

  /** The store changed: the fields follow; a streaming turn's count is done again shortly. */
  storeChanged(): void {
    if (!this.isOpen || !this.query || this.deps.fields.version === this.version) return;
    if (this.recountTimer) return;
    this.recountTimer = setTimeout(() => {
      this.recountTimer = undefined;
      if (this.isOpen) this.run(false);
    }, RECOUNT_MS);
  }

  private barKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.close();
    } else if (e.key === 'Enter' && e.target === this.input) {
      e.preventDefault();
      this.step(e.shiftKey ? -1 : 1);
    } else if (e.altKey && !e.ctrlKey && !e.metaKey) {
      const key = ({ c: 'matchCase', w: 'wholeWord', r: 'regex' } as const)[e.key.toLowerCase()];
      // Alt+letter may type a character on some layouts: `code` says which key it was.
      const byCode = ({ KeyC: 'matchCase', KeyW: 'wholeWord', KeyR: 'regex' } as const)[e.code];
      const which = byCode ?? key;
      if (which) {
        e.preventDefault();
        this.toggle(which);
      }
    }
  }

  private toggle(key: keyof typeof this.options): void {
    this.target = undefined;
    this.options[key] = !this.options[key];
    this.toggles[key].setAttribute('aria-pressed', String(this.options[key]));
    this.run(true);
  }

  /**
   * Runs the query over the fields. `fresh`: the query changed, go to the first match; else (a
   * recount while a turn streams) stay on the current match.
   */
  private run(fresh: boolean): void {
    const q = compileQuery(this.input.value, this.options);
    this.version = this.deps.fields.version;
    const keep = fresh ? undefined : this.matches[this.current];
    this.matches = [];
    this.capped = false;
    if (!q.ok) {
      this.query = undefined;
      this.current = -1;
      this.input.setAttribute('aria-invalid', String(q.code !== 'empty'));
      this.setCount(queryErrorText(q), q.code !== 'empty');
      this.scheduleHighlights();
      return;
    }
    this.input.removeAttribute('aria-invalid');
    this.query = q;
    const r = findInFields(this.deps.fields.fields(), q);
    this.capped = r.capped;
    for (const fm of r.matches) {
      fm.ranges.forEach((range, i) =>
        this.matches.push({ address: fm.address, range, before: i, after: fm.ranges.length - 1 - i }),
      );
    }
    const aimed = this.targetIndex();
    if (aimed >= 0) {
      // Found where Search in Sessions pointed: it is current from now on, as if stepped to.
      this.target = undefined;
      this.current = aimed;
      this.showCount();
      this.reveal();
      return;
    }
    if (keep) {
      const k = addressKey(keep.address);
      const same = this.matches.findIndex(
        (m) => addressKey(m.address) === k && m.range.start === keep.range.start,
      );
      this.current = same >= 0 ? same : Math.min(this.current, this.matches.length - 1);
      this.showCount();
      this.scheduleHighlights();
      return;
    }
    this.current = this.matches.length > 0 ? 0 : -1;
    this.showCount();
    if (this.current >= 0) this.reveal();
    else this.scheduleHighlights();
  }

  private step(by: number): void {
    if (!this.isOpen) return;
    this.target = undefined;
    if (this.deps.fields.version !== this.version) this.run(false);
    const n = this.matches.length;
    if (n === 0) return;
    this.current = (((this.current + by) % n) + n) % n;
    this.showCount();
    this.reveal();
  }

  private showCount(): void {
    const n = this.matches.length;
    if (n === 0) this.setCount(l10n.t('No results'), false);
    else
      this.setCount(
        this.capped
          ? l10n.t('{0} of more than {1}', this.current + 1, n)
          : l10n.t('{0} of {1}', this.current + 1, n),
        false,
      );
  }

  private setCount(text: string, error: boolean): void {
    if (this.count.textContent === text) return;
    this.count.textContent = text;
    this.count.classList.toggle('find-error', error);
    if (text) this.deps.announce(text);
  }

  /** The row showing a field, the part of it the field is in, and what to open so it shows. */
  /**
   * Scrolls the current match's row into the DOM and view, opened where the match is closed away;
   * a match in a log's hidden head asks the host for the whole log and is scrolled to when it shows.
   */
  private reveal(): void {
    const m = this.matches[this.current];
    if (!m) return;
    const { key, open } = locateMatch(this.deps.store, this.deps.transcript, m);
    let refresh = false;
    this.pendingScroll = false;
    let regroup = false;
    for (const k of open) {
      if (k.startsWith('fulllog\u0000')) {
        this.pendingScroll = true;
        if (this.deps.expanded.has(k)) continue;
        const [, turnId, blockId] = k.split('\u0000');
        this.deps.post({ type: 'showFullLog', turnId, blockId });
      }
      if (!this.deps.expanded.has(k)) {
        this.deps.expanded.add(k);
        refresh = true;
        if (k.startsWith('group\u0000')) regroup = true;
      }
    }
    if (regroup) this.deps.transcript.regroup();
    const row = this.deps.transcript.revealRow(key, refresh);
    if (row instanceof HTMLDetailsElement && open.some((k) => k.startsWith('open\u0000'))) row.open = true;
    const current = this.highlight();
    if (current && !this.pendingScroll) this.scrollTo(current);
  }

  /** Scrolls the match into view: inside a scrolling part of its row (a log), then the transcript. */
  private scrollTo(range: Range): void {
    const outer = this.deps.transcript.el;
    for (let el = range.startContainer.parentElement; el && el !== outer; el = el.parentElement) {
      if (el.scrollHeight <= el.clientHeight + 1) continue;
      const box = el.getBoundingClientRect();
      const r = range.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) el.scrollTop += r.top - box.top - box.height / 3;
    }
    const box = outer.getBoundingClientRect();
    const r = range.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) outer.scrollTop += r.top - box.top - box.height / 3;
  }

  private scheduleHighlights(): void {
    if (this.highlightFrame) return;
    this.highlightFrame = requestAnimationFrame(() => {
      this.highlightFrame = 0;
      const current = this.highlight();
      if (current && this.pendingScroll) {
        const m = this.matches[this.current];
        // still waiting while the row shows the log's tail only
        if (
          m &&
          locateMatch(this.deps.store, this.deps.transcript, m).open.some((k) =>
            k.startsWith('fulllog\u0000'),
          )
        )
          return;
        this.pendingScroll = false;
        this.scrollTo(current);
      }
    });
  }

  /** Highlights every match in the rows in the DOM; returns the current match's range, if shown. */
  private highlight(): Range | undefined {
    const q = this.query;
    if (!highlightsSupported() || !q || !this.isOpen) {
      clearFindHighlights();
      return undefined;
    }
    const all: Range[] = [];
    let current: Range | undefined;
    const m = this.matches[this.current];
    const target = m ? locateMatch(this.deps.store, this.deps.transcript, m) : undefined;
    for (const [key, el] of this.deps.transcript.mountedRows()) {
      // Only what the fields hold: a tool's parts, a files row's paths (not its buttons' labels).
      const regions = el.matches('.block-tool')
        ? [...el.querySelectorAll('.tool-name, .tool-params, .tool-log, .tool-output-value')]
        : el.matches('.block-files')
          ? [...el.querySelectorAll('.file-path')]
          : [el];
      let nth = -1;
      for (const region of regions) {
        const ranges = domRanges(region, q);
        for (const r of ranges) all.push(r);
        if (!m || !target || key !== target.key) continue;
        if (target.region ? !region.matches(target.region) : region !== el) continue;
        nth++;
        if (ranges.length === 0 || (target.nth !== undefined && nth !== target.nth)) continue;
        // A log shows only its end: count from the end there; elsewhere from the start.
        current =
          m.address.kind === 'tool-log'
            ? ranges[ranges.length - 1 - m.after]
            : ranges[Math.min(this.ordinalInRow(m), ranges.length - 1)];
      }
    }
    setFindHighlights(all, current);
    return current;
  }

  /** Matches of the same field before `m` that its row shows too (a markdown section: from its start). */
  private ordinalInRow(m: Match): number {
    const a = m.address;
    if (a.blockId === undefined || this.deps.store.block(a.turnId, a.blockId)?.type !== 'markdown')
      return m.before;
    const { start } = this.deps.transcript.sectionAt(a.turnId, a.blockId, m.range.start);
    let n = 0;
    for (let i = this.current - m.before; i < this.current; i++)
      if (this.matches[i].range.start >= start) n++;
    return n;
  }
}
