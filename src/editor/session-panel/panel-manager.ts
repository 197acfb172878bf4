import type { Agent } from 'node:http';
import path from 'node:path';
import * as vscode from 'vscode';
import { wsAgentFor } from '../../core/client/proxy';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { Subscription } from '../../core/shared/emitter';
import type { Transcript, Turn } from '../../core/transcript/model';
import type { SessionFileSystem } from '../session-files/session-fs';
import type { Connection } from '../platform/connection';
import type { WebviewPersistedState } from '../../protocol/session-panel/messages';
import type { RunningTurn, RunningTurnsChange } from '../../model/session/running-turn';
import type { FileStatusSource } from '../../model/session-files/file-status';
import {
  SessionActivity,
  type SessionActivityEvent,
  type TurnActivity,
} from '../../model/session/session-activity';
import { SessionHost, type HostSettings, type TurnRequest } from '../../model/session/session-host';
import { TranscriptCache } from '../../model/session/transcript-cache';
import { UploadIndex } from '../../model/attachments/upload-index';
import type { FollowTarget } from '../../model/session/turn-followers';
import { SessionPanel } from './session-panel';

/** What the panel manager needs from the rest of the extension. */
export interface PanelDeps {
  context: vscode.ExtensionContext;
  connection: Connection;
  logger: Logger;
  /** The title the Sessions view knows for a session, if any. */
  titleOf: (sessionId: string) => string | undefined;
  /** The API key in use (for the live socket); never logged. */
  apiKey: () => string | undefined;
  /** The `den-session:` file system: told what hosts learn of their files, and where files open. */
  sessionFs: SessionFileSystem;
  /** Keeps what the agent saw of a workspace file sent with a turn (`model/apply/bases.ts`). */
  recordBase?: (sessionId: string, path: string, content: Uint8Array) => Promise<unknown>;
  /** The session files' states against the workspace (`editor/session-files/workspace-file-status.ts`), for the file lists. */
  fileStatus?: FileStatusSource;
}

/** A turn to start from a command (New Session, Ask About Selection, Send File). */
export type PanelTurnRequest = TurnRequest;

/**
 * Owns the Session panels (one per session) and the hosts behind them. A host outlives its panel
 * while one of its turns runs, so the turn is followed to its end: the status bar, the Sessions
 * view and the turns' lifecycle events (`onDidChangeSession`) stay right with the panel closed.
 */
export class PanelManager implements vscode.Disposable {
  readonly #hosts = new Map<string, SessionHost>();
  readonly #panels = new Map<string, SessionPanel>();
  /** Per session, the contents it holds on the service (kept while the window lives). */
  readonly #uploads = new Map<string, UploadIndex>();
  private readonly cache: TranscriptCache;
  readonly #changed = new vscode.EventEmitter<RunningTurnsChange>();
  /** The running turns changed (started, ended, or no longer followed). */
  readonly onDidChangeRunningTurns = this.#changed.event;
  readonly #started = new vscode.EventEmitter<string>();
  /** A turn started in a session (by id), which the Sessions view may not list yet. */
  readonly onDidStartTurn = this.#started.event;
  readonly #activity: SessionActivity;
  /** A followed turn's change, with the turn (Den's notifications read its files). */
  readonly onDidChangeTurn: (listener: (e: TurnActivity) => void) => Subscription;
  readonly #sessionChanged = new vscode.EventEmitter<SessionActivityEvent>();
  /** A turn Den follows, with or without a panel, started, needs input, completed, failed or was stopped. */
  readonly onDidChangeSession = this.#sessionChanged.event;
  readonly #shown = new vscode.EventEmitter<string>();
  /** A session's panel was opened, revealed or became visible (by session id). */
  readonly onDidShowPanel = this.#shown.event;
  readonly #ended = new vscode.EventEmitter<{ sessionId: string; status: Turn['status'] }>();
  /** A turn Den followed ended (completed, error or aborted). */
  readonly onDidEndTurn = this.#ended.event;
  readonly #disposables: vscode.Disposable[];
  /** Sessions whose history a headless host is reading (`watch`). */
  readonly #loading = new Set<string>();
  readonly #transcriptChanged = new vscode.EventEmitter<string>();
  /** A session's transcript changed in a host (an open panel, or a turn followed headless). */
  readonly onDidChangeTranscript = this.#transcriptChanged.event;
  #runningSessions = new Set<string>();
  #runningKey = '';
  #agent?: { key: string; agent: Agent | undefined };

