import type { Session, SessionDetail } from '../../core/client/types';
import { Emitter, type Subscription } from '../../core/shared/emitter';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { FileStatus, FileStatuses } from '../session-files/file-status';
import { presentError } from '../shared/error-text';
import { rootsKey } from './drawn-roots';
import {
  countElsewhere,
  groupOf,
  groupSessions,
  noneInScope,
  type HistoryScope,
  type SessionGroup,
} from './history-groups';
import { RecentIds, type IdStorage } from './recent-ids';
import type { SessionsChange, SessionsModel, TurnState } from './sessions-model';
import { listProblemMessage, treeContextKeys } from './welcome-state';
import {
  NodeCache,
  rowId,
  statusKey,
  turnPairs,
  type KeySet,
  type SessionNode,
  type TreeFileStatus,
  type TreeUpdate,
} from './tree-nodes';
import { treeDescription, treeMessage } from './tree-texts';

const SHOW_ALL_KEY = 'den.sessions.showAll';

/**
 * The Sessions tree as data, without `vscode`: which rows there are and under which parent (the
 * `SessionsModel`'s sessions in groups: Pinned, then by day, then Archived; each with its Turns,
 * fetched on expand, and its Files, from `fileSnapshot`), the This Workspace / All Sessions scope
 * and the bounded memories behind it (the sessions started from this workspace and those archived
 * here, in the workspace's storage), the view's context keys, message and description, and what to
 * redraw after each change (`onDidUpdate`): only what was drawn differently. The tree provider
 * maps this to `TreeItem`s.
 */
export class SessionsTreeModel {
  readonly #updates = new Emitter<TreeUpdate>();
  /** What the view must redraw or set; fired synchronously with the change. */
  readonly onDidUpdate = this.#updates.event;
  /** The sessions, pages, search, loading and problems. */
  readonly list: SessionsModel;
  readonly #nodes = new NodeCache();
  /** Sessions started from this workspace, and sessions archived here (`workspaceState`). */
  readonly #local: RecentIds;
  readonly #archived: RecentIds;
  #showAll: boolean;
  /** The sessions of the web task runs recorded here (`setWebTaskSessions`). */
  #webTasks: ReadonlySet<string> = new Set();
  #elsewhere = 0;
  /** What the root rows were last drawn from (`rootsKey`); none when the view drew no rows. */
  #drawnRoots: string | undefined;
  /** The view will list the root's rows anew (a root redraw was asked, or the view waits to list them:
   * `willListRoots`; at first too): until it does, a root redraw would draw the same rows twice. */
  #rootsDue = true;
  /** The groups last listed at the root, and the time they were grouped by. */
  #grouped = { at: 0, groups: new Map<SessionGroup, Session[]>() };
  /** The turn count each Turns group was last drawn with, so it is redrawn only when that changes. */
  readonly #drawnTurnCounts = new Map<string, number | undefined>();
  /** The file rows each expanded Files group last listed (the objects the view knows), by session. */
  readonly #fileRows = new Map<string, SessionNode[]>();
  /** The state each file row was last drawn with, by row id (absent: none). */
  readonly #drawnStatus = new Map<string, string | undefined>();
  #fileStatus?: { source: TreeFileStatus; subscription: Subscription };
  readonly #listSubscription: Subscription;

  /** Where the scope and the memories are kept (the workspace's storage). */
  readonly storage: IdStorage;
  readonly #logger: Logger;
  readonly #now: () => number;
  constructor(list: SessionsModel, storage: IdStorage, logger: Logger, now: () => number = Date.now) {
    this.list = list;
    this.storage = storage;
    this.#logger = logger;
    this.#now = now;
    this.#local = new RecentIds(storage, 'den.sessions.workspace');
    this.#archived = new RecentIds(storage, 'den.sessions.archived');
    this.#showAll = storage.get(SHOW_ALL_KEY) === true;
    this.#listSubscription = list.onDidChange((c) => this.#listChanged(c));
  }

