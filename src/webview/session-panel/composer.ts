/**
 * The composer at the bottom of the panel: a growing textarea (Enter sends, Shift+Enter breaks the
 * line, Escape leaves it), mode picker, fast/think toggle, the attempts picker (a new session's task
 * as 2–4 sessions), attachment chips, Send / Stop / Continue,
 * queue and rate-limit indicators. Draft, mode and effort are persisted through `persist`. Mode and
 * effort are the session's composer choice, owned by the host (`ComposerChoice`): the composer shows
 * what the host says and reports the person's changes (and, in a restored panel, its saved choice).
 */
import { l10n } from '../../core/shared/l10n';
import {
  MODES,
  type AttachmentView,
  type ComposerState,
  type Effort,
  type Mode,
  type SendOutcome,
  type WebviewMessage,
  type WebviewPersistedState,
} from '../../protocol/session-panel/messages';
import { clear, h } from '../shared/dom';
import { effortLabels, modeLabels, formatBytes, secondsLeft } from '../shared/format';

export interface ComposerDeps {
  post: (m: WebviewMessage) => void;
  persist: (patch: Partial<WebviewPersistedState>) => void;
  /** Whether a turn with this request text exists (a send that did not create one is restored). */
  hasTurnWithText: (text: string) => boolean;
  /** Whether the page shows no turn yet (the host's `attempts` says whether the session is new). */
  isNewSession?: () => boolean;
  /** The person edited the draft (typed, pasted, cut). */
  edited?: () => void;
  now?: () => number;
}

// Two sends closer than this are one double press.
const DOUBLE_SEND_MS = 800;

export class ComposerView {
  readonly el: HTMLFormElement;
  readonly textarea: HTMLTextAreaElement;
  private readonly mode: HTMLSelectElement;
  /** How many attempts a new session's task runs as (1: a plain turn). */
  private readonly attempts: HTMLSelectElement;
  private readonly effortButtons: Record<Effort, HTMLButtonElement>;
  private readonly chips: HTMLUListElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly cont: HTMLButtonElement;
  private readonly queued: HTMLElement;
  private readonly rateLimit: HTMLElement;
  private readonly reason: HTMLElement;
  private state: ComposerState | undefined;
  private effort: Effort = 'fast';
  private restoredChoice: boolean;
  private lastHost: { mode?: Mode; effort?: Effort } = {};
  private continueTurnId: string | undefined;
  /** What a turn that waits for the person asks (a send answers it). */
  private asked: string | undefined;
  private lastSendAt = -Infinity;
  /** The send the host has not answered yet: its id and the text typed (kept across a reload). */
  private pending: { id: string; text: string } | undefined;
  /** The message the host held back after a 429, as last told. */
  private held: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;
  private shownChips: AttachmentView[] | undefined;