  private readonly deps: PanelDeps;
  constructor(deps: PanelDeps) {
    this.deps = deps;
    this.cache = new TranscriptCache({
      dir: path.join(deps.context.globalStorageUri.fsPath, 'transcripts'),
      logger: deps.logger,
    });
    this.#activity = new SessionActivity((err) =>
      deps.logger.warn(`A listener of the turns' changes failed: ${String(err)}`),
    );
    this.onDidChangeTurn = this.#activity.onDidChange;
    this.#disposables = [
      this.#changed,
      this.#started,
      this.#transcriptChanged,
      this.#activity,
      this.#activity.onDidChange((a) => this.#sessionChanged.fire(a.event)),
      this.#sessionChanged,
      this.#shown,
      this.#ended,
      deps.connection.onDidChangeState(() => {
        for (const h of this.#hosts.values()) h.view.updateComposer();
      }),
    ];
  }

  /**
   * Opens or reveals the panel of a session; with `turn`, starts that turn in it. `isNew`: the
   * session is not on the service yet (its first turn creates it).
   */
  async open(
    sessionId: string,
    options: { turn?: PanelTurnRequest; title?: string; isNew?: boolean } = {},
  ): Promise<void> {
    const host = this.#hostFor(sessionId, options.title);
    if (options.isNew) host.expectNew();
    const existing = this.#panels.get(sessionId);
    if (existing) existing.reveal();
    else this.#adopt(host);
    this.#shown.fire(sessionId);
    if (options.turn) {
      await host.startTurn(options.turn);
      // The panel may have been closed while the turn was being started.
      if (!this.#panels.has(sessionId)) {
        this.#releaseIdleHosts();
        return;
      }
      host.link.focusComposer();
    }
    void host.open();
  }

  /**
   * Starts a turn without opening a panel (the API, chat, tools): the session's host follows it
   * and lives until the turn ends. Resolves to the new turn's id, or the reason it did not start.
   */
  async startHeadless(
    sessionId: string,
    turn: PanelTurnRequest,
    options: { title?: string; isNew?: boolean } = {},
  ): Promise<{ agentMessageId: string } | { error: string }> {
    const host = this.#hostFor(sessionId, options.title);
    if (options.isNew) host.expectNew();
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

  /** Turns running in any session, in the order their sessions were opened. */
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

  /** The open panel of a session (tests). */
  panel(sessionId: string): SessionPanel | undefined {
    return this.#panels.get(sessionId);
  }

  /** The panel that has focus, if any. */
  activePanel(): SessionPanel | undefined {
    return [...this.#panels.values()].find((p) => p.panel.active);
  }

  /** Where "Attach to Den" goes without asking: the focused panel, else the only one shown or open. */
  attachPanel(): SessionPanel | undefined {
    const all = [...this.#panels.values()];
    const visible = all.filter((p) => p.visible);
    return this.activePanel() ?? (visible.length === 1 ? visible[0] : all.length === 1 ? all[0] : undefined);
  }

  /** Stops the running turn of a session; false when it has none. */
  async stop(sessionId: string): Promise<boolean> {
    const h = this.#hosts.get(sessionId);
    if (!h || h.runningTurns().length === 0) return false;
    await h.stop();
    return true;
  }

  /** Closes every panel and stops following every turn (sign-out, tests). */
  closeAll(): void {
    for (const p of [...this.#panels.values()]) p.dispose();
    for (const h of this.#hosts.values()) h.dispose();
    this.#hosts.clear();
    this.#updateRunning();
  }

  /** Restores panels after a window reload from the webview's saved state, then catches up. */
  serializer(): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        const id = (state as Partial<WebviewPersistedState> | undefined)?.sessionId;
        if (typeof id !== 'string' || !id || this.#panels.has(id)) {
          panel.dispose();
          return;
        }
        const host = this.#hostFor(id);
        this.#adopt(host, panel);
        await host.open();
      },
    };
  }

  #hostFor(sessionId: string, title?: string): SessionHost {
    const known = this.#hosts.get(sessionId);
    if (known) return known;
    const { connection, logger } = this.deps;
    const host = new SessionHost({
      sessionId,
      title: title ?? this.deps.titleOf(sessionId),
      client: () => connection.requireClient(),
      target: () => this.#followTarget(),
      settings: () => this.#hostSettings(),
      composerDefaults: { mode: connection.settings.defaultMode, effort: connection.settings.defaultEffort },
      logger,
      cache: this.cache,
      uploads: this.#uploadsOf(sessionId),
      ...(this.deps.recordBase ? { recordBase: this.#recordBaseFor(sessionId) } : {}),
      fileStatus: this.deps.fileStatus,
      events: {
        onRunningChanged: (h) => {
          for (const t of h.runningTurns()) this.#activity.seen(h.sessionId, h.title, t);
          this.#updateRunning();
        },
        onTurnInfo: (h, turn) => {
          if (h.runningTurns().includes(turn)) this.#activity.seen(h.sessionId, h.title, turn);
        },
        onTurnEnded: (h, turn) => {
          this.#ended.fire({ sessionId: h.sessionId, status: turn.status });
          this.#activity.ended(h.sessionId, h.title, turn);
        },
        onTitleChanged: (h) => this.#panels.get(h.sessionId)?.setTitle(h.title),
        onTurnStarted: (h) => this.#started.fire(h.sessionId),
        onFilesChanged: (h, update) => this.deps.sessionFs.files.update(h.sessionId, update),
        onTranscriptChanged: (h) => this.#transcriptChanged.fire(h.sessionId),
      },
      reportSuccess: () => connection.reportSuccess(),
      reportFailure: (err) => connection.reportFailure(err),
    });
    this.#hosts.set(sessionId, host);
    return host;
  }

  #recordBaseFor(sessionId: string): (path: string, content: Uint8Array) => Promise<unknown> {
    const record = this.deps.recordBase as NonNullable<PanelDeps['recordBase']>;
    return (path, content) => record(sessionId, path, content);
  }

  #uploadsOf(sessionId: string): UploadIndex {
    let index = this.#uploads.get(sessionId);
    if (!index) this.#uploads.set(sessionId, (index = new UploadIndex()));
    return index;
  }

  #adopt(host: SessionHost, existing?: vscode.WebviewPanel): SessionPanel {
    const deps = {
      extensionUri: this.deps.context.extensionUri,
      logger: this.deps.logger,
      sessionFs: this.deps.sessionFs,
      client: () => this.deps.connection.requireClient(),
      maxFileBytes: () => this.deps.connection.settings.maxAttachmentBytes,
      onDidDispose: (p: SessionPanel) => this.#panelClosed(p),
    };
    const p = existing ? new SessionPanel(existing, host, deps) : SessionPanel.create(host, deps);
    this.#panels.set(host.sessionId, p);
    // Disposed with the panel.
    p.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.visible) this.#shown.fire(host.sessionId);
    });
    return p;
  }

  #panelClosed(p: SessionPanel): void {
    if (this.#panels.get(p.sessionId) === p) this.#panels.delete(p.sessionId);
    this.#releaseIdleHosts();
  }

  /** Hosts without a panel and without a running turn have nothing left to do. */
  #releaseIdleHosts(): void {
    for (const [id, h] of this.#hosts) {
      if (this.#panels.has(id) || h.busy || this.#loading.has(id)) continue;
      this.#hosts.delete(id);
      h.dispose();
    }
  }

  #followTarget(): FollowTarget {
    const { connection } = this.deps;
    connection.requireClient();
    const s = connection.settings;
    const baseUrl = s.baseUrl as string;
    const key = JSON.stringify([baseUrl, s.proxyUrl ?? '', s.strictSSL, s.noProxy]);
    if (this.#agent?.key !== key) {
      const agent = wsAgentFor(baseUrl, { proxyUrl: s.proxyUrl, strictSSL: s.strictSSL, noProxy: s.noProxy });
      this.#agent = { key, agent };
    }
    const target: FollowTarget = { baseUrl, apiKey: this.deps.apiKey };
    if (this.#agent.agent) target.agent = this.#agent.agent;
    return target;
  }

  #hostSettings(): HostSettings {
    const { connection } = this.deps;
    const s = connection.settings;
    const basePrompt = vscode.workspace.getConfiguration('den').get<string>('basePrompt');
    const out: HostSettings = { service: serviceName(s.baseUrl), l10n: vscode.l10n.bundle };
    if (typeof basePrompt === 'string' && basePrompt.trim()) out.basePrompt = basePrompt;
    if (!connection.client) {
      const state = connection.state.kind;
      out.disabledReason = !s.baseUrl
        ? l10n.t('Set the service URL to send (Den: Configure Service URL).')
        : state === 'starting'
          ? l10n.t('Reading your API key…')
          : l10n.t('Sign in to send (Den: Set API Key).');
    }
    return out;
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
      void vscode.commands.executeCommand('setContext', 'den.turnRunning', list.length > 0);
      this.#changed.fire({ turns: list, sessions });
    }
    this.#releaseIdleHosts();
  }

  dispose(): void {
    for (const p of [...this.#panels.values()]) p.dispose();
    for (const h of this.#hosts.values()) h.dispose();
    this.#hosts.clear();
    for (const d of this.#disposables) d.dispose();
    void this.cache.flush();
  }
}

/** The service's host name for the panel header. */
function serviceName(baseUrl: string | undefined): string {
  if (!baseUrl) return '';
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}
