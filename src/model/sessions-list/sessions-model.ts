import { DenError } from '../../core/client/errors';
import { preloadNet } from '../../core/client/lazy-net';
import type {
  ListSessionsQuery,
  Message,
  Session,
  SessionDetail,
  SessionPage,
} from '../../core/client/types';
import { backoffDelay, type BackoffOptions } from '../../core/shared/backoff';
import { Emitter } from '../../core/shared/emitter';
import type { Logger } from '../../core/shared/log';
import { RecentMap } from '../../core/shared/recent-map';
import { systemClock, type Clock } from '../shared/clock';
import { SessionList } from './session-list';

/** The calls the Sessions list makes of the API client. */
export interface SessionsApi {
  listSessions(query: ListSessionsQuery, signal?: AbortSignal): Promise<SessionPage>;
  getSession(sessionId: string): Promise<SessionDetail>;
}

/**
 * The service connection as the Sessions list sees it (`Connection` in src/service has this shape):
 * the client, and where each request's outcome is reported, with a ticket taken before it starts.
 */
export interface SessionsService {
  /** The client, or undefined while no URL or no key is set. */
  readonly client: SessionsApi | undefined;
  /** Settles once the stored key has been read. */
  readonly ready: Promise<void>;
  readonly settings: { readonly pageSize: number };
  /** The client, or a `config` DenError that says what to set. */
  requireClient(): SessionsApi;
  beginRequest(): number;
  reportSuccess(ticket?: number): void;
  reportFailure(err: unknown, ticket?: number): void;
}

/** Why the list is not shown: the last load's error, and when it is retried (none for the user's faults). */
export interface ListProblem {
  readonly error: DenError;
  readonly retryInMs?: number;
}

/** What changed in the model. */
export type SessionsChange =
  /** The list as a whole (a refresh, a page more). */
  | { kind: 'list' }
  /** One session's data or running flag. */
  | { kind: 'session'; sessionId: string }
  /** A list load finished: `problem` says how. */
  | { kind: 'settled' }
  /** A session left the list: deleted by the user, or `gone` from the service (a 404). */
  | { kind: 'removed'; sessionId: string; gone: boolean };

/** The list's own retry after a failed load: 2 s doubling to 60 s, no jitter (the view says when). */
export const LIST_RETRY: Readonly<BackoffOptions> = Object.freeze({
  initialMs: 2_000,
  maxMs: 60_000,
  factor: 2,
  jitter: 0,
});

/** Stored histories kept for the tree: the sessions whose Turns or Files a person has open, and some more. */
const DETAILS_KEPT = 16;

const TERMINAL_KINDS = new Set(['task.completed', 'task.aborted', 'task.error']);

/** Whether an agent message's stored events show it still running. */
export function isRunning(agent: Message | undefined): boolean {
  if (!agent || agent.aborted) return false;
  if (agent.status?.phase) return !/^(completed|done|aborted|error|failed)$/i.test(agent.status.phase);
  const last = agent.events[agent.events.length - 1];
  return !last || !TERMINAL_KINDS.has(last.kind);
}

/** How a session's last turn went, as far as Den knows: running, or how it ended. */
export type TurnState = 'running' | 'done' | 'failed' | 'stopped';

/** A finished turn's state from its end: a turn status, a phase or a terminal event kind. */
export function endedState(end: string): Exclude<TurnState, 'running'> {
  return /error|fail/i.test(end) ? 'failed' : /abort/i.test(end) ? 'stopped' : 'done';
}

/** How an agent message that is not running ended, for `endedState` (its stored events or status). */
function messageEnd(agent: Message): string {
  return agent.aborted
    ? 'aborted'
    : (agent.status?.phase ?? agent.events[agent.events.length - 1]?.kind ?? '');
}

/**
 * What the Sessions view shows, without `vscode`: the sessions page by page with the search filter,
 * each session's history (cached while its `updatedAt` holds), which sessions have a running turn,
 * and the outcome of the last list load. A failed load is retried by itself with backoff, except
 * for the user's faults (a rejected key, a missing setting), which wait for a refresh.
 */
