/**
 * Row views around a turn's blocks: the request (a heading, mode, fast/think, attachments), the plan
 * checklist (updated in place), the changed files (each opens the file) and the status line.
 */
import { l10n } from '../../../core/shared/l10n';
import type { Todo } from '../../../core/transcript/model';
import {
  fileStateLetter,
  fileStateWord,
  fileStatusText,
  fileStatusWords,
  runsCodeNote,
} from '../../../protocol/session-panel/file-status-text';
import type { FileStatusView } from '../../../protocol/session-panel/messages';
import { reviewedCountText } from '../../../protocol/session-panel/reviewed';
import type { FileChange } from '../../../core/transcript/model';
import { clear, h, morphChildren } from '../../shared/dom';
import {
  effortLabels,
  errorCodeText,
  etaLeft,
  modeLabels,
  formatBytes,
  turnStatusText,
} from '../../shared/format';
import { answerBox } from './answer-box';
import type { RowView, ViewContext } from './context';

/** Characters of the request shown in the turn's heading (the rest follows it as text). */
const TITLE_CLIP = 160;

function rowEl(cls: string, turnId: string): HTMLElement {
  return h('div', { class: `row ${cls}`, attrs: { 'data-turn-id': turnId } });
}

export class UserMessageView implements RowView {
  readonly el: HTMLElement;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
  ) {
    this.el = rowEl('turn-header', turnId);
    this.update();
  }

  update(): void {
    const t = this.ctx.store.turn(this.turnId);
    if (!t) return;
    const u = t.header.userMessage;
    clear(this.el);
    const text = u.text.trim() || l10n.t('(no request text)');
    const firstLine = text.split('\n')[0];
    const title = firstLine.length > TITLE_CLIP ? `${firstLine.slice(0, TITLE_CLIP)}…` : firstLine;
    this.el.appendChild(
      h('h2', { class: 'turn-title' }, [
        h('span', { class: 'visually-hidden', text: l10n.t('You asked: ') }),
        title,
      ]),
    );
    if (title !== text) this.el.appendChild(h('p', { class: 'turn-text', text }));
    const meta = h('div', { class: 'turn-meta' });
    if (u.mode)
      meta.appendChild(h('span', { class: 'badge turn-mode', text: modeLabels()[u.mode] ?? u.mode }));
    if (u.effort)
      meta.appendChild(h('span', { class: 'badge turn-effort', text: effortLabels()[u.effort] ?? u.effort }));
    if (u.files.length > 0) {
      meta.appendChild(
        h(
          'ul',
          { class: 'file-chips', attrs: { 'aria-label': l10n.t('Attachments') } },
          u.files.map((f) => h('li', { class: 'file-chip', text: `${f.name} (${formatBytes(f.size)})` })),
        ),
      );
    }
    if (meta.childNodes.length > 0) this.el.appendChild(meta);
  }
}

const todoState = (): Record<Todo['status'], { icon: string; checked: string; words: string }> => ({
  pending: { icon: '○', checked: 'false', words: l10n.t('to do') },
  active: { icon: '◐', checked: 'mixed', words: l10n.t('in progress') },
  completed: { icon: '✓', checked: 'true', words: l10n.t('done') },
});

