/**
 * Fault injection: the mutable fault plan with its seeded RNG, one-shot HTTP failures, and the
 * per-connection frame sender that drops, duplicates, reorders and corrupts event frames.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { SeededRandom } from './rng';
import type { TimerSet } from './timers';
import type { FaultPlan, HttpFaultRule } from './types';

const GARBAGE_FRAMES = ['{"oops', 'not json', '{"type":"mystery"}', '[1,2,', '{"event_id":"x"}', ''];

interface ArmedRule {
  rule: HttpFaultRule;
  re: RegExp;
  remaining: number;
}

export class FaultState {
  plan: FaultPlan = {};
  private random = new SeededRandom(1);
  private randomSeed: number | undefined = undefined;
  private readonly rules: ArmedRule[] = [];

  /** The RNG, re-seeded whenever the plan's seed changes. */
  get rng(): SeededRandom {
    if (this.plan.seed !== this.randomSeed) {
      this.randomSeed = this.plan.seed;
      this.random = new SeededRandom(this.plan.seed ?? 1);
    }
    return this.random;
  }

  replace(plan: FaultPlan): void {
    this.plan = { ...plan };
    // A replaced plan with the same seed starts its sequence again.
    this.randomSeed = undefined;
  }

  failNext(rule: HttpFaultRule): void {
    this.rules.push({ rule, re: new RegExp(rule.path), remaining: rule.times ?? 1 });
  }

  /** The injected failure for this request, consuming one use of it. */
  takeRule(method: string, path: string): HttpFaultRule | undefined {
    const i = this.rules.findIndex(
      (r) => (!r.rule.method || r.rule.method.toUpperCase() === method.toUpperCase()) && r.re.test(path),
    );
    if (i < 0) return undefined;
    const armed = this.rules[i];
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.rules.splice(i, 1);
    return armed.rule;
  }
}

/** Counts of what one connection wrote. */
export interface FrameCounter {
  eventFrames: number;
  foreignFrames: number;
}

interface Frame {
  text: string;
  /** Of another agent message than the followed one. */
  foreign: boolean;
}

/**
 * Sends event frames on one connection through the current fault plan. A held (reordered) frame
 * is sent right after the next one, or on its own shortly after when no next frame comes; a drop
 * never happens while a frame is held, so a drop loses only what was never sent.
 */
export class FaultySender {
  private sent = 0;
  private held: Frame | undefined;
  private cancelFlush: (() => void) | undefined;
  private dead = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly faults: FaultState,
    private readonly timers: TimerSet,
    private readonly counter: FrameCounter = { eventFrames: 0, foreignFrames: 0 },
  ) {}

  get isDead(): boolean {
    return this.dead || this.ws.readyState !== this.ws.OPEN;
  }

  /** Sends one event frame; `last` marks the turn's terminal event (never held back). */
  send(text: string, last: boolean, foreign = false): void {
    if (this.isDead) return;
    const plan = this.faults.plan;
    const rng = this.faults.rng;
    if (rng.chance(plan.malformedRate)) this.raw(GARBAGE_FRAMES[rng.int(GARBAGE_FRAMES.length)]);
    const frame = { text, foreign };
    if (this.held === undefined && !last && rng.chance(plan.reorderRate)) {
      this.held = frame;
      this.cancelFlush = this.timers.later(25, () => this.flushHeld());
      return;
    }
    this.deliver(frame, rng.chance(plan.duplicateRate));
    this.flushHeld();
  }

  /** Sends a non-event frame (ack, snapshot) untouched by faults. */
  raw(text: string): void {
    if (!this.isDead) this.ws.send(text);
  }

  private flushHeld(): void {
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    const h = this.held;
    this.held = undefined;
    if (h !== undefined) this.deliver(h, false);
  }

  private deliver(frame: Frame, twice: boolean): void {
    if (this.isDead) return;
    const copies = twice ? 2 : 1;
    for (let i = 0; i < copies; i++) this.ws.send(frame.text);
    this.counter.eventFrames += copies;
    if (frame.foreign) this.counter.foreignFrames += copies;
    this.sent += 1;
    const n = this.faults.plan.dropAfterFrames;
    if (n && n > 0 && this.sent >= n && this.held === undefined) this.drop();
  }

  /** Sends nothing more, ever, and leaves the TCP connection open (a half-open socket). */
  silence(): void {
    this.dead = true;
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    this.held = undefined;
  }

  /**
   * Ends the TCP connection without a WebSocket close frame. `end` (not `destroy`) so the frames
   * already written reach the client: "after N frames" means exactly N arrive.
   */
  drop(): void {
    this.dead = true;
    this.cancelFlush?.();
    this.socket.end();
    this.timers.later(200, () => this.socket.destroy());
  }
}
