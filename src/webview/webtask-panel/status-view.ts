/**
 * The shown run's status: its phase in words (Needs you made prominent), the service's task status
 * and message, what to try after a failure, the time it took or has taken so far, and Cancel /
 * Watch Live / Open in Browser while they apply.
 */
import { l10n } from '../../core/shared/l10n';
import type { WebTaskStatusView } from '../../protocol/webtask-panel/webtask-messages';
import { h } from '../shared/dom';
import type { WebTaskPost } from '../shared/post';
import { button, section } from './parts';
import { isLiveStatus, webTaskState } from '../../protocol/webtask-panel/webtask-states';
import { timeText } from './texts';

export class StatusView {
  readonly el: HTMLElement;
  private readonly phase: HTMLElement;
  private readonly taskStatus: HTMLElement;
  private readonly time: HTMLElement;
  private readonly needsYou: HTMLElement;
  private readonly message: HTMLElement;
  private readonly hint: HTMLElement;
  private readonly cancel: HTMLButtonElement;
  private readonly watch: HTMLButtonElement;
  private readonly external: HTMLButtonElement;
  private status: WebTaskStatusView | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(post: WebTaskPost) {
    this.phase = h('span', { id: 'wt-phase', class: 'wt-phase' });
    this.taskStatus = h('span', { id: 'wt-task-status', class: 'wt-note' });
    this.time = h('span', { id: 'wt-time', class: 'wt-note' });
    this.needsYou = h('p', {
      id: 'wt-needs-you',
      class: 'wt-callout',
      text: l10n.t('The task is waiting for a person: watch it live and do what it asks in the browser.'),
    });
    this.message = h('p', { id: 'wt-message', class: 'wt-message' });
    this.hint = h('p', { id: 'wt-hint', class: 'wt-hint' });
    this.cancel = button('wt-cancel', l10n.t('Cancel'), () => post({ type: 'cancel' }), 'secondary');
    this.watch = button(
      'wt-watch-live',
      l10n.t('Watch Live'),
      () => post({ type: 'watchLive', external: false }),
      '',
    );
    this.external = button(
      'wt-open-browser',
      l10n.t('Open in Browser'),
      () => post({ type: 'watchLive', external: true }),
      'secondary',
    );
    this.el = section('wt-status', l10n.t('Run'), [
      h('div', { class: 'wt-row' }, [this.phase, this.taskStatus, this.time]),
      this.needsYou,
      this.message,
      this.hint,
      h('div', { class: 'wt-row' }, [this.watch, this.external, this.cancel]),
    ]);
  }

  /** The run shown (null: none yet). */
  set(s: WebTaskStatusView | null): void {
    this.status = s ?? undefined;
    this.el.hidden = !s;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!s) return;
    // name, liveness and actions from the one table (a finished request never offers Cancel)
    const state = webTaskState(s.phase);
    const live = isLiveStatus(s);
    this.phase.textContent = state.name;
    this.phase.dataset.phase = s.phase;
    this.taskStatus.textContent = s.taskStatus;
    this.needsYou.hidden = !(state.needsPerson && live);
    this.message.textContent = s.message;
    this.message.hidden = !s.message;
    this.hint.textContent = s.hint ? l10n.t('What to try: {0}', s.hint) : '';
    this.hint.hidden = !s.hint;
    this.cancel.hidden = !(live && state.actions.includes('cancel'));
    this.watch.hidden = this.external.hidden = !(s.livestreamUrl && state.actions.includes('watchLive'));
    // Watch Live is the main action when the task needs the person.
    this.watch.className = state.needsPerson ? '' : 'secondary';
    this.tick();
    if (live) this.timer = setInterval(() => this.tick(), 1000);
  }

  private tick(): void {
    if (this.status) this.time.textContent = timeText(this.status, Date.now());
  }
}
