import * as vscode from 'vscode';
import { DenError } from '../core/api/errors';
import type { Message, Session, SessionDetail } from '../core/api/types';
import type { Logger } from '../core/log';
import type { Connection } from '../service/connection';
import { presentError } from '../session/error-text';
import { SessionList } from '../session/list/session-list';
import { welcomeExplains, welcomeKeys } from '../session/list/welcome-state';
import {
  fileItem,
  groupItem,
  moreItem,
  noteItem,
  sessionItem,
  turnItem,
  type SessionNode,
} from './tree-nodes';

const TERMINAL_KINDS = new Set(['task.completed', 'task.aborted', 'task.error']);
const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

/** Whether an agent message's stored events show it still running. */
export function isRunning(agent: Message | undefined): boolean {
  if (!agent || agent.aborted) return false;
  if (agent.status?.phase) return !/^(completed|done|aborted|error|failed)$/i.test(agent.status.phase);
  const last = agent.events[agent.events.length - 1];
  return !last || !TERMINAL_KINDS.has(last.kind);
}

/**
 * The Sessions view: sessions page by page from `GET /sessions`, each with its turns (fetched
 * on expand) and files (from `fileSnapshot`). Errors show in the view with what to do;
 * network failures retry by themselves with backoff.
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private list: SessionList;
  private loading?: { list: SessionList; done: Promise<void> };
  private rootError?: DenError;
  private retryTimer?: NodeJS.Timeout;
  private retryDelay = RETRY_MIN_MS;
  private readonly details = new Map<string, { updatedAt: number; detail: SessionDetail }>();
  private readonly running = new Set<string>();
  private readonly nodes = new Map<string, SessionNode>();
  /** The turn count each Turns group was last drawn with, so it is redrawn only when that changes. */
  private readonly drawnTurnCounts = new Map<string, number | undefined>();
  private view?: vscode.TreeView<SessionNode>;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Logger,
  ) {
    this.list = this.newList();
  }

  attach(view: vscode.TreeView<SessionNode>): void {
    this.view = view;
    this.updateDescription();
  }

  /** The sessions loaded so far (for commands that pick one, and for tests). */
  get sessions(): readonly Session[] {
    return this.list.sessions;
  }

  get hasMore(): boolean {
    return this.list.hasMore;
  }

  get filter(): string | undefined {
    return this.list.filter;
  }

  get lastError(): DenError | undefined {
    return this.rootError;
  }

  /**
   * Drops what is loaded and loads the first page again (settings, key or filter changed).
   * `forgetProblem` (a new key or service URL): the last load's problem belonged to the old one, so
   * its welcome goes at once; a plain refresh keeps it until the new outcome is known (no flicker).
   */
  refresh(opts: { forgetProblem?: boolean } = {}): Promise<void> {
    if (opts.forgetProblem) void this.setWelcomeKeys(undefined);
    this.list = this.newList(this.list.filter);
    this.details.clear();
    this.rootError = undefined;
    this.clearRetry();
    // New settings, key or a Retry Now start over: the next failure retries soon again.
    this.retryDelay = RETRY_MIN_MS;
    this.changed.fire(undefined);
    // A hidden view loads when it is next shown (VS Code then asks for its children).
    return this.view && !this.view.visible ? Promise.resolve() : this.ensureLoaded();
  }

  async setFilter(text: string | undefined): Promise<void> {
    this.list.setFilter(text);
    await vscode.commands.executeCommand('setContext', 'den.hasFilter', !!this.list.filter);
    this.updateDescription();
    await this.refresh();
  }

  async loadMore(): Promise<void> {
    const ticket = this.connection.beginRequest();
    try {
      await this.list.loadMore();
      this.connection.reportSuccess(ticket);
    } catch (err) {
      this.connection.reportFailure(err, ticket);
      throw err;
    }
    this.changed.fire(undefined);
  }

  get(sessionId: string): Session | undefined {
    return this.list.get(sessionId);
  }

  /** Replaces one session's data and redraws only its item. */
  updateSession(session: Session): void {
    this.list.update(session);
    this.details.delete(session.sessionId);
    this.changed.fire(this.sessionNode(session.sessionId));
  }

  /** Removes a session (deleted, or 404 from the service). */
  removeSession(sessionId: string): void {
    if (this.list.remove(sessionId)) {
      this.details.delete(sessionId);
      this.running.delete(sessionId);
      this.changed.fire(undefined);
      void this.setEmptyContext();
      // the last match gone: drop the search message so the "no match" welcome can show
      if (!this.list.sessions.length) this.setMessage(undefined);
    }
  }

  /** Marks a session as having a running turn (shown with a spinning icon). */
  setRunning(sessionId: string, running: boolean): void {
    const had = this.running.has(sessionId);
    if (had === running) return;
    if (running) this.running.add(sessionId);
    else this.running.delete(sessionId);
    if (this.list.get(sessionId)) this.changed.fire(this.sessionNode(sessionId));
  }

  /** Fetches (or returns the cached) history of a session; a 404 removes it from the tree. */
  async detail(sessionId: string): Promise<SessionDetail> {
    const s = this.list.get(sessionId);
    const cached = this.details.get(sessionId);
    if (cached && s && cached.updatedAt === s.updatedAt) return cached.detail;
    const ticket = this.connection.beginRequest();
    try {
      const detail = await this.connection.requireClient().getSession(sessionId);
      this.connection.reportSuccess(ticket);
      this.details.set(sessionId, { updatedAt: s?.updatedAt ?? detail.session.updatedAt, detail });
      const agents = detail.messages.filter((m) => m.type === 'agent');
      this.setRunning(sessionId, isRunning(agents[agents.length - 1]));
      return detail;
    } catch (err) {
      if (err instanceof DenError && err.code === 'not_found') {
        this.removeSession(sessionId);
        void vscode.window.showWarningMessage(
          'Den: that session no longer exists on the service; it was removed from the list.',
        );
      } else {
        this.connection.reportFailure(err, ticket);
      }
      throw err;
    }
  }

  getTreeItem(n: SessionNode): vscode.TreeItem {
    const now = Date.now();
    switch (n.kind) {
      case 'session': {
        const s = this.list.get(n.sessionId);
        if (!s)
          return noteItem({
            kind: 'note',
            id: `gone:${n.sessionId}`,
            label: 'Removed',
            icon: 'circle-slash',
          });
        return sessionItem(s, this.running.has(s.sessionId), now);
      }
      case 'group': {
        const s = this.list.get(n.sessionId);
        const count =
          n.group === 'files'
            ? s && Object.keys(s.fileSnapshot).length
            : this.details.get(n.sessionId)?.detail.messages.filter((m) => m.type === 'user').length;
        if (n.group === 'turns') this.drawnTurnCounts.set(n.sessionId, count);
        return groupItem(n.group, n.sessionId, count);
      }
      case 'turn':
        return turnItem(n, isRunning(n.agent), now);
      case 'file':
        return fileItem(n);
      case 'more':
        return moreItem(this.list.sessions.length, this.list.totalCount);
      case 'note':
        return noteItem(n);
    }
  }

  getParent(n: SessionNode): SessionNode | undefined {
    switch (n.kind) {
      case 'group':
        return this.sessionNode(n.sessionId);
      case 'turn':
        return this.node({ kind: 'group', group: 'turns', sessionId: n.sessionId });
      case 'file':
        return this.node({ kind: 'group', group: 'files', sessionId: n.sessionId });
      default:
        return undefined;
    }
  }

  async getChildren(n?: SessionNode): Promise<SessionNode[]> {
    if (!n) return this.rootChildren();
    if (n.kind === 'session') {
      return [
        this.node({ kind: 'group', group: 'turns', sessionId: n.sessionId }),
        this.node({ kind: 'group', group: 'files', sessionId: n.sessionId }),
      ];
    }
    if (n.kind === 'group' && n.group === 'files') {
      const s = this.list.get(n.sessionId);
      const entries = Object.entries(s?.fileSnapshot ?? {}).sort(([a], [b]) => a.localeCompare(b));
      if (!entries.length) return [this.note(`nofiles:${n.sessionId}`, 'No files yet', 'info')];
      return entries.map(([path, file]) => this.node({ kind: 'file', sessionId: n.sessionId, path, file }));
    }
    if (n.kind === 'group' && n.group === 'turns') return this.turnChildren(n.sessionId);
    return [];
  }

  private async turnChildren(sessionId: string): Promise<SessionNode[]> {
    let detail: SessionDetail;
    try {
      detail = await this.detail(sessionId);
    } catch (err) {
      const p = presentError(err, 'load the turns');
      return [this.note(`turnserror:${sessionId}`, p.message, 'warning')];
    }
    const out: SessionNode[] = [];
    const msgs = detail.messages;
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i];
      if (m.type !== 'user') continue;
      const next = msgs[i + 1];
      const agent = next && next.type === 'agent' ? next : undefined;
      out.push(this.node({ kind: 'turn', sessionId, message: m, agent }));
    }
    // Redrawing the group asks for its children again: fire only when the count shown is stale,
    // or the view refreshes this group forever.
    if (this.drawnTurnCounts.get(sessionId) !== out.length) {
      this.changed.fire(this.node({ kind: 'group', group: 'turns', sessionId }));
    }
    return out.length ? out : [this.note(`noturns:${sessionId}`, 'No turns yet', 'info')];
  }

  private async rootChildren(): Promise<SessionNode[]> {
    if (!this.connection.client) await this.connection.ready;
    if (!this.connection.client) return [];
    // After a failed load the view waits for the scheduled retry or a refresh: loading here again
    // would repeat the request at once, every time the failure redraws the view.
    if (this.rootError) return [];
    await this.ensureLoaded();
    if (this.rootError) return [];
    const out: SessionNode[] = this.list.sessions.map((s) => this.sessionNode(s.sessionId));
    if (this.list.hasMore) out.push(this.node({ kind: 'more' }));
    return out;
  }

  private ensureLoaded(): Promise<void> {
    const list = this.list;
    if (list.loaded || !this.connection.client) return Promise.resolve();
    // A refresh (new filter, key or settings) replaced the list while an older one was loading:
    // waiting for that older load would leave this list empty.
    if (this.loading?.list === list) return this.loading.done;
    const done = this.load(list).finally(() => {
      if (this.loading?.done === done) this.loading = undefined;
    });
    this.loading = { list, done };
    return done;
  }

  private async load(list: SessionList): Promise<void> {
    const ticket = this.connection.beginRequest();
    try {
      await list.reload();
      if (list !== this.list) return; // replaced meanwhile: this outcome is stale
      this.rootError = undefined;
      this.retryDelay = RETRY_MIN_MS;
      this.connection.reportSuccess(ticket);
      this.setMessage(undefined);
    } catch (err) {
      if (list !== this.list) return;
      const e = err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
      this.rootError = e;
      this.connection.reportFailure(e, ticket);
      this.logger.warn(`Loading sessions failed: ${e.code} ${e.message}`);
      // A message hides the view's welcome content, which explains these with buttons (package.json).
      this.setMessage(welcomeExplains(e) ? undefined : this.errorMessage(e));
      if (e.fault !== 'user') this.scheduleRetry(e);
    }
    await this.setWelcomeKeys(this.rootError);
    await this.setEmptyContext();
    this.changed.fire(undefined);
  }

  private errorMessage(e: DenError): string {
    const p = presentError(e, 'load sessions');
    if (e.fault === 'user') return p.message;
    const next = e.code === 'rate_limited' && e.retryAfter ? e.retryAfter * 1000 : this.retryDelay;
    // The generic "retries by itself" / "Retry in N s" endings are replaced by the tree's own schedule.
    const lead = p.message.replace(/ (Den retries by itself|Retry in [^.]*)\.$/, '');
    return `${lead} Retrying in ${Math.ceil(next / 1000)} s.`;
  }

  private scheduleRetry(e: DenError): void {
    this.clearRetry();
    const delay = e.code === 'rate_limited' && e.retryAfter ? e.retryAfter * 1000 : this.retryDelay;
    this.retryDelay = Math.min(RETRY_MAX_MS, this.retryDelay * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      // The failed load may still be finishing (its context-key updates are round trips to the
      // workbench): retry with a new load rather than be handed that failed one back.
      this.loading = undefined;
      void this.ensureLoaded();
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async setWelcomeKeys(listError: DenError | undefined): Promise<void> {
    for (const [key, value] of Object.entries(welcomeKeys(listError))) {
      await vscode.commands.executeCommand('setContext', key, value);
    }
  }

  private async setEmptyContext(): Promise<void> {
    const empty = this.list.loaded && !this.rootError && this.list.sessions.length === 0;
    await vscode.commands.executeCommand('setContext', 'den.sessionsEmpty', empty);
  }

  /** Shows an error above the tree; without one, the search in effect (while it matches something). */
  private setMessage(message: string | undefined): void {
    if (!this.view) return;
    const filter = this.list.filter;
    // The view's description is not drawn when Sessions is the only view of its container.
    this.view.message =
      message ??
      (filter && !this.rootError && this.list.sessions.length
        ? `Showing sessions whose title contains “${filter}”.`
        : undefined);
  }

  private updateDescription(): void {
    if (this.view) this.view.description = this.list.filter ? `“${this.list.filter}”` : undefined;
  }

  private newList(filter?: string): SessionList {
    const list = new SessionList(
      (q, signal) => this.connection.requireClient().listSessions(q, signal),
      this.connection.settings.pageSize,
    );
    list.setFilter(filter);
    return list;
  }

  private sessionNode(sessionId: string): SessionNode {
    return this.node({ kind: 'session', sessionId });
  }

  private note(id: string, label: string, icon: string): SessionNode {
    return this.node({ kind: 'note', id, label, icon });
  }

  /** One object per logical node, so VS Code's targeted refresh finds the element it knows. */
  private node(n: SessionNode): SessionNode {
    const key = nodeKey(n);
    const known = this.nodes.get(key);
    if (known && n.kind !== 'turn' && n.kind !== 'file') return known;
    this.nodes.set(key, n);
    return n;
  }

  dispose(): void {
    this.clearRetry();
    this.changed.dispose();
  }
}

function nodeKey(n: SessionNode): string {
  switch (n.kind) {
    case 'session':
      return `s:${n.sessionId}`;
    case 'group':
      return `g:${n.group}:${n.sessionId}`;
    case 'turn':
      return `t:${n.sessionId}:${n.message.id}`;
    case 'file':
      return `f:${n.sessionId}:${n.path}`;
    case 'more':
      return 'more';
    case 'note':
      return `n:${n.id}`;
  }
}
