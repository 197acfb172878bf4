/**
 * The host side of one session's panel, without `vscode`: a thin facade over three parts. The
 * transcript store (`SessionTranscript`: the transcript, its cache, what changes it and who hears
 * about it), the view (`SessionView`: batcher, link to the webview, `HostView`) and the turns' side
 * (`TurnControl`: history, following, reconciling, the watch, send, stop, the 429 wait). The
 * composer's state (`ComposerChoice`, `AttachmentList`) is shared by the view and the turns. It
 * outlives its panel while a turn runs, so the turn is followed to its end. See
 * docs/decisions/2026-11-27-session-host-split.md.
 */
import type { ApiClient } from '../../core/client/client';
import type { Effort, Mode } from '../../core/client/types';
import type { Logger } from '../../core/shared/log';
import type { SessionStreamOptions } from '../../core/stream/stream-types';
import type { InputAnswer } from '../../core/transcript/answers';
import type { ChangeSet, Transcript, Turn } from '../../core/transcript/model';
import { isTerminalStatus } from '../../core/transcript/model';
import { findTurn } from '../../core/transcript/reducer';
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { AttachmentList, type AttachmentSpec, type AttachResult } from '../attachments/attachment-list';
import type { UploadIndex } from '../attachments/upload-index';
import type { FileStatusSource } from '../session-files/file-status';
import type { ReviewedSource } from '../review/review-marks';
import type { FilesUpdate } from '../session-files/file-index';
import { systemClock, type Clock } from '../shared/clock';
import { ComposerChoice, type Choice } from './composer-choice';
import type { BatcherStats } from './delta-batcher';
import type { HostSettings, HostView } from './host-view';
import type { ReconcileStats } from './reconciler';
import { sessionHandlers, type AnswerOutcome, type SessionMessage } from './session-messages';
import { SessionTranscript, type TranscriptListener } from './session-transcript';
import { SessionView } from './session-view';
import type { TranscriptCache } from './transcript-cache';
import { TurnControl, type TurnEvents } from './turn-control';
import type { FollowTarget } from './turn-followers';
import type { TurnRequest } from './turn-request';
import type { TurnWatchStats } from './turn-watch';
import type { ViewLink } from './view-link';

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
  /** The session's reviewed marks, shown in the panel's file lists. */
  reviewed?: ReviewedSource;
  /** Tell the connection state about outcomes of requests. */
  reportSuccess?: () => void;
  reportFailure?: (err: unknown) => void;
}

export class SessionHost {
  readonly sessionId: string;
  /** The transcript store. */
  readonly #store: SessionTranscript;
  /** The webview's side: batcher, link, `HostView`. */
  readonly #screen: SessionView;
  /** The turns' side: history, streams, reconcile, watch, send, stop, 429 wait. */
  readonly #turns: TurnControl;
  readonly #attachments: AttachmentList;
  /** The webview currently attached: visibility, `ready`, probes, focus, and a tap on posts. */
  readonly link: ViewLink;
  /** What the panel shows besides the transcript: composer, connection, notice, title. */
  readonly view: HostView;
  /** The composer's mode and fast/think: what the webview shows and turns use when they do not say. */
  readonly choice: ComposerChoice;
  /** What the webview's messages do here (the panel adds the editor's own to make the whole map). */
  readonly handlers: Handlers<SessionMessage>;

