/**
 * Line comments on the agent's files with VS Code's stable Comments API (`docs/review-and-apply.md`,
 * "Comments that become the next turn"). A person comments on any line or range of an agent's file:
 * a `den-session:` document (the agent's side of Compare and Review Changes included) or the
 * workspace file that is its copy (`model/review/counterparts.ts`: any workspace file at the path
 * of a file of a session Den knows here; of several sessions, a new thread goes to the most
 * recently active, and its label names it). Threads are kept per session in the workspace
 * state (they come back after a reload) and listed in the Comments panel. **Send Feedback** sends
 * every open thread of a session as one `code` turn (`model/review/feedback.ts` has the text); when a
 * turn of that session ends, each sent thread whose lines the agent changed is marked addressed
 * (collapsed and resolved, never deleted). Resolve and Reopen work on any thread.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { formatCount, l10n } from '../../core/shared/l10n';
import {
  boundThreads,
  feedbackText,
  isAddressed,
  openThreads,
  readThreads,
  type ThreadRecord,
  type ThreadState,
} from '../../model/review/feedback';
import type { Counterparts } from '../../model/review/counterparts';
import { FileLookupError } from '../../model/session-files/session-files';
import { parseSessionFileUri, type SessionFileTarget } from '../session-files/session-fs';
import { relativeTo } from '../session-files/workspace-file-status';
import {
  DenComment,
  type CommentOptions,
  type ReviewCommentsDeps,
  type SendFeedbackOptions,
} from './comment-parts';

/** The workspace state key of the threads. */
const STORE_KEY = 'den.reviewComments';
/** The comment controller's id (menus' `commentController == den.review`). */
export const REVIEW_CONTROLLER_ID = 'den.review';
export class ReviewComments implements vscode.Disposable {
  readonly #controller: vscode.CommentController;
  readonly #records: ThreadRecord[] = [];
  readonly #threads = new Map<string, vscode.CommentThread>();
  #editorTakes: boolean | undefined;
  /** Sessions whose sent threads wait for the end of a turn to be checked. */
  readonly #waiting = new Set<string>();
  readonly #changed = new vscode.EventEmitter<string>();
  /** The open threads of a session changed (by session id). */
  readonly onDidChange = this.#changed.event;
  readonly #disposables: vscode.Disposable[];
  readonly #deps: ReviewCommentsDeps;

  constructor(deps: ReviewCommentsDeps) {
    this.#deps = deps;
    this.#controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, l10n.t('Den review'));
    this.#controller.options = {
      prompt: l10n.t('Comment for the agent'),
      placeHolder: l10n.t(
        'What should the agent change here? Send Feedback sends every open comment as one turn.',
      ),
    };
    this.#setRanges();
    this.reloadFromStorage();
    this.#disposables = [
      this.#controller,
      this.#changed,
      deps.onDidEndTurn(({ sessionId }) => void this.#turnEnded(sessionId)),
      // Workspace files that became (or stopped being) copies of agents' files: ranges asked again.
      deps.counterparts.onDidChange(() => {
        this.#setRanges();
        this.#setEditorKey();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.#setEditorKey()),
      ...(deps.commands === false ? [] : this.#registerCommands()),
    ];
    this.#setEditorKey();
  }

  /**
   * The commenting ranges: a whole document that takes comments. Cheap: a URI parse, or a workspace
   * path's lookup in the counterparts' index. Set again (VS Code then asks again) when it changed.
   */
  #setRanges(): void {
    this.#controller.commentingRangeProvider = {
      provideCommentingRanges: (doc) =>
        this.targetOf(doc.uri) && doc.lineCount > 0
          ? [new vscode.Range(0, 0, doc.lineCount - 1, 0)]
          : undefined,
    };
  }

  /** `den.editorTakesComments`: the active editor's file takes comments (the editor's context menu). */
  #setEditorKey(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const takes = uri !== undefined && this.targetOf(uri) !== undefined;
    if (takes === this.#editorTakes) return;
    this.#editorTakes = takes;
    void vscode.commands.executeCommand('setContext', 'den.editorTakesComments', takes);
  }