export class SessionsModel {
  readonly #changes = new Emitter<SessionsChange>();
  readonly onDidChange = this.#changes.event;
  #list: SessionList;
  #loading?: { list: SessionList; done: Promise<void> };
  #problemValue?: ListProblem;
  #retryHandle?: { timer: unknown };
  /** Failed loads in a row since the last success or refresh (the backoff's attempt). */
  #failures = 0;
  /** Histories fetched for the tree (Turns, Files), the most recently used only: fetched again when dropped. */
  readonly #details = new RecentMap<string, { updatedAt: number; detail: SessionDetail }>(DETAILS_KEPT);
  readonly #running = new Set<string>();
  /** How each session's last turn ended, when Den saw it end or read it in the session's history. */
  readonly #ended = new Map<string, Exclude<TurnState, 'running'>>();

  readonly #service: SessionsService;
  readonly #logger: Logger;
  readonly #clock: Clock;
  constructor(service: SessionsService, logger: Logger, clock: Clock = systemClock) {
    this.#service = service;
    this.#logger = logger;
    this.#clock = clock;
    this.#list = this.#newList();
  }

  /** The sessions loaded so far. */
  get sessions(): readonly Session[] {
    return this.#list.sessions;
  }

  get hasMore(): boolean {
    return this.#list.hasMore;
  }

  get totalCount(): number {
    return this.#list.totalCount;
  }

  get loaded(): boolean {
    return this.#list.loaded;
  }

  get filter(): string | undefined {
    return this.#list.filter;
  }

  /** The last list load's problem; undefined once a load succeeded or after a refresh. */
  get problem(): ListProblem | undefined {
    return this.#problemValue;
  }

  /** Whether a retry of the list load is scheduled. */
  get retryPending(): boolean {
    return this.#retryHandle !== undefined;
  }

  get(sessionId: string): Session | undefined {
    return this.#list.get(sessionId);
  }

  /** Whether the session has a running turn. */
  hasRunningTurn(sessionId: string): boolean {
    return this.#running.has(sessionId);
  }

  /** The state of the session's last turn; undefined when Den has not seen it (the list does not say). */
  turnState(sessionId: string): TurnState | undefined {
    return this.#running.has(sessionId) ? 'running' : this.#ended.get(sessionId);
  }

