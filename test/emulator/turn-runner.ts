/**
 * Runs turns inside the emulator on timers, whether or not anybody listens: per-session queueing,
 * per-user concurrency, abort, and fan-out of every stored event to live listeners.
 */
import type { AgentEvent, FileInfo, Mode } from '../../src/core/client/types';
import {
  REQUEST_KINDS,
  afterAnswer,
  isTerminalKind,
  scriptFor,
  type ScriptContext,
  type ScriptStep,
} from './scripts';
import type { Store, StoredMessage, StoredSession } from './store';
import type { TimerSet } from './timers';
import { attachedTexts } from './write-back';

/** Receives each event of one agent message as it is stored. */
export type EventListener = (event: AgentEvent, terminal: boolean) => void;

export interface TurnRunnerOptions {
  eventDelayMs: number;
  maxConcurrent: number;
  /** fileSnapshot key of a generated file. */
  snapshotKey(sessionId: string, path: string): string;
}

export interface StartTurnInput {
  userId: string;
  session: StoredSession;
  task: string;
  mode: Mode;
  files: FileInfo[];
  /** The request's `references`, echoed in `message.received` as the service does. */
  references?: unknown[];
}

export interface StartedTurn {
  user: StoredMessage;
  agent: StoredMessage;
  status: 'running' | 'queued';
  queuePosition?: number;
}

/** Thrown by `start` when the user already runs `maxConcurrent` turns. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many concurrent turns');
  }
}

interface Turn {
  userId: string;
  session: StoredSession;
  agent: StoredMessage;
  ctx: ScriptContext;
  steps: ScriptStep[];
  next: number;
  cancel?: () => void;
  /** Goes on with steps added after the script ran out (set while it runs). */
  resume?: () => void;
  /** The request kind the turn waits on (its last event), until an answer comes. */
  asked?: string;
  /** Answers received so far. */
  answers: number;
  ended: boolean;
}

export class TurnRunner {
  private readonly turns = new Map<string, Turn>();
  private readonly running = new Map<string, Turn>();
  private readonly queues = new Map<string, Turn[]>();
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly endWaiters = new Map<string, (() => void)[]>();

  constructor(
    private readonly store: Store,
    private readonly timers: TimerSet,
    private readonly opts: TurnRunnerOptions,
  ) {}

  runningCount(userId: string): number {
    let n = 0;
    for (const t of this.running.values()) if (t.userId === userId) n++;
    return n;
  }

  /** The session's place among the sessions of the same first task (`ScriptContext.sameTaskIndex`). */
  private sameTaskIndex(sessionId: string): number {
    const first = (id: string): string | undefined =>
      this.store.sessions.get(id)?.messages.find((m) => m.type === 'user')?.content;
    const task = first(sessionId);
    let i = 0;
    for (const s of this.store.sessions.values()) {
      if (s.sessionId === sessionId) return i;
      if (!s.deleted && first(s.sessionId) === task) i++;
    }
    return i;
  }

  /** Starts a turn now, or queues it behind the session's running turn. */
  start(input: StartTurnInput): StartedTurn {
    const { session } = input;
    const busy = this.running.has(session.sessionId);
    if (!busy && this.runningCount(input.userId) >= this.opts.maxConcurrent) {
      throw new RateLimitedError(Math.max(1, Math.ceil((this.opts.eventDelayMs * 40) / 1000)));
    }
    const { user, agent } = this.store.addTurnMessages(session, input.task, input.mode, input.files);
    const ctx: ScriptContext = {
      sessionId: session.sessionId,
      task: input.task,
      mode: input.mode,
      snapshotKey: (p) => this.opts.snapshotKey(session.sessionId, p),
      now: Date.now(),
      attachments: attachedTexts(
        input.files,
        input.references ?? [],
        (key) => this.store.media.get(key)?.content,
      ),
      generated: (path) => this.store.media.get(`${session.sessionId}/${path}`)?.content?.toString('utf8'),
      sameTaskIndex: this.sameTaskIndex(session.sessionId),
    };
    const turn: Turn = {
      userId: input.userId,
      session,
      agent,
      ctx,
      steps: scriptFor(ctx),
      next: 0,
      answers: 0,
      ended: false,
    };
    this.turns.set(agent.id, turn);
    this.emit(turn, {
      kind: 'message.received',
      payload: { text: input.task, files: input.files, references: input.references ?? [] },
    });
    if (busy) {
      const queue = this.queues.get(session.sessionId) ?? [];
      queue.push(turn);
      this.queues.set(session.sessionId, queue);
      this.emit(turn, { kind: 'task.phase', payload: { phase: 'queued', eta_seconds: 30 * queue.length } });
      return { user, agent, status: 'queued', queuePosition: queue.length };
    }
    this.emit(turn, { kind: 'task.phase', payload: { phase: 'queued', eta_seconds: 0 } });
    this.run(turn);
    return { user, agent, status: 'running' };
  }