  #registerCommands(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('den.comments.add', (reply: vscode.CommentReply) => this.add(reply)),
      vscode.commands.registerCommand('den.commentOnSelection', (o?: CommentOptions) => this.commentOn(o)),
      vscode.commands.registerCommand('den.comments.delete', (c: unknown) => this.#delete(c)),
      vscode.commands.registerCommand('den.comments.resolve', (t: vscode.CommentThread) =>
        this.#setState(t, 'resolved'),
      ),
      vscode.commands.registerCommand('den.comments.reopen', (t: vscode.CommentThread) =>
        this.#setState(t, 'open'),
      ),
      vscode.commands.registerCommand('den.sendFeedback', (arg?: unknown) => this.sendFeedback(arg)),
    ];
  }

  /** The comment controller (tests ask its commenting ranges). */
  get controller(): vscode.CommentController {
    return this.#controller;
  }

  /** Which workspace files are copies of agents' files (tests flush it before a simulated reload). */
  get counterparts(): Counterparts {
    return this.#deps.counterparts;
  }

  /** The workspace state the threads and counterparts are kept in (tests open a second instance on it). */
  get state(): vscode.Memento {
    return this.#deps.state;
  }

  /** Shows the threads the workspace state holds, as activation does (tests: a reload). */
  reloadFromStorage(): void {
    for (const t of this.#threads.values()) t.dispose();
    this.#threads.clear();
    this.#records.splice(0, this.#records.length, ...readThreads(this.#deps.state.get(STORE_KEY)));
    for (const r of this.#records) this.#show(r);
  }

  /** Drops the threads and counterparts of a session (it was deleted), or all of them (tests). */
  async forget(sessionId?: string): Promise<void> {
    this.#deps.counterparts.forget(sessionId);
    const gone = this.#records.filter((r) => sessionId === undefined || r.sessionId === sessionId);
    if (!gone.length) return;
    for (const r of gone) {
      this.#threads.get(r.id)?.dispose();
      this.#threads.delete(r.id);
    }
    this.#records.splice(0, this.#records.length, ...this.#records.filter((r) => !gone.includes(r)));
    for (const id of new Set(gone.map((r) => r.sessionId))) {
      this.#waiting.delete(id);
      this.#changed.fire(id);
    }
    await this.#deps.state.update(STORE_KEY, this.#records);
  }

  /**
   * Remembers the workspace file shown beside an agent's file (a review's left side): it takes
   * comments for that session's file, and the session counts as just active.
   */
  noteCounterpart(workspace: vscode.Uri, agent: vscode.Uri): void {
    const target = parseSessionFileUri(agent);
    const at = workspacePathOf(workspace);
    if (target?.path && at !== undefined) this.#deps.counterparts.note(target.sessionId, target.path, at);
  }

  /**
   * The session file a document's comments are about, if it takes comments: a `den-session:` file,
   * or a workspace file at the path of an agent's file (of several sessions, the most recently active).
   */
  targetOf(uri: vscode.Uri): SessionFileTarget | undefined {
    const t = parseSessionFileUri(uri);
    if (t?.path) return { sessionId: t.sessionId, path: t.path };
    if (uri.scheme === 'untitled') return undefined;
    const at = workspacePathOf(uri);
    const found = at === undefined ? undefined : this.#deps.counterparts.at(at);
    return found && { sessionId: found.sessionId, path: found.path };
  }

  /** Draws the workspace files' threads again: the sessions' titles they name may be known now. */
  refreshLabels(): void {
    for (const r of this.#records) {
      const t = this.#threads.get(r.id);
      if (!t || parseSessionFileUri(t.uri)) continue;
      const label = this.#labelOf(r, t);
      if (t.label !== label) t.label = label;
    }
  }

  /** The threads Den keeps (tests, the API). */
  threads(sessionId?: string): readonly ThreadRecord[] {
    return sessionId === undefined ? this.#records : this.#records.filter((r) => r.sessionId === sessionId);
  }

  /** The comment thread shown for a record (tests). */
  threadOf(id: string): vscode.CommentThread | undefined {
    return this.#threads.get(id);
  }

  /** How many open comments a session has (the Session panel's Send Feedback). */
  openCount(sessionId: string): number {
    return this.#sendable(sessionId).length;
  }

  /** The open threads Send Feedback sends: not those already on their way in a running turn. */
  #sendable(sessionId: string): ThreadRecord[] {
    const waiting = this.#waiting.has(sessionId);
    return openThreads(this.#records, sessionId).filter((r) => !(waiting && r.sentAt));
  }

  /** The comment box's Add Comment: a new thread's first comment, or a reply. */
  async add(reply: vscode.CommentReply): Promise<ThreadRecord | undefined> {
    const text = reply.text.trim();
    if (!text) return undefined;
    const thread = reply.thread;
    let record = this.#recordOf(thread);
    if (!record) {
      const target = this.targetOf(thread.uri);
      const range = thread.range;
      if (!target || !range) {
        thread.dispose();
        void vscode.window.showWarningMessage(
          l10n.t(
            'Den: comments go on the agent’s files and their workspace copies, for sessions Den knows in this workspace.',
          ),
        );
        return undefined;
      }
      const doc = await vscode.workspace.openTextDocument(thread.uri);
      const last = Math.min(range.end.line, doc.lineCount - 1);
      const first = Math.min(range.start.line, last);
      const quote: string[] = [];
      for (let i = first; i <= last; i++) quote.push(doc.lineAt(i).text);
      record = {
        id: randomUUID(),
        sessionId: target.sessionId,
        path: target.path,
        uri: thread.uri.toString(),
        startLine: first,
        endLine: last,
        quote,
        comments: [],
        state: 'open',
      };
      this.#records.push(record);
      this.#threads.set(record.id, thread);
    }
    record.comments.push({ id: randomUUID(), body: text, at: Date.now() });
    if (record.state !== 'open') record.state = 'open';
    this.#render(record, thread, true);
    await this.#save(record.sessionId);
    return record;
  }

  /**
   * Comment on the selected lines (the keyboard's way, and the tests'): a new thread on them with
   * the text given or typed. Resolves to the thread's record; undefined when dismissed or refused.
   */
  async commentOn(options: CommentOptions = {}): Promise<ThreadRecord | undefined> {
    const editor = vscode.window.activeTextEditor;
    const uri =
      typeof options.uri === 'string' ? vscode.Uri.parse(options.uri) : (options.uri ?? editor?.document.uri);
    if (!uri || !this.targetOf(uri)) {
      void vscode.window.showInformationMessage(
        l10n.t(
          'Den: open an agent’s file, or its workspace copy, to comment on its lines (a session of this workspace, open in a panel, or shown in a Den review).',
        ),
      );
      return undefined;
    }
    const sel = editor && editor.document.uri.toString() === uri.toString() ? editor.selection : undefined;
    const start = options.startLine ?? sel?.start.line ?? 0;
    const end =
      options.endLine ??
      (sel && !sel.isEmpty && sel.end.character === 0 ? sel.end.line - 1 : sel?.end.line) ??
      start;
    const text =
      options.text ??
      (await vscode.window.showInputBox({
        title: l10n.t('Den: Comment for the Agent'),
        prompt: l10n.t('What should the agent change in these lines?'),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : l10n.t('Write the comment, or press Escape.')),
      }));
    if (!text?.trim()) return undefined;
    const range = new vscode.Range(start, 0, Math.max(start, end), 0);
    const thread = this.#controller.createCommentThread(uri, range, []);
    const record = await this.add({ thread, text });
    if (!record) thread.dispose();
    return record;
  }

  /**
   * Send Feedback: every open thread of a session as one `code` turn, with an optional note.
   * `arg`: a thread, a session id, a Sessions tree row (`sessionId`), options, or nothing (the
   * active editor's session, else a pick among sessions with open comments).
   */
  async sendFeedback(arg?: unknown): Promise<string | undefined> {
    const options: SendFeedbackOptions =
      arg && typeof arg === 'object' && 'note' in arg ? (arg as SendFeedbackOptions) : {};
    const sessionId = await this.#sessionOf(arg);
    if (!sessionId) return undefined;
    const open = this.#sendable(sessionId);
    if (!open.length) {
      void vscode.window.showInformationMessage(
        l10n.t('Den: this session has no open comments. Comment on a line of an agent’s file first.'),
      );
      return undefined;
    }
    const note =
      options.note ??
      (await vscode.window.showInputBox({
        title: l10n.t('Den: Send Feedback ({0})', formatCount(open.length)),
        prompt: l10n.t('An overall note for the agent, if any (Enter sends the comments)'),
        placeHolder: l10n.t('Optional: what matters most, what to leave alone…'),
        ignoreFocusOut: true,
      }));
    if (note === undefined) return undefined;
    const task = feedbackText(open, note);
    await this.#deps.send(sessionId, task);
    const now = Date.now();
    for (const r of open) {
      r.sentAt = now;
      const t = this.#threads.get(r.id);
      if (t) this.#render(r, t);
    }
    this.#waiting.add(sessionId);
    await this.#save(sessionId);
    return task;
  }

  async #sessionOf(arg: unknown): Promise<string | undefined> {
    if (typeof arg === 'string') return arg;
    if (arg && typeof arg === 'object') {
      const o = arg as { sessionId?: unknown; uri?: unknown };
      if (typeof o.sessionId === 'string') return o.sessionId;
      if (o.uri instanceof vscode.Uri) {
        const fromThread =
          this.#recordOf(arg as vscode.CommentThread)?.sessionId ?? this.targetOf(o.uri)?.sessionId;
        if (fromThread) return fromThread;
      }
    }
    const active = vscode.window.activeTextEditor?.document.uri;
    const fromEditor = active && this.targetOf(active)?.sessionId;
    if (fromEditor && this.openCount(fromEditor)) return fromEditor;
    const withComments = [...new Set(this.#records.map((r) => r.sessionId))].filter((id) =>
      this.openCount(id),
    );
    if (withComments.length === 0) return fromEditor ?? undefined;
    if (withComments.length === 1) return withComments[0];
    const pick = await vscode.window.showQuickPick(
      withComments.map((id) => ({
        label: this.#deps.titleOf(id) ?? id,
        description: l10n.t('{0} open comments', formatCount(this.openCount(id))),
        id,
      })),
      { title: l10n.t('Den: Send Feedback to Which Session?') },
    );
    return pick?.id;
  }

  async #turnEnded(sessionId: string): Promise<void> {
    // The feedback's turn may wait behind one that ran when it was sent: check once all ended.
    if (!this.#waiting.has(sessionId) || this.#deps.busy(sessionId)) return;
    this.#waiting.delete(sessionId);
    const sent = this.#records.filter((r) => r.sessionId === sessionId && r.state === 'open' && r.sentAt);
    const decoder = new TextDecoder();
    for (const r of sent) {
      let current: string | undefined;
      try {
        current = decoder.decode(await this.#deps.read(sessionId, r.path));
      } catch (err) {
        if (!(err instanceof FileLookupError)) {
          this.#deps.logger.warn(`Den could not read ${r.path} to check its comments: ${String(err)}`);
          continue;
        }
      }
      if (isAddressed(r, current)) r.state = 'addressed';
      const t = this.#threads.get(r.id);
      if (t) this.#render(r, t);
    }
    await this.#save(sessionId);
  }

  #recordOf(thread: vscode.CommentThread): ThreadRecord | undefined {
    for (const [id, t] of this.#threads) if (t === thread) return this.#records.find((r) => r.id === id);
    return undefined;
  }

  #show(r: ThreadRecord): void {
    const range = new vscode.Range(r.startLine, 0, r.endLine, 0);
    const thread = this.#controller.createCommentThread(vscode.Uri.parse(r.uri), range, []);
    this.#threads.set(r.id, thread);
    this.#render(r, thread);
  }

  /** The thread as its record says: comments, state, label, the menus' context value. */
  #render(r: ThreadRecord, thread: vscode.CommentThread, expand = false): void {
    thread.comments = r.comments.map((c) => new DenComment(c.id, c.body, c.at));
    thread.canReply = true;
    thread.contextValue = `den-thread-${r.state}`;
    thread.state =
      r.state === 'open' ? vscode.CommentThreadState.Unresolved : vscode.CommentThreadState.Resolved;
    thread.label = this.#labelOf(r, thread);
    if (r.state !== 'open') thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
    else if (expand) thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
  }

  async #setState(thread: vscode.CommentThread, state: ThreadState): Promise<void> {
    const r = this.#recordOf(thread);
    if (!r) return;
    r.state = state;
    if (state === 'open') delete r.sentAt;
    this.#render(r, thread, state === 'open');
    await this.#save(r.sessionId);
  }

  async #delete(c: unknown): Promise<void> {
    if (!(c instanceof DenComment)) return;
    const r = this.#records.find((x) => x.comments.some((k) => k.id === c.id));
    if (!r) return;
    r.comments = r.comments.filter((k) => k.id !== c.id);
    const thread = this.#threads.get(r.id);
    if (r.comments.length === 0) {
      thread?.dispose();
      this.#threads.delete(r.id);
      this.#records.splice(this.#records.indexOf(r), 1);
    } else if (thread) this.#render(r, thread);
    await this.#save(r.sessionId);
  }

  async #save(sessionId: string): Promise<void> {
    const kept = boundThreads(this.#records);
    if (kept.length < this.#records.length) {
      for (const r of this.#records.filter((x) => !kept.includes(x))) {
        this.#threads.get(r.id)?.dispose();
        this.#threads.delete(r.id);
      }
      this.#records.splice(0, this.#records.length, ...kept);
    }
    this.#changed.fire(sessionId);
    await this.#deps.state.update(STORE_KEY, this.#records);
  }

  /**
   * A thread's label: where it stands with the agent. On a workspace file (which may be the copy of
   * files of several sessions) it names the session the thread goes to.
   */
  #labelOf(r: ThreadRecord, thread: vscode.CommentThread): string {
    if (r.state === 'addressed') return l10n.t('Addressed: the agent changed these lines');
    if (r.state === 'resolved') return l10n.t('Resolved');
    if (parseSessionFileUri(thread.uri)) {
      return r.sentAt
        ? l10n.t('Sent to the agent; these lines are unchanged so far')
        : l10n.t('Open: goes with the next Send Feedback');
    }
    const session =
      this.#deps.titleOf(r.sessionId) ??
      this.#deps.counterparts.titleOf(r.sessionId) ??
      r.sessionId.slice(0, 8);
    return r.sentAt
      ? l10n.t('Sent to “{0}” as {1}; these lines are unchanged so far', session, r.path)
      : l10n.t('Open: goes to “{0}” as {1} with the next Send Feedback', session, r.path);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
    this.#threads.clear();
  }
}

/** A workspace file's path inside its workspace folder (the counterparts' key); undefined outside any. */
function workspacePathOf(uri: vscode.Uri): string | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  return folder && relativeTo(folder, uri);
}
