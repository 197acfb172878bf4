/**
 * A turn's outline (`turnOutline`): a list beside the transcript of the turn's steps, the files it
 * changed and where it failed; choosing an entry scrolls its row into view (windowed out or not) and
 * marks it. Opened by the Outline button over the transcript or `den.showTurnOutline` (the host's
 * `openOutline`), for the turn in view; kept current while the turn streams. Up/Down, Home/End move
 * through the entries, Enter jumps, Escape closes and gives the focus back.
 */
import { l10n } from '../../core/shared/l10n';
import {
  markdownHeadings,
  turnOutline,
  type Heading,
  type Outline,
  type OutlineTarget,
} from '../../core/transcript/outline';
import { clear, h } from '../shared/dom';
import { blockKey, type Store, type StoreChanges } from './state';
import type { TranscriptView } from './transcript-view';

export interface OutlineDeps {
  store: Store;
  transcript: TranscriptView;
  /** Says a text through the panel's live region. */
  announce(text: string): void;
}

interface Entry {
  key: string;
  target: OutlineTarget;
  /** What the entry shows, and what a screen reader says of it. */
  text: string;
  detail?: string;
  icon: string;
  cls: string;
  level?: number;
}

/** Tool names spelled out in a run's entry; the rest are counted. */
const NAMES_SHOWN = 3;
/** Characters of the request shown in the outline's heading. */
const TITLE_CLIP = 60;

function toolsText(s: Extract<Outline['steps'][number], { type: 'tools' }>): {
  text: string;
  detail: string;
} {
  const text = s.count === 1 ? l10n.t('1 tool call') : l10n.t('{0} tool calls', s.count);
  const names = s.tools.slice(0, NAMES_SHOWN).map((t) => (t.count > 1 ? `${t.name} ×${t.count}` : t.name));
  if (s.tools.length > NAMES_SHOWN) names.push(l10n.t('{0} more', s.tools.length - NAMES_SHOWN));
  const notes = [names.join(', ')];
  if (s.failed > 0) notes.push(l10n.t('{0} failed', s.failed));
  if (s.running > 0) notes.push(l10n.t('running'));
  return { text, detail: notes.join(' · ') };
}

/** The outline as entries, worded, per section. */
function entries(o: Outline): { steps: Entry[]; files: Entry[]; failures: Entry[] } {
  const steps: Entry[] = o.steps.map((s) => {
    switch (s.type) {
      case 'plan':
        return {
          key: s.key,
          target: s.target,
          text: l10n.t('Plan: {0} of {1} done', s.done, s.total),
          ...(s.active ? { detail: l10n.t('now: {0}', s.active) } : {}),
          icon: '☰',
          cls: 'outline-plan',
        };
      case 'heading':
        return {
          key: s.key,
          target: s.target,
          text: s.text,
          icon: '#',
          cls: 'outline-heading',
          level: s.level,
        };
      case 'text':
        return { key: s.key, target: s.target, text: s.text, icon: '¶', cls: 'outline-text' };
      case 'tools': {
        const w = toolsText(s);
        return {
          key: s.key,
          target: s.target,
          ...w,
          icon: s.failed > 0 ? '✕' : '⚙',
          cls: s.failed > 0 ? 'outline-tools outline-failed' : 'outline-tools',
        };
      }
    }
  });
  const change: Record<string, { badge: string; words: string }> = {
    added: { badge: 'A', words: l10n.t('added') },
    updated: { badge: 'M', words: l10n.t('updated') },
    deleted: { badge: 'D', words: l10n.t('deleted') },
  };
  const files: Entry[] = o.files.map((f) => ({
    key: f.key,
    target: f.target,
    text: f.path,
    detail: (change[f.change] ?? change.updated).words,
    icon: (change[f.change] ?? change.updated).badge,
    cls: 'outline-file',
  }));
  const failures: Entry[] = o.failures.map((f) =>
    f.type === 'tool'
      ? {
          key: f.key,
          target: f.target,
          text: f.subject ? `${f.name} ${f.subject}` : f.name,
          ...(f.detail ? { detail: f.detail } : {}),
          icon: '✕',
          cls: 'outline-failure',
        }
      : {
          key: f.key,
          target: f.target,
          text: l10n.t('The turn failed'),
          ...(f.message ? { detail: f.message } : {}),
          icon: '✕',
          cls: 'outline-failure',
        },
  );
  return { steps, files, failures };
}

export class OutlineView {
  /** The button over the transcript that opens and closes the outline. */
  readonly toggle: HTMLButtonElement;
  readonly el: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly body: HTMLElement;
  private turnId: string | undefined;
  private signature = '';
  private returnFocus: Element | null = null;
  private marked: HTMLElement | undefined;
  /** The entry last gone to (`aria-current`), by key. */
  private currentKey: string | undefined;
  private readonly headings = new Map<string, { length: number; headings: Heading[] }>();