  /** Aborts a running or queued turn. Returns false when it already ended (or is unknown). */
  abort(agentMessageId: string, reason: string): boolean {
    const turn = this.turns.get(agentMessageId);
    if (!turn || turn.ended) return false;
    turn.cancel?.();
    const queue = this.queues.get(turn.session.sessionId);
    if (queue)
      this.queues.set(
        turn.session.sessionId,
        queue.filter((t) => t !== turn),
      );
    turn.agent.aborted = true;
    this.emit(turn, { kind: 'task.aborted', payload: { reason } });
    return true;
  }

  /** Adds an event to a turn that has not ended (e.g. a message sent over its socket). */
  inject(agentMessageId: string, step: ScriptStep): void {
    const turn = this.turns.get(agentMessageId);
    if (turn && !turn.ended) this.emit(turn, step);
  }

  /**
   * A `message` frame sent to a turn that waits for the person (its last event was a request):
   * the turn records it (`message.received`) and goes on with what the answer says. False when the
   * turn does not wait (the frame is then a follow-up message, queued as a new turn).
   */
  answer(agentMessageId: string, text: string, files: FileInfo[]): boolean {
    const turn = this.turns.get(agentMessageId);
    if (!turn || turn.ended || !turn.asked || turn.next < turn.steps.length || !turn.resume) return false;
    const asked = turn.asked;
    turn.asked = undefined;
    turn.answers++;
    this.emit(turn, { kind: 'message.received', payload: { text, files, references: [] } });
    turn.steps.push(...afterAnswer({ ...turn.ctx, now: Date.now() }, asked, text, turn.answers));
    turn.resume();
    return true;
  }

  /** Whether the turn waits for the person's answer. */
  isWaiting(agentMessageId: string): boolean {
    const turn = this.turns.get(agentMessageId);
    return !!turn && !turn.ended && !!turn.asked && turn.next >= turn.steps.length;
  }

  /** Removes the last queued (not started) turn of a session with its messages. */
  retract(sessionId: string): boolean {
    const queue = this.queues.get(sessionId);
    const turn = queue?.pop();
    if (!turn) return false;
    turn.ended = true;
    this.turns.delete(turn.agent.id);
    const msgs = turn.session.messages;
    const i = msgs.indexOf(turn.agent);
    if (i > 0) msgs.splice(i - 1, 2);
    this.resolveEnd(turn.agent.id);
    return true;
  }

  /** The running (or, failing that, last queued) turn's agent message id in a session. */
  activeMessageId(sessionId: string): string | undefined {
    return this.running.get(sessionId)?.agent.id ?? this.queues.get(sessionId)?.at(-1)?.agent.id;
  }

  isEnded(agentMessageId: string): boolean {
    const t = this.turns.get(agentMessageId);
    return !t || t.ended;
  }

  subscribe(agentMessageId: string, fn: EventListener): () => void {
    let set = this.listeners.get(agentMessageId);
    if (!set) this.listeners.set(agentMessageId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.listeners.delete(agentMessageId);
    };
  }

