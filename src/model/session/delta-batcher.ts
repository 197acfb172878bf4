/**
 * Turns the reducer's ChangeSets into the protocol's posts: coalesced `batch`es, nothing while the
 * view cannot receive, one catch-up when it can again. Every post (init, batch, or a direct message)
 * carries the next `seq`. No `vscode` import.
 *
 * When posts go (a leading-edge throttle): a change that finds the window since the last post over
 * is posted at once, as soon as the synchronous work that brought it ends (a sparse stream waits
 * for nothing); changes inside the window are coalesced into one post at its end. A steady stream
 * thus gets a post every window, and a timer that ran late does not push the next one back (up to
 * half a window), so the rate holds instead of sagging with the event loop's lateness.
 *
 * The window depends on the stream: one frame (`sparseIntervalMs`, at most
 * {@link MAX_SPARSE_POSTS_PER_SECOND} posts in any second) while the stream is sparse, so that a
 * live answer waits for the page's next frame rather than for every other one; `intervalMs` once it
 * runs as a burst ({@link BURST_EVENTS} events or more within {@link BURST_SPAN_MS}), where a
 * coalesced post never makes a second since the burst began hold more than
 * {@link MAX_POSTS_PER_SECOND} posts (`init`, direct messages and the catch-up on show go at once,
 * and count).
 */
import { findBlock } from '../../core/transcript/blocks';
import type { ChangeSet, LogStream, Transcript, Turn } from '../../core/transcript/model';
import { findTurn } from '../../core/transcript/reducer';
import { systemClock, type Clock } from '../shared/clock';
import type { Delta, HostMessage } from '../../protocol/session-panel/messages';
import { shortTurns } from './short-init';
import { turnHeader } from './turn-view';

type InitMessage = Extract<HostMessage, { type: 'init' }>;
/** What `init` carries besides its type and seq. */
export type InitBody = Omit<InitMessage, 'type' | 'seq'>;
type Unsequenced<M> = M extends unknown ? Omit<M, 'seq'> : never;
/** A post other than `init` and `batch` (probe, fullLog, focusComposer), before it gets its seq. */
export type DirectMessage = Unsequenced<Exclude<HostMessage, { type: 'init' } | { type: 'batch' }>>;
/** Deltas that say something happened once: each is sent, in order, never folded with another. */
export type OnceDelta = Extract<Delta, { type: 'sendResult' }>;
/** Deltas about the panel rather than the transcript; of each type only the latest is sent. */
export type ViewDelta = Extract<
  Delta,
  {
    type:
      'composer' | 'connection' | 'notice' | 'title' | 'fileStatus' | 'reviewComments' | 'reviewed' | 'panel';
  }
>;

export interface DeltaBatcherOptions {
  /** The live transcript: content is read from it when a batch is built. */
  transcript: () => Transcript;
  /** The whole view, for `init`. */
  init: () => InitBody;
  post: (message: HostMessage) => void;
  clock?: Clock;
  /**
   * The throttle's window under a burst: after a post, changes wait until this long after it
   * (default 34 ms, about 29 posts/s; never more than 30 in any second of the burst).
   */
  intervalMs?: number;
  /**
   * The window while the stream is sparse (default 17 ms, a frame at 60 Hz; never more than 60
   * posts in any second).
   */
  sparseIntervalMs?: number;
  /**
   * A catch-up touching more than this many turns + blocks is sent as an `init` instead of a batch
   * (default 200): past that, a whole repaint is cheaper for the webview than that many replacements.
   */
  initThreshold?: number;
  /**
   * An `init` whose texts hold more characters than this goes first short (`partial`: the older
   * texts left out, see `short-init.ts`), and whole `intervalMs` later (default 6,000, about two
   * panels of text; 0: always whole).
   */
  initTextBudget?: number;
}

/** Counters for tests and benchmarks. */
export interface BatcherStats {
  /** Every post, whatever its type. */
  posts: number;
  /** Deltas inside batches. */
  deltas: number;
  inits: number;
  batches: number;
}

interface AppendRun {
  text: string;
  stream?: LogStream;
}

/** What changed in one block: replaced whole, or only text appended (in order, runs merged). */
type BlockChange = { whole: true } | { whole: false; runs: AppendRun[] };

interface TurnChanges {
  /** The turn is new to the view: everything of it is sent. */
  created: boolean;
  header: boolean;
  /** First-touched order; a block created in the window sits there in creation order. */
  blocks: Map<string, BlockChange>;
  plan: boolean;
  files: boolean;
  /** Blocks were removed or moved: the order is sent whole. */
  order: boolean;
}

