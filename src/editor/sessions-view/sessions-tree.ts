import * as vscode from 'vscode';
import type { DenError } from '../../core/client/errors';
import type { Session, SessionDetail } from '../../core/client/types';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { Connection } from '../platform/connection';
import type { FileStatusModel, FileStatuses } from '../../model/session-files/file-status';
import { presentError } from '../../model/shared/error-text';
import {
  groupOf,
  groupSessions,
  type HistoryScope,
  type SessionGroup,
} from '../../model/sessions-list/history-groups';
import { RecentIds, type IdStorage } from '../../model/sessions-list/recent-ids';
import { isRunning, SessionsModel, type SessionsChange } from '../../model/sessions-list/sessions-model';
import { listProblemMessage, welcomeKeys } from '../../model/sessions-list/welcome-state';
import {
  dayItem,
  fileItem,
  groupItem,
  moreItem,
  NodeCache,
  noteItem,
  sessionItem,
  turnItem,
  statusKey,
  type SessionNode,
} from './tree-nodes';

/** A `Memento` kept in memory, for a provider built without one. */
function memoryStorage(): IdStorage {
  const values = new Map<string, unknown>();
  return { get: (k) => values.get(k), update: async (k, v) => void values.set(k, v) };
}

const SHOW_ALL_KEY = 'den.sessions.showAll';

function rowId(n: Extract<SessionNode, { kind: 'file' }>): string {
  return `${n.sessionId}\u0000${n.path}`;
}

