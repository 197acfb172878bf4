/**
 * The transcript view model: what the session panel renders. It is plain JSON-safe data (no class
 * instances, no `undefined`-valued keys), built by folding agent events with `reducer.ts`, from stored
 * history (`from-history.ts`) and from live frames alike.
 */
import type { Effort, FileInfo, Mode } from '../client/types';

/** A session's conversation: its turns in order. */
export interface Transcript {
  sessionId: string;
  /** The session title, when known (history); used by exports. */
  title?: string;
  turns: Turn[];
}

/** Where a turn stands. `completed`, `aborted` and `error` are terminal. */
export type TurnStatus = 'queued' | 'running' | 'completed' | 'aborted' | 'error';

/** The request that opened a turn. */
export interface UserMessage {
  /** The user message id; empty when the turn was learnt from agent events only. */
  id: string;
  text: string;
  mode?: Mode;
  effort?: Effort;
  files: FileInfo[];
  /** Unix ms. */
  createdAt: number;
}

/** One request and the agent's answer to it. */
export interface Turn {
  userMessage: UserMessage;
  /** The agent message id: the key events are applied with. */
  agentMessageId: string;
  status: TurnStatus;
  /** The last `task.phase` seen (`queued`, `running`, …). */
  phase?: string;
  etaSeconds?: number;
  /**
   * When the service said `etaSeconds` (the `task.phase` event's `timestamp`, Unix ms); absent when
   * the event had none: the estimate's age is then unknown and it is not shown (`etaLeft`).
   */
  etaAt?: number;
  /** Position in the service's queue while `status` is `queued`. */
  queuePosition?: number;
  error?: TurnError;
  abortReason?: string;
  /**
   * The agent waits for the person: what it asks (a plan-approval or input request, see
   * `INPUT_REQUEST_KINDS`). Cleared when the turn ends or a later event shows it moved on.
   */
  needsInput?: string;
  /**
   * How the person answers `needsInput`: `approval` (a plan-approval request: Approve, Revise…,
   * Reject) or `reply` (a question: a reply box). Set and cleared with `needsInput`.
   */
  asks?: InputRequestKind;
  /** `task.completed` continuation, always as a JSON string (objects are stringified). */
  continuation?: string;
  /** Files listed by `task.completed` (final results of the turn). */
  outputFiles?: FileInfo[];
  /** Other `task.completed` payload fields, kept verbatim. */
  result?: Record<string, unknown>;
  /** Blocks in first-seen order. Ids are unique within the turn. */
  blocks: Block[];
  plan?: Plan;
  /** Files the turn changed, from `sandbox.snapshot` events, in first-seen order. */
  files: FileChange[];
  /** The highest `event_id` applied; events at or below it are duplicates. Ids start at 1. */
  lastEventId: number;
  /** The `stream_entry_id` of the last applied event that carried one (resume cursor). */
  lastStreamEntryId?: string;
  /**
   * How much of the model's context window the turn uses, as the service last said
   * (`context.usage`, or a legacy `context_usage` block; see `context-usage.ts`).
   */
  contextUsage?: ContextUsage;
}

/**
 * A reading of the context window: `fraction` (0–1) always; `used` and `max` tokens together, when
 * the service said them (it may give only a share). `fraction` is `used / max`, at most 1.
 */
export interface ContextUsage {
  used?: number;
  max?: number;
  fraction: number;
}

/** How the person answers a turn that waits for them (`Turn.asks`). */
export type InputRequestKind = 'approval' | 'reply';

export interface TurnError {
  message: string;
  code?: string;
}

/** Every kind of block, discriminated by `type`. */
export type Block = MarkdownBlock | ThoughtBlock | TextBlock | ToolBlock | MessageBlock | GenericBlock;
export type BlockType = Block['type'];

/** Answer text (`markdown.chunk` deltas appended). */
export interface MarkdownBlock {
  type: 'markdown';
  id: string;
  text: string;
  final: boolean;
}

/** The agent's reasoning (`thought` events appended). */
export interface ThoughtBlock {
  type: 'thought';
  id: string;
  text: string;
  final: boolean;
}

/** Plain text, set by `text` events (each carries the whole text). */
export interface TextBlock {
  type: 'text';
  id: string;
  text: string;
}

export type ToolStatus = 'running' | 'success' | 'error';
export type LogStream = 'stdout' | 'stderr';

