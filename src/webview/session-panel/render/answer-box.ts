/**
 * A turn that waits for the person, answered where it asks: the question, then Approve, Revise… and
 * Reject for a plan, or a reply box for a question. The answer is posted as `answer` (the host sends
 * it over that turn's socket: the turn goes on, nothing is queued behind it). What is typed and
 * whether an answer is on its way live in `AnswerDrafts`, outside the row, so they survive the row
 * leaving the DOM (windowing) and re-renders.
 */
import type { AnswerKind } from '../../../core/transcript/answers';
import type { SendOutcome, TurnHeader, WebviewMessage } from '../../../protocol/session-panel/messages';
import { h } from '../../shared/dom';
import { l10n } from '../../../core/shared/l10n';

interface Draft {
  /** The text box is open: for a plan's revision, or a question's reply. */
  open: boolean;
  text: string;
  /** The `sendId` of the answer on its way (buttons are disabled until the host settles it). */
  pending?: string;
  /** The question the draft belongs to: a new question starts a new draft. */
  asked: string;
}

/** Per turn: what the person typed into its answer box and whether an answer is on its way. */
export class AnswerDrafts {
  readonly #drafts = new Map<string, Draft>();

  /** The draft for the turn's current question (a new one when the question changed). */
  draft(turnId: string, asked: string): Draft {
    let d = this.#drafts.get(turnId);
    if (!d || d.asked !== asked) this.#drafts.set(turnId, (d = { open: false, text: '', asked }));
    return d;
  }

  /** Forgets a turn's draft (it no longer asks). */
  drop(turnId: string): void {
    this.#drafts.delete(turnId);
  }

  /**
   * The host settled a send: when it was an answer from a box, the box is usable again (refused:
   * the text stays to try again; answered: the box closes). Returns the turn whose row to redraw.
   */
  settle(sendId: string, outcome: SendOutcome): string | undefined {
    for (const [turnId, d] of this.#drafts) {
      if (d.pending !== sendId) continue;
      d.pending = undefined;
      if (outcome === 'answered') Object.assign(d, { open: false, text: '' });
      return turnId;
    }
    return undefined;
  }
}

export interface AnswerBoxContext {
  post: (m: WebviewMessage) => void;
  answers: AnswerDrafts;
  /** Redraws the turn's row (after a click that changed the draft). */
  redraw(turnId: string): void;
}

let sends = 0;

/** The question and its answers, or nothing when the turn does not wait. */
export function answerBox(ctx: AnswerBoxContext, t: TurnHeader): HTMLElement | undefined {
  if (t.needsInput === undefined) {
    ctx.answers.drop(t.id);
    return undefined;
  }
  const d = ctx.answers.draft(t.id, t.needsInput);
  const approval = t.asks !== 'reply';
  const send = (kind: AnswerKind, text?: string): void => {
    if (d.pending) return;
    d.pending = `answer-${Date.now().toString(36)}-${++sends}`;
    ctx.post({
      type: 'answer',
      turnId: t.id,
      kind,
      ...(text !== undefined ? { text } : {}),
      sendId: d.pending,
    });
    ctx.redraw(t.id);
  };
  const busy = d.pending !== undefined;
  const button = (label: string, onClick: () => void, primary = false, hint?: string): HTMLButtonElement => {
    const b = h('button', {
      class: primary ? 'answer-button primary' : 'answer-button secondary',
      text: label,
      attrs: { type: 'button', ...(hint ? { title: hint } : {}) },
      on: { click: onClick },
    });
    b.disabled = busy;
    return b;
  };
  const box = h('div', {
    class: 'needs-input',
    attrs: { role: 'group', 'aria-label': l10n.t('The agent needs your input') },
  });
  box.append(
    h('div', { class: 'needs-input-question' }, [
      h('span', { class: 'needs-input-label', text: l10n.t('The agent needs your input:') }),
      ' ',
      h('span', { class: 'needs-input-text', text: t.needsInput }),
    ]),
  );
  if (d.open || !approval) box.append(replyBox(ctx, t.id, d, approval, busy, send));
  if (approval) {
    const actions = h('div', { class: 'answer-actions' });
    actions.append(
      button(l10n.t('Approve'), () => send('approve'), true, l10n.t('Let the agent go on with this plan')),
    );
    if (!d.open) {
      actions.append(
        button(
          l10n.t('Revise…'),
          () => {
            d.open = true;
            ctx.redraw(t.id);
            focusSoon(t.id);
          },
          false,
          l10n.t('Say what should change; the agent revises the plan and asks again'),
        ),
      );
    }
    actions.append(
      button(
        l10n.t('Reject'),
        () => send('reject', d.text.trim() || undefined),
        false,
        l10n.t('The agent stops without carrying out the plan'),
      ),
    );
    box.append(actions);
  }
  if (busy) box.append(h('div', { class: 'answer-sending', text: l10n.t('Sending your answer…') }));
  return box;
}

function replyBox(
  ctx: AnswerBoxContext,
  turnId: string,
  d: Draft,
  approval: boolean,
  busy: boolean,
  send: (kind: AnswerKind, text?: string) => void,
): HTMLElement {
  const label = approval ? l10n.t('What should change in the plan?') : l10n.t('Your answer');
  const input = h('textarea', {
    class: 'answer-input',
    attrs: { rows: '2', 'aria-label': label, placeholder: label, 'data-answer-for': turnId },
  });
  input.value = d.text;
  input.disabled = busy;
  const submit = (): void => {
    const text = input.value.trim();
    if (text) send(approval ? 'revise' : 'reply', text);
  };
  input.addEventListener('input', () => (d.text = input.value));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape' && approval) {
      d.open = false;
      ctx.redraw(turnId);
    }
  });
  const go = h('button', {
    class: 'answer-button primary',
    text: approval ? l10n.t('Send Revision') : l10n.t('Send Answer'),
    attrs: { type: 'button' },
    on: { click: submit },
  });
  go.disabled = busy;
  return h('div', { class: 'answer-reply' }, [input, go]);
}

/** Moves the focus into a turn's answer box once it is drawn. */
function focusSoon(turnId: string): void {
  requestAnimationFrame(() =>
    document.querySelector<HTMLTextAreaElement>(`textarea[data-answer-for="${CSS.escape(turnId)}"]`)?.focus(),
  );
}