export class PlanView implements RowView {
  readonly el: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly items = new Map<string, HTMLLIElement>();

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
  ) {
    this.el = rowEl('block-plan plan', turnId);
    this.progress = h('span', { class: 'plan-progress' });
    this.list = h('ul', { class: 'todos' });
    this.el.append(h('h3', { class: 'plan-title' }, [l10n.t('Plan '), this.progress]), this.list);
    this.update();
  }

  /** Updates items in place (keyed by todo id) so focus and screen-reader position survive. */
  update(): void {
    const todos = this.ctx.store.turn(this.turnId)?.plan?.todos ?? [];
    const seen = new Set<string>();
    let done = 0;
    const states = todoState();
    todos.forEach((todo, i) => {
      seen.add(todo.id);
      if (todo.status === 'completed') done++;
      const st = states[todo.status] ?? states.pending;
      let li = this.items.get(todo.id);
      if (!li) {
        li = h('li', { class: 'todo', attrs: { 'data-todo-id': todo.id } }, [
          h('span', { class: 'todo-check', attrs: { role: 'checkbox', 'aria-readonly': 'true' } }, [
            h('span', { class: 'todo-icon', attrs: { 'aria-hidden': 'true' } }),
            h('span', { class: 'todo-text' }),
            h('span', { class: 'visually-hidden todo-state' }),
          ]),
        ]);
        this.items.set(todo.id, li);
      }
      if (this.list.children[i] !== li) this.list.insertBefore(li, this.list.children[i] ?? null);
      li.setAttribute('data-status', todo.status);
      const check = li.firstElementChild as HTMLElement;
      check.setAttribute('aria-checked', st.checked);
      (check.children[0] as HTMLElement).textContent = st.icon;
      (check.children[1] as HTMLElement).textContent = todo.content;
      (check.children[2] as HTMLElement).textContent = ` (${st.words})`;
    });
    for (const [id, li] of this.items) {
      if (!seen.has(id)) {
        li.remove();
        this.items.delete(id);
      }
    }
    this.progress.textContent = `${done}/${todos.length}`;
  }
}

const changes = (): Record<string, { badge: string; words: string }> => ({
  added: { badge: 'A', words: l10n.t('added') },
  updated: { badge: 'M', words: l10n.t('updated') },
  deleted: { badge: 'D', words: l10n.t('deleted') },
});

/**
 * A turn's changed files: each opens the file, says its state against the workspace when the host
 * sent one (`fileStatus`) and can be compared with the workspace file; the turn's changes can be
 * reviewed or applied. The buttons run Den's commands (`runCommand`).
 */
