import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import { showError } from '../platform/show-error';
import {
  UnseenTurns,
  attentionText,
  decideAttention,
  type AttentionSettings,
} from '../../model/session/attention';
import type { TurnActivity } from '../../model/session/session-activity';
import { groupedFinish, groupFinishedText } from '../../model/attempts/attempt-routing';
import type { AttemptGroup } from '../../model/attempts/attempt-store';
import type { AnswerOutcome } from '../../model/session/session-messages';
import type { InputAnswer } from '../../core/transcript/answers';

/** What attention needs of the rest of the extension. */
export interface AttentionDeps {
  settings: () => AttentionSettings;
  /** Whether the session's panel is open and visible. */
  panelVisible: (sessionId: string) => boolean;
  /** Opens (or reveals) the session's panel. */
  open: (sessionId: string) => Promise<void>;
  /** Answers a turn that waits for the person, over its socket. */
  answer: (sessionId: string, turnId: string, answer: InputAnswer) => AnswerOutcome;
  /** Shows the count of unseen turns on the Sessions view (0: no badge). */
  setBadge: (count: number) => void;
  /** The attempts' group a session belongs to: its attempts' first turns are notified as one. */
  attemptGroupOf?: (sessionId: string) => AttemptGroup | undefined;
}

/**
 * Tells the person about turns that finish or need input while they look elsewhere (the decision is
 * `model/session/attention.ts`'s): a notification with **Open** and, for a turn with files, **Review
 * Changes**; and the count of turns that finished unseen on the Sessions view's badge.
 */
export class Attention implements vscode.Disposable {
  /** Whether the window has focus (tests replace it: a test window's focus cannot be set). */
  windowFocused: () => boolean = () => vscode.window.state.focused;
  readonly #unseen = new UnseenTurns();
  readonly #disposables: vscode.Disposable[];
  /** The attempts' groups notified already (each once). */
  readonly #groupsNotified = new Set<string>();

  readonly #deps: AttentionDeps;
  constructor(deps: AttentionDeps) {
    this.#deps = deps;
    this.#disposables = [vscode.window.onDidChangeWindowState(() => this.focusChanged())];
  }

  /** The window's focus changed: on return, the sessions whose panels show are seen. */
  focusChanged(): void {
    if (!this.windowFocused()) return;
    for (const id of this.#unseen.sessions()) if (this.#deps.panelVisible(id)) this.seen(id);
  }

  /** The number on the badge. */
  get unseenCount(): number {
    return this.#unseen.count;
  }

  /** A followed turn changed: notify and count it, or not. */
  turnChanged({ event, turn }: TurnActivity): void {
    const { kind, sessionId } = event;
    const looking = { windowFocused: this.windowFocused(), panelVisible: this.#deps.panelVisible(sessionId) };
    const settings = this.#deps.settings();
    const { notify, unseen } = decideAttention(kind, settings, looking);
    if (unseen) {
      this.#unseen.add(sessionId, event.agentMessageId);
      this.#updateBadge(settings);
    }
    if (!notify) return;
    if (kind === 'needsInput') return this.#ask({ event, turn });
    const group = this.#deps.attemptGroupOf?.(sessionId);
    const grouped = groupedFinish(group, sessionId, event.agentMessageId, kind === 'failed');
    // An attempt's first turn: one notification for the group, once its last attempt ends.
    if (grouped.kind === 'held') return;
    if (grouped.kind === 'group' && group)
      return this.#groupFinished(group, grouped.attempts, grouped.failed);
    const files = turn.files.length + (turn.outputFiles?.length ?? 0) > 0;
    const show = kind === 'failed' ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    const open = l10n.t('Open');
    const review = l10n.t('Review Changes');
    const actions = files ? [open, review] : [open];
    // Not awaited: the notification stays until dismissed.
    void Promise.resolve(show(attentionText(event), ...actions))
      .then((choice) => {
        if (choice === open) return this.#deps.open(sessionId);
        if (choice === review)
          return vscode.commands.executeCommand('den.reviewTurn', sessionId, event.agentMessageId);
      })
      .catch((err: unknown) => showError(err, 'open the session'));
  }

  /** All the attempts of a task ended: one notification, with **Compare** (the Attempts view). */
  #groupFinished(group: AttemptGroup, attempts: number, failed: number): void {
    if (this.#groupsNotified.has(group.id)) return;
    this.#groupsNotified.add(group.id);
    const compare = l10n.t('Compare');
    const show = failed === attempts ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    void Promise.resolve(show(groupFinishedText(group.task, attempts, failed), compare))
      .then((choice) => {
        if (choice === compare) return vscode.commands.executeCommand('den.attempts.focus');
      })
      .catch((err: unknown) => showError(err, 'show the attempts'));
  }

  /**
   * A turn waits for the person: the question with its answers (Approve and Reject for a plan,
   * Answer… for a question) and Open. The answer goes to the waiting turn, never a new turn.
   */
  #ask({ event, turn }: TurnActivity): void {
    const { sessionId, agentMessageId } = event;
    const open = l10n.t('Open');
    const approve = l10n.t('Approve');
    const reject = l10n.t('Reject');
    const reply = l10n.t('Answer…');
    const approval = turn.asks !== 'reply';
    const actions = approval ? [approve, reject, open] : [reply, open];
    const send = (a: InputAnswer): void => {
      const outcome = this.#deps.answer(sessionId, agentMessageId, a);
      if (outcome === 'notWaiting')
        void vscode.window.showInformationMessage(l10n.t('The turn no longer waits for an answer.'));
      else if (outcome === 'unsent')
        void vscode.window.showWarningMessage(
          l10n.t(
            'Den could not send your answer: the connection to the turn is down. Open the session and answer again once it is back.',
          ),
        );
    };
    void Promise.resolve(vscode.window.showInformationMessage(attentionText(event), ...actions))
      .then(async (choice) => {
        if (choice === open) return this.#deps.open(sessionId);
        if (choice === approve) return send({ kind: 'approve' });
        if (choice === reject) return send({ kind: 'reject' });
        if (choice !== reply) return;
        const text = await vscode.window.showInputBox({
          title: l10n.t('Answer the agent'),
          prompt: turn.needsInput,
          placeHolder: l10n.t('Your answer'),
          ignoreFocusOut: true,
        });
        if (text?.trim()) send({ kind: 'reply', text });
      })
      .catch((err: unknown) => showError(err, 'answer the agent'));
  }

  /** The person saw a session (its panel was shown) or, without an id, every session. */
  seen(sessionId?: string): void {
    if (sessionId !== undefined && !this.windowFocused()) return;
    if (this.#unseen.clear(sessionId)) this.#updateBadge(this.#deps.settings());
  }

  /** The settings changed: the badge goes when it is turned off. */
  settingsChanged(): void {
    this.#updateBadge(this.#deps.settings());
  }

  #updateBadge(settings: AttentionSettings): void {
    if (!settings.badge) this.#unseen.clear();
    this.#deps.setBadge(this.#unseen.count);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}
