/**
 * The turns' side of a session's host: everything that asks the service about its turns or acts on
 * them. Loading the history (`HistoryLoader`), following open turns live (`TurnFollowers`),
 * reconciling them with the stored history (`Reconciler`), looking for turns started elsewhere
 * (`TurnWatch`), sending, stopping, and the 429 wait with the message it held back
 * (`RateLimitWait`, `turn-actions.ts`). Each of those gets this object through the small interface
 * it needs (`FollowerListener`, `ReconcileTarget`, `HistoryListener`, `WatchedSession`,
 * `TurnTracker`, `TurnStarter`); what it changes goes to the transcript store and the view, and
 * what the editor hears goes out through `TurnEvents`. No `vscode` import.
 */
import type {
  AgentEvent,
  Effort,
  ListSessionsQuery,
  Mode,
  SessionDetail,
  SessionPage,
} from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';
import { answerText, type InputAnswer } from '../../core/transcript/answers';
import type { Logger } from '../../core/shared/log';
import type { SessionStream } from '../../core/stream/session-stream';
import type { SessionStreamOptions, StreamDone, StreamGap } from '../../core/stream/stream-types';
import { isTerminalStatus, type Turn } from '../../core/transcript/model';
import { findTurn } from '../../core/transcript/reducer';
import type { ConnectionView, HeldTurnAction } from '../../protocol/session-panel/messages';
import { recordSentBases } from '../apply/bases';
import type { AttachmentList } from '../attachments/attachment-list';
import { snapshotChanges, type FilesUpdate } from '../session-files/file-index';
import type { Clock } from '../shared/clock';
import { presentError } from '../shared/error-text';
import type { ComposerChoice } from './composer-choice';
import { HistoryLoader, type HistoryListener, type HistoryService } from './history-loader';
import type { HostView } from './host-view';
import { RateLimitWait, type TurnStarter } from './rate-limit-wait';
import { Reconciler, type ReconcileOutcome, type ReconcileReason, type ReconcileTarget } from './reconciler';
import type { AnswerOutcome, SessionCommands } from './session-messages';
import type { SessionTranscript, TranscriptListener } from './session-transcript';
import type { TurnsInView } from './session-view';
import type { TranscriptCache } from './transcript-cache';
import { startTurn, stopTurn, type TurnActionHost, type TurnService, type TurnTracker } from './turn-actions';
import { TurnFollowers, type FollowerListener, type FollowTarget } from './turn-followers';
import type { TurnRequest } from './turn-request';
import { TurnWatch, type WatchedSession, type WatchRead } from './turn-watch';

/** What the editor hears of the turns (the host turns them into its `SessionHostEvents`). */
export interface TurnEvents {
  /** The set of running turns may have changed. */
  runningChanged(): void;
  /** A turn was started from here. */
  turnStarted(turn: Turn): void;
  /** A followed turn reached a terminal status. */
  turnEnded(turn: Turn): void;
  /** What the session's files are: a live snapshot's changes, or the stored snapshot. */
  filesChanged(update: FilesUpdate): void;
}

/** The service as the turns' side uses it (the host's own `SessionHostDeps` are one). */
export interface TurnControlService extends TurnService, HistoryService {
  /** Where and how to open sockets; throws when Den is not signed in. */
  readonly target: () => FollowTarget;
  /** Keeps what the agent saw of an attached workspace file, by workspace path. */
  readonly recordBase?: (path: string, content: Uint8Array) => Promise<unknown>;
}

export interface TurnControlDeps {
  service: TurnControlService;
  store: SessionTranscript;
  view: HostView;
  /** Whether posts reach a webview now (the view's `ViewLink`). */
  link: { readonly visible: boolean };
  choice: ComposerChoice;
  attachments: AttachmentList;
  events: TurnEvents;
  logger: Logger;
  clock: Clock;
  cache?: TranscriptCache;
  streamOptions?: Partial<SessionStreamOptions>;
  reconcile?: { delayMs?: number; maxTries?: number };
  watchIntervalMs?: number;
}