  /** Resolves when the turn has emitted its terminal event (at once if it already has). */
  ended(agentMessageId: string): Promise<void> {
    if (this.isEnded(agentMessageId)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.endWaiters.get(agentMessageId) ?? [];
      list.push(resolve);
      this.endWaiters.set(agentMessageId, list);
    });
  }

  /** Resolves when every turn started so far has ended (a turn waiting for approval never does). */
  allEnded(): Promise<void> {
    const open = [...this.turns.values()].filter((t) => !t.ended);
    return Promise.all(open.map((t) => this.ended(t.agent.id))).then(() => undefined);
  }

  /** Stops every timer-driven turn (the emulator is closing). */
  stopAll(): void {
    for (const t of this.turns.values()) t.cancel?.();
    this.listeners.clear();
  }

  private run(turn: Turn): void {
    this.running.set(turn.session.sessionId, turn);
    turn.agent.phase = 'running';
    // Paced steps: when the next one is due (see ScriptStep.paced).
    let due = Date.now();
    const step = (): void => {
      turn.cancel = undefined;
      // Every paced step already due goes out now (bounded by the script's length).
      for (;;) {
        if (turn.ended) return;
        const s = turn.steps[turn.next++];
        if (!s) return;
        this.emit(turn, s);
        if (!s.paced) due = Date.now();
        const next = turn.steps[turn.next];
        if (turn.ended || !next?.paced || due + (next.delayMs ?? 0) > Date.now()) break;
        due += next.delayMs ?? 0;
      }
      if (!turn.ended) schedule();
    };
    turn.resume = () => {
      due = Date.now();
      if (!turn.cancel) schedule();
    };
    const schedule = (): void => {
      const s = turn.steps[turn.next];
      if (!s) return;
      const delay = s.delayMs ?? this.opts.eventDelayMs;
      if (!s.paced) {
        turn.cancel = this.timers.later(delay, step);
        return;
      }
      due += delay;
      turn.cancel = this.timers.later(Math.max(0, due - Date.now()), step);
    };
    schedule();
  }

  private emit(turn: Turn, step: ScriptStep): void {
    const { session, agent } = turn;
    const { id, ms } = this.store.nextStreamEntryId();
    const event: AgentEvent = {
      event_id: agent.events.length + 1,
      stream_entry_id: id,
      kind: step.kind,
      ...(step.block_id ? { block_id: step.block_id } : {}),
      payload: step.payload,
      timestamp: ms,
    };
    agent.events.push(event);
    session.updatedAt = ms;
    if (REQUEST_KINDS.has(step.kind)) turn.asked = step.kind;
    for (const w of step.writes ?? []) {
      this.store.putGeneratedFile(
        session,
        w.path,
        w.content,
        this.opts.snapshotKey(session.sessionId, w.path),
        w.updatedAt ?? ms,
      );
    }
    if (step.kind === 'markdown.chunk' && typeof step.payload.delta === 'string')
      agent.content += step.payload.delta;
    const terminal = isTerminalKind(step.kind);
    if (terminal) this.finish(turn, step);
    for (const fn of [...(this.listeners.get(agent.id) ?? [])]) fn(event, terminal);
    if (terminal) this.afterFinish(turn);
  }

  private finish(turn: Turn, step: ScriptStep): void {
    turn.ended = true;
    turn.cancel?.();
    turn.steps = [];
    const { agent } = turn;
    if (step.kind === 'task.completed') {
      agent.phase = 'completed';
      const files = step.payload.files;
      if (Array.isArray(files)) agent.files = files as FileInfo[];
    } else if (step.kind === 'task.aborted') {
      agent.phase = 'aborted';
    } else {
      agent.phase = 'error';
      agent.error = String(step.payload.message ?? 'error');
    }
  }

  private afterFinish(turn: Turn): void {
    const sid = turn.session.sessionId;
    if (this.running.get(sid) === turn) {
      this.running.delete(sid);
      const next = this.queues.get(sid)?.shift();
      if (next) this.run(next);
    }
    this.resolveEnd(turn.agent.id);
  }

  private resolveEnd(agentMessageId: string): void {
    const list = this.endWaiters.get(agentMessageId) ?? [];
    this.endWaiters.delete(agentMessageId);
    for (const r of list) r();
  }
}

/** A session title from the first task, the way the service auto-generates one. */
export function titleFrom(task: string): string {
  const oneLine = task.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine || 'Untitled session';
}
