/**
 * The host side of one session's panel, without `vscode`: the transcript (from the cache, the
 * history and live streams), the composer, turns started and stopped, and the posts to whichever
 * webview is attached. It outlives its panel while a turn runs, so the turn is followed to its end.
 */
import type { ApiClient } from '../../core/client/client';
import type { AgentEvent, Effort, Mode, SessionDetail } from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { SessionStreamOptions, StreamDone } from '../../core/stream/stream-types';
import { isTerminalStatus, type ChangeSet, type Transcript, type Turn } from '../../core/transcript/model';
import { findTurn } from '../../core/transcript/reducer';
import { firstLine } from '../../core/shared/format';
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { presentError } from '../shared/error-text';
import { AttachmentList, type AttachmentSpec, type AttachResult } from '../attachments/attachment-list';
import { recordSentBases } from '../apply/bases';
import { systemClock, type Clock } from '../shared/clock';
import { ComposerChoice, type Choice } from './composer-choice';
import { DeltaBatcher, type BatcherStats } from './delta-batcher';
import { followFileStatus, type FileStatusSource } from '../session-files/file-status';
import { snapshotChanges, type FilesUpdate } from '../session-files/file-index';
import { HistoryLoader } from './history-loader';
import { HostView, type HostSettings } from './host-view';
import { RateLimitWait } from './rate-limit-wait';
import { Reconciler, type ReconcileStats } from './reconciler';
import { sessionHandlers, type SessionMessage } from './session-messages';
import { SessionTranscript } from './session-transcript';
import type { TranscriptCache } from './transcript-cache';
import { startTurn, stopTurn, type TurnActionHost, type TurnRequest } from './turn-actions';
import { TurnFollowers, type FollowTarget } from './turn-followers';
import { TurnWatch, type TurnWatchStats } from './turn-watch';
import type { UploadIndex } from '../attachments/upload-index';
import { ViewLink } from './view-link';

export type { HostSettings } from './host-view';
export type { SessionMessage } from './session-messages';
export type { TurnRequest } from './turn-actions';

export interface SessionHostEvents {
  /** The set of running turns changed. */
  onRunningChanged?(host: SessionHost): void;
  /** A followed turn reached a terminal status. */
  onTurnEnded?(host: SessionHost, turn: Turn): void;
  onTitleChanged?(host: SessionHost): void;
  /** A turn's info changed (phase, needs input, …): see `Turn.needsInput`. */
  onTurnInfo?(host: SessionHost, turn: Turn): void;
  /** A turn was started from here (the session may be new to the service). */
  onTurnStarted?(host: SessionHost, turn: Turn): void;
  /** What the session's files are: a live `sandbox.snapshot`'s changes, or the stored snapshot fetched to reconcile. */
  onFilesChanged?(host: SessionHost, update: FilesUpdate): void;
  /** The transcript changed (an event applied, a turn begun, the history folded in). */
  onTranscriptChanged?(host: SessionHost): void;
}

export interface SessionHostDeps {
  sessionId: string;
  title?: string;
  /** Throws a `config` DenError when Den cannot talk to the service. */
  client: () => ApiClient;
  target: () => FollowTarget;
  settings: () => HostSettings;
  /** The composer's mode and fast/think until the person changes them (the settings' defaults). */
  composerDefaults: Choice;
  logger: Logger;
  cache?: TranscriptCache;
  clock?: Clock;
  streamOptions?: Partial<SessionStreamOptions>;
  /** Batching (tests). */
  batch?: { intervalMs?: number; initThreshold?: number };
  /** Reconciling with the stored history (tests). */
  reconcile?: { delayMs?: number; maxTries?: number };
  /** How often a shown, idle panel looks for turns started elsewhere (default `TURN_WATCH_INTERVAL_MS`). */
  watchIntervalMs?: number;
  events?: SessionHostEvents;
  /** What the session holds on the service by content (kept by the caller across panels). */
  uploads?: UploadIndex;
  /** Keeps what the agent saw of an attached workspace file (`bases.ts`), by workspace path. */
  recordBase?: (path: string, content: Uint8Array) => Promise<unknown>;
  /** The session files' states against the workspace, shown in the panel's file lists. */
  fileStatus?: FileStatusSource;
  /** Tell the connection state about outcomes of requests. */
  reportSuccess?: () => void;
  reportFailure?: (err: unknown) => void;
}

