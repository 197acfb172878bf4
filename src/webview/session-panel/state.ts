/**
 * The webview's store: the session view as the host described it (`init`, then `batch` deltas applied
 * strictly in `seq` order), and what changed since the view last looked. Pure: no DOM. On a gap in
 * `seq` it asks the host for a fresh `init` (`ready` with its `lastSeq`) and ignores deltas until then.
 */
import { appendToLog } from '../../core/transcript/blocks';
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { isMarked, marksByPath } from '../../protocol/session-panel/reviewed';
import {
  DEFAULT_MAX_LOG_CHARS,
  type Block,
  type ContextUsage,
  type FileChange,
  type Plan,
  isTerminalStatus,
} from '../../core/transcript/model';
import type {
  ComposerState,
  ConnectionView,
  Delta,
  FileStatusView,
  HostMessage,
  Notice,
  SendOutcome,
  SessionHeader,
  TurnHeader,
  WebviewDigest,
  WebviewMessage,
} from '../../protocol/session-panel/messages';

/** One turn as the webview holds it. */
export interface TurnState {
  header: TurnHeader;
  blocks: Block[];
  /** Block id → index in `blocks`. */
  index: Map<string, number>;
  plan?: Plan;
  files: FileChange[];
}

/** What changed since the view last took the changes. */
export interface StoreChanges {
  /** A new `init` replaced everything. */
  reset: boolean;
  /** Turns or blocks were added (the row list must be rebuilt). */
  structure: boolean;
  /** Turns whose header changed. */
  turns: Set<string>;
  /** Turns whose status changed (for announcements; not set by `init`). */
  statuses: string[];
  /** Blocks created or replaced whole ({@link blockKey}). */
  blocks: Set<string>;
  /** Markdown, thought and text blocks whose text grew. */
  appended: Set<string>;
  /** Text appended to tool logs, in order. */
  logAppends: { key: string; text: string; stream: 'stdout' | 'stderr' }[];
  /** Answer text that streamed in, in order (for the live region). */
  spoken: string[];
  plans: Set<string>;
  files: Set<string>;
  composer: boolean;
  /** How the composer's sends ended, in order (each told once). */
  sendResults: { sendId: string; outcome: SendOutcome }[];
  connection: boolean;
  notice: boolean;
  title: boolean;
  reviewComments: boolean;
  /** Whether the panel is the preview changed. */
  panel: boolean;
}

/** How a message was handled. */
export type ReceiveResult = 'applied' | 'duplicate' | 'gap' | 'waiting' | 'invalid';

export interface StoreOptions {
  post: (m: WebviewMessage) => void;
  now?: () => number;
  maxLogChars?: number;
}

/** The key of a block across turns. */
export function blockKey(turnId: string, blockId: string): string {
  return `${turnId}\u0000${blockId}`;
}

function emptyChanges(): StoreChanges {
  return {
    reset: false,
    structure: false,
    turns: new Set(),
    statuses: [],
    blocks: new Set(),
    appended: new Set(),
    logAppends: [],
    spoken: [],
    plans: new Set(),
    files: new Set(),
    composer: false,
    sendResults: [],
    connection: false,
    notice: false,
    title: false,
    reviewComments: false,
    panel: false,
  };
}

// Asking again for an init only after this long, in case the first `ready` was lost.
const READY_RETRY_MS = 2000;

/** A tool's whole log, as the host sent it after "Show all". */
export interface FullLog {
  text: string;
  /** Characters before `text` that Den's log cap dropped (0: none). */
  droppedChars: number;
}

export class Store {
  lastSeq: number | null = null;
  session: SessionHeader | undefined;
  turns: TurnState[] = [];
  composer: ComposerState | undefined;
  connection: ConnectionView = { state: 'loading' };
  notice: Notice | null = null;
  /** The session files' states against the workspace, by path (see `fileStatusOf`). */
  fileStatus: ReadonlyMap<string, FileStatusView> = new Map();
  /** Open line comments of the session that Send Feedback would send. */
  reviewComments = 0;
  /** The panel is the preview: the next single click in the Sessions view shows another session here. */
  preview = false;
  /** The last `init` was a long session's short first one (older texts left out); the whole follows. */
  partial = false;
  /** The session's reviewed marks: the versions marked, by path (see `isReviewed`). */
  reviewed: ReadonlyMap<string, readonly string[]> = new Map();
  /** Whole logs the host sent after "Show all" (and what its cap had dropped before), by block key. */
  readonly fullLogs = new Map<string, FullLog>();
  private byId = new Map<string, TurnState>();
  private changes = emptyChanges();
  private awaitingInit: number | undefined;
  private readonly now: () => number;
  private readonly maxLogChars: number;

  constructor(private readonly options: StoreOptions) {
    this.now = options.now ?? Date.now;
    this.maxLogChars = options.maxLogChars ?? DEFAULT_MAX_LOG_CHARS;
  }

