/**
 * The bar above the composer while the session has open line comments on the agent's files: how
 * many, and **Send Feedback**, which runs `den.sendFeedback` for this session through the host
 * (`docs/review-and-apply.md`, "Comments that become the next turn"). Hidden when there are none.
 */
import { formatCount, l10n } from '../../core/shared/l10n';
import { clear, h } from '../shared/dom';
import type { Post } from '../shared/post';

export class FeedbackBar {
  readonly el: HTMLElement;

  constructor(private readonly post: Post) {
    this.el = h('div', { id: 'feedback-bar', class: 'feedback-bar', attrs: { role: 'region' } });
    this.el.setAttribute('aria-label', l10n.t('Comments for the agent'));
    this.el.hidden = true;
  }

  set(sessionId: string, open: number): void {
    clear(this.el);
    this.el.hidden = open === 0;
    if (open === 0) return;
    const words =
      open === 1
        ? l10n.t('1 open comment on the agent’s files')
        : l10n.t('{0} open comments on the agent’s files', formatCount(open));
    this.el.append(
      h('span', { class: 'feedback-count', text: words }),
      h('button', {
        class: 'feedback-send small',
        text: l10n.t('Send Feedback'),
        attrs: {
          type: 'button',
          title: l10n.t('Send every open comment as the next turn (code mode)'),
          'data-command': 'den.sendFeedback',
        },
        on: {
          click: () => this.post({ type: 'runCommand', command: 'den.sendFeedback', args: [sessionId] }),
        },
      }),
    );
  }
}
