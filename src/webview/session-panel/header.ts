/**
 * The panel's header (session title, context window meter, connection state with Retry) and the notice
 * banner (an error, warning or note with action buttons that run Den commands through the host).
 * Den talks to one service (`den.baseUrl`), so its address is no headline: it is in the connection
 * state's tooltip and its screen-reader description, beside what that state means.
 */
import { l10n } from '../../core/shared/l10n';
import type { ContextUsage } from '../../core/transcript/model';
import type { ConnectionView, Notice, SessionHeader } from '../../protocol/session-panel/messages';
import { clear, h } from '../shared/dom';
import type { Post } from '../shared/post';
import { ContextMeter } from './context-meter';

const connectionText = (): Record<ConnectionView['state'], string> => ({
  idle: l10n.t('Idle'),
  loading: l10n.t('Loading…'),
  live: l10n.t('Live'),
  reconnecting: l10n.t('Reconnecting…'),
  offline: l10n.t('Offline'),
  failed: l10n.t('Connection failed'),
});

export class HeaderView {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  /** The connection's details for screen readers (what its tooltip says). */
  private readonly detail: HTMLElement;
  private service = '';
  private shown: ConnectionView = { state: 'loading' };
  private readonly state: HTMLElement;
  private readonly retry: HTMLButtonElement;
  private readonly connection: HTMLElement;
  private readonly meter = new ContextMeter();
  /** Shown while the panel is the preview: the word, and Keep Open. */
  private readonly previewMark: HTMLElement;

  constructor(post: Post) {
    this.title = h('h1', { id: 'session-title', class: 'session-title', text: l10n.t('Session') });
    this.detail = h('span', { id: 'connection-detail', class: 'visually-hidden' });
    this.state = h('span', { class: 'connection-text' });
    this.retry = h('button', {
      id: 'retry',
      class: 'secondary small',
      text: l10n.t('Retry'),
      attrs: { type: 'button' },
      on: { click: () => post({ type: 'retry' }) },
    });
    this.connection = h('div', { id: 'connection', class: 'connection' }, [
      h('span', { class: 'connection-dot', attrs: { 'aria-hidden': 'true' } }),
      this.state,
      this.detail,
      this.retry,
    ]);
    this.previewMark = h('span', { class: 'preview-mark', attrs: { hidden: '' } }, [
      h('span', {
        class: 'preview-word',
        text: l10n.t('Preview'),
        attrs: { title: l10n.t('A single click on another session shows it here instead') },
      }),
      h('button', {
        id: 'keep-open',
        class: 'secondary small',
        text: l10n.t('Keep Open'),
        attrs: { type: 'button', title: l10n.t('Keep this session open in a panel of its own') },
        on: { click: () => post({ type: 'keepOpen' }) },
      }),
    ]);
    this.el = h('header', { class: 'panel-header' }, [
      h('div', { class: 'title-line' }, [this.title, this.previewMark]),
      h('div', { class: 'header-status' }, [this.meter.el, this.connection]),
    ]);
    this.setConnection({ state: 'loading' });
  }

  setSession(s: SessionHeader): void {
    this.title.textContent = s.title || l10n.t('Untitled session');
    this.title.title = this.title.textContent;
    this.service = s.service;
    this.setConnection(this.shown);
  }

  /** The panel is the preview (its title in italics, as VS Code shows a preview editor's). */
  setPreview(preview: boolean): void {
    this.title.classList.toggle('preview', preview);
    this.previewMark.hidden = !preview;
  }

  /** The context window's use, as the latest turn that reported it says (none: hidden). */
  setContextUsage(u: ContextUsage | undefined): void {
    this.meter.set(u);
  }

  setConnection(c: ConnectionView): void {
    this.shown = c;
    this.connection.setAttribute('data-state', c.state);
    this.state.textContent = connectionText()[c.state] ?? c.state;
    const where = this.service ? l10n.t('Agent Session Service at {0}', this.service) : '';
    const details = [c.message ?? '', where].filter(Boolean);
    this.connection.title = details.join('\n');
    this.detail.textContent = details.length ? ` (${details.join('. ')})` : '';
    this.retry.hidden = c.state !== 'offline' && c.state !== 'failed';
  }
}

export class NoticeView {
  readonly el: HTMLElement;

  constructor(private readonly post: Post) {
    this.el = h('div', { id: 'notice', class: 'notice' });
    this.el.hidden = true;
  }

  set(n: Notice | null): void {
    clear(this.el);
    this.el.hidden = !n;
    if (!n) {
      this.el.removeAttribute('data-level');
      this.el.removeAttribute('role');
      return;
    }
    this.el.setAttribute('data-level', n.level);
    // Errors interrupt; warnings and notes wait their turn.
    this.el.setAttribute('role', n.level === 'error' ? 'alert' : 'status');
    this.el.appendChild(
      h('span', { class: 'notice-icon', text: ICON[n.level], attrs: { 'aria-hidden': 'true' } }),
    );
    this.el.appendChild(h('span', { class: 'notice-message', text: n.message }));
    if (n.actions.length > 0) {
      this.el.appendChild(
        h(
          'span',
          { class: 'notice-actions' },
          n.actions.map((a) =>
            'heldTurn' in a
              ? h('button', {
                  class: 'notice-action secondary small',
                  text: a.title,
                  attrs: { type: 'button', 'data-held-turn': a.heldTurn },
                  on: { click: () => this.post({ type: 'heldTurn', action: a.heldTurn }) },
                })
              : h('button', {
                  class: 'notice-action secondary small',
                  text: a.title,
                  attrs: { type: 'button', 'data-command': a.command },
                  on: { click: () => this.post({ type: 'runCommand', command: a.command }) },
                }),
          ),
        ),
      );
    }
  }
}

const ICON: Record<Notice['level'], string> = { error: '✕', warning: '⚠', info: 'ℹ' };
