/**
 * The session hosts Den holds, with or without a panel: the host of each session (made when a view
 * shows the session, a turn starts or a turn is followed, let go when none of them is left), the
 * turns they run and follow, and what hosts share across panels (the transcript cache, the upload
 * indexes, the socket's proxy agent). Following a turn without a panel (the API, chat, tools) lives
 * here; the editor's panels only attach their webviews to hosts (`editor/session-panel`).
 * No `vscode` import: events are the core `Emitter`'s.
 */
import type { Agent } from 'node:http';
import type { ApiClient } from '../../core/client/client';
import { wsAgentFor } from '../../core/client/proxy';
import type { Effort, Mode } from '../../core/client/types';
import { Emitter, type Listen } from '../../core/shared/emitter';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { InputAnswer } from '../../core/transcript/answers';
import type { Transcript, Turn } from '../../core/transcript/model';
import { UploadIndex } from '../attachments/upload-index';
import type { FilesUpdate } from '../session-files/file-index';
import type { FileStatusSource } from '../session-files/file-status';
import type { ReviewedSource } from '../review/review-marks';
import type { RunningTurn, RunningTurnsChange } from './running-turn';
import { SessionActivity, type SessionActivityEvent, type TurnActivity } from './session-activity';
import { SessionHost, type HostSettings, type SessionHostDeps, type TurnRequest } from './session-host';
import type { AnswerOutcome } from './session-messages';
import { TranscriptCache } from './transcript-cache';
import type { FollowTarget } from './turn-followers';

/** What the registry needs of Den's connection to the service (the editor's `Connection` is one). */
export interface RegistryConnection {
  /** Throws a `config` DenError when Den cannot talk to the service. */
  requireClient(): ApiClient;
  readonly settings: {
    readonly baseUrl?: string;
    readonly proxyUrl?: string;
    readonly strictSSL: boolean;
    readonly noProxy: readonly string[];
    readonly defaultMode: Mode;
    readonly defaultEffort: Effort;
  };
  reportSuccess(): void;
  reportFailure(err: unknown): void;
  /** The connection's state changed: the hosts' composers say whether they can send. */
  readonly onDidChangeState?: Listen<unknown>;
}

export interface SessionRegistryDeps {
  connection: RegistryConnection;
  logger: Logger;
  /** The API key in use (for the live socket); never logged. */
  apiKey: () => string | undefined;
  /** What the hosts' views and turns read of the settings (the editor reads them). */
  settings: () => HostSettings;
  /** The title the Sessions view knows for a session, if any. */
  titleOf?: (sessionId: string) => string | undefined;
  /** Where the transcript cache keeps its files; without it, nothing is cached. */
  cacheDir?: string;
  /** Told what hosts learn of their sessions' files (the `den-session:` file system). */
  filesChanged?: (sessionId: string, update: FilesUpdate) => void;
  /** Keeps what the agent saw of a workspace file sent with a turn (`model/apply/bases.ts`). */
  recordBase?: (sessionId: string, path: string, content: Uint8Array) => Promise<unknown>;
  /** The session files' states against the workspace, for the file lists. */
  fileStatus?: FileStatusSource;
  /** The sessions' reviewed marks, for the file lists. */
  reviewed?: ReviewedSource;
  /** Options every host gets (tests: stream backoff, batching, …). */
  hostOptions?: Pick<SessionHostDeps, 'clock' | 'streamOptions' | 'batch' | 'reconcile' | 'watchIntervalMs'>;
}

/** A turn ended: the session and how. */
export interface TurnEnded {
  sessionId: string;
  status: Turn['status'];
}

export class SessionRegistry {
  readonly #hosts = new Map<string, SessionHost>();
  /** Sessions a view shows: their hosts are kept until the view lets go (`detach`). */
  readonly #attached = new Set<string>();
  /** Sessions whose history a host is reading for `watch`. */
  readonly #loading = new Set<string>();
  /** Per session, the contents it holds on the service (kept while the registry lives). */
  readonly #uploads = new Map<string, UploadIndex>();
  /** Transcripts kept on disk between windows (undefined: none). Private: tests reach it. */
  private readonly cache: TranscriptCache | undefined;
  readonly #activity: SessionActivity;