  constructor(private readonly deps: OutlineDeps) {
    const label = l10n.t('Outline of the Turn in View (Ctrl+Shift+O)');
    this.toggle = h('button', {
      id: 'outline-toggle',
      class: 'outline-toggle secondary small',
      text: l10n.t('Outline'),
      attrs: {
        type: 'button',
        title: label,
        'aria-label': label,
        'aria-expanded': 'false',
        'aria-controls': 'turn-outline',
        'aria-keyshortcuts': 'Control+Shift+O',
      },
      on: { click: () => (this.isOpen ? this.close() : this.open()) },
    }) as HTMLButtonElement;
    this.toggle.hidden = true;
    this.heading = h('h2', { class: 'outline-title', attrs: { id: 'turn-outline-title' } });
    this.body = h('div', { class: 'outline-body' });
    this.el = h(
      'nav',
      { id: 'turn-outline', class: 'outline', attrs: { 'aria-labelledby': 'turn-outline-title' } },
      [
        h('div', { class: 'outline-head' }, [
          this.heading,
          h('button', {
            class: 'outline-close',
            text: '×',
            attrs: {
              type: 'button',
              'aria-label': l10n.t('Close (Escape)'),
              title: l10n.t('Close (Escape)'),
            },
            on: { click: () => this.close() },
          }),
        ]),
        this.body,
      ],
    );
    this.el.hidden = true;
    this.el.addEventListener('keydown', (e) => this.key(e));
  }

