/**
 * A tool run as a card: name, status (icon and words), parameters as a key/value list (long values
 * clipped with "more"), the log (see ToolLogView) and the result output.
 */
import { l10n } from '../../../core/shared/l10n';
import type { ToolBlock } from '../../../core/transcript/model';
import { parseAnsi, type AnsiSegment } from '../ansi';
import { clear, h } from '../../shared/dom';
import { valueText } from '../../shared/format';
import { blockKey } from '../state';
import type { RowView, ViewContext } from './context';
import { ToolLogView } from './tool-log';

/** Characters of a parameter value (or of the output) shown before "more". */
export const VALUE_CLIP = 300;
const LINE_CLIP = 6;

const statuses = (): Record<ToolBlock['status'], { icon: string; text: string }> => ({
  running: { icon: '◌', text: l10n.t('running…') },
  success: { icon: '✓', text: l10n.t('done') },
  error: { icon: '✕', text: l10n.t('failed') },
});

const cutOffStatus = (): { icon: string; text: string } => ({ icon: '■', text: l10n.t('did not finish') });
const LIVE_TURN = new Set(['queued', 'running']);

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

export class ToolCardView implements RowView {
  readonly el: HTMLElement;
  private readonly head: HTMLElement;
  private readonly params: HTMLElement;
  private readonly output: HTMLElement;
  private readonly log: ToolLogView;
  private readonly key: string;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
    private readonly blockId: string,
  ) {
    this.key = blockKey(turnId, blockId);
    const b = this.block();
    this.head = h('div', { class: 'tool-head' });
    this.params = h('dl', { class: 'tool-params' });
    this.output = h('div', { class: 'tool-output' });
    this.log = new ToolLogView(ctx, turnId, this.key, b?.name || 'tool');
    this.el = h(
      'div',
      {
        class: 'row block block-tool',
        attrs: { 'data-block-type': 'tool', 'data-block-id': blockId, 'data-turn-id': turnId },
      },
      [h('div', { class: 'tool-card' }, [this.head, this.params, this.log.el, this.output])],
    );
    this.update();
  }

  update(): void {
    const b = this.block();
    if (!b) return;
    // The service sends no end for a tool cut off by Stop or a failure: once its turn is over it no
    // longer runs, whatever its last status said.
    const turnStatus = this.ctx.store.turn(this.turnId)?.header.status;
    const cutOff = b.status === 'running' && turnStatus !== undefined && !LIVE_TURN.has(turnStatus);
    const all = statuses();
    const st = cutOff ? cutOffStatus() : (all[b.status] ?? all.running);
    this.el.setAttribute('data-status', b.status);
    this.el.toggleAttribute('data-cut-off', cutOff);
    clear(this.head);
    this.head.append(
      h('span', { class: 'tool-icon', text: st.icon, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'tool-name', text: b.name || 'tool' }),
      h('span', { class: 'tool-status', text: st.text }),
    );
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
    clear(this.output);
    this.output.hidden = b.output === undefined;
    if (b.output !== undefined) {
      this.output.append(
        h('div', { class: 'tool-output-label', text: l10n.t('Result') }),
        clippedValue(this.ctx, `output\u0000${this.key}`, valueText(b.output), 'tool-output-value', true),
      );
    }
    this.log.render(b);
  }

  appendLog(text: string, stream: 'stdout' | 'stderr'): void {
    const b = this.block();
    if (b) this.log.append(b, text, stream);
  }

  private block(): ToolBlock | undefined {
    const b = this.ctx.store.block(this.turnId, this.blockId);
    return b?.type === 'tool' ? b : undefined;
  }
}