  /** Applies one host message in `seq` order. */
  receive(msg: HostMessage): ReceiveResult {
    if (msg.type === 'init') {
      this.init(msg);
      return 'applied';
    }
    if (this.lastSeq === null) return 'waiting';
    if (this.awaitingInit !== undefined) {
      if (this.now() - this.awaitingInit >= READY_RETRY_MS) this.requestInit();
      return 'waiting';
    }
    if (msg.seq <= this.lastSeq) return 'duplicate';
    if (msg.seq !== this.lastSeq + 1) {
      this.requestInit();
      return 'gap';
    }
    this.lastSeq = msg.seq;
    dispatch(this.sequenced, msg);
    return 'applied';
  }

  /** The changes since the last call, and a fresh empty set for the next ones. */
  takeChanges(): StoreChanges {
    const c = this.changes;
    this.changes = emptyChanges();
    return c;
  }

  turn(id: string): TurnState | undefined {
    return this.byId.get(id);
  }

  block(turnId: string, blockId: string): Block | undefined {
    const t = this.byId.get(turnId);
    const i = t?.index.get(blockId);
    return t && i !== undefined ? t.blocks[i] : undefined;
  }

  /** The latest turn that waits for the person's answer, if any. */
  waiting(): TurnState | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const t = this.turns[i];
      if (t.header.needsInput !== undefined && t.header.id) return t;
    }
    return undefined;
  }

  /** The context window's use as the latest turn that reported it says, if any did. */
  contextUsage(): ContextUsage | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const u = this.turns[i].header.contextUsage;
      if (u) return u;
    }
    return undefined;
  }

  /**
   * The last turn, once it ended (completed, stopped or failed): Continue asks the agent to go on
   * from there, with the turn's continuation data when it has some (a stopped turn has none).
   */
  continuable(): TurnState | undefined {
    const last = this.turns[this.turns.length - 1];
    return last && isTerminalStatus(last.header.status) && last.header.id ? last : undefined;
  }

  /** What the `probe` test hook reports. */
  digest(renderedBlocks: number, composerText: string): WebviewDigest {
    const usage = this.contextUsage();
    return {
      ...(usage ? { contextUsage: usage } : {}),
      lastSeq: this.lastSeq ?? -1,
      turns: this.turns.map((t) => ({
        id: t.header.id,
        status: t.header.status,
        blocks: t.blocks.map((b) => ({ id: b.id, type: b.type, text: blockText(b) })),
        todos: t.plan?.todos.length ?? 0,
        files: t.files.length,
      })),
      renderedBlocks,
      composerText,
    };
  }

  private requestInit(): void {
    this.awaitingInit = this.now();
    this.options.post({ type: 'ready', lastSeq: this.lastSeq });
  }

  private init(msg: Extract<HostMessage, { type: 'init' }>): void {
    this.lastSeq = msg.seq;
    this.awaitingInit = undefined;
    this.session = msg.session;
    this.composer = msg.composer;
    this.connection = msg.connection;
    this.notice = msg.notice;
    this.fileStatus = statusMap(msg.fileStatus ?? []);
    this.reviewComments = msg.reviewComments ?? 0;
    this.reviewed = marksByPath(msg.reviewed ?? []);
    this.preview = msg.preview ?? false;
    this.partial = msg.partial ?? false;
    this.turns = [];
    this.byId.clear();
    this.fullLogs.clear();
    for (const v of msg.turns) {
      const { blocks, plan, files, ...header } = v;
      const t: TurnState = { header, blocks: [...blocks], index: new Map(), files: [...files] };
      if (plan) t.plan = plan;
      t.blocks.forEach((b, i) => t.index.set(b.id, i));
      this.turns.push(t);
      this.byId.set(header.id, t);
    }
    // A send's result not yet shown is not covered by the new view: it is kept.
    const { sendResults } = this.changes;
    this.changes = emptyChanges();
    this.changes.sendResults = sendResults;
    this.changes.reset = true;
  }

  /** What a post after `init` does (its `seq` already checked). */
  private readonly sequenced: Handlers<Exclude<HostMessage, { type: 'init' }>, void> = {
    batch: (m) => {
      for (const d of m.deltas) dispatch(this.deltas, d);
    },
    fullLog: (m) => {
      const key = blockKey(m.turnId, m.blockId);
      this.fullLogs.set(key, { text: m.text, droppedChars: m.droppedChars ?? 0 });
      this.changes.blocks.add(key);
    },
    // Handled by the view (`main.ts`); they only take their place in the sequence here.
    probe: () => undefined,
    focusComposer: () => undefined,
    openFind: () => undefined,
    revealMatch: () => undefined,
    openOutline: () => undefined,
  };

  /** What each delta does to the store. */
  private readonly deltas: Handlers<Delta, void> = {
    turn: (d) => this.applyTurn(d.turn),
    block: (d) => {
      const t = this.byId.get(d.turnId);
      if (!t) return;
      const block = structuredClone(d.block);
      const i = t.index.get(block.id);
      if (i === undefined) {
        t.index.set(block.id, t.blocks.length);
        t.blocks.push(block);
        this.changes.structure = true;
      } else t.blocks[i] = block;
      this.changes.blocks.add(blockKey(d.turnId, block.id));
    },
    blockOrder: (d) => this.applyOrder(d.turnId, d.blockIds),
    append: (d) => this.applyAppend(d),
    plan: (d) => {
      const t = this.byId.get(d.turnId);
      if (!t) return;
      if (!t.plan) this.changes.structure = true;
      t.plan = d.plan;
      this.changes.plans.add(d.turnId);
    },
    files: (d) => {
      const t = this.byId.get(d.turnId);
      if (!t) return;
      if ((t.files.length === 0) !== (d.files.length === 0)) this.changes.structure = true;
      t.files = d.files;
      this.changes.files.add(d.turnId);
    },
    composer: (d) => {
      this.composer = d.composer;
      this.changes.composer = true;
    },
    connection: (d) => {
      this.connection = d.connection;
      this.changes.connection = true;
    },
    notice: (d) => {
      this.notice = d.notice;
      this.changes.notice = true;
    },
    title: (d) => {
      if (this.session) this.session = { ...this.session, title: d.title };
      this.changes.title = true;
    },
    fileStatus: (d) => {
      this.fileStatus = statusMap(d.files);
      for (const t of this.turns) if (t.files.length) this.changes.files.add(t.header.id);
    },
    reviewComments: (d) => {
      this.reviewComments = d.open;
      this.changes.reviewComments = true;
    },
    panel: (d) => {
      this.preview = d.preview;
      this.changes.panel = true;
    },
    reviewed: (d) => {
      this.reviewed = marksByPath(d.files);
      for (const t of this.turns) if (t.files.length) this.changes.files.add(t.header.id);
    },
    sendResult: (d) => {
      this.changes.sendResults.push({ sendId: d.sendId, outcome: d.outcome });
    },
  };

  /** A file's state against the workspace, by its path as a turn names it (a leading `/` aside). */
  fileStatusOf(path: string): FileStatusView | undefined {
    return this.fileStatus.get(path) ?? this.fileStatus.get(path.replace(/^\/+/, ''));
  }

  /** Whether the person marked this version of a turn's file reviewed. */
  isReviewed(f: FileChange): boolean {
    return isMarked(this.reviewed, f.path, { ...f, deleted: f.change === 'deleted' });
  }

  private applyTurn(h: TurnHeader): void {
    const c = this.changes;
    let t = this.byId.get(h.id);
    if (!t && h.id !== '') t = this.adoptPending(h);
    if (t) {
      if (t.header.status !== h.status || (h.needsInput && h.needsInput !== t.header.needsInput))
        c.statuses.push(h.id);
      t.header = h;
    } else {
      t = { header: h, blocks: [], index: new Map(), files: [] };
      this.turns.push(t);
      c.structure = true;
    }
    this.byId.set(h.id, t);
    c.turns.add(h.id);
  }

  /** A turn sent without id (not answered yet) that this header now names. */
  private adoptPending(h: TurnHeader): TurnState | undefined {
    const pending = this.byId.get('');
    if (!pending) return undefined;
    const a = pending.header.userMessage;
    const b = h.userMessage;
    const same = a.id && b.id ? a.id === b.id : a.text === b.text && a.createdAt === b.createdAt;
    if (!same) return undefined;
    this.byId.delete('');
    this.changes.structure = true;
    return pending;
  }

  /** Keeps the listed blocks (objects untouched, so their rows stay) in the listed order. */
  private applyOrder(turnId: string, ids: string[]): void {
    const t = this.byId.get(turnId);
    if (!t) return;
    const blocks: Block[] = [];
    for (const id of ids) {
      const i = t.index.get(id);
      if (i !== undefined) blocks.push(t.blocks[i]);
    }
    const kept = new Set(ids);
    for (const b of t.blocks) if (!kept.has(b.id)) this.fullLogs.delete(blockKey(turnId, b.id));
    t.blocks = blocks;
    t.index = new Map(blocks.map((b, i) => [b.id, i]));
    this.changes.structure = true;
  }

  private applyAppend(d: Extract<Delta, { type: 'append' }>): void {
    const b = this.block(d.turnId, d.blockId);
    if (!b) return;
    const key = blockKey(d.turnId, d.blockId);
    const c = this.changes;
    if (b.type === 'tool') {
      const stream = d.stream ?? 'stdout';
      appendToLog(b.log, stream, d.text, this.maxLogChars);
      const full = this.fullLogs.get(key);
      if (full !== undefined) full.text += d.text;
      c.logAppends.push({ key, text: d.text, stream });
    } else if (b.type === 'markdown' || b.type === 'thought' || b.type === 'text') {
      b.text += d.text;
      c.appended.add(key);
      if (b.type === 'markdown') c.spoken.push(d.text);
    }
  }
}

/** The text a block shows (tool: its log). */
export function blockText(b: Block): string {
  switch (b.type) {
    case 'markdown':
    case 'thought':
    case 'text':
    case 'message':
      return b.text;
    case 'tool':
      return b.log.segments.map((s) => s.data).join('');
    default:
      return '';
  }
}

function statusMap(files: readonly FileStatusView[]): Map<string, FileStatusView> {
  return new Map(files.map((f) => [f.path, f]));
}