export class FilesView implements RowView {
  readonly el: HTMLElement;
  /**
   * What each button does, by its `data-action`: the buttons are kept across updates (`morphChildren`)
   * and act through one listener on the row, so a button pressed or focused while a delta updates the
   * row (a file's state, a reviewed mark) is still there, and does what the row says now.
   */
  #actions = new Map<string, () => void>();

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
  ) {
    this.el = rowEl('block-files files', turnId);
    this.el.addEventListener('click', (e) => {
      const button = e.target instanceof Element ? e.target.closest('button[data-action]') : null;
      if (button && this.el.contains(button)) this.#actions.get(button.getAttribute('data-action')!)?.();
    });
    this.update();
  }

  update(): void {
    const store = this.ctx.store;
    const turn = store.turn(this.turnId);
    const files = turn?.files ?? [];
    const sessionId = store.session?.sessionId;
    // `den.applyTurn` takes the agent message's id, or the request's while there is none.
    const turnRef = this.turnId || turn?.header.userMessage.id;
    this.#actions = new Map();
    const reviewed = files.filter((f) => store.isReviewed(f)).length;
    const head = h('div', { class: 'files-head' }, [
      h('h3', { class: 'files-title', text: l10n.t('Files changed ({0})', files.length) }),
    ]);
    if (files.length) {
      head.appendChild(
        h('span', {
          class: 'files-reviewed',
          text: reviewedCountText(reviewed, files.length),
          attrs: { 'data-reviewed': String(reviewed), 'data-total': String(files.length) },
        }),
      );
    }
    if (sessionId && turnRef) {
      // One group: in a narrow panel it moves to a line of its own whole, never one button apart.
      head.append(
        h('span', { class: 'files-actions' }, [
          this.action(
            'review',
            l10n.t('Review Changes'),
            l10n.t('Review this turn’s changes against the workspace'),
            'den.reviewTurn',
            [sessionId, turnRef],
          ),
          this.action(
            'apply',
            l10n.t('Apply'),
            l10n.t('Apply this turn’s files to the workspace'),
            'den.applyTurn',
            [sessionId, turnRef],
          ),
        ]),
      );
    }
    const list = h('ul', { class: 'file-list' });
    const change = changes();
    for (const f of files) {
      // The letter says the file's state against the workspace once the host knows it (A new,
      // M modified, D deleted, C conflicts, = identical); until then what the agent did to it.
      const st = store.fileStatusOf(f.path);
      const agent = change[f.change] ?? change.updated;
      const c = st
        ? {
            badge: fileStateLetter(st.state),
            words: l10n.t('{0} against the workspace', fileStateWord(st.state)),
          }
        : { badge: agent.badge, words: l10n.t('{0} by the agent', agent.words) };
      // One line a file at any width: the name first (it stays when the line is cut), then its
      // folder; the whole path is in the tooltip and the accessible name.
      const slash = f.path.lastIndexOf('/', f.path.length - 2);
      const name = slash >= 0 ? f.path.slice(slash + 1) : f.path;
      const dir = slash > 0 ? f.path.slice(0, slash) : '';
      const open = `open:${f.path}`;
      this.#actions.set(open, () => this.ctx.post({ type: 'openFile', turnId: this.turnId, path: f.path }));
      const item = h('li', { class: 'file-item', attrs: { 'data-key': f.path } }, [
        h(
          'button',
          {
            class: 'file-change',
            attrs: {
              type: 'button',
              'data-action': open,
              'data-change': f.change,
              ...(st ? { 'data-state': st.state } : {}),
              'data-path': f.path,
              // The state's words too: a narrow panel shows only its letter.
              title: st ? `${l10n.t('Open {0}', f.path)}\n${fileStatusText(st)}` : l10n.t('Open {0}', f.path),
            },
          },
          [
            h('span', { class: 'file-badge', text: c.badge, attrs: { 'aria-hidden': 'true' } }),
            h('span', { class: 'file-path', attrs: { 'aria-hidden': 'true' } }, [
              h('span', { class: 'file-name', text: name }),
              ...(dir ? [h('span', { class: 'file-dir', text: dir })] : []),
            ]),
            h('span', { class: 'visually-hidden file-full-path', text: f.path }),
            h('span', { class: 'visually-hidden file-words', text: ` (${c.words})` }),
          ],
        ),
      ]);
      if (st) item.appendChild(stateBadge(st));
      if (sessionId) item.appendChild(this.reviewedToggle(sessionId, f, store.isReviewed(f)));
      if (sessionId) {
        item.appendChild(
          this.action(
            `compare:${f.path}`,
            l10n.t('Compare'),
            l10n.t('Compare {0} with the workspace file', f.path),
            'den.compareWithWorkspace',
            turnRef ? [sessionId, f.path, { turn: turnRef }] : [sessionId, f.path],
            '⇄',
          ),
        );
      }
      list.appendChild(item);
    }
    morphChildren(this.el, [head, list]);
  }

  /**
   * The file's reviewed mark as a toggle button (`aria-pressed`): it runs `den.setReviewed` for the
   * turn's version of the file, so a later turn's change of it is not marked.
   */
  private reviewedToggle(sessionId: string, f: FileChange, reviewed: boolean): HTMLElement {
    const version: Record<string, unknown> = { key: f.key };
    if (f.updatedAt !== undefined) version.updatedAt = f.updatedAt;
    if (f.change === 'deleted') version.deleted = true;
    const title = reviewed
      ? l10n.t('Mark {0} as not reviewed', f.path)
      : l10n.t('Mark {0} as reviewed', f.path);
    const action = `reviewed:${f.path}`;
    this.#actions.set(action, () =>
      this.ctx.post({
        type: 'runCommand',
        command: 'den.setReviewed',
        args: [sessionId, f.path, version, !reviewed],
      }),
    );
    return h(
      'button',
      {
        class: 'secondary small file-reviewed',
        attrs: {
          type: 'button',
          'aria-pressed': String(reviewed),
          'aria-label': l10n.t('Reviewed: {0}', f.path),
          title,
          'data-command': 'den.setReviewed',
          'data-action': action,
        },
      },
      [
        // The box holds its check always (a steady baseline), seen only when pressed.
        h('span', { class: 'reviewed-mark', attrs: { 'aria-hidden': 'true' } }, [
          h('span', { class: 'reviewed-check', text: '✓' }),
        ]),
        // In a narrow panel the box alone (the accessible name and tooltip still say it).
        h('span', { class: 'wide-only', text: l10n.t('Reviewed') }),
      ],
    );
  }

  /** A command button (`action`: its name in the row); with `icon`, a narrow panel shows the icon instead of the words. */
  private action(
    action: string,
    text: string,
    label: string,
    command: string,
    args: unknown[],
    icon?: string,
  ): HTMLElement {
    this.#actions.set(action, () => this.ctx.post({ type: 'runCommand', command, args }));
    return h(
      'button',
      {
        class: `secondary small file-action${icon ? ' has-icon' : ''}`,
        attrs: {
          type: 'button',
          'aria-label': label,
          title: label,
          'data-command': command,
          'data-action': action,
        },
      },
      icon
        ? [
            h('span', { class: 'wide-only', text }),
            h('span', { class: 'narrow-only', text: icon, attrs: { 'aria-hidden': 'true' } }),
          ]
        : [text],
    );
  }
}