/**
 * The Sessions view: renders a `SessionsModel` (sessions page by page in groups: Pinned, then by day,
 * then Archived; each with its turns, fetched on expand, and files, from `fileSnapshot`) and keeps the
 * view's context keys, message and description in step with it. It remembers in the workspace's
 * storage, bounded, the sessions started from this workspace (This Workspace, shown by default; All
 * Sessions on request, remembered too) and the sessions archived here (hidden locally). The model's
 * problems show in the view with what to do; network failures retry by themselves (the model's
 * schedule).
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<SessionNode | SessionNode[] | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly model: SessionsModel;
  readonly #nodes = new NodeCache();
  /** The turn count each Turns group was last drawn with, so it is redrawn only when that changes. */
  readonly #drawnTurnCounts = new Map<string, number | undefined>();
  /** Context-key updates, one after another, so an older outcome's keys never land last. */
  #keysApplied: Promise<void> = Promise.resolve();
  readonly #subscription: { dispose(): void };
  private view?: vscode.TreeView<SessionNode>;
  /** The files' states against the workspace, when wired (`setFileStatus`). */
  #fileStatus?: FileStatusModel;
  /** The file rows each expanded Files group last listed (the objects VS Code knows), by session. */
  readonly #fileRows = new Map<string, SessionNode[]>();
  /** The state each file row was last drawn with, by row id (absent: none). */
  readonly #drawnStatus = new Map<string, string | undefined>();
  #statusSubscription?: { dispose(): void };
  /** Sessions started from this workspace, and sessions archived here (`workspaceState`). */
  readonly #local: RecentIds;
  readonly #archived: RecentIds;
  #showAllValue: boolean;
  /** The groups last listed at the root, and the time they were grouped by. */
  #grouped = { at: 0, groups: new Map<SessionGroup, Session[]>() };

  readonly #logger: Logger;
  private readonly storage: IdStorage;
  constructor(connection: Connection, logger: Logger, storage: IdStorage = memoryStorage()) {
    this.#logger = logger;
    this.storage = storage;
    this.model = new SessionsModel(connection, logger);
    this.#subscription = this.model.onDidChange((c) => this.#render(c));
    this.#local = new RecentIds(storage, 'den.sessions.workspace');
    this.#archived = new RecentIds(storage, 'den.sessions.archived');
    this.#showAllValue = storage.get(SHOW_ALL_KEY) === true;
    void this.#applyKeys(() => this.#setEmptyContext());
  }

  /** Whether All Sessions is shown rather than This Workspace. */
  get showAll(): boolean {
    return this.#showAllValue;
  }

  /** Switches between This Workspace and All Sessions (remembered for this workspace). */
  async setShowAll(all: boolean): Promise<void> {
    this.#showAllValue = all;
    await this.storage.update(SHOW_ALL_KEY, all);
    this.#updateDescription();
    await this.#regroup();
  }

  /** Whether the session was started from this workspace (as far as the bounded memory goes). */
  isLocal(sessionId: string): boolean {
    return this.#local.has(sessionId);
  }

  /** Records a session a turn was started in from this window, as this workspace's. */
  async remember(sessionId: string): Promise<void> {
    if (await this.#local.add(sessionId)) await this.#regroup();
  }

  /** Archives (hides here; nothing is sent to the service) or unarchives a session. */
  async setArchived(sessionId: string, archived: boolean): Promise<void> {
    await (archived ? this.#archived.add(sessionId) : this.#archived.delete(sessionId));
    await this.#regroup();
  }

  get #scope(): HistoryScope {
    return {
      workspaceOnly: !this.#showAllValue,
      isLocal: (id) => this.#local.has(id),
      isArchived: (id) => this.#archived.has(id),
    };
  }

  /** Redraws the whole tree (groups change) and settles once the context keys are in step. */
  #regroup(): Promise<void> {
    this.#changed.fire(undefined);
    this.#setMessage(this.model.problem && listProblemMessage(this.model.problem));
    return this.#applyKeys(() => this.#setEmptyContext());
  }

  /**
   * Shows each file's state against the workspace in the Files groups: computed when a group is
   * listed, its rows redrawn when the states arrive or go stale and come back different.
   */
  setFileStatus(model: FileStatusModel): void {
    this.#statusSubscription?.dispose();
    this.#fileStatus = model;
    this.#statusSubscription = model.onDidChange((sessionId) => {
      if (this.#fileRows.has(sessionId)) void this.#loadStatuses(sessionId);
    });
  }

  attach(view: vscode.TreeView<SessionNode>): void {
    this.view = view;
    this.#updateDescription();
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
   * Drops what is loaded and loads the first page again (settings, key or filter changed).
   * `forgetProblem` (a new key or service URL): the last load's problem belonged to the old one, so
   * its welcome goes at once; a plain refresh keeps it until the new outcome is known (no flicker).
   */
  refresh(opts: { forgetProblem?: boolean } = {}): Promise<void> {
    if (opts.forgetProblem) void this.#applyKeys(() => this.#setWelcomeKeys(undefined));
    this.model.reset();
    // A hidden view loads when it is next shown (VS Code then asks for its children).
    return this.view && !this.view.visible ? Promise.resolve() : this.#ensureLoaded();
  }

  async setFilter(text: string | undefined): Promise<void> {
    this.model.setFilter(text);
    await vscode.commands.executeCommand('setContext', 'den.hasFilter', !!this.model.filter);
    this.#updateDescription();
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
        return dayItem(n.group, this.#grouped.groups.get(n.group)?.length ?? 0);
      case 'session': {
        const s = this.model.get(n.sessionId);
        if (!s)
          return noteItem({
            kind: 'note',
            id: `gone:${n.sessionId}`,
            label: l10n.t('Removed'),
            icon: 'circle-slash',
          });
        const look = { state: this.model.turnState(s.sessionId), archived: this.#archived.has(s.sessionId) };
        return sessionItem(s, look, now);
      }
      case 'group': {
        const s = this.model.get(n.sessionId);
        const count =
          n.group === 'files'
            ? s && Object.keys(s.fileSnapshot).length
            : this.model.cachedDetail(n.sessionId)?.messages.filter((m) => m.type === 'user').length;
        if (n.group === 'turns') this.#drawnTurnCounts.set(n.sessionId, count);
        return groupItem(n.group, n.sessionId, count);
      }
      case 'turn':
        return turnItem(n, isRunning(n.agent), now);
      case 'file': {
        const status = this.#fileStatus?.peek(n.sessionId)?.get(n.file.name || n.path);
        this.#drawnStatus.set(rowId(n), statusKey(status));
        return fileItem(n, status);
      }
      case 'more':
        return moreItem(this.model.sessions.length, this.model.totalCount);
      case 'note':
        return noteItem(n);
    }
  }

  getParent(n: SessionNode): SessionNode | undefined {
    switch (n.kind) {
      case 'session': {
        const s = this.model.get(n.sessionId);
        const group = s && groupOf(s, this.#scope, this.#grouped.at || Date.now());
        return group && this.#nodes.node({ kind: 'day', group });
      }
      case 'group':
        return this.#sessionNode(n.sessionId);
      case 'turn':
        return this.#nodes.node({ kind: 'group', group: 'turns', sessionId: n.sessionId });
      case 'file':
        return this.#nodes.node({ kind: 'group', group: 'files', sessionId: n.sessionId });
      default:
        return undefined;
    }
  }

  async getChildren(n?: SessionNode): Promise<SessionNode[]> {
    if (!n) return this.#rootChildren();
    if (n.kind === 'day') {
      return (this.#grouped.groups.get(n.group) ?? []).map((s) => this.#sessionNode(s.sessionId));
    }
    if (n.kind === 'session') {
      return [
        this.#nodes.node({ kind: 'group', group: 'turns', sessionId: n.sessionId }),
        this.#nodes.node({ kind: 'group', group: 'files', sessionId: n.sessionId }),
      ];
    }
    if (n.kind === 'group' && n.group === 'files') {
      const s = this.model.get(n.sessionId);
      const entries = Object.entries(s?.fileSnapshot ?? {}).sort(([a], [b]) => a.localeCompare(b));
      if (!entries.length) return [this.#note(`nofiles:${n.sessionId}`, l10n.t('No files yet'), 'info')];
      const rows = entries.map(([path, file]) =>
        this.#nodes.node({ kind: 'file', sessionId: n.sessionId, path, file }),
      );
      this.#fileRows.set(n.sessionId, rows);
      void this.#loadStatuses(n.sessionId);
      return rows;
    }
    if (n.kind === 'group' && n.group === 'turns') return this.#turnChildren(n.sessionId);
    return [];
  }

  /** Computes a session's file states; redraws the rows whose state changed. Never throws. */
  async #loadStatuses(sessionId: string): Promise<void> {
    if (!this.#fileStatus) return;
    let statuses: FileStatuses;
    try {
      statuses = await this.#fileStatus.statuses(sessionId);
    } catch (err) {
      this.#logger.warn(
        `Sessions view: could not compare the files of ${sessionId} with the workspace: ${String(err)}`,
      );
      return;
    }
    const stale = (this.#fileRows.get(sessionId) ?? []).filter(
      (r) =>
        r.kind === 'file' &&
        this.#drawnStatus.has(rowId(r)) &&
        this.#drawnStatus.get(rowId(r)) !== statusKey(statuses.get(r.file.name || r.path)),
    );
    if (stale.length) this.#changed.fire(stale);
  }

  async #turnChildren(sessionId: string): Promise<SessionNode[]> {
    let detail: SessionDetail;
    try {
      detail = await this.model.detail(sessionId);
    } catch (err) {
      const p = presentError(err, 'load the turns');
      return [this.#note(`turnserror:${sessionId}`, p.message, 'warning')];
    }
    const out: SessionNode[] = [];
    const msgs = detail.messages;
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i];
      if (m.type !== 'user') continue;
      const next = msgs[i + 1];
      const agent = next && next.type === 'agent' ? next : undefined;
      out.push(this.#nodes.node({ kind: 'turn', sessionId, message: m, agent }));
    }
    // Redrawing the group asks for its children again: fire only when the count shown is stale,
    // or the view refreshes this group forever.
    if (this.#drawnTurnCounts.get(sessionId) !== out.length) {
      this.#changed.fire(this.#nodes.node({ kind: 'group', group: 'turns', sessionId }));
    }
    return out.length ? out : [this.#note(`noturns:${sessionId}`, l10n.t('No turns yet'), 'info')];
  }

  async #rootChildren(): Promise<SessionNode[]> {
    const shown = await this.model.loadForView();
    await this.#keysApplied;
    if (!shown) return [];
    const at = Date.now();
    const groups = groupSessions(this.model.sessions, this.#scope, at);
    this.#grouped = { at, groups: new Map(groups.map((g) => [g.group, g.sessions])) };
    const out: SessionNode[] = groups.map((g) => this.#nodes.node({ kind: 'day', group: g.group }));
    if (this.model.hasMore) out.push(this.#nodes.node({ kind: 'more' }));
    return out;
  }

  /** Loads the first page unless loaded; settles once the view's context keys say how it went. */
  async #ensureLoaded(): Promise<void> {
    await this.model.ensureLoaded();
    await this.#keysApplied;
  }

  #render(c: SessionsChange): void {
    switch (c.kind) {
      case 'list':
        // A page more can fill This Workspace (a reset waits for its outcome: no flicker).
        if (this.model.loaded) void this.#regroup();
        else this.#changed.fire(undefined);
        return;
      case 'session': {
        // A session that moves to another group (a rename updates it) redraws the groups.
        const s = this.model.get(c.sessionId);
        const drawn = [...this.#grouped.groups].find(([, list]) =>
          list.some((x) => x.sessionId === c.sessionId),
        );
        const moved = s && drawn?.[0] !== groupOf(s, this.#scope, this.#grouped.at || Date.now());
        this.#changed.fire(moved ? undefined : this.#sessionNode(c.sessionId));
        return;
      }
      case 'removed':
        void this.#local.delete(c.sessionId);
        void this.#archived.delete(c.sessionId);
        this.#changed.fire(undefined);
        void this.#applyKeys(() => this.#setEmptyContext());
        // the last match gone: drop the search message so the "no match" welcome can show
        if (!this.model.sessions.length) this.#setMessage(undefined);
        if (c.gone) {
          void vscode.window.showWarningMessage(
            l10n.t('Den: that session no longer exists on the service; it was removed from the list.'),
          );
        }
        return;
      case 'settled': {
        // A message hides the view's welcome content, which explains some problems with buttons.
        const problem = this.model.problem;
        this.#setMessage(problem && listProblemMessage(problem));
        void this.#applyKeys(async () => {
          await this.#setWelcomeKeys(this.model.problem?.error);
          await this.#setEmptyContext();
          this.#changed.fire(undefined);
        });
        return;
      }
    }
  }

  /** Queues a context-key update after the ones before it; the returned promise settles with it. */
  #applyKeys(update: () => Promise<void>): Promise<void> {
    this.#keysApplied = this.#keysApplied.then(update, update);
    return this.#keysApplied;
  }

  async #setWelcomeKeys(listError: DenError | undefined): Promise<void> {
    for (const [key, value] of Object.entries(welcomeKeys(listError))) await setContext(key, value);
  }

  async #setEmptyContext(): Promise<void> {
    const m = this.model;
    const empty = m.loaded && !m.problem && m.sessions.length === 0;
    await setContext('den.sessionsEmpty', empty);
    await setContext('den.sessionsShowAll', this.#showAllValue);
    await setContext('den.sessionsScopeEmpty', !empty && !m.hasMore && this.#scopeEmpty());
  }

  /** This Workspace is shown and none of the sessions loaded belongs to it. */
  #scopeEmpty(): boolean {
    const m = this.model;
    return (
      !this.#showAllValue &&
      m.loaded &&
      !m.problem &&
      !m.sessions.some((s) => groupOf(s, this.#scope, Date.now()) !== undefined)
    );
  }

  /** Shows an error above the tree; without one, the search in effect (while it matches something). */
  #setMessage(message: string | undefined): void {
    if (!this.view) return;
    const filter = this.model.filter;
    const m = this.model;
    const all = this.#showAllValue;
    const n = formatCount(m.sessions.length);
    // The view's description is not drawn when Sessions is the only view of its container.
    this.view.message =
      message ??
      (m.loaded && m.hasMore && this.#scopeEmpty()
        ? all
          ? filter
            ? l10n.t('No sessions among the {0} most recent that match: load more, or show All Sessions.', n)
            : l10n.t('No sessions among the {0} most recent: load more, or show All Sessions.', n)
          : filter
            ? l10n.t(
                'No sessions of this workspace among the {0} most recent that match: load more, or show All Sessions.',
                n,
              )
            : l10n.t(
                'No sessions of this workspace among the {0} most recent: load more, or show All Sessions.',
                n,
              )
        : filter && !m.problem && m.sessions.length && !this.#scopeEmpty()
          ? all
            ? l10n.t('Showing sessions whose title contains “{0}”.', filter)
            : l10n.t('Showing sessions of this workspace whose title contains “{0}”.', filter)
          : undefined);
  }

  #updateDescription(): void {
    if (!this.view) return;
    const scope = this.#showAllValue ? l10n.t('All Sessions') : l10n.t('This Workspace');
    this.view.description = this.model.filter ? l10n.t('{0} · “{1}”', scope, this.model.filter) : scope;
  }

  #sessionNode(sessionId: string): SessionNode {
    return this.#nodes.node({ kind: 'session', sessionId });
  }

  #note(id: string, label: string, icon: string): SessionNode {
    return this.#nodes.node({ kind: 'note', id, label, icon });
  }

  dispose(): void {
    this.#statusSubscription?.dispose();
    this.#subscription.dispose();
    this.model.dispose();
    this.#changed.dispose();
  }
}

function setContext(key: string, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