  constructor(deps: SessionHostDeps) {
    this.sessionId = deps.sessionId;
    const clock = deps.clock ?? systemClock;
    const { logger } = deps;
    const events = new HostEvents(this, deps.events, logger);
    this.choice = new ComposerChoice(deps.composerDefaults);
    this.#store = new SessionTranscript({ sessionId: deps.sessionId, title: deps.title, cache: deps.cache });
    this.#attachments = new AttachmentList(() => this.view.updateComposer(), deps.uploads);
    this.#screen = new SessionView({
      store: this.#store,
      settings: deps,
      choice: this.choice,
      attachments: this.#attachments,
      events,
      fileStatus: deps.fileStatus,
      reviewed: deps.reviewed,
      logger,
      clock,
      batch: deps.batch,
    });
    this.link = this.#screen.link;
    this.view = this.#screen.panel;
    this.view.newSession = () => this.isNew;
    this.#turns = new TurnControl({
      service: deps,
      store: this.#store,
      view: this.view,
      link: this.link,
      choice: this.choice,
      attachments: this.#attachments,
      events,
      logger,
      clock,
      cache: deps.cache,
      streamOptions: deps.streamOptions,
      reconcile: deps.reconcile,
      watchIntervalMs: deps.watchIntervalMs,
    });
    this.#screen.connect(this.#turns);
    this.#store.listen(events);
    this.handlers = sessionHandlers({
      link: this.link,
      view: this.view,
      attachments: this.#attachments,
      choice: this.choice,
      transcript: this.#store,
      turns: this.#turns,
    });
  }

  /** The host's model of the session (what the webview shows once caught up). */
  get transcript(): Transcript {
    return this.#store.value;
  }

  /** The session's title; before the service names it, the first task. */
  get title(): string {
    return this.#store.title;
  }

  /** Posts and deltas sent to webviews so far. */
  get stats(): BatcherStats {
    return this.#screen.batcher.stats;
  }

  /** What reconciling with the stored history did so far. */
  get reconcileStats(): ReconcileStats {
    return this.#turns.reconciler.stats;
  }

  /** What the watch for turns started elsewhere did so far (tests, diagnostics). */
  get watchStats(): TurnWatchStats {
    return this.#turns.watch.stats;
  }

  /** The person looks at the panel again (it or its window got the focus): the watch looks soon. */
  lookedAt(): void {
    this.#turns.watch.again();
  }

  /** Resolves once no reconciliation with the stored history is pending or running. */
  whenReconciled(): Promise<void> {
    return this.#turns.reconciler.settled();
  }

  /** Whether the history was fetched at least once. */
  get loaded(): boolean {
    return this.#turns.history.loaded;
  }

  /** Whether posts reach a webview now. */
  get visible(): boolean {
    return this.link.visible;
  }

  /** Whether the host has work without a panel: a turn followed, or one being started. */
  get busy(): boolean {
    return this.#turns.busy;
  }

  /** Turns that have not ended and are followed live (for the status bar and Running Turns). */
  runningTurns(): Turn[] {
    return this.#turns.runningTurns();
  }

  /** Handles a message of the webview that needs no editor API (the panel handles the others). */
  async handle(msg: SessionMessage): Promise<void> {
    await dispatch(this.handlers, msg);
  }

  /** Paints from the cache, follows what is open, then loads the history (see `HistoryLoader`). */
  open(): Promise<void> {
    this.#screen.refreshFiles();
    return this.#turns.history.open();
  }

  /**
   * Paints from the cache only (what `open` does first): a view about to show the session awaits it
   * to show it whole at once.
   */
  paint(): Promise<void> {
    return this.#turns.history.paint();
  }

  /** Fetches the history, merges it into what is shown and follows open turns. */
  load(): Promise<void> {
    return this.#turns.load();
  }

  /** Sends a composer message: a new turn (queued behind a running one by the service). */
  send(text: string, mode: Mode, effort: Effort, continueTurnId?: string): Promise<boolean> {
    return this.#turns.send(text, mode, effort, continueTurnId);
  }

  /**
   * Starts a turn in this session (creating the session on the service when it is new) and follows
   * it. Failures are shown in the panel; resolves to whether the turn started.
   */
  startTurn(req: TurnRequest): Promise<boolean> {
    return this.#turns.startTurn(req);
  }

  /** Stops the running turn (HTTP abort, else the socket's stop frame); it keeps what it produced. */
  stop(): Promise<void> {
    return this.#turns.stop();
  }

  /** The turn that waits for the person's answer now, if any. */
  waitingTurn(): Turn | undefined {
    return this.#turns.waitingTurn();
  }

  /** Answers a turn that waits for the person, over its socket (never a new turn). */
  answer(turnId: string, answer: InputAnswer): AnswerOutcome {
    return this.#turns.answer(turnId, answer);
  }

  /** Adds an attachment chip and uploads it, unless the session holds its content already. */
  attach(spec: AttachmentSpec): Promise<AttachResult> {
    return this.#attachments.add(spec);
  }

  /** Whether the session is new and has no turn yet (opened as a new session, nothing sent). */
  get isNew(): boolean {
    return this.#turns.history.expectingNew && this.transcript.turns.length === 0;
  }

  /** The session is new (on the service from its first turn): a 404 loading it is no error. */
  expectNew(): void {
    this.#turns.history.turnStarting();
  }

  /**
   * The composer's uploaded attachments as a turn carries them (their chips clear and their bases
   * are recorded once it starts), and `copiesFor` the same attachments for other sessions (attempts).
   */
  composerAttachments(): {
    turn: Pick<TurnRequest, 'files' | 'references' | 'attachmentIds'>;
    copiesFor(sessionId: string): AttachmentSpec[];
  } {
    const ready = this.#attachments.ready();
    const copies = this.#attachments.copies();
    return {
      turn: { files: ready.files, references: ready.references, attachmentIds: ready.ids },
      copiesFor: (id) => copies.map((copy) => copy(id)),
    };
  }

  /** The names on the composer's chips. */
  attachmentNames(): string[] {
    return this.#attachments.names();
  }

  /** Removes a chip, cancelling its upload. */
  detach(id: string): boolean {
    return this.#attachments.remove(id);
  }

  /** Stops following, cancels uploads and probes; the cache gets the last state. */
  dispose(): void {
    if (this.#store.closed) return;
    this.#store.close();
    this.#turns.dispose();
    this.#attachments.dispose();
    this.#screen.dispose();
  }
}

