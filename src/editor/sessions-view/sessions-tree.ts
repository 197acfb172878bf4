import * as vscode from 'vscode';
import type { DenError } from '../../core/client/errors';
import type { Session, SessionDetail } from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { Connection } from '../platform/connection';
import type { IdStorage } from '../../model/sessions-list/recent-ids';
import { isRunning, SessionsModel } from '../../model/sessions-list/sessions-model';
import {
  snapshotTarget,
  turnFilesOf,
  type ReviewCount,
  type ReviewMarks,
} from '../../model/review/review-marks';
import { SessionsTreeModel } from '../../model/sessions-list/tree-model';
import type { KeySet, TreeFileStatus, TreeUpdate } from '../../model/sessions-list/tree-nodes';
import {
  dayItem,
  fileItem,
  groupItem,
  elsewhereItem,
  moreItem,
  noteItem,
  sessionItem,
  turnItem,
  type SessionNode,
} from './tree-nodes';

/** A `Memento` kept in memory, for a provider built without one. */
function memoryStorage(): IdStorage {
  const values = new Map<string, unknown>();
  return { get: (k) => values.get(k), update: async (k, v) => void values.set(k, v) };
}

/**
 * The Sessions view: renders a `SessionsTreeModel` (the rows, the scope, what to redraw, the view's
 * context keys, message and description; see src/model/sessions-list) as `TreeItem`s, forwards the
 * view's requests and commands to it, and redraws what it says changed. The model's problems show in
 * the view with what to do; network failures retry by themselves (the model's schedule).
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<SessionNode | SessionNode[] | undefined>();
  /** The attempt mark of a session row (`setAttemptMark`). */
  #attemptMark?: (sessionId: string) => string | undefined;
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #tree: SessionsTreeModel;
  readonly #subscription: { dispose(): void };
  /** Context-key updates, one after another, so an older outcome's keys never land last. */
  #keysApplied: Promise<void> = Promise.resolve();
  private view?: vscode.TreeView<SessionNode>;
  #reviewed?: { marks: ReviewMarks; subscription: vscode.Disposable };
  /** The turn and file rows drawn with reviewed marks, by session (redrawn when its marks change). */
  readonly #markedRows = new Map<string, Map<string, SessionNode>>();

  constructor(connection: Connection, logger: Logger, storage: IdStorage = memoryStorage()) {
    this.#tree = new SessionsTreeModel(new SessionsModel(connection, logger), storage, logger);
    this.#subscription = this.#tree.onDidUpdate((u) => this.#apply(u));
    void this.#applyKeys('scope');
  }

  /** The sessions list (pages, search, loading, running turns). */
  get model(): SessionsModel {
    return this.#tree.list;
  }

  /** The workspace storage the scope is kept in (the integration tests open a second provider on it). */
  get storage(): IdStorage {
    return this.#tree.storage;
  }

  /** Whether All Sessions is shown rather than This Workspace. */
  get showAll(): boolean {
    return this.#tree.showAll;
  }

  /** Switches between This Workspace and All Sessions (remembered for this workspace). */
  async setShowAll(all: boolean): Promise<void> {
    await this.#tree.setShowAll(all);
    await this.#keysApplied;
  }

  /** Whether the session was started from this workspace (as far as the bounded memory goes). */
  isLocal(sessionId: string): boolean {
    return this.#tree.isLocal(sessionId);
  }

  /** Records a session a turn was started in from this window, as this workspace's. */
  async remember(sessionId: string): Promise<void> {
    if (await this.#tree.remember(sessionId)) await this.#keysApplied;
  }

  /** Archives (hides here; nothing is sent to the service) or unarchives a session. */
  async setArchived(sessionId: string, archived: boolean): Promise<void> {
    await this.#tree.setArchived(sessionId, archived);
    await this.#keysApplied;
  }

  /** Shows each file's state against the workspace in the Files groups. */
  setFileStatus(model: TreeFileStatus): void {
    this.#tree.setFileStatus(model);
  }

  /** The sessions web task runs made: grouped under Web Tasks and marked "web task". */
  setWebTaskSessions(ids: ReadonlySet<string>): void {
    this.#tree.setWebTaskSessions(ids);
  }

  /** Marks sessions that are attempts of a task (`attempt 2 of 3`); redraws when they change. */
  setAttemptMark(markOf: (sessionId: string) => string | undefined): void {
    this.#attemptMark = markOf;
    // (the rows the view is about to list draw the marks)
    if (this.#tree.willListRoots()) return;
    this.#changed.fire(undefined);
  }

  attach(view: vscode.TreeView<SessionNode>): void {
    this.view = view;
    view.description = this.#tree.description;
  }

  /** The sessions loaded so far (for commands that pick one, and for tests). */
  get sessions(): readonly Session[] {
    return this.model.sessions;
  }

  get hasMore(): boolean {
    return this.model.hasMore;
  }

  get filter(): string | undefined {
    return this.model.filter;
  }

  get lastError(): DenError | undefined {
    return this.model.problem?.error;
  }

  /** The model's scheduled retry, if any (read by the integration tests' `treeRetryPending`). */
  get retryTimer(): true | undefined {
    return this.model.retryPending || undefined;
  }

  /**
   * Drops what is loaded and loads the first page again (settings, key or filter changed); a hidden
   * view loads when it is next shown (VS Code then asks for its children). `forgetProblem`: see
   * `SessionsTreeModel.refresh`. Settles once the view's context keys say how it went.
   */
  async refresh(opts: { forgetProblem?: boolean } = {}): Promise<void> {
    const hidden = this.view !== undefined && !this.view.visible;
    if (await this.#tree.refresh({ forgetProblem: opts.forgetProblem, hidden })) await this.#keysApplied;
  }

  async setFilter(text: string | undefined): Promise<void> {
    this.#tree.setFilter(text);
    await setContext('den.hasFilter', !!this.model.filter);
    if (this.view) this.view.description = this.#tree.description;
    await this.refresh();
  }

  loadMore(): Promise<void> {
    return this.model.loadMore();
  }

  get(sessionId: string): Session | undefined {
    return this.model.get(sessionId);
  }

  /** Replaces one session's data and redraws only its item. */
  updateSession(session: Session): void {
    this.model.updateSession(session);
  }

  /** Removes a session (deleted, or 404 from the service). */
  removeSession(sessionId: string): void {
    this.model.removeSession(sessionId);
  }

  /** Marks a session as having a running turn (shown with a spinning icon). */
  setRunning(sessionId: string, running: boolean): void {
    this.model.setRunning(sessionId, running);
  }

  /** Fetches (or returns the cached) history of a session; a 404 removes it from the tree. */
  detail(sessionId: string): Promise<SessionDetail> {
    return this.model.detail(sessionId);
  }

  getTreeItem(n: SessionNode): vscode.TreeItem {
    const now = Date.now();
    switch (n.kind) {
      case 'day':
        return dayItem(n.group, this.#tree.groupSize(n.group));
      case 'session': {
        const row = this.#tree.sessionRow(n.sessionId);
        if (!row)
          return noteItem({
            kind: 'note',
            id: `gone:${n.sessionId}`,
            label: l10n.t('Removed'),
            icon: 'circle-slash',
          });
        const attempt = this.#attemptMark?.(n.sessionId);
        return sessionItem(
          row.session,
          {
            state: row.state,
            archived: row.archived,
            ...(row.webTask ? { webTask: true } : {}),
            ...(attempt ? { attempt } : {}),
          },
          now,
        );
      }
      case 'group':
        return groupItem(n.group, n.sessionId, this.#tree.drawGroup(n));
      case 'turn':
        return turnItem(n, isRunning(n.agent), now, this.#turnReviewed(n));
      case 'file':
        return fileItem(n, this.#tree.drawFile(n), this.#fileReviewed(n));
      case 'more':
        return moreItem(this.model.sessions.length, this.model.totalCount);
      case 'elsewhere':
        return elsewhereItem(this.#tree.elsewhere, this.model.hasMore);
      case 'note':
        return noteItem(n);
    }
  }

  /**
   * Shows the reviewed marks: a file row says whether its current version is reviewed, a turn row
   * how many of its files are; the rows of a session are redrawn when its marks change.
   */
  setReviewMarks(marks: ReviewMarks): void {
    this.#reviewed?.subscription.dispose();
    const subscription = marks.onDidChange((sessionId) => {
      const rows = this.#markedRows.get(sessionId);
      if (rows?.size) this.#changed.fire([...rows.values()]);
    });
    this.#reviewed = { marks, subscription };
  }

  #fileReviewed(n: Extract<SessionNode, { kind: 'file' }>): boolean {
    if (!this.#reviewed) return false;
    this.#drawnRow(n.sessionId, `f:${n.path}`, n);
    return this.#reviewed.marks.isReviewed(n.sessionId, snapshotTarget(n.sessionId, n.path, n.file));
  }

  #turnReviewed(n: Extract<SessionNode, { kind: 'turn' }>): ReviewCount | undefined {
    if (!this.#reviewed) return undefined;
    this.#drawnRow(n.sessionId, `t:${n.message.id}`, n);
    const detail = this.model.cachedDetail(n.sessionId);
    const files = detail && turnFilesOf(detail).get(n.message.id);
    return files && this.#reviewed.marks.count(n.sessionId, files);
  }

  /** Remembers the row object the view last drew (it redraws by that object). */
  #drawnRow(sessionId: string, key: string, n: SessionNode): void {
    let rows = this.#markedRows.get(sessionId);
    if (!rows) this.#markedRows.set(sessionId, (rows = new Map()));
    rows.set(key, n);
  }

  getParent(n: SessionNode): SessionNode | undefined {
    return this.#tree.parent(n);
  }

  /**
   * The root's rows wait for the key and the first page only. The context keys pick the welcome,
   * which VS Code shows only while the tree is empty: an empty root waits for them too, rows do
   * not (each `setContext` is a round trip to a workbench that may be busy starting). A change
   * while this waits is drawn with these rows, not in a redraw after them (`willListRoots`).
   */
  async getChildren(n?: SessionNode): Promise<SessionNode[]> {
    if (n) return this.#tree.children(n);
    this.#tree.willListRoots();
    let rows: SessionNode[] = [];
    try {
      if (await this.model.loadForView()) rows = this.#tree.roots();
    } finally {
      if (!rows.length) this.#tree.drewNoRoots();
    }
    if (rows.length) return rows;
    await this.#keysApplied;
    return rows;
  }

  /** Does what the model says changed: redraws, the message, the description, the context keys. */
  #apply(u: TreeUpdate): void {
    const redraw = (): void => {
      if (u.redraw) this.#changed.fire(u.redraw === 'all' ? undefined : [...u.redraw]);
    };
    if (!u.redrawAfterKeys) redraw();
    if (this.view && u.message) this.view.message = u.message.text;
    if (this.view && u.description) this.view.description = this.#tree.description;
    if (u.keys) void this.#applyKeys(u.keys, u.redrawAfterKeys ? redraw : undefined);
    if (u.gone) {
      void vscode.window.showWarningMessage(
        l10n.t('Den: that session no longer exists on the service; it was removed from the list.'),
      );
    }
  }

  /**
   * Queues a context-key update after the ones before it (its values read when it runs), then
   * `after`; the returned promise settles with it.
   */
  #applyKeys(set: KeySet, after?: () => void): Promise<void> {
    const update = async (): Promise<void> => {
      for (const [key, value] of this.#tree.contextKeys(set)) await setContext(key, value);
      after?.();
    };
    this.#keysApplied = this.#keysApplied.then(update, update);
    return this.#keysApplied;
  }

  dispose(): void {
    this.#reviewed?.subscription.dispose();
    this.#subscription.dispose();
    this.#tree.dispose();
    this.#changed.dispose();
  }
}

function setContext(key: string, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