export class TurnControl
  implements
    FollowerListener,
    ReconcileTarget,
    HistoryListener,
    WatchedSession,
    TurnTracker,
    TurnStarter,
    TurnsInView,
    SessionCommands,
    TranscriptListener
{
  readonly followers: TurnFollowers;
  readonly reconciler: Reconciler;
  readonly history: HistoryLoader;
  readonly watch: TurnWatch;
  readonly wait: RateLimitWait;
  readonly #actions: TurnActionHost;
  readonly #deps: TurnControlDeps;

  constructor(deps: TurnControlDeps) {
    this.#deps = deps;
    const { store, service, view, logger, clock } = deps;
    this.followers = new TurnFollowers(
      { sessionId: store.sessionId, target: service.target, logger, streamOptions: deps.streamOptions },
      this,
    );
    this.reconciler = new Reconciler(this, { clock, logger, ...deps.reconcile });
    this.history = new HistoryLoader({
      service,
      cache: deps.cache,
      live: store,
      view,
      logger,
      listener: this,
    });
    this.watch = new TurnWatch(this, {
      sessionId: store.sessionId,
      clock,
      logger,
      intervalMs: deps.watchIntervalMs,
    });
    this.wait = new RateLimitWait({ view, clock, turns: this });
    this.#actions = {
      view,
      choice: deps.choice,
      wait: this.wait,
      logger,
      service,
      transcript: store,
      turns: this,
    };
    store.listen(this);
  }

  /** Whether the host has work without a panel: a turn followed, or one being started. */
  get busy(): boolean {
    return this.#deps.view.sending || this.runningTurns().length > 0;
  }

  /** Turns that have not ended and are followed live. */
  runningTurns(): Turn[] {
    return this.#deps.store.value.turns.filter(
      (t) => t.agentMessageId && !isTerminalStatus(t.status) && this.followers.has(t.agentMessageId),
    );
  }

  // ---- commands (the webview's, the editor's) -------------------------------------------------

  /** Sends a composer message: a new turn (queued behind a running one by the service). */
  async send(text: string, mode: Mode, effort: Effort, continueTurnId?: string): Promise<boolean> {
    const { view, choice, attachments, store } = this.#deps;
    const task = text.trim();
    if (!task || view.sending) return false;
    choice.choose(mode, effort);
    if (this.wait.waiting) {
      this.wait.refused();
      return false;
    }
    const ready = attachments.ready();
    const req: TurnRequest = { task, ...choice.current, files: ready.files, attachmentIds: ready.ids };
    if (ready.references.length) req.references = ready.references;
    const continuation = continueTurnId ? findTurn(store.value, continueTurnId)?.continuation : undefined;
    if (continuation) req.continuation = continuation;
    return this.startTurn(req);
  }

  /** Starts a turn and follows it; records the bases of the workspace files it sent. */
  async startTurn(req: TurnRequest): Promise<boolean> {
    const { service, attachments, logger } = this.#deps;
    this.history.turnStarting();
    const ok = await startTurn(this.#actions, req);
    if (!ok) return ok;
    // Every way of sending a workspace file ends here: its base is what the agent saw of it.
    const sent = [...(req.bases ?? []), ...(req.attachmentIds ? attachments.clear(req.attachmentIds) : [])];
    if (sent.length && service.recordBase) void recordSentBases(sent, service.recordBase, logger);
    return ok;
  }

  stop(): Promise<void> {
    return stopTurn(this.#actions);
  }

  /** The turn that waits for the person's answer now (the latest one asking), if any. */
  waitingTurn(): Turn | undefined {
    return this.runningTurns()
      .filter((t) => t.needsInput !== undefined)
      .at(-1);
  }

  /**
   * Answers a turn that waits for the person over its own socket (the "message to the running
   * task" frame): the turn goes on, no new turn is queued behind it. `notWaiting` when it no longer
   * waits (it moved on, ended, or is not followed); `unsent` when its socket is down (the panel
   * then says so; the person answers again once it is back).
   */
  answer(turnId: string, a: InputAnswer): AnswerOutcome {
    const { store, view } = this.#deps;
    const turn = findTurn(store.value, turnId);
    if (!turn || turn.needsInput === undefined || isTerminalStatus(turn.status)) return 'notWaiting';
    const stream = this.followers.stream(turnId);
    if (!stream?.sendMessage(answerText(a))) {
      view.setNotice({
        level: 'warning',
        message: l10n.t(
          'Den could not send your answer: the connection to the turn is down. It reconnects by itself; answer again then.',
        ),
        actions: [],
      });
      return 'unsent';
    }
    this.#deps.logger.info(`answered turn ${turnId} (${a.kind})`);
    return 'sent';
  }

  load(): Promise<void> {
    return this.history.load();
  }

  heldTurn(action: HeldTurnAction): void {
    this.wait.act(action);
  }

  // ---- following (TurnTracker, HistoryListener) -----------------------------------------------

  /** Follows the turns after the last ended one (earlier unfinished turns are stale history). */
  followOpenTurns(): void {
    const { store } = this.#deps;
    if (store.closed) return;
    const turns = store.value.turns;
    let i = turns.length;
    while (i > 0 && !isTerminalStatus(turns[i - 1].status)) i--;
    for (const t of turns.slice(i)) this.follow(t);
    this.watch.update();
  }

  follow(turn: Turn, sessionCursor?: string): void {
    const { store, view, events } = this.#deps;
    const id = turn.agentMessageId;
    if (store.closed || !id || isTerminalStatus(turn.status) || this.followers.has(id)) return;
    try {
      this.followers.follow(turn, sessionCursor);
    } catch (err) {
      view.failure = { state: 'failed', message: presentError(err, l10n.t('follow the turn')).message };
    }
    view.updateConnection();
    events.runningChanged();
    this.watch.update();
  }

  stream(messageId: string): SessionStream | undefined {
    return this.followers.stream(messageId);
  }

  started(turn: Turn): void {
    this.#deps.events.turnStarted(turn);
  }

  historyRead(updatedAt: number): void {
    this.watch.historyRead(updatedAt);
  }

  // ---- what the streams bring (FollowerListener) ----------------------------------------------

  async resolveCursor(messageId: string, lastEventId: number): Promise<string | undefined> {
    const { service, store } = this.#deps;
    const detail = await service.client().getSession(store.sessionId);
    const m = detail.messages.find((x) => x.type === 'agent' && x.id === messageId);
    return m?.events.find((e) => e.event_id === lastEventId)?.stream_entry_id;
  }

  event(messageId: string, ev: AgentEvent): void {
    this.#deps.store.apply(messageId, ev);
    const changes = ev.kind === 'sandbox.snapshot' ? snapshotChanges(ev.payload) : undefined;
    if (changes) this.#deps.events.filesChanged({ kind: 'changes', ...changes });
  }

  snapshot(messageId: string, snapshot: Record<string, unknown>): void {
    this.#deps.store.snapshotSeen(messageId, snapshot);
  }

  gap(messageId: string, gap: StreamGap): void {
    this.#deps.store.gapSeen(messageId, gap);
  }

  malformed(messageId: string): void {
    this.reconciler.request(messageId, 'malformed');
  }

  done(messageId: string, done: StreamDone): void {
    const { store, view, attachments, events } = this.#deps;
    const turn = findTurn(store.value, messageId);
    // Files the turn wrote may have replaced attached content under the same keys.
    if (turn) attachments.uploads.forgetKeys([...turn.files, ...(turn.outputFiles ?? [])].map((f) => f.key));
    if (done.kind === 'failed') {
      view.failure = {
        state: 'failed',
        message: presentError(done.error, l10n.t('follow the turn')).message,
      };
    } else if (turn && isTerminalStatus(turn.status)) {
      events.turnEnded(turn);
    }
    view.updateComposer();
    view.updateConnection();
    store.saveLater();
    events.runningChanged();
    // What was shown live is checked against what the service stored, whatever happened on the way.
    this.reconciler.request(messageId, 'end');
    this.watch.update();
  }

  stateChanged(): void {
    this.#deps.view.updateConnection();
  }

  // ---- reconciling (ReconcileTarget, TranscriptListener) --------------------------------------

  /** The stored history, for the reconciler; its file snapshot goes to whoever shows the files. */
  async fetchStored(): Promise<SessionDetail> {
    const { service, store, events } = this.#deps;
    const detail = await service.client().getSession(store.sessionId);
    events.filesChanged({ kind: 'stored', files: detail.session.fileSnapshot });
    return detail;
  }

  reconcileWith(detail: SessionDetail, messageId: string): ReconcileOutcome {
    return this.#deps.store.reconcileWith(detail, messageId);
  }

  doubted(messageId: string, reason: ReconcileReason): void {
    this.reconciler.request(messageId, reason);
  }

  // ---- the watch and the view (WatchedSession, TurnsInView) ----------------------------------

  get shown(): boolean {
    return !this.#deps.store.closed && this.#deps.link.visible;
  }

  get idle(): boolean {
    return this.history.loaded && !this.history.busy && !this.busy;
  }

  listSessions(query: ListSessionsQuery): Promise<SessionPage> {
    return this.#deps.service.client().listSessions(query);
  }

  readHistory(): Promise<WatchRead> {
    return this.history.refresh();
  }

  streams(): ConnectionView | undefined {
    return this.followers.view();
  }

  get loading(): boolean {
    return this.history.busy;
  }

  shownChanged(): void {
    this.watch.update();
  }

  /** Stops the watch, the wait, every stream and the reconciler. */
  dispose(): void {
    this.watch.dispose();
    this.wait.dispose();
    this.followers.closeAll();
    this.reconciler.dispose();
  }
}
