/**
 * The host side of one session's panel, without `vscode`: the transcript (from the cache, the
 * history and live streams), the composer, turns started and stopped, and the posts to whichever
 * webview is attached. It outlives its panel while a turn runs, so the turn is followed to its end.
 */
import type { ApiClient } from '../core/api/client';
import { DenError } from '../core/api/errors';
import type { AgentEvent, Effort, Mode, SessionDetail } from '../core/api/types';
import type { Logger } from '../core/log';
import type { SessionStreamOptions, StreamDone, StreamGap } from '../core/stream/stream-types';
import { findBlock } from '../core/transcript/blocks';
import { foldAgentMessage, transcriptFromDetail } from '../core/transcript/from-history';
import { isTerminalStatus, type ChangeSet, type Transcript, type Turn } from '../core/transcript/model';
import { applyEvent, createTranscript, findTurn, newTurn } from '../core/transcript/reducer';
import { firstLine } from '../protocol/format';
import { presentError } from './error-text';
import { AttachmentList, type UploadFn } from './attachment-list';
import { systemClock, type Clock } from './clock';
import { DeltaBatcher, type BatcherStats } from './delta-batcher';
import { HostView, type HostSettings } from './host-view';
import type { WebviewMessage } from '../protocol/messages';
import { RateLimitWait } from './rate-limit-wait';
import type { TranscriptCache } from './transcript-cache';
import { Reconciler, type ReconcileOutcome, type ReconcileStats } from './reconciler';
import { mergeFresh, reconcileTurn } from './transcript-merge';
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
  /** Reconciling with the stored history (tests). */
  reconcile?: { delayMs?: number; maxTries?: number };
  events?: SessionHostEvents;
  /** Tell the connection state about outcomes of requests. */
  reportSuccess?: () => void;
  reportFailure?: (err: unknown) => void;
}

/** Events of a summary turn folded aside; `covers`: the last snapshot's `last_event_id`. */
interface Shadow {
  turn: Turn;
  covers?: number;
}

/** A turn shown from a summary: content without an event position (the older variant's blocks). */
function isSummary(t: Turn): boolean {
  return t.lastEventId === 0 && (t.blocks.length > 0 || t.plan !== undefined);
}