/** A run of one tool (`tool.start` … `tool.result`), id `tool:<name>:<run>`. */
export interface ToolBlock {
  type: 'tool';
  id: string;
  name: string;
  /** Merged from every `tool.parameters` event (later keys win). */
  parameters: Record<string, unknown>;
  log: ToolLog;
  status: ToolStatus;
  /** `tool.result` output, verbatim. */
  output?: unknown;
  /** When its first event was sent, and its `tool.result` (the events' `timestamp`, Unix ms), if known. */
  startedAt?: number;
  endedAt?: number;
}

/**
 * A tool's output log, capped: once it would exceed the cap, the oldest text is dropped until it
 * holds at most three quarters of the cap (trimming in batches keeps appends amortized O(1)).
 */
export interface ToolLog {
  /** Consecutive chunks of the same stream are merged into one segment. */
  segments: LogSegment[];
  /** Characters currently held (sum of the segments' lengths). */
  chars: number;
  /** Characters dropped from the start; show a truncation marker when > 0. */
  truncatedChars: number;
}

export interface LogSegment {
  stream: LogStream;
  data: string;
}

/** A `message.received` event: a message the agent received (the prompt or a follow-up). */
export interface MessageBlock {
  type: 'message';
  id: string;
  text: string;
  files: FileInfo[];
  references?: unknown;
}

/** An event (or a block type) Den does not know, kept so nothing is ever dropped. */
export interface GenericBlock {
  type: 'generic';
  id: string;
  /** The event kind (or `block.create` for a block of an unknown type). */
  kind: string;
  /** The event's `block_id`, when it had one. */
  blockId?: string;
  /** The payload as received (for an unknown block type: its state, with `type`). */
  payload: unknown;
}

export type TodoStatus = 'pending' | 'active' | 'completed';

export interface Todo {
  id: string;
  content: string;
  status: TodoStatus;
}

/** The agent's plan, merged from `plan.update` patches (by todo id, first-seen order). */
export interface Plan {
  todos: Todo[];
}

export type FileChangeKind = 'added' | 'updated' | 'deleted';

/**
 * A file the turn changed. `added`: unknown before the turn (earlier turns included); `updated`:
 * known before, then changed; `deleted`: known before the turn, then deleted.
 */
export interface FileChange {
  path: string;
  change: FileChangeKind;
  key: string;
  name: string;
  updatedAt?: number;
}

/** Text appended to one block by one event. */
export interface BlockAppend {
  blockId: string;
  /**
   * Appended to the block's `text`; with `stream`, to its log: joined to the last segment when that
   * has the same stream, else as a new segment (what `appendToLog` does).
   */
  text: string;
  stream?: LogStream;
}

/**
 * What one `applyEvent` (or `beginTurn`) changed in one turn, so a host can post deltas.
 * Bookkeeping (`lastEventId`, `lastStreamEntryId`) is not reported.
 */
export interface ChangeSet {
  /** Agent message id of the turn touched. */
  turnId: string;
  /** The event was a duplicate or not an event: nothing changed. */
  ignored: boolean;
  /** The turn did not exist and was created (send it whole). */
  turnCreated: boolean;
  /** Ids of blocks created, in creation order. */
  blocksCreated: readonly string[];
  /** Ids of existing blocks that changed (never also in `blocksCreated`). */
  blocksUpdated: readonly string[];
  /**
   * Pure appends: a block of `blocksUpdated` whose only change was appending this text. A block in
   * `blocksUpdated` without an entry here changed otherwise and must be re-sent whole.
   */
  appends: readonly BlockAppend[];
  /** `status` changed. */
  statusChanged: boolean;
  /**
   * Other turn fields changed: phase, eta, queue position, error, abort reason, result, user message,
   * context usage.
   */
  turnInfoChanged: boolean;
  planChanged: boolean;
  filesChanged: boolean;
  /**
   * Blocks were removed or moved (a reconciliation with the stored history): the turn's block order
   * is sent whole, after the created and updated blocks. Absent means false.
   */
  orderChanged?: boolean;
}

/** Tunables of the reducer. */
export interface ReducerOptions {
  /** Cap of a tool's log, in characters (default 200,000). */
  maxLogChars?: number;
}

export const DEFAULT_MAX_LOG_CHARS = 200_000;

/** Whether a status is final. */
export function isTerminalStatus(status: TurnStatus): boolean {
  return status === 'completed' || status === 'aborted' || status === 'error';
}