  /** What the `probe` digest says of the outline (absent while it is closed). */
  digest(): { turnId: string; steps: string[]; files: string[]; failures: string[] } | undefined {
    if (!this.isOpen || this.turnId === undefined) return undefined;
    const texts = (cls: string): string[] =>
      [...this.body.querySelectorAll(`.outline-${cls} .outline-text`)].map((e) => e.textContent ?? '');
    return { turnId: this.turnId, steps: texts('steps'), files: texts('files'), failures: texts('failures') };
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  /** Opens the outline of `turnId` (else of the turn in view), or focuses it when it is open. */
  open(turnId?: string): void {
    const id =
      turnId ??
      this.deps.transcript.turnInView() ??
      this.deps.store.turns[this.deps.store.turns.length - 1]?.header.id;
    if (id === undefined || !this.deps.store.turn(id)) return;
    const active = document.activeElement;
    if (!this.isOpen || !this.el.contains(active))
      this.returnFocus = this.el.contains(active) ? null : active;
    if (id !== this.turnId) {
      this.signature = '';
      this.currentKey = undefined;
    }
    this.turnId = id;
    this.el.hidden = false;
    this.toggle.setAttribute('aria-expanded', 'true');
    this.render();
    const first = this.items()[0] ?? this.el.querySelector<HTMLElement>('.outline-close');
    first?.focus();
    this.deps.announce(this.summary());
  }

  close(): void {
    if (!this.isOpen) return;
    this.el.hidden = true;
    this.toggle.setAttribute('aria-expanded', 'false');
    this.marked?.classList.remove('outline-target');
    this.marked = undefined;
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
    else this.deps.transcript.el.focus();
  }

  /** The store changed: the button shows once there is a turn; an open outline follows its turn. */
  storeChanged(c: StoreChanges): void {
    const store = this.deps.store;
    this.toggle.hidden = store.turns.length === 0;
    if (c.reset) this.headings.clear();
    if (!this.isOpen || this.turnId === undefined) return;
    if (!store.turn(this.turnId)) {
      this.close();
      return;
    }
    const id = this.turnId;
    const prefix = `${id}\u0000`;
    const touched =
      c.reset ||
      c.structure ||
      c.turns.has(id) ||
      c.plans.has(id) ||
      c.files.has(id) ||
      [...c.blocks, ...c.appended].some((k) => k.startsWith(prefix));
    if (touched) this.render();
  }

  private summary(): string {
    const steps = this.body.querySelectorAll('.outline-steps .outline-item').length;
    const files = this.body.querySelectorAll('.outline-files .outline-item').length;
    const failures = this.body.querySelectorAll('.outline-failures .outline-item').length;
    return l10n.t('Outline: {0} steps, {1} files, {2} failures', steps, files, failures);
  }

  private outline(): Outline | undefined {
    const t = this.turnId === undefined ? undefined : this.deps.store.turn(this.turnId);
    if (!t) return undefined;
    // a streaming answer's headings are found again only when its text grew
    return turnOutline(
      { blocks: t.blocks, plan: t.plan, files: t.files, status: t.header.status, error: t.header.error },
      (b) => {
        const key = blockKey(t.header.id, b.id);
        const hit = this.headings.get(key);
        if (hit && hit.length === b.text.length) return hit.headings;
        const headings = markdownHeadings(b.text);
        this.headings.set(key, { length: b.text.length, headings });
        return headings;
      },
    );
  }

  /** Renders the outline again when it changed, keeping the focused entry focused. */
  private render(): void {
    const o = this.outline();
    const t = this.turnId === undefined ? undefined : this.deps.store.turn(this.turnId);
    if (!o || !t) return;
    const title = t.header.userMessage.text.trim().split('\n')[0] || l10n.t('(no request text)');
    const clipped = title.length > TITLE_CLIP ? `${title.slice(0, TITLE_CLIP)}…` : title;
    const signature = JSON.stringify([clipped, o]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.heading.textContent = l10n.t('Outline: {0}', clipped);
    this.heading.title = title;
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.outlineKey;
    clear(this.body);
    const e = entries(o);
    const section = (cls: string, name: string, list: Entry[]): void => {
      if (list.length === 0) return;
      const id = `turn-outline-${cls}`;
      this.body.append(
        h('h3', { class: 'outline-section', text: `${name} (${list.length})`, attrs: { id } }),
        h(
          'ul',
          { class: `outline-list outline-${cls}`, attrs: { 'aria-labelledby': id } },
          list.map((x) => h('li', {}, [this.item(x)])),
        ),
      );
    };
    section('steps', l10n.t('Steps'), e.steps);
    section('files', l10n.t('Files changed'), e.files);
    section('failures', l10n.t('Failed'), e.failures);
    if (this.body.childElementCount === 0)
      this.body.append(h('p', { class: 'outline-empty', text: l10n.t('Nothing to outline yet.') }));
    const items = this.items();
    const again = focused === undefined ? undefined : items.find((i) => i.dataset.outlineKey === focused);
    for (const i of items) {
      i.tabIndex = -1;
      if (i.dataset.outlineKey === this.currentKey) i.setAttribute('aria-current', 'location');
    }
    const current = again ?? items[0];
    if (current) current.tabIndex = 0;
    if (again) again.focus();
  }

  private item(x: Entry): HTMLElement {
    const words = x.detail ? `${x.text} (${x.detail})` : x.text;
    return h(
      'button',
      {
        class: `outline-item ${x.cls}`,
        attrs: {
          type: 'button',
          'data-outline-key': x.key,
          title: words,
          ...(x.level !== undefined ? { 'data-level': String(x.level) } : {}),
        },
        on: { click: () => this.jump(x) },
      },
      [
        h('span', { class: 'outline-icon', text: x.icon, attrs: { 'aria-hidden': 'true' } }),
        h('span', { class: 'outline-text', text: x.text }),
        ...(x.detail ? [h('span', { class: 'outline-detail', text: x.detail })] : []),
      ],
    );
  }

  private items(): HTMLElement[] {
    return [...this.body.querySelectorAll<HTMLElement>('.outline-item')];
  }

  /**
   * The key of the row showing a target (the turn's request when that row is not shown); `open`: a
   * call in a closed group opens it, else the group's row stands for it.
   */
  private rowKey(target: OutlineTarget, open: boolean): string {
    const turnId = this.turnId ?? '';
    const { store, transcript } = this.deps;
    let key: string;
    switch (target.kind) {
      case 'plan':
        key = `p\u0000${turnId}`;
        break;
      case 'files':
        key = `f\u0000${turnId}`;
        break;
      case 'status':
        key = `s\u0000${turnId}`;
        break;
      case 'block': {
        const bkey = blockKey(turnId, target.blockId);
        if (store.block(turnId, target.blockId)?.type === 'markdown') {
          const { part } = transcript.sectionAt(turnId, target.blockId, target.offset ?? 0);
          key = `m\u0000${bkey}\u0000${part}`;
        } else key = `b\u0000${bkey}`;
      }
    }
    // A call in a closed group: a run of calls shows as the group's line; a failure opens the group.
    key = transcript.rowShowing(key, open);
    return transcript.hasRow(key) ? key : `u\u0000${turnId}`;
  }

  /** Scrolls the entry's row into view and marks it; the focus stays in the outline. */
  private jump(x: Entry): void {
    this.currentKey = x.key;
    for (const i of this.items()) {
      const on = i.dataset.outlineKey === x.key;
      i.tabIndex = on ? 0 : -1;
      if (on) i.setAttribute('aria-current', 'location');
      else i.removeAttribute('aria-current');
    }
    const row = this.deps.transcript.revealRow(this.rowKey(x.target, !x.cls.startsWith('outline-tools')));
    this.marked?.classList.remove('outline-target');
    this.marked = row;
    if (row) {
      // restarts the mark's fade when the same row is chosen again
      row.classList.remove('outline-target');
      void row.offsetWidth;
      row.classList.add('outline-target');
    }
  }

  private key(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.close();
      return;
    }
    const items = this.items();
    const at = items.indexOf(document.activeElement as HTMLElement);
    let next: number | undefined;
    if (e.key === 'ArrowDown') next = at < 0 ? 0 : Math.min(items.length - 1, at + 1);
    else if (e.key === 'ArrowUp') next = at < 0 ? 0 : Math.max(0, at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    if (next === undefined || items.length === 0) return;
    e.preventDefault();
    for (const i of items) i.tabIndex = -1;
    items[next].tabIndex = 0;
    items[next].focus();
  }
}