  readonly #changed = new Emitter<RunningTurnsChange>();
  /** The running turns changed (started, ended, or no longer followed). */
  readonly onDidChangeRunningTurns = this.#changed.event;
  readonly #started = new Emitter<string>();
  /** A turn started in a session (by id), which the Sessions view may not list yet. */
  readonly onDidStartTurn = this.#started.event;
  /** A followed turn's change, with the turn (Den's notifications read its files). */
  readonly onDidChangeTurn: Listen<TurnActivity>;
  readonly #sessionChanged = new Emitter<SessionActivityEvent>();
  /** A turn Den follows, with or without a panel, started, needs input, completed, failed or was stopped. */
  readonly onDidChangeSession = this.#sessionChanged.event;
  readonly #ended = new Emitter<TurnEnded>();
  /** A turn Den followed ended (completed, error or aborted). */
  readonly onDidEndTurn = this.#ended.event;
  readonly #transcriptChanged = new Emitter<string>();
  /** A session's transcript changed in a host (an open panel, or a turn followed headless). */
  readonly onDidChangeTranscript = this.#transcriptChanged.event;
  readonly #titleChanged = new Emitter<{ sessionId: string; title: string }>();
  /** A host's title changed (the service named the session, or its first turn did). */
  readonly onDidChangeTitle = this.#titleChanged.event;

  readonly #subscriptions: { dispose(): void }[] = [];
  #runningSessions = new Set<string>();
  #runningKey = '';
  #agent?: { key: string; agent: Agent | undefined };
  #disposed = false;

