/**
 * A tool's log: ANSI styles rendered as classes, stdout and stderr told apart, appended incrementally
 * (one parser per stream keeps styles and split escapes between chunks), and capped: only the last
 * {@link DISPLAY_CAP} characters are in the DOM, with "N characters earlier not shown — Show all".
 */
import { l10n } from '../../../core/shared/l10n';
import type { ToolBlock } from '../../../core/transcript/model';
import { AnsiParser } from '../ansi';
import { clear, h } from '../../shared/dom';
import type { ViewContext } from './context';

/** Characters of log kept in the DOM unless the whole log was asked for. */
export const DISPLAY_CAP = 20_000;

type Stream = 'stdout' | 'stderr';

export class ToolLogView {
  readonly el: HTMLElement;
  private readonly marker: HTMLElement;
  private readonly markerText: Text;
  private readonly showAll: HTMLButtonElement;
  private readonly pre: HTMLPreElement;
  private parsers = { stdout: new AnsiParser(), stderr: new AnsiParser() };
  /** Spans in the DOM with the raw characters each push accounted for. */
  private spans: { el: HTMLElement; raw: number }[] = [];
  private shownRaw = 0;
  private full = false;
  private dropped = 0;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
    private readonly key: string,
    name: string,
  ) {
    this.markerText = document.createTextNode('');
    this.showAll = h('button', {
      class: 'show-all link-button',
      text: l10n.t('Show all'),
      attrs: { type: 'button' },
      on: { click: () => this.requestAll() },
    });
    this.marker = h('div', { class: 'log-truncated' }, [this.markerText, this.showAll]);
    this.pre = h('pre', {
      class: 'tool-log',
      attrs: { tabindex: '0', 'aria-label': l10n.t('Log of {0}', name) },
    });
    this.el = h('div', { class: 'tool-log-wrap' }, [this.marker, this.pre]);
  }

  /** Renders the log afresh from the block (and the whole log, when the host sent it). */
  render(b: ToolBlock): void {
    clear(this.pre);
    this.spans = [];
    this.shownRaw = 0;
    this.parsers = { stdout: new AnsiParser(), stderr: new AnsiParser() };
    const whole = this.ctx.store.fullLogs.get(this.key);
    this.full = whole !== undefined;
    this.dropped = whole?.droppedChars ?? 0;
    if (whole !== undefined) this.push(whole.text, 'stdout');
    else {
      // The newest segments that fit under the cap, the oldest of them cut at its start.
      const parts: { data: string; stream: Stream }[] = [];
      let room = DISPLAY_CAP;
      for (let i = b.log.segments.length - 1; i >= 0 && room > 0; i--) {
        const s = b.log.segments[i];
        const data = s.data.length > room ? s.data.slice(s.data.length - room) : s.data;
        parts.unshift({ data, stream: s.stream });
        room -= data.length;
      }
      for (const p of parts) this.push(p.data, p.stream);
    }
    this.el.hidden = b.log.chars === 0 && !this.full;
    this.updateMarker(b);
    this.pre.scrollTop = this.pre.scrollHeight;
  }

  /** Appends streamed text (and trims the oldest spans past the cap). */
  append(b: ToolBlock, text: string, stream: Stream): void {
    const atBottom = this.pre.scrollTop + this.pre.clientHeight >= this.pre.scrollHeight - 4;
    this.push(text, stream);
    if (!this.full) {
      while (this.shownRaw > DISPLAY_CAP * 1.25 && this.spans.length > 1) {
        const first = this.spans.shift()!;
        first.el.remove();
        this.shownRaw -= first.raw;
      }
    }
    this.el.hidden = false;
    this.updateMarker(b);
    if (atBottom) this.pre.scrollTop = this.pre.scrollHeight;
  }

  private push(text: string, stream: Stream): void {
    const segs = this.parsers[stream].push(text);
    let raw = text.length;
    for (const s of segs) {
      const cls = `log-${stream}${s.classes ? ` ${s.classes}` : ''}`;
      const span = h('span', { class: cls, text: s.text });
      this.pre.appendChild(span);
      this.spans.push({ el: span, raw });
      raw = 0;
    }
    if (segs.length === 0 && this.spans.length > 0) this.spans[this.spans.length - 1].raw += raw;
    this.shownRaw += text.length;
  }

  private updateMarker(b: ToolBlock): void {
    if (this.full) {
      // All Den has is shown; what its cap dropped before stays said.
      this.marker.hidden = this.dropped <= 0;
      this.showAll.hidden = true;
      this.markerText.textContent = l10n.t(
        '{0} earlier characters were dropped: Den keeps only the end of a long log.',
        this.dropped.toLocaleString('en-US'),
      );
      return;
    }
    const hidden = b.log.truncatedChars + b.log.chars - this.shownRaw;
    this.marker.hidden = hidden <= 0;
    this.showAll.hidden = false;
    if (hidden <= 0) return;
    const asked = this.ctx.expanded.has(`fulllog\u0000${this.key}`);
    this.markerText.textContent = l10n.t(
      '{0} characters earlier not shown — ',
      hidden.toLocaleString('en-US'),
    );
    this.showAll.textContent = asked ? l10n.t('Loading…') : l10n.t('Show all');
  }

  private requestAll(): void {
    this.ctx.expanded.add(`fulllog\u0000${this.key}`);
    const blockId = this.key.slice(this.key.indexOf('\u0000') + 1);
    this.ctx.post({ type: 'showFullLog', turnId: this.turnId, blockId });
    this.showAll.textContent = l10n.t('Loading…');
  }
}