export class SessionHost {
  readonly sessionId: string;
  readonly #live: SessionTranscript;
  readonly #deps: SessionHostDeps;
  readonly #batcher: DeltaBatcher;
  readonly #followers: TurnFollowers;
  readonly #attachments: AttachmentList;
  readonly #reconciler: Reconciler;
  /** The webview currently attached: visibility, `ready`, probes, focus, and a tap on posts. */
  readonly link: ViewLink;
  /** What the panel shows besides the transcript: composer, connection, notice, title. */
  readonly view: HostView;
  /** The composer's mode and fast/think: what the webview shows and turns use when they do not say. */
  readonly choice: ComposerChoice;
  /** What the webview's messages do here (the panel adds the editor's own to make the whole map). */
  readonly handlers: Handlers<SessionMessage>;
  readonly #actions: TurnActionHost;
  readonly #wait: RateLimitWait;
  readonly #history: HistoryLoader;
  readonly #watch: TurnWatch;
  #disposed = false;
  readonly #fileStatus?: ReturnType<typeof followFileStatus>;

  constructor(deps: SessionHostDeps) {
    this.#deps = deps;
    this.sessionId = deps.sessionId;
    const clock = deps.clock ?? systemClock;
    this.choice = new ComposerChoice(deps.composerDefaults);
    this.#batcher = new DeltaBatcher({
      transcript: () => this.#live.value,
      init: () => this.view.initBody(),
      post: (m) => this.link.post(m),
      clock,
      ...deps.batch,
    });
    this.link = new ViewLink(this.#batcher, clock, () => this.#watch.update());
    this.#live = new SessionTranscript({
      sessionId: deps.sessionId,
      title: deps.title,
      batcher: this.#batcher,
      recorded: (cs) => this.#recorded(cs),
      replaced: () => this.#afterReplace(),
      runningChanged: () => deps.events?.onRunningChanged?.(this),
      reconcile: (id, reason) => this.#reconciler.request(id, reason),
      disposed: () => this.#disposed,
    });
    this.#attachments = new AttachmentList(() => this.view.updateComposer(), deps.uploads);
    this.#reconciler = new Reconciler({
      fetch: () => this.#fetchStored(),
      apply: (detail, id) => this.#live.reconcileWith(detail, id),
      clock,
      logger: deps.logger,
      ...deps.reconcile,
    });
    this.#followers = new TurnFollowers({
      sessionId: deps.sessionId,
      target: deps.target,
      resolveCursor: (id, last) => this.#resolveCursor(id, last),
      onEvent: (id, ev) => this.#eventSeen(id, ev),
      onSnapshot: (id, snapshot) => this.#live.snapshotSeen(id, snapshot),
      onGap: (id, gap) => this.#live.gapSeen(id, gap),
      onMalformed: (id) => this.#reconciler.request(id, 'malformed'),
      onDone: (id, done) => this.#turnDone(id, done),
      onState: () => this.view.updateConnection(),
      logger: deps.logger,
      streamOptions: deps.streamOptions,
    });
    this.view = new HostView(
      {
        sessionId: deps.sessionId,
        transcript: () => this.#live.value,
        title: () => this.title,
        settings: deps.settings,
        choice: () => this.choice.current,
        attachments: () => this.#attachments.views(),
        streams: () => this.#followers.view(),
        loading: () => this.#history.busy,
        titleChanged: () => deps.events?.onTitleChanged?.(this),
      },
      this.#batcher,
    );
    this.#history = new HistoryLoader({
      sessionId: deps.sessionId,
      client: deps.client,
      cache: deps.cache,
      live: this.#live,
      view: this.view,
      logger: deps.logger,
      disposed: () => this.#disposed,
      followOpenTurns: () => this.#followOpenTurns(),
      historyRead: (updatedAt) => this.#watch.historyRead(updatedAt),
      reportSuccess: deps.reportSuccess,
      reportFailure: deps.reportFailure,
    });
    this.#watch = new TurnWatch({
      sessionId: deps.sessionId,
      clock,
      logger: deps.logger,
      intervalMs: deps.watchIntervalMs,
      shown: () => !this.#disposed && this.link.visible,
      idle: () => this.#history.loaded && !this.#history.busy && !this.busy,
      list: (query) => deps.client().listSessions(query),
      read: () => this.#history.refresh(),
    });
    this.#wait = new RateLimitWait({ view: this.view, clock, send: (req) => this.startTurn(req) });
    this.#actions = {
      sessionId: deps.sessionId,
      view: this.view,
      choice: this.choice,
      wait: this.#wait,
      logger: deps.logger,
      transcript: () => this.#live.value,
      disposed: () => this.#disposed,
      client: deps.client,
      settings: deps.settings,
      record: (cs) => this.#live.record(cs),
      follow: (turn, since) => this.#follow(turn, since),
      stream: (id) => this.#followers.stream(id),
      load: () => this.load(),
      started: (turn) => deps.events?.onTurnStarted?.(this, turn),
      reportSuccess: deps.reportSuccess,
      reportFailure: deps.reportFailure,
    };
    if (deps.fileStatus) {
      const view = this.view;
      this.#fileStatus = followFileStatus(
        deps.fileStatus,
        deps.sessionId,
        (f) => view.setFileStatus(f),
        deps.logger,
      );
    }
    this.handlers = sessionHandlers({
      link: this.link,
      view: this.view,
      wait: this.#wait,
      attachments: this.#attachments,
      choice: this.choice,
      transcript: () => this.#live.value,
      send: (text, mode, effort, continueTurnId) => this.send(text, mode, effort, continueTurnId),
      stop: () => this.stop(),
      load: () => this.load(),
    });
  }

  /** The host's model of the session (what the webview shows once caught up). */
  get transcript(): Transcript {
    return this.#live.value;
  }

  /** The session's title; before the service names it, the first task. */
  get title(): string {
    const first = this.#live.value.turns[0]?.userMessage.text;
    return (
      this.#live.value.title ||
      this.#deps.title ||
      (first && firstLine(first, 60)) ||
      l10n.t('Untitled session')
    );
  }

  /** Posts and deltas sent to webviews so far. */
  get stats(): BatcherStats {
    return this.#batcher.stats;
  }

  /** What reconciling with the stored history did so far. */
  get reconcileStats(): ReconcileStats {
    return this.#reconciler.stats;
  }

  /** What the watch for turns started elsewhere did so far (tests, diagnostics). */
  get watchStats(): TurnWatchStats {
    return this.#watch.stats;
  }

  /** The person looks at the panel again (it or its window got the focus): the watch looks soon. */
  lookedAt(): void {
    this.#watch.again();
  }

  /** Resolves once no reconciliation with the stored history is pending or running. */
  whenReconciled(): Promise<void> {
    return this.#reconciler.settled();
  }

  /** Whether the history was fetched at least once. */
  get loaded(): boolean {
    return this.#history.loaded;
  }

  /** Whether posts reach a webview now. */
  get visible(): boolean {
    return this.link.visible;
  }

  /** Whether the host has work without a panel: a turn followed, or one being started. */
  get busy(): boolean {
    return this.view.sending || this.runningTurns().length > 0;
  }

  /** Turns that have not ended and are followed live (for the status bar and Running Turns). */
  runningTurns(): Turn[] {
    return this.#live.value.turns.filter(
      (t) => t.agentMessageId && !isTerminalStatus(t.status) && this.#followers.has(t.agentMessageId),
    );
  }

  /** Handles a message of the webview that needs no editor API (the panel handles the others). */
  async handle(msg: SessionMessage): Promise<void> {
    await dispatch(this.handlers, msg);
  }

  // ---- loading and following ------------------------------------------------------------------

  /** Paints from the cache, follows what is open, then loads the history (see `HistoryLoader`). */
  open(): Promise<void> {
    void this.#fileStatus?.refresh();
    return this.#history.open();
  }

  /** Fetches the history, merges it into what is shown and follows open turns. */
  load(): Promise<void> {
    return this.#history.load();
  }

  #afterReplace(): void {
    this.#deps.events?.onTranscriptChanged?.(this);
    this.view.updateTitle();
    this.view.updateComposer();
    this.#cacheLater();
    this.#deps.events?.onRunningChanged?.(this);
  }

  /** Follows the turns after the last ended one (earlier unfinished turns are stale history). */
  #followOpenTurns(): void {
    if (this.#disposed) return;
    const turns = this.#live.value.turns;
    let i = turns.length;
    while (i > 0 && !isTerminalStatus(turns[i - 1].status)) i--;
    for (const t of turns.slice(i)) this.#follow(t);
    this.#watch.update();
  }

  #follow(turn: Turn, sessionCursor?: string): void {
    const id = turn.agentMessageId;
    if (this.#disposed || !id || isTerminalStatus(turn.status) || this.#followers.has(id)) return;
    try {
      this.#followers.follow(turn, sessionCursor);
    } catch (err) {
      this.view.failure = { state: 'failed', message: presentError(err, l10n.t('follow the turn')).message };
    }
    this.view.updateConnection();
    this.#deps.events?.onRunningChanged?.(this);
    this.#watch.update();
  }

  #eventSeen(messageId: string, ev: AgentEvent): void {
    this.#live.apply(messageId, ev);
    const changes = ev.kind === 'sandbox.snapshot' ? snapshotChanges(ev.payload) : undefined;
    if (changes) this.#filesChanged({ kind: 'changes', ...changes });
  }

  #filesChanged(update: FilesUpdate): void {
    try {
      this.#deps.events?.onFilesChanged?.(this, update);
    } catch (err) {
      this.#deps.logger.warn(`Session ${this.sessionId}: a files listener failed: ${String(err)}`);
    }
  }

  /** The stored history, for the reconciler; its file snapshot goes to whoever shows the files. */
  async #fetchStored(): Promise<SessionDetail> {
    const detail = await this.#deps.client().getSession(this.sessionId);
    this.#filesChanged({ kind: 'stored', files: detail.session.fileSnapshot });
    return detail;
  }

  async #resolveCursor(messageId: string, lastEventId: number): Promise<string | undefined> {
    const detail = await this.#deps.client().getSession(this.sessionId);
    const m = detail.messages.find((x) => x.type === 'agent' && x.id === messageId);
    return m?.events.find((e) => e.event_id === lastEventId)?.stream_entry_id;
  }

  /** A change was posted: the cache, the composer (running, queued) and the title follow. */
  #recorded(cs: ChangeSet): void {
    this.#cacheLater();
    this.#deps.events?.onTranscriptChanged?.(this);
    if (cs.turnCreated || cs.statusChanged || cs.turnInfoChanged) this.view.updateComposer();
    // A queued turn that starts running changes what the status bar counts. (A turn that ends is
    // told when its stream is done, after its end was: not here, where the host could be let go.)
    const changed = cs.statusChanged ? findTurn(this.#live.value, cs.turnId) : undefined;
    if (changed && !isTerminalStatus(changed.status)) this.#deps.events?.onRunningChanged?.(this);
    if (cs.turnCreated) this.view.updateTitle();
    const turn = cs.turnInfoChanged ? findTurn(this.#live.value, cs.turnId) : undefined;
    if (turn) this.#deps.events?.onTurnInfo?.(this, turn);
  }

  #turnDone(messageId: string, done: StreamDone): void {
    const turn = findTurn(this.#live.value, messageId);
    // Files the turn wrote may have replaced attached content under the same keys.
    if (turn)
      this.#attachments.uploads.forgetKeys([...turn.files, ...(turn.outputFiles ?? [])].map((f) => f.key));
    if (done.kind === 'failed') {
      this.view.failure = {
        state: 'failed',
        message: presentError(done.error, l10n.t('follow the turn')).message,
      };
    } else if (turn && isTerminalStatus(turn.status)) {
      this.#deps.events?.onTurnEnded?.(this, turn);
    }
    this.view.updateComposer();
    this.view.updateConnection();
    this.#cacheLater();
    this.#deps.events?.onRunningChanged?.(this);
    // What was shown live is checked against what the service stored, whatever happened on the way.
    this.#reconciler.request(messageId, 'end');
    this.#watch.update();
  }

  // ---- turns ----------------------------------------------------------------------------------

  /** Sends a composer message: a new turn (queued behind a running one by the service). */
  async send(text: string, mode: Mode, effort: Effort, continueTurnId?: string): Promise<boolean> {
    const task = text.trim();
    const view = this.view;
    if (!task || view.sending) return false;
    this.choice.choose(mode, effort);
    if (this.#wait.waiting) {
      this.#wait.refused();
      return false;
    }
    const ready = this.#attachments.ready();
    const req: TurnRequest = { task, ...this.choice.current, files: ready.files, attachmentIds: ready.ids };
    if (ready.references.length) req.references = ready.references;
    const continuation = continueTurnId
      ? findTurn(this.#live.value, continueTurnId)?.continuation
      : undefined;
    if (continuation) req.continuation = continuation;
    return this.startTurn(req);
  }

  /**
   * Starts a turn in this session (creating the session on the service when it is new) and follows
   * it. Failures are shown in the panel; resolves to whether the turn started.
   */
  async startTurn(req: TurnRequest): Promise<boolean> {
    this.#history.turnStarting();
    const ok = await startTurn(this.#actions, req);
    if (!ok) return ok;
    // Every way of sending a workspace file ends here: its base is what the agent saw of it.
    const sent = [
      ...(req.bases ?? []),
      ...(req.attachmentIds ? this.#attachments.clear(req.attachmentIds) : []),
    ];
    if (sent.length && this.#deps.recordBase)
      void recordSentBases(sent, this.#deps.recordBase, this.#deps.logger);
    return ok;
  }

  /** Stops the running turn (HTTP abort, else the socket's stop frame); it keeps what it produced. */
  stop(): Promise<void> {
    return stopTurn(this.#actions);
  }

  /** Adds an attachment chip and uploads it, unless the session holds its content already. */
  attach(spec: AttachmentSpec): Promise<AttachResult> {
    return this.#attachments.add(spec);
  }

  /** The session is new (on the service from its first turn): a 404 loading it is no error. */
  expectNew(): void {
    this.#history.turnStarting();
  }

  /** The names on the composer's chips. */
  attachmentNames(): string[] {
    return this.#attachments.names();
  }

  /** Removes a chip, cancelling its upload. */
  detach(id: string): boolean {
    return this.#attachments.remove(id);
  }

  #cacheLater(): void {
    this.#deps.cache?.schedule(this.sessionId, () => this.#live.value);
  }

  /** Stops following, cancels uploads and probes; the cache gets the last state. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#watch.dispose();
    this.#fileStatus?.dispose();
    this.#wait.dispose();
    this.#followers.closeAll();
    this.#reconciler.dispose();
    this.#attachments.dispose();
    this.link.detach();
    this.#batcher.dispose();
    if (this.#live.value.turns.length > 0) void this.#deps.cache?.write(this.sessionId, this.#live.value);
  }
}