/** A file's state against the workspace: short text shown, words for screen readers, why as a tooltip. */
function stateBadge(st: FileStatusView): HTMLElement {
  const attrs: Record<string, string> = { 'data-state': st.state };
  if (st.runsCode !== undefined) attrs['data-runs-code'] = 'true';
  // The tooltip repeats the words, which a narrow panel may cut.
  attrs.title = [runsCodeNote(st), st.reason ?? '', fileStatusText(st)].filter(Boolean).join('\n');
  return h('span', { class: 'file-state', attrs }, [
    h('span', { text: fileStatusText(st), attrs: { 'aria-hidden': 'true' } }),
    h('span', {
      class: 'visually-hidden',
      text: l10n.t(', against the workspace: {0}', fileStatusWords(st)),
    }),
  ]);
}

const STATUS_ICON: Record<string, string> = {
  queued: '…',
  running: '◌',
  completed: '✓',
  aborted: '■',
  error: '✕',
};

export class StatusLineView implements RowView {
  readonly el: HTMLElement;
  private readonly text = h('span', { class: 'status-text' });
  private tick: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: ViewContext,
    private readonly turnId: string,
  ) {
    this.el = rowEl('turn-status', turnId);
    this.update();
  }

  update(): void {
    const t = this.ctx.store.turn(this.turnId);
    if (!t) return;
    clear(this.el);
    this.el.setAttribute('data-status', t.header.status);
    const now = Date.now();
    this.el.append(
      h('span', {
        class: 'status-icon',
        text: STATUS_ICON[t.header.status] ?? '',
        attrs: { 'aria-hidden': 'true' },
      }),
      this.text,
    );
    this.text.textContent = turnStatusText(t.header, now);
    // The error's code is a detail for whoever reports it: the line says the message in words.
    const code = errorCodeText(t.header);
    if (code) {
      this.el.append(
        h('details', { class: 'status-detail' }, [
          h('summary', { text: l10n.t('Details') }),
          h('span', { class: 'status-code', text: code }),
        ]),
      );
    }
    const ask = answerBox(this.ctx, t.header);
    if (ask) this.el.append(ask);
    this.countDown(t.header.status === 'running' && etaLeft(t.header, now) !== undefined);
  }

  /**
   * While a time estimate shows, its words are written again each second (it counts down, then
   * goes); only the text changes, so an answer being typed below is left alone.
   */
  private countDown(on: boolean): void {
    if (this.tick !== undefined) clearTimeout(this.tick);
    this.tick = undefined;
    if (!on) return;
    this.tick = setTimeout(() => {
      this.tick = undefined;
      const t = this.ctx.store.turn(this.turnId);
      // A row that left the DOM (windowing) stops: a new view is made when it comes back.
      if (!t || !this.el.isConnected) return;
      const now = Date.now();
      this.text.textContent = turnStatusText(t.header, now);
      this.countDown(t.header.status === 'running' && etaLeft(t.header, now) !== undefined);
    }, 1000);
  }
}