/**
 * What the parts tell, as the host's `SessionHostEvents` (each with the host): the store's changes,
 * the turns' starts and ends, the title. A files listener that throws is logged, not passed on.
 */
class HostEvents implements TranscriptListener, TurnEvents {
  readonly #host: SessionHost;
  readonly #events?: SessionHostEvents;
  readonly #logger: Logger;
  constructor(host: SessionHost, events: SessionHostEvents | undefined, logger: Logger) {
    this.#host = host;
    this.#events = events;
    this.#logger = logger;
  }

  recorded(cs: ChangeSet): void {
    const e = this.#events;
    const host = this.#host;
    e?.onTranscriptChanged?.(host);
    // A queued turn that starts running changes what the status bar counts. (A turn that ends is
    // told when its stream is done, after its end was: not here, where the host could be let go.)
    const changed = cs.statusChanged ? findTurn(host.transcript, cs.turnId) : undefined;
    if (changed && !isTerminalStatus(changed.status)) e?.onRunningChanged?.(host);
    const turn = cs.turnInfoChanged ? findTurn(host.transcript, cs.turnId) : undefined;
    if (turn) e?.onTurnInfo?.(host, turn);
  }

  replaced(): void {
    this.#events?.onTranscriptChanged?.(this.#host);
    this.#events?.onRunningChanged?.(this.#host);
  }

  runningChanged(): void {
    this.#events?.onRunningChanged?.(this.#host);
  }

  turnStarted(turn: Turn): void {
    this.#events?.onTurnStarted?.(this.#host, turn);
  }

  turnEnded(turn: Turn): void {
    this.#events?.onTurnEnded?.(this.#host, turn);
  }

  titleChanged(): void {
    this.#events?.onTitleChanged?.(this.#host);
  }

  filesChanged(update: FilesUpdate): void {
    try {
      this.#events?.onFilesChanged?.(this.#host, update);
    } catch (err) {
      this.#logger.warn(`Session ${this.#host.sessionId}: a files listener failed: ${String(err)}`);
    }
  }
}
