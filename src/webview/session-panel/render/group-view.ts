/**
 * Consecutive tool calls as one line: "12 tool calls · 2 failed · 48 s", a button (`aria-expanded`,
 * Enter/Space) that opens the group: its calls then follow it as their own one-line rows (the rows
 * are rebuilt: see `rows.ts`; open or closed is kept in `ctx.expanded`). While a call of the group
 * runs, a closed group shows that call's line under its own, so the live step stays in sight.
 */
import type { ToolBlock } from '../../../core/transcript/model';
import { groupLineText, groupSummary } from '../../../core/transcript/tool-summary';
import { l10n } from '../../../core/shared/l10n';
import { clear, h } from '../../shared/dom';
import { formatDuration } from '../../shared/format';
import type { RowView, ViewContext } from './context';
import { groupOpenKey } from './rows';
import { fillToolLine, isCutOff } from './tool-card';

const LIVE_TURN = new Set(['queued', 'running']);

/** A group's duration: "48 s", or "under 1 s". */
function duration(seconds: number): string {
  return seconds < 1 ? l10n.t('under 1 s') : formatDuration(seconds);
}

export class ToolGroupView implements RowView {
  readonly el: HTMLElement;
  private readonly line: HTMLButtonElement;
  private readonly text: HTMLElement;
  private readonly live: HTMLElement;
  private readonly openKey: string;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
    rowKey: string,
    private blockIds: readonly string[],
  ) {
    this.openKey = groupOpenKey(rowKey);
    this.text = h('span', { class: 'group-text' });
    this.line = h(
      'button',
      {
        class: 'group-line',
        attrs: { type: 'button', 'aria-expanded': 'false' },
        on: { click: () => this.toggle() },
      },
      [h('span', { class: 'group-chevron', attrs: { 'aria-hidden': 'true' } }), this.text],
    ) as HTMLButtonElement;
    this.live = h('div', { class: 'group-live tool-line-static' });
    this.el = h('div', { class: 'row tool-group', attrs: { 'data-turn-id': turnId } }, [
      this.line,
      this.live,
    ]);
    this.update();
  }

  /** The group's calls changed (one more streamed in). */
  setBlocks(blockIds: readonly string[]): void {
    this.blockIds = blockIds;
    this.update();
  }

  private toggle(): void {
    if (this.ctx.expanded.has(this.openKey)) this.ctx.expanded.delete(this.openKey);
    else this.ctx.expanded.add(this.openKey);
    this.update();
    this.ctx.regroup();
  }

  update(): void {
    const tools: ToolBlock[] = [];
    for (const id of this.blockIds) {
      const b = this.ctx.store.block(this.turnId, id);
      if (b?.type === 'tool') tools.push(b);
    }
    const status = this.ctx.store.turn(this.turnId)?.header.status;
    const g = groupSummary(tools, status !== undefined && LIVE_TURN.has(status));
    const open = this.ctx.expanded.has(this.openKey);
    this.text.textContent = groupLineText(g, duration);
    this.line.setAttribute('aria-expanded', String(open));
    this.el.toggleAttribute('data-failed', g.failed > 0);
    this.el.toggleAttribute('data-running', g.running > 0);
    (this.line.firstChild as HTMLElement).textContent = open ? '▾' : '▸';
    const running = g.running > 0 && !open ? tools.find((t) => t.status === 'running') : undefined;
    this.live.hidden = running === undefined;
    if (running) fillToolLine(this.live, running, isCutOff(this.ctx, this.turnId, running));
    else clear(this.live);
  }
}