const WHOLE: BlockChange = { whole: true };
/** Most posts in any second (any 1,000 ms) of a burst that a coalesced post may join. */
export const MAX_POSTS_PER_SECOND = 30;
/** Most posts in any second that a coalesced post may join while the stream is sparse: one a frame. */
export const MAX_SPARSE_POSTS_PER_SECOND = 60;
/** A stream is a burst while its last {@link BURST_EVENTS} events came within this span... */
export const BURST_SPAN_MS = 250;
/** ...that is, at 300 events/s or more (a live answer streams at a tenth to two thirds of that). */
export const BURST_EVENTS = 75;
/** Most once-deltas kept for a view that does not listen (a send each: far more than can wait). */
const MAX_ONCE = 50;

export class DeltaBatcher {
  readonly #opts: DeltaBatcherOptions;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #sparseIntervalMs: number;
  readonly #initThreshold: number;
  readonly #initTextBudget: number;
  #pending = new Map<string, TurnChanges>();
  #views = new Map<ViewDelta['type'], ViewDelta>();
  #once: OnceDelta[] = [];
  #seqValue = 0;
  #visibleValue = false;
  #needsInit = false;
  /** When the window after the last post ends: the earliest a coalesced post may go. */
  #windowEnd = Number.NEGATIVE_INFINITY;
  /** When the last {@link MAX_SPARSE_POSTS_PER_SECOND} posts went, oldest first. */
  readonly #recent: number[] = [];
  /** When the last {@link BURST_EVENTS} events came, a ring; `#eventAt` is the oldest's slot. */
  readonly #events = new Float64Array(BURST_EVENTS).fill(Number.NEGATIVE_INFINITY);
  #eventAt = 0;
  /** When the burst running now began (undefined: the stream is sparse). */
  #burstSince: number | undefined;
  /** The timer of the pending post, when it waits for its window's end or the cap. */
  #timer: unknown;
  /** The token of the pending post, when it goes as soon as the current synchronous work ends. */
  #soon: object | undefined;
  readonly #counters: BatcherStats = { posts: 0, deltas: 0, inits: 0, batches: 0 };

  constructor(options: DeltaBatcherOptions) {
    this.#opts = options;
    this.#clock = options.clock ?? systemClock;
    this.#intervalMs = Math.max(1, options.intervalMs ?? 34);
    this.#sparseIntervalMs = Math.max(1, options.sparseIntervalMs ?? 17);
    this.#initThreshold = Math.max(0, options.initThreshold ?? 200);
    this.#initTextBudget = Math.max(0, options.initTextBudget ?? 6_000);
  }

  /** The seq of the last post (0 before any). */
  get seq(): number {
    return this.#seqValue;
  }

  /** Whether posts go out (the view exists, is shown and listens). */
  get visible(): boolean {
    return this.#visibleValue;
  }

