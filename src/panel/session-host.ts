/**
 * The host side of one session's panel, without `vscode`: the transcript (from the cache, the
 * history and live streams), the composer, turns started and stopped, and the posts to whichever
 * webview is attached. It outlives its panel while a turn runs, so the turn is followed to its end.
 */
import type { ApiClient } from '../core/api/client';
import { DenError } from '../core/api/errors';
import type { AgentEvent, Effort, Mode } from '../core/api/types';
import type { Logger } from '../core/log';
import type { SessionStreamOptions, StreamDone } from '../core/stream/stream-types';
import { findBlock } from '../core/transcript/blocks';
import { transcriptFromDetail } from '../core/transcript/from-history';
import { isTerminalStatus, type ChangeSet, type Transcript, type Turn } from '../core/transcript/model';
import { applyEvent, createTranscript, findTurn } from '../core/transcript/reducer';
import { firstLine } from '../sessions/format';
import { presentError } from '../ui/error-text';
import { AttachmentList, type UploadFn } from './attachment-list';
import { systemClock, type Clock } from './clock';
import { DeltaBatcher, type BatcherStats } from './delta-batcher';
import { HostView, type HostSettings } from './host-view';
import type { WebviewMessage } from './protocol';
import type { TranscriptCache } from './transcript-cache';
import { mergeFresh } from './transcript-merge';
import { startTurn, stopTurn, type TurnActionHost, type TurnRequest } from './turn-actions';
import { TurnFollowers, type FollowTarget } from './turn-followers';
import { fullBlockText } from './turn-view';
import { ViewLink } from './view-link';

export type { HostSettings } from './host-view';
export type { TurnRequest } from './turn-actions';

export interface SessionHostEvents {
  /** The set of running turns changed. */
  onRunningChanged?(host: SessionHost): void;
  /** A followed turn reached a terminal status. */
  onTurnEnded?(host: SessionHost, turn: Turn): void;
  onTitleChanged?(host: SessionHost): void;
  /** A turn was started from here (the session may be new to the service). */
  onTurnStarted?(host: SessionHost, turn: Turn): void;
}

export interface SessionHostDeps {
  sessionId: string;
  title?: string;
  /** Throws a `config` DenError when Den cannot talk to the service. */
  client: () => ApiClient;
  target: () => FollowTarget;
  settings: () => HostSettings;
  logger: Logger;
  cache?: TranscriptCache;
  clock?: Clock;
  streamOptions?: Partial<SessionStreamOptions>;
  /** Batching (tests). */
  batch?: { intervalMs?: number; initThreshold?: number };
  events?: SessionHostEvents;
  /** Tell the connection state about outcomes of requests. */
  reportSuccess?: () => void;
  reportFailure?: (err: unknown) => void;
}

export class SessionHost {
  readonly sessionId: string;
  private transcriptValue: Transcript;
  private readonly deps: SessionHostDeps;
  private readonly batcher: DeltaBatcher;
  private readonly followers: TurnFollowers;
  private readonly attachments: AttachmentList;
  /** The webview currently attached: visibility, `ready`, probes, focus, and a tap on posts. */
  readonly link: ViewLink;
  /** What the panel shows besides the transcript: composer, connection, notice, title. */
  readonly view: HostView;
  private readonly actions: TurnActionHost;
  private loadingCount = 0;
  private fetched = false;
  private loading?: Promise<void>;
  private opening?: Promise<void>;
  /** A turn was started before the history was ever fetched: a 404 means "not created yet". */
  private expectNew = false;
  private disposed = false;

  constructor(deps: SessionHostDeps) {
    this.deps = deps;
    this.sessionId = deps.sessionId;
    this.transcriptValue = createTranscript(deps.sessionId, deps.title);
    const clock = deps.clock ?? systemClock;
    this.batcher = new DeltaBatcher({
      transcript: () => this.transcriptValue,
      init: () => this.view.initBody(),
      post: (m) => this.link.post(m),
      clock,
      ...deps.batch,
    });
    this.link = new ViewLink(this.batcher, clock);
    this.attachments = new AttachmentList(() => this.view.updateComposer());
    this.followers = new TurnFollowers({
      sessionId: deps.sessionId,
      target: deps.target,
      resolveCursor: (id, last) => this.resolveCursor(id, last),
      onEvent: (id, ev) => this.apply(id, ev),
      // A snapshot is only a summary: the events it covers are applied as they come. It is shown
      // only for events the stream says will never come.
      onSnapshot: () => undefined,
      onGap: (id, gap) => {
        if (gap.snapshot)
          this.apply(id, {
            kind: 'state.snapshot',
            payload: gap.snapshot,
            timestamp: Date.now(),
          } as AgentEvent);
      },
      onDone: (id, done) => this.turnDone(id, done),
      onState: () => this.view.updateConnection(),
      logger: deps.logger,
      streamOptions: deps.streamOptions,
    });
    this.view = new HostView(
      {
        sessionId: deps.sessionId,
        transcript: () => this.transcriptValue,
        title: () => this.title,
        settings: deps.settings,
        attachments: () => this.attachments.views(),
        streams: () => this.followers.view(),
        loading: () => this.loading !== undefined,
        titleChanged: () => deps.events?.onTitleChanged?.(this),
      },
      this.batcher,
    );
    this.actions = {
      sessionId: deps.sessionId,
      view: this.view,
      logger: deps.logger,
      transcript: () => this.transcriptValue,
      disposed: () => this.disposed,
      client: deps.client,
      settings: deps.settings,
      record: (cs) => this.record(cs),
      follow: (turn) => this.follow(turn),
      stream: (id) => this.followers.stream(id),
      load: () => this.load(),
      started: (turn) => deps.events?.onTurnStarted?.(this, turn),
      reportSuccess: deps.reportSuccess,
      reportFailure: deps.reportFailure,
    };
  }

