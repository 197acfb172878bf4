/**
 * Attempts from the Session panel's composer (`docs/review-and-apply.md`, "Attempts"): a new
 * session's task sent as 2–4 attempts (the panel's own session is the first, the others start with
 * it, each with its own copy of the composer's attachments), and a follow-up typed in an attempt
 * that was not chosen offered to the chosen one. The panel asks (`SessionPanel`); the answers are
 * here.
 */
import * as vscode from 'vscode';
import type { Effort, Mode } from '../../core/client/types';
import { formatCount, l10n } from '../../core/shared/l10n';
import { followUpTarget } from '../../model/attempts/attempt-routing';
import { addAll, uploadForAttempt } from '../../model/attempts/attempt-uploads';
import type { SessionHost } from '../../model/session/session-host';
import type { TurnRequest } from '../../model/session/turn-request';
import type { Attempts } from './attempts';

/** A composer's send, as the panel's attempts see it. */
export interface ComposerSend {
  text: string;
  mode: Mode;
  effort: Effort;
}

/** Where a follow-up went: to the chosen attempt, here (the panel sends it), or nowhere (dismissed). */
export type FollowUpRoute = 'chosen' | 'here' | 'cancelled';

/** What a Session panel asks of attempts (`SessionPanelDeps.attempts`). */
export interface PanelAttempts {
  /** Runs a new session's composer task as `attempts` sessions; resolves to whether any started. */
  start(host: SessionHost, send: ComposerSend & { attempts: number }): Promise<boolean>;
  /** A follow-up typed in `host`'s composer: sent to the chosen attempt, or here, as the person says. */
  route(host: SessionHost, send: ComposerSend): Promise<FollowUpRoute>;
}

export interface ComposerAttemptsDeps {
  attempts: Attempts;
  /** Opens a session's panel; with `turn`, starts that turn in it. */
  open(sessionId: string, turn?: TurnRequest): Promise<void>;
}

export class ComposerAttempts implements PanelAttempts {
  readonly #deps: ComposerAttemptsDeps;
  constructor(deps: ComposerAttemptsDeps) {
    this.#deps = deps;
  }

  async start(host: SessionHost, send: ComposerSend & { attempts: number }): Promise<boolean> {
    const { turn, copiesFor } = host.composerAttachments();
    const group = await this.#deps.attempts.start({
      task: send.text.trim(),
      attempts: send.attempts,
      mode: send.mode,
      effort: send.effort,
      firstSessionId: host.sessionId,
      // The composer's own session takes its chips; every other attempt uploads its own copies.
      turnFor: async (sessionId, i) =>
        i === 0 ? turn : uploadForAttempt((list) => addAll(list, copiesFor(sessionId))),
    });
    this.#deps.attempts.warnFailed(group);
    return group.attempts.some((a) => a.state !== 'failed');
  }

  async route(host: SessionHost, send: ComposerSend): Promise<FollowUpRoute> {
    const store = this.#deps.attempts.store;
    const target = followUpTarget(store.groupOf(host.sessionId)?.group, host.sessionId);
    if (!target) return 'here';
    const there = l10n.t('Send to the Chosen Attempt ({0})', formatCount(target.number));
    const here = l10n.t('Send Here');
    const choice = await vscode.window.showInformationMessage(
      l10n.t(
        'Den: attempt {0} is the chosen one for this task: its next turns go there. Send your message to it?',
        formatCount(target.number),
      ),
      there,
      here,
    );
    if (choice === here) return 'here';
    if (choice !== there) return 'cancelled';
    await this.#deps.open(target.sessionId, { task: send.text.trim(), mode: send.mode, effort: send.effort });
    return 'chosen';
  }
}