  get stats(): BatcherStats {
    return { ...this.#counters };
  }

  /** Whether changes wait to be sent. */
  get hasPending(): boolean {
    return this.#pending.size > 0 || this.#views.size > 0 || this.#once.length > 0;
  }

  /** Records what one `applyEvent`/`beginTurn` changed. */
  push(cs: ChangeSet): void {
    if (cs.ignored) return;
    this.#noteEvent();
    let ch = this.#pending.get(cs.turnId);
    if (!ch) {
      ch = { created: false, header: false, blocks: new Map(), plan: false, files: false, order: false };
      this.#pending.set(cs.turnId, ch);
    }
    if (cs.turnCreated) ch.created = true;
    if (cs.statusChanged || cs.turnInfoChanged) ch.header = true;
    if (cs.planChanged) ch.plan = true;
    if (cs.filesChanged) ch.files = true;
    if (cs.orderChanged) ch.order = true;
    if (!ch.created) {
      for (const id of cs.blocksCreated) ch.blocks.set(id, WHOLE);
      for (const id of cs.blocksUpdated) {
        const append = this.#visibleValue ? cs.appends.find((a) => a.blockId === id) : undefined;
        const known = ch.blocks.get(id);
        if (!append) ch.blocks.set(id, WHOLE);
        else if (!known) ch.blocks.set(id, { whole: false, runs: [run(append.text, append.stream)] });
        else if (!known.whole) addRun(known.runs, append.text, append.stream);
      }
    }
    this.#schedule();
  }

  /** Records a panel delta (composer, connection, notice, title); the latest of each type wins. */
  pushView(delta: ViewDelta): void {
    // Re-inserted so that the order of the last changes is kept.
    this.#views.delete(delta.type);
    this.#views.set(delta.type, delta);
    this.#schedule();
  }

  /**
   * Records a delta that says something happened once (a send's result): unlike `pushView`, every
   * one is sent, after the panel deltas of its batch (the state it ends in comes first). Kept while
   * hidden and through an `init`, which does not cover it; at most {@link MAX_ONCE}, the oldest
   * dropped first.
   */
  pushOnce(delta: OnceDelta): void {
    this.#once.push(delta);
    if (this.#once.length > MAX_ONCE) this.#once.splice(0, this.#once.length - MAX_ONCE);
    this.#schedule();
  }

  /**
   * Shows or hides the view. Hidden: nothing is posted and only which turns and blocks changed is
   * kept (texts are read again when shown). Shown again: one catch-up post, a batch with the
   * current content of what changed, or an `init` when `how` asks for one, after `invalidate`, or
   * when more than `initThreshold` turns + blocks changed.
   */
  setVisible(visible: boolean, how: 'catch-up' | 'init' = 'catch-up'): void {
    if (visible === this.#visibleValue) return;
    this.#visibleValue = visible;
    if (!visible) {
      this.#cancelTimer();
      for (const ch of this.#pending.values()) {
        for (const [id, b] of ch.blocks) if (!b.whole) ch.blocks.set(id, WHOLE);
      }
      return;
    }
    if (how === 'init' || this.#needsInit || this.#changedItems() > this.#initThreshold) this.sendInit();
    else this.flush();
  }

  /** The view must be repainted whole (the transcript was replaced): now, or when next shown. */
  invalidate(): void {
    this.#needsInit = true;
    if (this.#visibleValue) this.sendInit();
  }

  /**
   * Posts the whole view now (when visible) and forgets pending changes, which it covers; what
   * happened once (`pushOnce`) follows in a batch right after it. A view whose texts exceed the
   * budget goes short first (`partial`) and whole at the end of the window, before anything else.
   */
  sendInit(): boolean {
    return this.#sendInit(true);
  }

  #sendInit(shortFirst: boolean): boolean {
    if (!this.#visibleValue) return false;
    this.#cancelTimer();
    this.#pending = new Map();
    this.#views = new Map();
    this.#needsInit = false;
    this.#counters.inits++;
    const body = this.#opts.init();
    const short =
      shortFirst && this.#initTextBudget > 0 ? shortTurns(body.turns, this.#initTextBudget) : undefined;
    if (short) {
      this.#emit({ type: 'init', seq: 0, ...body, turns: short, partial: true });
      // The whole view is the next post, at the end of the burst window (34 ms: the page paints the
      // short one first); it covers any change meanwhile.
      this.#windowEnd = Math.max(this.#windowEnd, this.#clock.now() + this.#intervalMs);
      this.#needsInit = true;
      this.#schedule();
      return true;
    }
    this.#emit({ type: 'init', seq: 0, ...body });
    if (this.#once.length > 0) this.flush();
    return true;
  }

  /** Posts a message now with the next seq; false (nothing sent) while hidden. */
  send(message: DirectMessage): boolean {
    if (!this.#visibleValue) return false;
    this.#emit({ ...message, seq: 0 } as HostMessage);
    return true;
  }

  /** Posts pending changes now, if visible and there are any. */
  flush(): void {
    this.#post();
  }

  /** {@link flush}; `due`: see `#emit`. */
  #post(due?: number): void {
    this.#cancelTimer();
    if (!this.#visibleValue) return;
    if (this.#needsInit) {
      this.#sendInit(false);
      return;
    }
    if (!this.hasPending) return;
    const deltas = this.#build();
    if (deltas.length === 0) return;
    this.#counters.batches++;
    this.#counters.deltas += deltas.length;
    this.#emit({ type: 'batch', seq: 0, deltas }, due);
  }

  dispose(): void {
    this.#cancelTimer();
    this.#visibleValue = false;
  }

  /**
   * Posts with the next seq. `due`: when a coalesced post was due (its window's end); a timer that
   * ran late starts the next window from there, not from now, unless it was late by half a window
   * or more (a stalled event loop: no catching up with a run of posts then).
   */
  #emit(message: HostMessage, due?: number): void {
    message.seq = ++this.#seqValue;
    this.#counters.posts++;
    const now = this.#clock.now();
    const interval = this.#bursting(now) ? this.#intervalMs : this.#sparseIntervalMs;
    const from = due !== undefined && now - due < interval / 2 ? due : now;
    this.#windowEnd = from + interval;
    this.#recent.push(now);
    if (this.#recent.length > MAX_SPARSE_POSTS_PER_SECOND) this.#recent.shift();
    this.#opts.post(message);
  }

  /** Records an event's arrival for the burst check: one slot of a ring, no allocation. */
  #noteEvent(): void {
    const now = this.#clock.now();
    this.#events[this.#eventAt] = now;
    this.#eventAt = (this.#eventAt + 1) % BURST_EVENTS;
    // #eventAt now holds the oldest of the last BURST_EVENTS events.
    if (now - this.#events[this.#eventAt] >= BURST_SPAN_MS) this.#burstSince = undefined;
    else this.#burstSince ??= now;
  }

  /** Whether the stream runs as a burst at `now`: it did at its last event, and that was lately. */
  #bursting(now: number): boolean {
    if (this.#burstSince === undefined) return false;
    const newest = this.#events[(this.#eventAt + BURST_EVENTS - 1) % BURST_EVENTS];
    if (now - newest < BURST_SPAN_MS) return true;
    this.#burstSince = undefined;
    return false;
  }

  /**
   * The earliest time the cap of posts per second allows the next post: sparse, at most
   * {@link MAX_SPARSE_POSTS_PER_SECOND} in any second; in a burst, at most {@link MAX_POSTS_PER_SECOND}
   * in any second since it began (a burst does not wait out the sparse posts before it).
   */
  #capAllows(now: number): number {
    const recent = this.#recent;
    const since = this.#bursting(now) ? this.#burstSince : undefined;
    const max = since === undefined ? MAX_SPARSE_POSTS_PER_SECOND : MAX_POSTS_PER_SECOND;
    if (recent.length < max) return Number.NEGATIVE_INFINITY;
    const oldest = recent[recent.length - max];
    return since !== undefined && oldest < since ? Number.NEGATIVE_INFINITY : oldest + 1000;
  }

  #schedule(): void {
    if (!this.#visibleValue || this.#timer !== undefined || this.#soon !== undefined) return;
    const now = this.#clock.now();
    const at = Math.max(this.#windowEnd, this.#capAllows(now));
    if (at > now) {
      this.#arm(at, at - now);
      return;
    }
    // The window is over: post at once, but after the synchronous work that brought this change,
    // so that a burst of events handled in one go still becomes one post.
    const token = {};
    this.#soon = token;
    const run = (): void => {
      if (this.#soon !== token) return; // posted or cancelled meanwhile
      this.#soon = undefined;
      this.#timer = undefined;
      this.#post();
    };
    if (this.#clock.defer) this.#clock.defer(run);
    else this.#timer = this.#clock.setTimeout(run, 0);
  }

  /** A timer for the post due at `due`; it checks the cap again when it runs (timers can run early). */
  #arm(due: number, delay: number): void {
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      const now = this.#clock.now();
      const wait = this.#capAllows(now) - now;
      if (wait > 0) this.#arm(due, Math.max(1, wait));
      else this.#post(due);
    }, delay);
  }

  #cancelTimer(): void {
    this.#soon = undefined;
    if (this.#timer === undefined) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #changedItems(): number {
    const t = this.#opts.transcript();
    let n = 0;
    for (const [id, ch] of this.#pending) {
      n += 1 + (ch.created ? (findTurn(t, id)?.blocks.length ?? 0) : ch.blocks.size + (ch.order ? 1 : 0));
    }
    return n;
  }

  #build(): Delta[] {
    const t = this.#opts.transcript();
    const out: Delta[] = [];
    for (const [id, ch] of this.#pending) {
      const turn = findTurn(t, id);
      if (turn) this.#turnDeltas(turn, ch, out);
    }
    out.push(...this.#views.values(), ...this.#once);
    this.#pending = new Map();
    this.#views = new Map();
    this.#once = [];
    return out;
  }

  #turnDeltas(turn: Turn, ch: TurnChanges, out: Delta[]): void {
    const turnId = turn.agentMessageId;
    if (ch.created || ch.header) out.push({ type: 'turn', turn: turnHeader(turn) });
    if (ch.created) {
      for (const block of turn.blocks) out.push({ type: 'block', turnId, block });
    } else {
      for (const [blockId, change] of ch.blocks) {
        const block = findBlock(turn.blocks, blockId);
        if (!block) continue;
        if (change.whole) out.push({ type: 'block', turnId, block });
        else {
          for (const r of change.runs) {
            out.push(
              r.stream === undefined
                ? { type: 'append', turnId, blockId, text: r.text }
                : { type: 'append', turnId, blockId, text: r.text, stream: r.stream },
            );
          }
        }
      }
      if (ch.order) out.push({ type: 'blockOrder', turnId, blockIds: turn.blocks.map((b) => b.id) });
    }
    if ((ch.created || ch.plan) && turn.plan) out.push({ type: 'plan', turnId, plan: turn.plan });
    if ((ch.created && turn.files.length > 0) || ch.files)
      out.push({ type: 'files', turnId, files: turn.files });
  }
}

function run(text: string, stream?: LogStream): AppendRun {
  return stream === undefined ? { text } : { text, stream };
}

function addRun(runs: AppendRun[], text: string, stream?: LogStream): void {
  const last = runs[runs.length - 1];
  if (last && last.stream === stream) last.text += text;
  else runs.push(run(text, stream));
}