  /** The host's model of the session (what the webview shows once caught up). */
  get transcript(): Transcript {
    return this.transcriptValue;
  }

  /** The session's title; before the service names it, the first task. */
  get title(): string {
    const first = this.transcriptValue.turns[0]?.userMessage.text;
    return (
      this.transcriptValue.title || this.deps.title || (first && firstLine(first, 60)) || 'Untitled session'
    );
  }

  /** Posts and deltas sent to webviews so far. */
  get stats(): BatcherStats {
    return this.batcher.stats;
  }

  /** Whether the history was fetched at least once. */
  get loaded(): boolean {
    return this.fetched;
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
    return this.transcriptValue.turns.filter(
      (t) => t.agentMessageId && !isTerminalStatus(t.status) && this.followers.has(t.agentMessageId),
    );
  }

  /** Handles the messages that need no editor API (the panel handles the others). */
  async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.link.ready(msg.lastSeq);
        return;
      case 'send':
        await this.send(msg.text, msg.mode, msg.effort, msg.continueTurnId);
        return;
      case 'stop':
        await this.stop();
        return;
      case 'removeAttachment':
        this.attachments.remove(msg.id);
        return;
      case 'showFullLog': {
        const block = findBlock(findTurn(this.transcriptValue, msg.turnId)?.blocks ?? [], msg.blockId);
        if (block)
          this.link.send({
            type: 'fullLog',
            turnId: msg.turnId,
            blockId: msg.blockId,
            text: fullBlockText(block),
          });
        return;
      }
      case 'retry':
        this.view.setNotice(null);
        await this.load();
        return;
      case 'probeResult':
        this.link.probeResult(msg.id, msg.digest);
        return;
      case 'composerChoice':
        this.view.choose(msg.mode, msg.effort);
        return;
      default:
        return;
    }
  }

  // ---- loading and following ------------------------------------------------------------------

  /**
   * Paints from the cache (when nothing is shown yet) and follows its open turns from their
   * cursors, then loads the history. Later calls load again only when no load has succeeded yet.
   */
  async open(): Promise<void> {
    this.opening ??= this.paintFromCache();
    await this.opening;
    if (!this.fetched) await this.load();
  }

  private async paintFromCache(): Promise<void> {
    const cache = this.deps.cache;
    if (!cache || this.transcriptValue.turns.length > 0) return;
    const cached = await cache.read(this.sessionId);
    if (!cached || this.transcriptValue.turns.length > 0 || this.disposed) return;
    this.transcriptValue = cached;
    this.batcher.invalidate();
    this.afterReplace();
    this.followOpenTurns();
  }

  /** Fetches the history, merges it into what is shown and follows open turns. */
  load(): Promise<void> {
    if (!this.loading) {
      this.view.failure = undefined;
      this.loading = this.fetch().finally(() => {
        this.loading = undefined;
        this.view.updateConnection();
      });
      this.view.updateConnection();
    }
    return this.loading;
  }

  private async fetch(): Promise<void> {
    this.loadingCount++;
    try {
      const detail = await this.deps.client().getSession(this.sessionId);
      this.deps.reportSuccess?.();
      if (this.disposed) return;
      this.expectNew = false;
      this.fetched = true;
      const merged = mergeFresh(this.transcriptValue, transcriptFromDetail(detail));
      this.transcriptValue = merged.transcript;
      if (merged.changes) for (const cs of merged.changes) this.batcher.push(cs);
      else this.batcher.invalidate();
      this.afterReplace();
    } catch (err) {
      if (err instanceof DenError && err.code === 'not_found' && this.expectNew) {
        // A session created by the turn just started: the service may not list it yet.
        this.deps.logger.debug(`Session ${this.sessionId} is not known to the service yet`);
      } else {
        if (!(err instanceof DenError) || err.fault !== 'user') this.deps.reportFailure?.(err);
        const p = presentError(err, 'load the session');
        const offline = err instanceof DenError && err.fault === 'network';
        this.view.failure = { state: offline ? 'offline' : 'failed', message: p.message };
      }
    }
    this.followOpenTurns();
  }

  private afterReplace(): void {
    this.view.updateTitle();
    this.view.updateComposer();
    this.cacheLater();
    this.deps.events?.onRunningChanged?.(this);
  }

  /** Follows the turns after the last ended one (earlier unfinished turns are stale history). */
  private followOpenTurns(): void {
    if (this.disposed) return;
    const turns = this.transcriptValue.turns;
    let i = turns.length;
    while (i > 0 && !isTerminalStatus(turns[i - 1].status)) i--;
    for (const t of turns.slice(i)) this.follow(t);
  }

  private follow(turn: Turn): void {
    const id = turn.agentMessageId;
    if (this.disposed || !id || isTerminalStatus(turn.status) || this.followers.has(id)) return;
    try {
      this.followers.follow(turn);
    } catch (err) {
      this.view.failure = { state: 'failed', message: presentError(err, 'follow the turn').message };
    }
    this.view.updateConnection();
    this.deps.events?.onRunningChanged?.(this);
  }

  private async resolveCursor(messageId: string, lastEventId: number): Promise<string | undefined> {
    const detail = await this.deps.client().getSession(this.sessionId);
    const m = detail.messages.find((x) => x.type === 'agent' && x.id === messageId);
    return m?.events.find((e) => e.event_id === lastEventId)?.stream_entry_id;
  }

  private apply(messageId: string, ev: AgentEvent): void {
    if (this.disposed) return;
    this.record(applyEvent(this.transcriptValue, messageId, ev));
  }

  private record(cs: ChangeSet): void {
    if (cs.ignored) return;
    this.batcher.push(cs);
    this.cacheLater();
    if (cs.turnCreated || cs.statusChanged || cs.turnInfoChanged) this.view.updateComposer();
    if (cs.turnCreated) this.view.updateTitle();
  }

  private turnDone(messageId: string, done: StreamDone): void {
    const turn = findTurn(this.transcriptValue, messageId);
    if (done.kind === 'failed') {
      this.view.failure = { state: 'failed', message: presentError(done.error, 'follow the turn').message };
    } else if (turn && isTerminalStatus(turn.status)) {
      this.deps.events?.onTurnEnded?.(this, turn);
    }
    this.view.updateComposer();
    this.view.updateConnection();
    this.cacheLater();
    this.deps.events?.onRunningChanged?.(this);
  }

  // ---- turns ----------------------------------------------------------------------------------

  /** Sends a composer message: a new turn (queued behind a running one by the service). */
  async send(text: string, mode: Mode, effort: Effort, continueTurnId?: string): Promise<boolean> {
    const task = text.trim();
    const view = this.view;
    if (!task || view.sending) return false;
    view.mode = mode;
    view.effort = effort;
    if (view.rateLimitedUntil !== undefined && view.rateLimitedUntil > Date.now()) {
      view.rateLimit(view.rateLimitedUntil);
      return false;
    }
    const ready = this.attachments.ready();
    const req: TurnRequest = { task, mode, effort, files: ready.files };
    const continuation = continueTurnId
      ? findTurn(this.transcriptValue, continueTurnId)?.continuation
      : undefined;
    if (continuation) req.continuation = continuation;
    const ok = await this.startTurn(req);
    if (ok) this.attachments.clear(ready.ids);
    return ok;
  }

  /**
   * Starts a turn in this session (creating the session on the service when it is new) and follows
   * it. Failures are shown in the panel; resolves to whether the turn started.
   */
  startTurn(req: TurnRequest): Promise<boolean> {
    if (this.transcriptValue.turns.length === 0 && this.loadingCount === 0) this.expectNew = true;
    return startTurn(this.actions, req);
  }

  /** Stops the running turn (HTTP abort, else the socket's stop frame); it keeps what it produced. */
  stop(): Promise<void> {
    return stopTurn(this.actions);
  }

  /** Adds an attachment chip and uploads it. */
  attach(name: string, size: number, upload: UploadFn): Promise<void> {
    return this.attachments.add(name, size, upload);
  }

  private cacheLater(): void {
    this.deps.cache?.schedule(this.sessionId, () => this.transcriptValue);
  }

  /** Stops following, cancels uploads and probes; the cache gets the last state. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.followers.closeAll();
    this.attachments.dispose();
    this.link.detach();
    this.batcher.dispose();
    if (this.transcriptValue.turns.length > 0)
      void this.deps.cache?.write(this.sessionId, this.transcriptValue);
  }
}