export class SessionHost {
  readonly sessionId: string;
  private transcriptValue: Transcript;
  private readonly deps: SessionHostDeps;
  private readonly batcher: DeltaBatcher;
  private readonly followers: TurnFollowers;
  private readonly attachments: AttachmentList;
  private readonly reconciler: Reconciler;
  /** Turns shown from a summary (no event position) whose events are folded aside until they catch up. */
  private readonly shadows = new Map<string, Shadow>();
  /** The webview currently attached: visibility, `ready`, probes, focus, and a tap on posts. */
  readonly link: ViewLink;
  /** What the panel shows besides the transcript: composer, connection, notice, title. */
  readonly view: HostView;
  private readonly actions: TurnActionHost;
  private readonly wait: RateLimitWait;
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
    this.reconciler = new Reconciler({
      fetch: () => this.deps.client().getSession(this.sessionId),
      apply: (detail, id) => this.reconcileWith(detail, id),
      clock,
      logger: deps.logger,
      ...deps.reconcile,
    });
    this.followers = new TurnFollowers({
      sessionId: deps.sessionId,
      target: deps.target,
      resolveCursor: (id, last) => this.resolveCursor(id, last),
      onEvent: (id, ev) => this.apply(id, ev),
      onSnapshot: (id, snapshot) => this.snapshotSeen(id, snapshot),
      onGap: (id, gap) => this.gapSeen(id, gap),
      onMalformed: (id) => this.reconciler.request(id, 'malformed'),
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
    this.wait = new RateLimitWait({ view: this.view, clock, send: (req) => this.startTurn(req) });
    this.actions = {
      sessionId: deps.sessionId,
      view: this.view,
      wait: this.wait,
      logger: deps.logger,
      transcript: () => this.transcriptValue,
      disposed: () => this.disposed,
      client: deps.client,
      settings: deps.settings,
      record: (cs) => this.record(cs),
      follow: (turn, since) => this.follow(turn, since),
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

  /** What reconciling with the stored history did so far. */
  get reconcileStats(): ReconcileStats {
    return this.reconciler.stats;
  }

  /** Resolves once no reconciliation with the stored history is pending or running. */
  whenReconciled(): Promise<void> {
    return this.reconciler.settled();
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
        if (block) {
          const { text, droppedChars } = fullBlockText(block);
          this.link.send({
            type: 'fullLog',
            turnId: msg.turnId,
            blockId: msg.blockId,
            text,
            ...(droppedChars > 0 ? { droppedChars } : {}),
          });
        }
        return;
      }
      case 'retry':
        this.view.setNotice(null);
        await this.load();
        return;
      case 'heldTurn':
        this.wait.act(msg.action);
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
      for (const id of [...this.shadows.keys()]) {
        const t = findTurn(this.transcriptValue, id);
        if (!t || !isSummary(t)) this.shadows.delete(id);
      }
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

  private follow(turn: Turn, sessionCursor?: string): void {
    const id = turn.agentMessageId;
    if (this.disposed || !id || isTerminalStatus(turn.status) || this.followers.has(id)) return;
    try {
      this.followers.follow(turn, sessionCursor);
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

  /**
   * One live event. A turn shown from a summary (the older variant's blocks, no event position)
   * cannot take events on top, as they would repeat what it shows: they are folded into a shadow
   * turn instead, which replaces the summary once it covers as much (`catchUp`).
   */
  private apply(messageId: string, ev: AgentEvent): void {
    if (this.disposed) return;
    const shown = findTurn(this.transcriptValue, messageId);
    const shadow = shown && this.shadowOf(messageId, shown);
    if (!shown || !shadow) {
      this.record(applyEvent(this.transcriptValue, messageId, ev));
      return;
    }
    const turns = this.transcriptValue.turns.map((t) => (t === shown ? shadow.turn : t));
    applyEvent({ sessionId: this.sessionId, turns }, messageId, ev);
    this.catchUp(messageId, shown, shadow);
  }

  private shadowOf(messageId: string, shown: Turn): Shadow | undefined {
    let s = this.shadows.get(messageId);
    if (!s && isSummary(shown)) {
      const turn = newTurn(messageId, shown.userMessage.createdAt);
      turn.userMessage = shown.userMessage;
      s = { turn };
      this.shadows.set(messageId, s);
    }
    return s;
  }

  /** The shadow replaces the summary once it reached what the last snapshot covered, or ended. */
  private catchUp(messageId: string, shown: Turn, shadow: Shadow): void {
    const t = shadow.turn;
    const covered = shadow.covers !== undefined && t.lastEventId > 0 && t.lastEventId >= shadow.covers;
    if (!covered && !isTerminalStatus(t.status)) return;
    this.shadows.delete(messageId);
    this.replaceWith(shown, t);
  }

  /**
   * A `state.snapshot` came: a summary only (its events are applied as the service replays them).
   * It says how far a summary turn's shadow must get, and asks for a reconciliation.
   */
  private snapshotSeen(messageId: string, snapshot: Record<string, unknown>): void {
    if (this.disposed) return;
    this.reconciler.request(messageId, 'snapshot');
    const shown = findTurn(this.transcriptValue, messageId);
    const shadow = shown && this.shadowOf(messageId, shown);
    const covers = snapshot.last_event_id;
    if (!shown || !shadow || typeof covers !== 'number') return;
    shadow.covers = covers;
    this.catchUp(messageId, shown, shadow);
  }

  /**
   * Events that will not come live: the snapshot that stands for them (if any) is shown in their
   * place until the stored history, asked for at once, brings the exact events.
   */
  private gapSeen(messageId: string, gap: StreamGap): void {
    if (this.disposed) return;
    this.reconciler.request(messageId, 'gap');
    if (!gap.snapshot) return;
    this.shadows.delete(messageId);
    this.record(
      applyEvent(this.transcriptValue, messageId, {
        kind: 'state.snapshot',
        payload: gap.snapshot,
        timestamp: Date.now(),
      } as AgentEvent),
    );
  }

  /**
   * Brings one turn in line with the stored history: when the stored copy has events and covers at
   * least what is shown, the turn shows exactly its fold (see `reconcileTurn` for how this stays a
   * set of deltas). The stored message alone is folded, after the turns shown before it.
   */
  private reconcileWith(detail: SessionDetail, messageId: string): ReconcileOutcome {
    const shown = findTurn(this.transcriptValue, messageId);
    const m = detail.messages.find((x) => x.type === 'agent' && x.id === messageId);
    if (this.disposed || !shown || !m || m.events.length === 0) return 'missing';
    const stored = newTurn(messageId, shown.userMessage.createdAt);
    stored.userMessage = shown.userMessage;
    const before = this.transcriptValue.turns.slice(0, this.transcriptValue.turns.indexOf(shown));
    foldAgentMessage({ sessionId: this.sessionId, turns: [...before, stored] }, stored, m);
    if (stored.lastEventId < shown.lastEventId) return 'behind';
    this.shadows.delete(messageId);
    this.replaceWith(shown, stored);
    return 'applied';
  }

  private replaceWith(shown: Turn, source: Turn): void {
    const cs = reconcileTurn(shown, source);
    if (cs) this.record(cs);
    else {
      this.batcher.invalidate();
      this.afterReplace();
    }
    if (!cs || cs.statusChanged) this.deps.events?.onRunningChanged?.(this);
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
    // What was shown live is checked against what the service stored, whatever happened on the way.
    this.reconciler.request(messageId, 'end');
  }

  // ---- turns ----------------------------------------------------------------------------------

  /** Sends a composer message: a new turn (queued behind a running one by the service). */
  async send(text: string, mode: Mode, effort: Effort, continueTurnId?: string): Promise<boolean> {
    const task = text.trim();
    const view = this.view;
    if (!task || view.sending) return false;
    view.mode = mode;
    view.effort = effort;
    if (this.wait.waiting) {
      this.wait.refused();
      return false;
    }
    const ready = this.attachments.ready();
    const req: TurnRequest = { task, mode, effort, files: ready.files, attachmentIds: ready.ids };
    const continuation = continueTurnId
      ? findTurn(this.transcriptValue, continueTurnId)?.continuation
      : undefined;
    if (continuation) req.continuation = continuation;
    return this.startTurn(req);
  }

  /**
   * Starts a turn in this session (creating the session on the service when it is new) and follows
   * it. Failures are shown in the panel; resolves to whether the turn started.
   */
  async startTurn(req: TurnRequest): Promise<boolean> {
    if (this.transcriptValue.turns.length === 0 && this.loadingCount === 0) this.expectNew = true;
    const ok = await startTurn(this.actions, req);
    if (ok && req.attachmentIds) this.attachments.clear(req.attachmentIds);
    return ok;
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
    this.wait.dispose();
    this.followers.closeAll();
    this.reconciler.dispose();
    this.attachments.dispose();
    this.link.detach();
    this.batcher.dispose();
    if (this.transcriptValue.turns.length > 0)
      void this.deps.cache?.write(this.sessionId, this.transcriptValue);
  }
}
