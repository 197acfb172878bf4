/**
 * A tool run as one line (`write_file src/x.ts · +10`, `run_command npm test · exit 0 · 2 passing`,
 * see `core/transcript/tool-summary.ts`): a button (`aria-expanded`, Enter/Space) that opens, in
 * place, the run's card: its parameters as a key/value list (long values clipped with "more"), its
 * log (see ToolLogView) and its result (JSON as readable fields). Open or closed is kept in
 * `ctx.expanded` (`tool\0<block key>`), so it survives re-renders and windowing. A running tool's
 * line says what it does now (the log's last line).
 */
import { l10n } from '../../../core/shared/l10n';
import type { ToolBlock } from '../../../core/transcript/model';
import { jsonOutput, toolSummary, type ToolLineState } from '../../../core/transcript/tool-summary';
import { clear, h } from '../../shared/dom';
import { valueText } from '../../shared/format';
import { blockKey } from '../state';
import { clippedValue } from './clipped-value';
import type { RowView, ViewContext } from './context';
import { jsonFields } from './json-fields';
import { toolOpenKey, type Row } from './rows';
import { ToolLogView } from './tool-log';

const ICONS: Record<ToolLineState, string> = { running: '◌', success: '✓', error: '✕', 'cut-off': '■' };
const LIVE_TURN = new Set(['queued', 'running']);

/**
 * Whether a tool of this turn was cut off: the service sends no end for a tool stopped by Stop or a
 * failure, so once its turn is over it no longer runs, whatever its last status said.
 */
export function isCutOff(ctx: ViewContext, turnId: string, b: ToolBlock): boolean {
  const turnStatus = ctx.store.turn(turnId)?.header.status;
  return b.status === 'running' && turnStatus !== undefined && !LIVE_TURN.has(turnStatus);
}

/**
 * The line's parts (icon, name, subject, outcome) for a tool run, into `line`: the spans already
 * there are kept where they fit (a line re-rendered, or a reused row's), only their text changed.
 */
export function fillToolLine(line: HTMLElement, b: ToolBlock, cutOff: boolean): ToolLineState {
  const s = toolSummary(b, cutOff);
  let at: ChildNode | null = line.firstChild;
  /** Makes the next child a span of class `cls` (a bare text node for `cls` '') with `text`. */
  const put = (cls: string, text: string, hidden = false): void => {
    const fits = cls
      ? at instanceof HTMLSpanElement && at.className === cls
      : at !== null && at.nodeType === Node.TEXT_NODE;
    if (fits) {
      const textNode = cls ? at!.firstChild : at;
      if (textNode?.nodeType === Node.TEXT_NODE && textNode.nextSibling === null) {
        if ((textNode as Text).data !== text) (textNode as Text).data = text;
      } else at!.textContent = text;
      at = at!.nextSibling;
      return;
    }
    const made = cls
      ? h('span', { class: cls, text, attrs: hidden ? { 'aria-hidden': 'true' } : undefined })
      : document.createTextNode(text);
    line.insertBefore(made, at);
  };
  put('tool-icon', ICONS[s.state], true);
  put('tool-name', s.name);
  if (s.subject) {
    put('', ' ');
    put('tool-subject', s.subject);
  }
  for (const o of s.outcome) put('tool-outcome', ` · ${o}`);
  if (s.state === 'success') put('visually-hidden', l10n.t(' (done)'));
  while (at !== null) {
    const after: ChildNode | null = at.nextSibling;
    at.remove();
    at = after;
  }
  return s.state;
}

export class ToolCardView implements RowView {
  readonly el: HTMLElement;
  private readonly line: HTMLButtonElement;
  private readonly chevron: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly card: HTMLElement;
  private readonly params: HTMLElement;
  private readonly output: HTMLElement;
  private log: ToolLogView | undefined;
  private key: string;
  private openKey: string;