  // ---- the scope ----

  /** Whether All Sessions is shown rather than This Workspace. */
  get showAll(): boolean {
    return this.#showAll;
  }

  /** Switches between This Workspace and All Sessions (remembered for this workspace); no-op when shown already. */
  async setShowAll(all: boolean): Promise<void> {
    if (all === this.#showAll) return;
    this.#showAll = all;
    await this.storage.update(SHOW_ALL_KEY, all);
    this.#regroup({ description: true });
  }

  /** Whether the session was started from this workspace (as far as the bounded memory goes). */
  isLocal(sessionId: string): boolean {
    return this.#local.has(sessionId);
  }

  /** Records a session a turn was started in from this window; true when that regrouped the tree. */
  async remember(sessionId: string): Promise<boolean> {
    if (!(await this.#local.add(sessionId))) return false;
    this.#regroup();
    return true;
  }

  /** Archives (hides here; nothing is sent to the service) or unarchives a session. */
  async setArchived(sessionId: string, archived: boolean): Promise<void> {
    await (archived ? this.#archived.add(sessionId) : this.#archived.delete(sessionId));
    this.#regroup();
  }

  isArchived(sessionId: string): boolean {
    return this.#archived.has(sessionId);
  }

  /**
   * The sessions web task runs made (`properties.sessionId` of the runs in this workspace's
   * history): grouped under Web Tasks rather than among the day's sessions. Regroups when they change.
   */
  setWebTaskSessions(ids: ReadonlySet<string>): void {
    if (ids.size === this.#webTasks.size && [...ids].every((id) => this.#webTasks.has(id))) return;
    this.#webTasks = new Set(ids);
    this.#regroup();
  }

  isWebTask(sessionId: string): boolean {
    return this.#webTasks.has(sessionId);
  }

  get #scope(): HistoryScope {
    return {
      workspaceOnly: !this.#showAll,
      isLocal: (id) => this.#local.has(id),
      isArchived: (id) => this.#archived.has(id),
      isWebTask: (id) => this.#webTasks.has(id),
    };
  }

  // ---- loading ----

  /**
   * Drops what is loaded and loads the first page again unless the view is `hidden` (it loads when
   * next shown). `forgetProblem` (a new key or service URL): the last load's problem belonged to the
   * old one, so its welcome goes at once; a plain refresh keeps it until the new outcome is known.
   * True when it loaded.
   */
  async refresh(opts: { forgetProblem?: boolean; hidden?: boolean } = {}): Promise<boolean> {
    if (opts.forgetProblem) this.#updates.fire({ keys: 'noWelcome' });
    this.list.reset();
    if (opts.hidden) return false;
    await this.list.ensureLoaded();
    return true;
  }

  /** Sets the search (the next refresh loads with it). */
  setFilter(text: string | undefined): void {
    this.list.setFilter(text);
  }

  // ---- what the view shows ----

  /**
   * The root's rows, grouped now: the groups with sessions; under This Workspace, a row saying how
   * many loaded sessions All Sessions adds (when it adds any and the scope shows something: an
   * empty scope has its welcome); then "Load more" while there is more.
   */
  roots(): SessionNode[] {
    this.#rootsDue = false;
    const at = this.#now();
    const groups = groupSessions(this.list.sessions, this.#scope, at);
    this.#grouped = { at, groups: new Map(groups.map((g) => [g.group, g.sessions])) };
    const out: SessionNode[] = groups.map((g) => this.#nodes.node({ kind: 'day', group: g.group }));
    const shown = groups.reduce((n, g) => n + g.sessions.length, 0);
    this.#elsewhere = this.#showAll || shown === 0 ? 0 : countElsewhere(this.list.sessions, this.#scope, at);
    if (this.#elsewhere > 0) out.push(this.#nodes.node({ kind: 'elsewhere' }));
    if (this.list.hasMore) out.push(this.#nodes.node({ kind: 'more' }));
    this.#drawnRoots = out.length ? rootsKey(groups, this.#elsewhere, this.#more(), at) : undefined;
    return out;
  }

  /** The view drew no rows (not shown yet, or signed out): the next change redraws. */
  drewNoRoots(): void {
    this.#rootsDue = false;
    this.#drawnRoots = undefined;
  }

  /**
   * The view will list the root's rows anew: it asked for them and waits (for the key, the first
   * page) before it lists them (`roots`, `drewNoRoots`), or the root was redrawn. Until it lists
   * them, a change asks for no root redraw: the rows listed then show it. So the tree settles in one
   * draw; a redraw asked for meanwhile would reach VS Code after the rows and draw them all again,
   * and a context-menu command chosen on a row while that runs would find no row. True when the
   * view was going to list them already.
   */
  willListRoots(): boolean {
    const due = this.#rootsDue;
    this.#rootsDue = true;
    return due;
  }

  /** The redraw part of an update: none when the rows would draw as drawn (after the keys: `afterKeys`). */
  #redrawUnlessSame(afterKeys = true): Pick<TreeUpdate, 'redraw' | 'redrawAfterKeys'> {
    const redraw = this.#rootsRedraw();
    if (!redraw) return {};
    return afterKeys ? { redraw, redrawAfterKeys: true } : { redraw };
  }

  /**
   * `'all'` unless the view will list the root's rows anyway (`willListRoots`), or they would draw
   * exactly as last drawn (a redraw then only costs).
   */
  #rootsRedraw(): 'all' | undefined {
    if (this.#rootsDue) return undefined;
    if (this.#drawnRoots === undefined) return 'all';
    const at = this.#now();
    const groups = groupSessions(this.list.sessions, this.#scope, at);
    const shown = groups.reduce((n, g) => n + g.sessions.length, 0);
    const elsewhere = this.#showAll || shown === 0 ? 0 : countElsewhere(this.list.sessions, this.#scope, at);
    return rootsKey(groups, elsewhere, this.#more(), at) === this.#drawnRoots ? undefined : 'all';
  }

  /** What the "Load more" row counts, while there is more. */
  #more(): { loaded: number; total: number } | undefined {
    const m = this.list;
    return m.hasMore ? { loaded: m.sessions.length, total: m.totalCount } : undefined;
  }

  /** The `elsewhere` row's count: loaded sessions All Sessions shows and This Workspace does not (as last listed). */
  get elsewhere(): number {
    return this.#elsewhere;
  }

  /** The rows under a row (not the root: `roots`). Turns are fetched; a failure is a row that says so. */
  async children(n: SessionNode): Promise<SessionNode[]> {
    switch (n.kind) {
      case 'day':
        return (this.#grouped.groups.get(n.group) ?? []).map((s) => this.#sessionNode(s.sessionId));
      case 'session':
        return [
          this.#nodes.node({ kind: 'group', group: 'turns', sessionId: n.sessionId }),
          this.#nodes.node({ kind: 'group', group: 'files', sessionId: n.sessionId }),
        ];
      case 'group':
        return n.group === 'files' ? this.#fileChildren(n.sessionId) : this.#turnChildren(n.sessionId);
      default:
        return [];
    }
  }

  parent(n: SessionNode): SessionNode | undefined {
    switch (n.kind) {
      case 'session': {
        const group = this.#groupNow(n.sessionId);
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

  /** How many sessions a root group was last listed with. */
  groupSize(group: SessionGroup): number {
    return this.#grouped.groups.get(group)?.length ?? 0;
  }

  /** A session row's data and look, or undefined once it left the list. */
  sessionRow(
    sessionId: string,
  ): { session: Session; state?: TurnState; archived: boolean; webTask: boolean } | undefined {
    const session = this.list.get(sessionId);
    if (!session) return undefined;
    return {
      session,
      state: this.list.turnState(sessionId),
      archived: this.#archived.has(sessionId),
      webTask: this.#webTasks.has(sessionId),
    };
  }

  /**
   * The count a Turns or Files group is drawn with (undefined: not known yet); the Turns count is
   * remembered, so the group is redrawn only when its turns, once listed, count differently.
   */
  drawGroup(n: Extract<SessionNode, { kind: 'group' }>): number | undefined {
    if (n.group === 'files') {
      const s = this.list.get(n.sessionId);
      return s && Object.keys(s.fileSnapshot).length;
    }
    const count = this.list.cachedDetail(n.sessionId)?.messages.filter((m) => m.type === 'user').length;
    this.#drawnTurnCounts.set(n.sessionId, count);
    return count;
  }

  /** A file row's state against the workspace, if known; remembered, so the row is redrawn when it changes. */
  drawFile(n: Extract<SessionNode, { kind: 'file' }>): FileStatus | undefined {
    const status = this.#fileStatus?.source.peek(n.sessionId)?.get(n.file.name || n.path);
    this.#drawnStatus.set(rowId(n), statusKey(status));
    return status;
  }

  /**
   * Shows each file's state against the workspace in the Files groups: computed when a group is
   * listed, its rows redrawn when the states arrive or go stale and come back different.
   */
  setFileStatus(source: TreeFileStatus): void {
    this.#fileStatus?.subscription.dispose();
    const subscription = source.onDidChange((sessionId) => {
      if (this.#fileRows.has(sessionId)) void this.#loadStatuses(sessionId);
    });
    this.#fileStatus = { source, subscription };
  }

  /** The context keys of `set`, in the order they are set. */
  contextKeys(set: KeySet): [key: string, value: boolean][] {
    const m = this.list;
    return treeContextKeys(set, {
      loaded: m.loaded,
      error: m.problem?.error,
      count: m.sessions.length,
      hasMore: m.hasMore,
      showAll: this.#showAll,
      scopeEmpty: () => this.#scopeEmpty(),
    });
  }

  /** The view's description: the scope, and the search in effect. */
  get description(): string {
    return treeDescription(this.#showAll, this.list.filter);
  }

  /**
   * The message above the tree: `problem` (the last load's, where the welcome does not explain it);
   * without one, why This Workspace shows nothing yet, or the search in effect while it matches.
   * (The view's description is not drawn when Sessions is the only view of its container.)
   */
  message(problem: string | undefined): string | undefined {
    if (problem !== undefined) return problem;
    const m = this.list;
    return treeMessage({
      showAll: this.#showAll,
      filter: m.filter,
      count: m.sessions.length,
      moreToLoad: m.loaded && m.hasMore,
      problem: m.problem !== undefined,
      scopeEmpty: this.#scopeEmpty(),
    });
  }

  dispose(): void {
    this.#fileStatus?.subscription.dispose();
    this.#listSubscription.dispose();
    this.list.dispose();
    this.#updates.dispose();
  }

  // ---- decisions on changes ----

  #listChanged(c: SessionsChange): void {
    switch (c.kind) {
      case 'list':
        // A page more can fill This Workspace (a reset waits for its outcome: no flicker).
        if (this.list.loaded) this.#regroup();
        else this.#fire({ redraw: 'all' });
        return;
      case 'session': {
        // A session that moves to another group (a rename updates it) redraws the groups.
        const s = this.list.get(c.sessionId);
        const drawn = [...this.#grouped.groups].find(([, list]) =>
          list.some((x) => x.sessionId === c.sessionId),
        );
        const moved = s && drawn?.[0] !== this.#groupNow(c.sessionId);
        this.#fire({ redraw: moved ? 'all' : [this.#sessionNode(c.sessionId)] });
        return;
      }
      case 'removed':
        void this.#local.delete(c.sessionId);
        void this.#archived.delete(c.sessionId);
        this.#fire({
          redraw: 'all',
          keys: 'scope',
          // the last match gone: drop the search message so the "no match" welcome can show
          ...(this.list.sessions.length ? {} : { message: { text: this.message(undefined) } }),
          gone: c.gone,
        });
        return;
      case 'settled':
        // A message hides the view's welcome content, which explains some problems with buttons.
        this.#fire({
          message: { text: this.message(this.#problemMessage()) },
          keys: 'welcome',
          ...this.#redrawUnlessSame(),
        });
        return;
    }
  }

  /** Fires `u`; a redraw of the whole tree means the view will list the root's rows anew. */
  #fire(u: TreeUpdate): void {
    if (u.redraw === 'all') this.#rootsDue = true;
    this.#updates.fire(u);
  }

  /** The groups change: redraw the whole tree, its message and its keys. */
  #regroup(extra: Pick<TreeUpdate, 'description'> = {}): void {
    this.#fire({
      ...extra,
      ...this.#redrawUnlessSame(false),
      message: { text: this.message(this.#problemMessage()) },
      keys: 'scope',
    });
  }

  #problemMessage(): string | undefined {
    const problem = this.list.problem;
    return problem && listProblemMessage(problem);
  }

  /** The group a loaded session belongs in now (by the time the root was last grouped). */
  #groupNow(sessionId: string): SessionGroup | undefined {
    const s = this.list.get(sessionId);
    return s && groupOf(s, this.#scope, this.#grouped.at || this.#now());
  }

  /** This Workspace is shown and none of the sessions loaded belongs to it. */
  #scopeEmpty(): boolean {
    const m = this.list;
    return !this.#showAll && m.loaded && !m.problem && noneInScope(m.sessions, this.#scope, this.#now());
  }

  #fileChildren(sessionId: string): SessionNode[] {
    const s = this.list.get(sessionId);
    const entries = Object.entries(s?.fileSnapshot ?? {}).sort(([a], [b]) => a.localeCompare(b));
    if (!entries.length) return [this.#note(`nofiles:${sessionId}`, l10n.t('No files yet'), 'info')];
    const rows = entries.map(([path, file]) => this.#nodes.node({ kind: 'file', sessionId, path, file }));
    this.#fileRows.set(sessionId, rows);
    void this.#loadStatuses(sessionId);
    return rows;
  }

  /** Computes a session's file states; redraws the rows whose state changed. Never throws. */
  async #loadStatuses(sessionId: string): Promise<void> {
    if (!this.#fileStatus) return;
    let statuses: FileStatuses;
    try {
      statuses = await this.#fileStatus.source.statuses(sessionId);
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
    if (stale.length) this.#updates.fire({ redraw: stale });
  }

  async #turnChildren(sessionId: string): Promise<SessionNode[]> {
    let detail: SessionDetail;
    try {
      detail = await this.list.detail(sessionId);
    } catch (err) {
      const p = presentError(err, 'load the turns');
      return [this.#note(`turnserror:${sessionId}`, p.message, 'warning')];
    }
    const out = turnPairs(detail.messages).map((t) => this.#nodes.node({ kind: 'turn', sessionId, ...t }));
    // Redrawing the group asks for its children again: redraw only when the count shown is stale,
    // or the view refreshes this group forever.
    if (this.#drawnTurnCounts.get(sessionId) !== out.length) {
      this.#updates.fire({ redraw: [this.#nodes.node({ kind: 'group', group: 'turns', sessionId })] });
    }
    return out.length ? out : [this.#note(`noturns:${sessionId}`, l10n.t('No turns yet'), 'info')];
  }

  #sessionNode(sessionId: string): SessionNode {
    return this.#nodes.node({ kind: 'session', sessionId });
  }

  #note(id: string, label: string, icon: string): SessionNode {
    return this.#nodes.node({ kind: 'note', id, label, icon });
  }
}