  /** Records how a session's last turn ended (`end`: see `endedState`), e.g. a turn Den followed. */
  setEnded(sessionId: string, end: string): void {
    const state = endedState(end);
    if (this.#ended.get(sessionId) === state) return;
    this.#ended.set(sessionId, state);
    if (this.#list.get(sessionId) && !this.#running.has(sessionId))
      this.#changes.fire({ kind: 'session', sessionId });
  }

  /** The session's history as last fetched, if it was (current or not). */
  cachedDetail(sessionId: string): SessionDetail | undefined {
    return this.#details.get(sessionId)?.detail;
  }

  /** Sets the search filter; the next `reset` loads with it. */
  setFilter(text: string | undefined): void {
    this.#list.setFilter(text);
  }

  /**
   * Drops what is loaded (settings, key or filter changed, or Retry Now); `ensureLoaded` then fetches
   * the first page again. The backoff starts over: the next failure retries soon again.
   */
  reset(): void {
    this.#list = this.#newList(this.#list.filter);
    this.#details.clear();
    this.#problemValue = undefined;
    this.#clearRetry();
    this.#failures = 0;
    this.#changes.fire({ kind: 'list' });
  }

  /**
   * Loads the first page for the view unless it is loaded: waits for the stored key first. False when
   * there is nothing to show: no client, or a failed load (which waits for its retry or a refresh:
   * loading again here would repeat the request each time the failure redraws the view).
   */
  async loadForView(): Promise<boolean> {
    if (!this.#service.client) {
      // The view waits for the key: load the network code meanwhile (it requests nothing).
      preloadNet();
      await this.#service.ready;
    }
    if (!this.#service.client || this.#problemValue) return false;
    await this.ensureLoaded();
    return !this.#problemValue;
  }

  /** Loads the first page unless it is loaded; a call while it is on its way waits for it. */
  ensureLoaded(): Promise<void> {
    const list = this.#list;
    if (list.loaded || !this.#service.client) return Promise.resolve();
    // A reset (new filter, key or settings) replaced the list while an older one was loading:
    // waiting for that older load would leave this list empty.
    if (this.#loading?.list === list) return this.#loading.done;
    const done = this.#load(list).finally(() => {
      if (this.#loading?.done === done) this.#loading = undefined;
    });
    this.#loading = { list, done };
    return done;
  }

  async loadMore(): Promise<void> {
    const ticket = this.#service.beginRequest();
    try {
      await this.#list.loadMore();
      this.#service.reportSuccess(ticket);
    } catch (err) {
      this.#service.reportFailure(err, ticket);
      throw err;
    }
    this.#changes.fire({ kind: 'list' });
  }

  /** Replaces one session's data (a rename); its history is fetched again when next asked for. */
  updateSession(session: Session): void {
    this.#list.update(session);
    this.#details.delete(session.sessionId);
    this.#changes.fire({ kind: 'session', sessionId: session.sessionId });
  }

  /** Removes a session (deleted, or `gone`: a 404 from the service). */
  removeSession(sessionId: string, gone = false): void {
    if (!this.#list.remove(sessionId)) return;
    this.#details.delete(sessionId);
    this.#running.delete(sessionId);
    this.#ended.delete(sessionId);
    this.#changes.fire({ kind: 'removed', sessionId, gone });
  }

  /** Marks a session as having a running turn, or not. */
  setRunning(sessionId: string, running: boolean): void {
    if (this.#running.has(sessionId) === running) return;
    if (running) this.#running.add(sessionId);
    else this.#running.delete(sessionId);
    if (this.#list.get(sessionId)) this.#changes.fire({ kind: 'session', sessionId });
  }

  /** Fetches (or returns the cached) history of a session; a 404 removes it from the list. */
  async detail(sessionId: string): Promise<SessionDetail> {
    const s = this.#list.get(sessionId);
    const cached = this.#details.get(sessionId);
    if (cached && s && cached.updatedAt === s.updatedAt) return cached.detail;
    const ticket = this.#service.beginRequest();
    try {
      const detail = await this.#service.requireClient().getSession(sessionId);
      this.#service.reportSuccess(ticket);
      this.#details.set(sessionId, { updatedAt: s?.updatedAt ?? detail.session.updatedAt, detail });
      const agents = detail.messages.filter((m) => m.type === 'agent');
      const last = agents[agents.length - 1];
      if (last && !isRunning(last)) this.setEnded(sessionId, messageEnd(last));
      this.setRunning(sessionId, isRunning(last));
      return detail;
    } catch (err) {
      // A 404 is about one session, not the connection.
      if (err instanceof DenError && err.code === 'not_found') this.removeSession(sessionId, true);
      else this.#service.reportFailure(err, ticket);
      throw err;
    }
  }

  dispose(): void {
    this.#clearRetry();
    this.#changes.dispose();
  }

  async #load(list: SessionList): Promise<void> {
    const ticket = this.#service.beginRequest();
    try {
      await list.reload();
      if (list !== this.#list) return; // replaced meanwhile: this outcome is stale
      this.#problemValue = undefined;
      this.#failures = 0;
      this.#service.reportSuccess(ticket);
    } catch (err) {
      if (list !== this.#list) return;
      const error = err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
      const retryInMs = error.fault === 'user' ? undefined : this.#scheduleRetry(error);
      this.#problemValue = { error, retryInMs };
      this.#service.reportFailure(error, ticket);
      this.#logger.warn(`Loading sessions failed: ${error.code} ${error.message}`);
    }
    this.#changes.fire({ kind: 'settled' });
  }

  /** Schedules a new load; returns its delay (what the service asked for after a 429). */
  #scheduleRetry(e: DenError): number {
    this.#clearRetry();
    this.#failures++;
    const delay =
      e.code === 'rate_limited' && e.retryAfter
        ? e.retryAfter * 1000
        : backoffDelay(this.#failures, LIST_RETRY);
    const handle = {
      timer: this.#clock.setTimeout(() => {
        if (this.#retryHandle !== handle) return;
        this.#retryHandle = undefined;
        // Retry with a new load rather than be handed back a failed one that is still finishing.
        this.#loading = undefined;
        void this.ensureLoaded();
      }, delay),
    };
    this.#retryHandle = handle;
    return delay;
  }

  #clearRetry(): void {
    if (this.#retryHandle) this.#clock.clearTimeout(this.#retryHandle.timer);
    this.#retryHandle = undefined;
  }

  #newList(filter?: string): SessionList {
    const list = new SessionList(
      (q, signal) => this.#service.requireClient().listSessions(q, signal),
      this.#service.settings.pageSize,
    );
    list.setFilter(filter);
    return list;
  }
}