  constructor(
    private readonly deps: ComposerDeps,
    initial: Partial<WebviewPersistedState> = {},
  ) {
    this.now = deps.now ?? Date.now;
    this.textarea = h('textarea', {
      id: 'composer-input',
      class: 'composer-input',
      attrs: {
        rows: '2',
        'aria-label': l10n.t('Message to the agent'),
        placeholder: l10n.t('Ask the agent… (Enter to send, Shift+Enter for a new line)'),
      },
      on: { input: () => this.onInput(), keydown: (e) => this.onKey(e) },
    });
    this.textarea.value = initial.draft ?? '';
    this.pending = initial.pendingSend;
    this.mode = h(
      'select',
      {
        id: 'mode',
        class: 'mode-picker',
        attrs: { 'aria-label': l10n.t('Mode') },
        on: { change: () => this.choiceChanged() },
      },
      MODES.map((m) => h('option', { text: modeLabels()[m], attrs: { value: m } })),
    );
    if (initial.mode) this.mode.value = initial.mode;
    this.attempts = h(
      'select',
      {
        id: 'attempts',
        class: 'mode-picker attempts-picker',
        attrs: {
          'aria-label': l10n.t('Attempts'),
          title: l10n.t(
            'Run the task as several attempts: new sessions started together, compared in the Attempts view',
          ),
        },
        on: { change: () => this.render() },
      },
      [1, 2, 3, 4].map((n) =>
        h('option', {
          text: n === 1 ? l10n.t('1 attempt') : l10n.t('{0} attempts', n),
          attrs: { value: String(n) },
        }),
      ),
    );
    if (initial.effort) this.effort = initial.effort;
    this.restoredChoice = initial.mode !== undefined || initial.effort !== undefined;
    const effortButton = (e: Effort): HTMLButtonElement =>
      h('button', {
        id: `effort-${e}`,
        class: 'segment',
        text: effortLabels()[e],
        attrs: { type: 'button', 'aria-pressed': 'false' },
        on: { click: () => this.setEffort(e) },
      });
    this.effortButtons = { fast: effortButton('fast'), think: effortButton('think') };
    this.chips = h('ul', {
      id: 'attachments',
      class: 'attachments',
      attrs: { 'aria-label': l10n.t('Attachments') },
    });
    this.send = h('button', {
      id: 'send',
      class: 'primary',
      text: l10n.t('Send'),
      attrs: { type: 'submit' },
    });
    this.stop = h('button', {
      id: 'stop',
      class: 'secondary',
      text: l10n.t('Stop'),
      attrs: { type: 'button' },
      on: { click: () => deps.post({ type: 'stop' }) },
    });
    this.cont = h('button', {
      id: 'continue',
      class: 'secondary',
      text: l10n.t('Continue'),
      attrs: {
        type: 'button',
        title: l10n.t(
          'Asks the agent to go on from where the last turn ended (with what you typed, if anything)',
        ),
      },
      on: { click: () => this.submit(true) },
    });
    // On the composer's top edge, out of the flow (its coming and going moves nothing), and always
    // in the page (empty when nothing waits), so that screen readers hear it change.
    this.queued = h('span', { id: 'queued', class: 'badge queued-badge', attrs: { role: 'status' } });
    this.rateLimit = h('span', { id: 'rate-limit', class: 'composer-note', attrs: { role: 'status' } });
    this.reason = h('span', { id: 'send-disabled-reason', class: 'composer-note' });
    const attach = h('button', {
      id: 'attach',
      class: 'secondary',
      text: l10n.t('Attach files…'),
      attrs: {
        type: 'button',
        'aria-label': l10n.t('Attach files'),
        title: l10n.t('Attach files (or hold Shift and drop files from the Explorer on the panel)'),
      },
      on: { click: () => deps.post({ type: 'pickAttachments' }) },
    });
    const effortGroup = h(
      'div',
      { id: 'effort', class: 'segmented', attrs: { role: 'group', 'aria-label': l10n.t('Fast or think') } },
      [this.effortButtons.fast, this.effortButtons.think],
    );
    this.el = h(
      'form',
      {
        id: 'composer',
        class: 'composer',
        attrs: { 'aria-label': l10n.t('Composer') },
        on: {
          submit: (e) => {
            e.preventDefault();
            this.submit(false);
          },
        },
      },
      [
        this.queued,
        this.chips,
        this.textarea,
        h('div', { class: 'composer-bar' }, [
          this.mode,
          effortGroup,
          this.attempts,
          attach,
          h('span', { class: 'composer-spacer' }),
          this.rateLimit,
          this.reason,
          this.cont,
          this.stop,
          this.send,
        ]),
      ],
    );
    this.renderEffort();
    this.render();
  }

  /** The draft as typed. */
  text(): string {
    return this.textarea.value;
  }

  focus(): void {
    this.textarea.focus();
  }

  /**
   * The host's composer state, the turn the Continue button would continue, and what a waiting turn
   * asks (a send then answers it: the host sends it over that turn's socket).
   */
  setState(c: ComposerState, continueTurnId: string | undefined, asked?: string): void {
    this.state = c;
    this.continueTurnId = continueTurnId;
    this.asked = asked;
    this.textarea.placeholder =
      asked === undefined
        ? l10n.t('Ask the agent… (Enter to send, Shift+Enter for a new line)')
        : l10n.t('Answer the agent… (Enter to send your answer)');
    if (this.restoredChoice) {
      // The panel was restored: its own choice wins, and the host learns it.
      this.restoredChoice = false;
      if (c.mode !== this.mode.value || c.effort !== this.effort) this.choiceChanged();
    } else {
      if (c.mode !== this.lastHost.mode) this.mode.value = c.mode;
      if (c.effort !== this.lastHost.effort) this.effort = c.effort;
    }
    this.lastHost = { mode: c.mode, effort: c.effort };
    // The host let go of a held message without sending it (Edit, or it failed): back to the draft.
    if (this.held !== undefined && c.held === undefined) this.giveBack(this.held);
    this.held = c.held;
    this.renderEffort();
    this.render();
  }

