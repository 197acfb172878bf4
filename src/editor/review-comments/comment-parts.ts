/**
 * The parts of line comments on the agent's files besides their controller: what `ReviewComments`
 * is given, the arguments its commands take, and the comment object VS Code shows.
 */
import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { Counterparts } from '../../model/review/counterparts';

export interface ReviewCommentsDeps {
  state: vscode.Memento;
  /** Which workspace files are copies of agents' files (kept in the workspace state too). */
  counterparts: Counterparts;
  /** False: registers no commands (a second instance over the same state, as after a reload: tests). */
  commands?: boolean;
  /** The agent's current bytes of a session's file; throws `FileLookupError` when it is gone. */
  read(sessionId: string, path: string): Promise<Uint8Array>;
  /** Starts the follow-up turn (mode `code`) in the session's panel. */
  send(sessionId: string, task: string): Promise<void>;
  /** Whether a session still has a turn running or queued (the feedback's own may be queued). */
  busy(sessionId: string): boolean;
  /** A turn of a session ended. */
  onDidEndTurn(listener: (e: { sessionId: string }) => void): vscode.Disposable;
  /** The session's title, for pickers. */
  titleOf(sessionId: string): string | undefined;
  logger: Logger;
}

/** Arguments `den.commentOnSelection` takes (tests, other commands); each left out is the active editor's or asked. */
export interface CommentOptions {
  uri?: vscode.Uri | string;
  /** 0-based lines, inclusive. */
  startLine?: number;
  endLine?: number;
  text?: string;
}

/** Arguments `den.sendFeedback` takes from code and tests. */
export interface SendFeedbackOptions {
  sessionId?: string;
  /** The overall note; `''` sends none without asking; undefined asks. */
  note?: string;
}

/** A comment of Den's, with the id its record keeps. */
export class DenComment implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  readonly author: vscode.CommentAuthorInformation = { name: l10n.t('You') };
  readonly contextValue = 'den-comment';
  readonly timestamp: Date;
  constructor(
    readonly id: string,
    public body: string,
    at: number,
  ) {
    this.timestamp = new Date(at);
  }
}
