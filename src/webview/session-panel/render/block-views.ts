/**
 * Row views of the content blocks: a markdown section, a thought (collapsed by default), plain text,
 * a message the agent received, and a quiet line for events Den has no words for.
 */
import { l10n } from '../../../core/shared/l10n';
import { clear, h, patchDom } from '../../shared/dom';
import { eventPreview, jsonOutput } from '../../../core/transcript/tool-summary';
import { formatBytes, valueText } from '../../shared/format';
import { renderMarkdown } from '../markdown';
import { blockKey } from '../state';
import type { VNode } from '../../shared/vnode';
import { clippedValue } from './clipped-value';
import type { RowView, ViewContext } from './context';
import type { Row } from './rows';
import { jsonFields } from './json-fields';

function blockEl(
  tag: 'div' | 'details',
  type: string,
  turnId: string,
  blockId: string,
  extra = '',
): HTMLElement {
  return h(tag, {
    class: `row block block-${type}${extra}`,
    attrs: { 'data-block-type': type, 'data-block-id': blockId, 'data-turn-id': turnId },
  });
}

/** One section of a markdown block; a long answer is several of these rows. */
export class MarkdownSectionView implements RowView {
  readonly el: HTMLElement;
  private rendered: string | undefined;
  private shown: readonly VNode[] | undefined;

  constructor(
    private readonly ctx: ViewContext,
    private turnId: string,
    private blockId: string,
    private part: number,
  ) {
    this.el = blockEl('div', 'markdown', turnId, blockId, ' md-part');
    this.el.setAttribute('data-part', String(part));
    this.update();
  }

  /** Shows another section (this row left the DOM): what it shared with the last one is kept. */
  rebind(row: Row): void {
    if (row.kind !== 'md') return;
    this.turnId = row.turnId;
    this.blockId = row.blockId;
    this.part = row.part;
    setBlockAttrs(this.el, row.turnId, row.blockId);
    this.el.setAttribute('data-part', String(row.part));
    this.update();
  }

  update(): void {
    const src = this.ctx.sectionText(this.turnId, this.blockId, this.part);
    if (src === this.rendered) return;
    this.rendered = src;
    this.shown = patchDom(this.el, this.shown, renderMarkdown(src));
  }
}

/** The agent's reasoning: a `<details>` closed by default, rendered only while open. */
export class ThoughtView implements RowView {
  readonly el: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly body: HTMLElement;
  private rendered: string | undefined;
  private shown: readonly VNode[] | undefined;

  constructor(
    private readonly ctx: ViewContext,
    private turnId: string,
    private blockId: string,
  ) {
    this.el = rememberedDetails(ctx, 'thought', turnId, blockId, () => this.update());
    this.summary = h('summary', { class: 'thought-summary' });
    this.body = h('div', { class: 'thought-body' });
    this.el.append(this.summary, this.body);
    this.update();
  }

  /** Shows another thought (this row left the DOM), open if that one was left open. */
  rebind(row: Row): void {
    if (row.kind !== 'block') return;
    this.turnId = row.turnId;
    this.blockId = row.blockId;
    setBlockAttrs(this.el, row.turnId, row.blockId);
    this.el.open = this.ctx.expanded.has(openKey(row.turnId, row.blockId));
    clear(this.body);
    this.rendered = undefined;
    this.shown = undefined;
    this.update();
  }

  update(): void {
    const b = this.ctx.store.block(this.turnId, this.blockId);
    if (b?.type !== 'thought') return;
    this.summary.textContent = b.final ? l10n.t('Thought') : l10n.t('Thinking…');
    if (!this.el.open || b.text === this.rendered) return;
    this.rendered = b.text;
    this.shown = patchDom(this.body, this.shown, renderMarkdown(b.text));
  }
}

/** Plain text (`text` blocks) and messages the agent received (`message` blocks). */
export class TextView implements RowView {
  readonly el: HTMLElement;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
    private readonly blockId: string,
    type: 'text' | 'message',
  ) {
    this.el = blockEl('div', type, turnId, blockId);
    this.update();
  }

  update(): void {
    const b = this.ctx.store.block(this.turnId, this.blockId);
    if (!b || (b.type !== 'text' && b.type !== 'message')) return;
    clear(this.el);
    if (b.type === 'message')
      this.el.appendChild(h('div', { class: 'block-label', text: l10n.t('Message received') }));
    this.el.appendChild(h('p', { class: 'text-body', text: b.text }));
    if (b.type === 'message' && b.files.length > 0) {
      this.el.appendChild(
        h(
          'ul',
          { class: 'file-chips' },
          b.files.map((f) => h('li', { class: 'file-chip', text: `${f.name} (${formatBytes(f.size)})` })),
        ),
      );
    }
  }
}

/**
 * A block of a kind Den has no words for (`focus`, an unread `context.usage`): one quiet line, its
 * kind and a few words of its payload, that opens (a `<details>`, kept open in `ctx.expanded`) to
 * the payload as readable fields, rendered only while open.
 */
export class GenericView implements RowView {
  readonly el: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly body: HTMLElement;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
    private readonly blockId: string,
  ) {
    this.el = rememberedDetails(ctx, 'generic', turnId, blockId, () => this.update());
    this.summary = h('summary', { class: 'generic-summary' });
    this.body = h('div', { class: 'generic-payload' });
    this.el.append(this.summary, this.body);
    this.update();
  }

  update(): void {
    const b = this.ctx.store.block(this.turnId, this.blockId);
    if (b?.type !== 'generic') return;
    clear(this.summary);
    const preview = eventPreview(b.payload);
    this.summary.append(h('span', { class: 'generic-kind', text: b.kind || l10n.t('event') }));
    if (preview) this.summary.append(h('span', { class: 'generic-preview', text: ` · ${preview}` }));
    clear(this.body);
    if (!this.el.open) return;
    const key = `payload\u0000${blockKey(this.turnId, this.blockId)}`;
    const json = jsonOutput(b.payload);
    this.body.append(
      json !== undefined
        ? jsonFields(this.ctx, key, json)
        : clippedValue(this.ctx, key, valueText(b.payload), 'json-text'),
    );
  }
}

/**
 * A block's `<details>` that stays open or closed across re-renders and windowing (kept in
 * `ctx.expanded`); `onToggle` runs after each toggle.
 */
function rememberedDetails(
  ctx: ViewContext,
  type: string,
  turnId: string,
  blockId: string,
  onToggle?: () => void,
): HTMLDetailsElement {
  const el = blockEl('details', type, turnId, blockId) as HTMLDetailsElement;
  el.open = ctx.expanded.has(openKey(turnId, blockId));
  el.addEventListener('toggle', () => {
    // the block it shows now (a reused view shows another: see `rebind`)
    const key = openKey(el.getAttribute('data-turn-id') ?? '', el.getAttribute('data-block-id') ?? '');
    if (el.open) ctx.expanded.add(key);
    else ctx.expanded.delete(key);
    onToggle?.();
  });
  return el;
}

/** The `ctx.expanded` key of an open thought or generic block. */
function openKey(turnId: string, blockId: string): string {
  return `open\u0000${blockKey(turnId, blockId)}`;
}

/** A reused row's block attributes (see `blockEl`). */
function setBlockAttrs(el: HTMLElement, turnId: string, blockId: string): void {
  el.setAttribute('data-block-id', blockId);
  el.setAttribute('data-turn-id', turnId);
}