  private onInput(): void {
    this.deps.edited?.();
    this.grow();
    this.render();
    if (this.draftTimer) clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => this.deps.persist({ draft: this.textarea.value }), 250);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      this.textarea.blur();
      return;
    }
    if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.isComposing) return;
    e.preventDefault();
    this.submit(false);
  }

  private submit(continuing: boolean): void {
    if (this.blockedReason() !== undefined) return;
    const c = this.state!;
    const typed = this.textarea.value.trim();
    if (!typed && !continuing) return;
    const now = this.now();
    if (c.sending || now - this.lastSendAt < DOUBLE_SEND_MS) return;
    this.lastSendAt = now;
    const msg: WebviewMessage = {
      type: 'send',
      text: typed || 'Continue',
      mode: this.currentMode(),
      effort: this.effort,
    };
    if (continuing && this.continueTurnId) msg.continueTurnId = this.continueTurnId;
    const attempts = this.attemptCount();
    if (!continuing && attempts > 1) msg.attempts = attempts;
    const id = `${now.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    msg.sendId = id;
    this.deps.post(msg);
    // The text leaves the composer, but is kept until the host says a turn started with it.
    this.pending = { id, text: typed };
    this.deps.persist({ pendingSend: this.pending });
    this.setDraft('');
  }

  /**
   * The host's answer to the send `sendId`: a turn started, the service held it back (429: the
   * `held` state gives it back when let go), or it was refused, and the typed text comes back,
   * before anything typed since. An answer to another send (an older page's) changes nothing.
   */
  settle(sendId: string, outcome: SendOutcome): void {
    const p = this.pending;
    if (!p || p.id !== sendId) return;
    this.pending = undefined;
    this.deps.persist({ pendingSend: undefined });
    if (outcome !== 'refused' || !p.text) return;
    const now = this.textarea.value;
    if (now.trim() === '') this.setDraft(p.text);
    else if (!now.includes(p.text)) this.setDraft(`${p.text}\n\n${now}`);
  }

  /** Puts a message that started no turn back into an empty composer. */
  private giveBack(text: string): void {
    if (!this.deps.hasTurnWithText(text) && this.textarea.value === '') this.setDraft(text);
  }

  /** Replaces the draft (and persists it). */
  setDraft(text: string): void {
    this.textarea.value = text;
    this.grow();
    this.deps.persist({ draft: text });
    this.render();
  }

  /** Whether the host offers attempts (a new session with no turn yet) and no turn is shown. */
  private offersAttempts(): boolean {
    return this.state?.attempts === true && (this.deps.isNewSession?.() ?? true);
  }

  /** The attempts chosen, when the session is new (else 1: a plain turn). */
  private attemptCount(): number {
    if (!this.offersAttempts()) return 1;
    const n = Number(this.attempts.value);
    return Number.isInteger(n) && n >= 1 ? n : 1;
  }

  private currentMode(): Mode {
    return (MODES as readonly string[]).includes(this.mode.value) ? (this.mode.value as Mode) : 'auto';
  }

  private setEffort(e: Effort): void {
    if (this.effort === e) return;
    this.effort = e;
    this.renderEffort();
    this.choiceChanged();
  }

  private choiceChanged(): void {
    const mode = this.currentMode();
    this.deps.persist({ mode, effort: this.effort });
    this.deps.post({ type: 'composerChoice', mode, effort: this.effort });
  }

  private renderEffort(): void {
    for (const e of ['fast', 'think'] as const) {
      this.effortButtons[e].setAttribute('aria-pressed', String(this.effort === e));
    }
  }

  private grow(): void {
    const ta = this.textarea;
    ta.style.height = 'auto';
    ta.style.height = `${ta.scrollHeight + 2}px`;
  }

  /** Why Send cannot be used now (undefined: it can). */
  private blockedReason(): string | undefined {
    const c = this.state;
    if (!c) return l10n.t('Loading…');
    if (c.disabledReason) return c.disabledReason;
    if (c.rateLimitedUntil !== undefined && secondsLeft(c.rateLimitedUntil, this.now()) > 0)
      return l10n.t('Rate limited');
    if (c.attachments.some((a) => a.status === 'uploading')) return l10n.t('Waiting for uploads…');
    return undefined;
  }

  /** Re-renders buttons, indicators and chips from the state. */
  render(): void {
    const c = this.state;
    const blocked = this.blockedReason();
    const running = c?.running ?? false;
    const sending = c?.sending ?? false;
    this.send.disabled = blocked !== undefined || sending || this.textarea.value.trim() === '';
    const answering = this.asked !== undefined;
    this.attempts.hidden = !this.offersAttempts();
    const attempts = this.attemptCount();
    this.send.textContent = sending
      ? l10n.t('Sending…')
      : answering
        ? l10n.t('Answer')
        : attempts > 1
          ? l10n.t('Start {0} Attempts', attempts)
          : l10n.t('Send');
    this.send.setAttribute('aria-busy', String(sending));
    this.send.title = answering
      ? l10n.t('Sends your answer to the turn that waits for it (Enter)')
      : attempts > 1
        ? l10n.t('Starts the task as {0} sessions together (Enter)', attempts)
        : running
          ? l10n.t('Sends after the running turn')
          : l10n.t('Send (Enter)');
    const uploading = l10n.t('Waiting for uploads…');
    this.reason.hidden = !c?.disabledReason && blocked !== uploading;
    this.reason.textContent = c?.disabledReason ?? (blocked === uploading ? blocked : '');
    this.stop.hidden = !running;
    this.cont.hidden = running || !this.continueTurnId;
    this.cont.disabled = blocked !== undefined || sending;
    const queued = c && c.queued > 0 ? l10n.t('{0} queued', c.queued) : '';
    if (this.queued.textContent !== queued) this.queued.textContent = queued;
    this.queued.title = c && c.queued > 0 ? l10n.t('Sent, waiting for the running turn to end') : '';
    this.renderRateLimit();
    const chips = c?.attachments ?? [];
    if (chips !== this.shownChips) this.renderChips(chips);
    this.shownChips = chips;
  }

  private renderRateLimit(): void {
    const until = this.state?.rateLimitedUntil;
    const left = until !== undefined ? secondsLeft(until, this.now()) : 0;
    this.rateLimit.hidden = left <= 0;
    this.rateLimit.textContent = left > 0 ? l10n.t('Rate limited: you can send again in {0} s', left) : '';
    if (left > 0 && !this.timer) {
      this.timer = setInterval(() => this.render(), 1000);
    } else if (left <= 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private renderChips(list: AttachmentView[]): void {
    clear(this.chips);
    this.chips.hidden = list.length === 0;
    for (const a of list) {
      const parts: (Node | string)[] = [
        h('span', { class: 'chip-name', text: a.name }),
        h('span', { class: 'chip-size', text: formatBytes(a.size) }),
      ];
      if (a.unsaved) parts.push(h('span', { class: 'chip-unsaved', text: l10n.t('unsaved') }));
      if (a.status === 'uploading') {
        const pct = Math.round((a.progress ?? 0) * 100);
        parts.push(
          h('progress', {
            attrs: { max: '100', value: String(pct), 'aria-label': l10n.t('Uploading {0}', a.name) },
          }),
          h('span', { class: 'chip-progress', text: `${pct}%` }),
        );
      }
      if (a.status === 'error')
        parts.push(h('span', { class: 'chip-error', text: a.error ?? l10n.t('Upload failed') }));
      parts.push(
        h('button', {
          class: 'chip-remove',
          text: '×',
          attrs: { type: 'button', 'aria-label': l10n.t('Remove {0}', a.name) },
          on: { click: () => this.deps.post({ type: 'removeAttachment', id: a.id }) },
        }),
      );
      this.chips.appendChild(
        h('li', { class: 'attachment-chip', attrs: { 'data-status': a.status, 'data-id': a.id } }, parts),
      );
    }
  }
}