  /** Private, not `#`: tests wrap `deps.recordBase` to see what is recorded. */
  private readonly deps: SessionRegistryDeps;
  constructor(deps: SessionRegistryDeps) {
    this.deps = deps;
    this.cache = deps.cacheDir ? new TranscriptCache({ dir: deps.cacheDir, logger: deps.logger }) : undefined;
    this.#activity = new SessionActivity((err) =>
      deps.logger.warn(`A listener of the turns' changes failed: ${String(err)}`),
    );
    this.onDidChangeTurn = this.#activity.onDidChange;
    this.#subscriptions.push(
      this.#activity,
      this.#activity.onDidChange((a) => this.#fire(this.#sessionChanged, a.event, 'the sessions')),
    );
    const state = deps.connection.onDidChangeState?.(() => {
      for (const h of this.#hosts.values()) h.view.updateComposer();
    });
    if (state) this.#subscriptions.push(state);
  }

  /** The host of a session, if Den holds one now. */
  host(sessionId: string): SessionHost | undefined {
    return this.#hosts.get(sessionId);
  }

  /**
   * A view shows the session: its host (made if needed), kept until `detach`. `isNew`: the session
   * is not on the service yet (its first turn creates it).
   */
  attach(sessionId: string, options: { title?: string; isNew?: boolean } = {}): SessionHost {
    const host = this.#hostFor(sessionId, options);
    this.#attached.add(sessionId);
    return host;
  }

  /** The view of a session closed: its host goes once it has nothing left to do. */
  detach(sessionId: string): void {
    this.#attached.delete(sessionId);
    this.#releaseIdleHosts();
  }

  /** Whether a view holds the session's host. */
  isAttached(sessionId: string): boolean {
    return this.#attached.has(sessionId);
  }

  /**
   * Starts a turn in a session, with or without a view: the session's host (made if needed)
   * follows it and lives until the turn ends. Resolves to the new turn's id, or the reason it did
   * not start.
   */
  async startTurn(
    sessionId: string,
    turn: TurnRequest,
    options: { title?: string; isNew?: boolean } = {},
  ): Promise<{ agentMessageId: string } | { error: string }> {
    const host = this.#hostFor(sessionId, options);
    const before = new Set(host.transcript.turns.map((t) => t.agentMessageId));
    const ok = await host.startTurn(turn);
    const started = host.transcript.turns.find((t) => t.agentMessageId && !before.has(t.agentMessageId));
    this.#releaseIdleHosts();
    if (ok && started) return { agentMessageId: started.agentMessageId };
    return {
      error: host.view.notice?.message ?? l10n.t('The turn did not start (the service is busy: try again).'),
    };
  }

  /**
   * Reads a session's history into a host, which follows its open turns (kept while one runs):
   * the API follows a turn Den did not hold. Resolves to the transcript read.
   */
  async watch(sessionId: string): Promise<Transcript> {
    const host = this.#hostFor(sessionId);
    // Not let go while its history merges in, before it follows the open turns.
    this.#loading.add(sessionId);
    try {
      await host.load();
    } finally {
      this.#loading.delete(sessionId);
    }
    const t = host.transcript;
    this.#releaseIdleHosts();
    return t;
  }

  /** Whether the session's host has read its stored history (else it holds only turns started here). */
  historyLoaded(sessionId: string): boolean {
    return this.#hosts.get(sessionId)?.loaded ?? false;
  }

  /** The transcript a host holds for the session now (an open panel or a followed turn). */
  transcriptOf(sessionId: string): Transcript | undefined {
    return this.#hosts.get(sessionId)?.transcript;
  }

  /** Turns running in any session, in the order their hosts were made. */
  runningTurns(): RunningTurn[] {
    const out: RunningTurn[] = [];
    for (const h of this.#hosts.values()) {
      for (const t of h.runningTurns()) {
        out.push({
          sessionId: h.sessionId,
          agentMessageId: t.agentMessageId,
          title: h.title,
          task: t.userMessage.text,
          queued: t.status === 'queued',
        });
      }
    }
    return out;
  }

  /** Stops the running turn of a session; false when it has none. */
  async stop(sessionId: string): Promise<boolean> {
    const h = this.#hosts.get(sessionId);
    if (!h || h.runningTurns().length === 0) return false;
    await h.stop();
    return true;
  }

  /**
   * Answers the session's turn that waits for the person (`turnId`: that one; else the latest one
   * asking), over its socket. `notWaiting` when none waits (or Den does not follow the session).
   */
  answer(sessionId: string, answer: InputAnswer, turnId?: string): AnswerOutcome {
    const h = this.#hosts.get(sessionId);
    const id = turnId ?? h?.waitingTurn()?.agentMessageId;
    return h && id ? h.answer(id, answer) : 'notWaiting';
  }

  /** Lets every host go and stops following every turn (sign-out, tests); close the views first. */
  closeAll(): void {
    for (const h of this.#hosts.values()) h.dispose();
    this.#hosts.clear();
    this.#attached.clear();
    this.#updateRunning();
  }

  /** Lets every host go, ends the events, and writes what the cache still holds. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const h of this.#hosts.values()) h.dispose();
    this.#hosts.clear();
    this.#attached.clear();
    for (const d of this.#subscriptions) d.dispose();
    for (const e of [
      this.#changed,
      this.#started,
      this.#sessionChanged,
      this.#ended,
      this.#transcriptChanged,
      this.#titleChanged,
    ])
      e.dispose();
    void this.cache?.flush();
  }

  #hostFor(sessionId: string, options: { title?: string; isNew?: boolean } = {}): SessionHost {
    const host = this.#hosts.get(sessionId) ?? this.#make(sessionId, options.title);
    if (options.isNew) host.expectNew();
    return host;
  }

  #make(sessionId: string, title: string | undefined): SessionHost {
    if (this.#disposed) throw new Error('The session registry was disposed.');
    const { connection, logger } = this.deps;
    const host = new SessionHost({
      ...this.deps.hostOptions,
      sessionId,
      title: title ?? this.deps.titleOf?.(sessionId),
      client: () => connection.requireClient(),
      target: () => this.#followTarget(),
      settings: () => this.deps.settings(),
      composerDefaults: { mode: connection.settings.defaultMode, effort: connection.settings.defaultEffort },
      logger,
      cache: this.cache,
      uploads: this.#uploadsOf(sessionId),
      ...(this.deps.recordBase ? { recordBase: this.#recordBaseFor(sessionId) } : {}),
      fileStatus: this.deps.fileStatus,
      reviewed: this.deps.reviewed,
      events: {
        onRunningChanged: (h) => {
          for (const t of h.runningTurns()) this.#activity.seen(h.sessionId, h.title, t);
          this.#updateRunning();
        },
        onTurnInfo: (h, turn) => {
          if (h.runningTurns().includes(turn)) this.#activity.seen(h.sessionId, h.title, turn);
        },
        onTurnEnded: (h, turn) => {
          this.#fire(this.#ended, { sessionId: h.sessionId, status: turn.status }, 'the ended turns');
          this.#activity.ended(h.sessionId, h.title, turn);
        },
        onTitleChanged: (h) =>
          this.#fire(this.#titleChanged, { sessionId: h.sessionId, title: h.title }, 'the titles'),
        onTurnStarted: (h) => this.#fire(this.#started, h.sessionId, 'the started turns'),
        onFilesChanged: (h, update) => this.deps.filesChanged?.(h.sessionId, update),
        onTranscriptChanged: (h) => this.#fire(this.#transcriptChanged, h.sessionId, 'the transcripts'),
      },
      reportSuccess: () => connection.reportSuccess(),
      reportFailure: (err) => connection.reportFailure(err),
    });
    this.#hosts.set(sessionId, host);
    return host;
  }

  /** Fires an event; a listener that throws is logged and keeps no other listener from running. */
  #fire<T>(emitter: Emitter<T>, value: T, what: string): void {
    try {
      emitter.fire(value);
    } catch (err) {
      this.deps.logger.warn(`A listener of ${what} failed: ${String(err)}`);
    }
  }

  #recordBaseFor(sessionId: string): (path: string, content: Uint8Array) => Promise<unknown> {
    const record = this.deps.recordBase as NonNullable<SessionRegistryDeps['recordBase']>;
    return (path, content) => record(sessionId, path, content);
  }

  #uploadsOf(sessionId: string): UploadIndex {
    let index = this.#uploads.get(sessionId);
    if (!index) this.#uploads.set(sessionId, (index = new UploadIndex()));
    return index;
  }

  /** Hosts without a view, a running turn or a history being read have nothing left to do. */
  #releaseIdleHosts(): void {
    for (const [id, h] of this.#hosts) {
      if (this.#attached.has(id) || h.busy || this.#loading.has(id)) continue;
      this.#hosts.delete(id);
      h.dispose();
    }
  }

  /** Where the hosts' sockets go: the service, through the proxy the settings name (one agent, reused). */
  #followTarget(): FollowTarget {
    const { connection } = this.deps;
    connection.requireClient();
    const s = connection.settings;
    const baseUrl = s.baseUrl as string;
    const key = JSON.stringify([baseUrl, s.proxyUrl ?? '', s.strictSSL, s.noProxy]);
    if (this.#agent?.key !== key) {
      const agent = wsAgentFor(baseUrl, {
        proxyUrl: s.proxyUrl,
        strictSSL: s.strictSSL,
        noProxy: [...s.noProxy],
      });
      this.#agent = { key, agent };
    }
    const target: FollowTarget = { baseUrl, apiKey: this.deps.apiKey };
    if (this.#agent.agent) target.agent = this.#agent.agent;
    return target;
  }

  #updateRunning(): void {
    const list = this.runningTurns();
    const now = new Set(list.map((r) => r.sessionId));
    const sessions: RunningTurnsChange['sessions'] = [];
    for (const id of new Set([...this.#runningSessions, ...now])) {
      if (this.#runningSessions.has(id) !== now.has(id))
        sessions.push({ sessionId: id, running: now.has(id) });
    }
    this.#runningSessions = now;
    // A queued turn that starts running changes the counts too.
    const key = list.map((r) => `${r.agentMessageId}${r.queued ? ':queued' : ''}`).join(',');
    if (key !== this.#runningKey || sessions.length) {
      this.#runningKey = key;
      this.#fire(this.#changed, { turns: list, sessions }, 'the running turns');
    }
    this.#releaseIdleHosts();
  }
}