  constructor(
    private readonly ctx: ViewContext,
    private turnId: string,
    private blockId: string,
    inGroup = false,
  ) {
    this.key = blockKey(turnId, blockId);
    this.openKey = toolOpenKey(turnId, blockId);
    this.chevron = h('span', { class: 'tool-chevron', attrs: { 'aria-hidden': 'true' } });
    this.summary = h('span', { class: 'tool-summary' });
    this.line = h(
      'button',
      {
        class: 'tool-line',
        attrs: { type: 'button', 'aria-expanded': 'false' },
        on: { click: () => this.toggle() },
      },
      [this.chevron, this.summary],
    ) as HTMLButtonElement;
    this.params = h('dl', { class: 'tool-params' });
    this.output = h('div', { class: 'tool-output' });
    this.card = h('div', { class: 'tool-card' }, [this.params, this.output]);
    this.el = h(
      'div',
      {
        class: `row block block-tool${inGroup ? ' in-group' : ''}`,
        attrs: { 'data-block-type': 'tool', 'data-block-id': blockId, 'data-turn-id': turnId },
      },
      [this.line, this.card],
    );
    this.update();
  }

  /** Shows another tool call (this row left the DOM): the same elements, patched. */
  rebind(row: Row): void {
    if (row.kind !== 'block') return;
    this.turnId = row.turnId;
    this.blockId = row.blockId;
    this.key = blockKey(row.turnId, row.blockId);
    this.openKey = toolOpenKey(row.turnId, row.blockId);
    this.el.classList.toggle('in-group', row.inGroup === true);
    this.el.setAttribute('data-block-id', row.blockId);
    this.el.setAttribute('data-turn-id', row.turnId);
    this.log?.el.remove();
    this.log = undefined;
    this.update();
  }

  private get open(): boolean {
    return this.ctx.expanded.has(this.openKey);
  }

  private toggle(): void {
    if (this.open) this.ctx.expanded.delete(this.openKey);
    else this.ctx.expanded.add(this.openKey);
    this.update();
  }

  update(): void {
    const b = this.block();
    if (!b) return;
    const cutOff = isCutOff(this.ctx, this.turnId, b);
    this.el.setAttribute('data-status', b.status);
    this.el.toggleAttribute('data-cut-off', cutOff);
    fillToolLine(this.summary, b, cutOff);
    const open = this.open;
    this.line.setAttribute('aria-expanded', String(open));
    this.chevron.textContent = open ? '▾' : '▸';
    this.card.hidden = !open;
    if (!open) {
      // Closed: nothing of the card is kept in the DOM (a long log costs only when shown).
      clear(this.params);
      clear(this.output);
      this.log?.el.remove();
      this.log = undefined;
      return;
    }
    this.renderCard(b);
  }

  private renderCard(b: ToolBlock): void {
    clear(this.params);
    const entries = Object.entries(b.parameters);
    this.params.hidden = entries.length === 0;
    for (const [k, v] of entries) {
      this.params.appendChild(
        h('div', { class: 'param' }, [
          h('dt', { text: k }),
          h('dd', {}, [
            clippedValue(this.ctx, `param\u0000${this.key}\u0000${k}`, valueText(v), 'param-value'),
          ]),
        ]),
      );
    }
    if (!this.log) {
      this.log = new ToolLogView(this.ctx, this.turnId, this.key, b.name || 'tool');
      this.card.insertBefore(this.log.el, this.output);
    }
    this.log.render(b);
    clear(this.output);
    this.output.hidden = b.output === undefined;
    if (b.output === undefined) return;
    const okey = `output\u0000${this.key}`;
    const json = jsonOutput(b.output);
    this.output.append(
      h('div', {
        class: 'tool-output-label',
        text: b.status === 'error' ? l10n.t('Error') : l10n.t('Result'),
      }),
      json !== undefined
        ? h('div', { class: 'tool-output-value tool-output-fields' }, [jsonFields(this.ctx, okey, json)])
        : clippedValue(this.ctx, okey, valueText(b.output), 'tool-output-value', true),
    );
  }

  appendLog(text: string, stream: 'stdout' | 'stderr'): void {
    const b = this.block();
    if (!b) return;
    fillToolLine(this.summary, b, isCutOff(this.ctx, this.turnId, b));
    this.log?.append(b, text, stream);
  }

  private block(): ToolBlock | undefined {
    const b = this.ctx.store.block(this.turnId, this.blockId);
    return b?.type === 'tool' ? b : undefined;
  }
}
