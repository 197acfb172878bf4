import { l10n } from '../shared/l10n';
/**
 * What each event kind does to a turn (see service-behaviour.md, "Event kinds"). Every handler reads
 * its payload tolerantly; an event that cannot be placed becomes a generic block, never an error.
 * A kind not listed here (`focus`, a dev-server-ready event, …) is kept whole as a generic block,
 * and so is a `context.usage` whose payload is not one of the shapes `context-usage.ts` reads.
 */
import {
  addBlock,
  appendToLog,
  blockTypeForId,
  findBlock,
  newBlockOfType,
  newGeneric,
  newMarkdown,
  newMessage,
  newText,
  newThought,
  newTool,
  patchBlock,
  toolNameFromId,
  uniqueBlockId,
} from './blocks';
import { noteAppended, noteCreated, noteUpdated } from './change-set';
import { readContextUsage, sameUsage } from './context-usage';
import { applySnapshot } from './files';
import { applyLegacyState } from './legacy';
import { appendText } from './streamed-text';
import {
  isTerminalStatus,
  type Block,
  type ChangeSet,
  type InputRequestKind,
  type ToolBlock,
  type Transcript,
  type Turn,
  type TurnStatus,
} from './model';
import { mergeTodos } from './plan';
import { isRecord } from '../shared/schema';
import { copyRecord, num, readFiles, rec, str, strOrNum, type Rec } from './read';

/** One event being applied to one turn. */
export interface EventContext {
  transcript: Transcript;
  turn: Turn;
  cs: ChangeSet;
  kind: string;
  /** The payload as received (may be anything). */
  raw: unknown;
  /** The payload if it is an object, else empty. */
  payload: Rec;
  eventId?: number;
  blockId?: string;
  /** The event's `timestamp` (Unix ms), when it had one. */
  timestamp?: number;
  maxLogChars: number;
}

type Handler = (c: EventContext) => void;

/** Keeps an event the reducer cannot place, as its own generic block. */
export function keepGeneric(c: EventContext): void {
  const base = `${c.kind || 'event'}#${c.eventId ?? c.turn.blocks.length}`;
  const id = uniqueBlockId(c.turn.blocks, base);
  addBlock(c.turn.blocks, newGeneric(id, c.kind, c.raw, c.blockId));
  noteCreated(c.cs, id);
}

function add(c: EventContext, block: Block): void {
  addBlock(c.turn.blocks, block);
  noteCreated(c.cs, block.id);
}

/** writeText's default options, shared: it runs once per streamed chunk. */
const NO_OPTIONS: { replace?: boolean; final?: boolean } = {};

/**
 * Writes text into a text-bearing block, creating it when missing: appended (`markdown.chunk`,
 * `thought`) or, with `replace`, set (`text`; a missing text then changes nothing). An event aimed at
 * a block of another type is kept as a generic block.
 */
function writeText(
  c: EventContext,
  defaultId: string,
  make: (id: string) => Block,
  text: string | undefined,
  opts: { replace?: boolean; final?: boolean } = NO_OPTIONS,
): void {
  const id = c.blockId ?? defaultId;
  const b = findBlock(c.turn.blocks, id);
  if (!b) {
    const created = make(id);
    if ('text' in created) created.text = text ?? '';
    if (opts.final === true && 'final' in created) created.final = true;
    add(c, created);
    return;
  }
  if (b.type === 'tool' || b.type === 'generic') return keepGeneric(c);
  if (text && !opts.replace) {
    appendText(b, text);
    noteAppended(c.cs, id, text);
  } else if (text !== undefined && opts.replace && text !== b.text) {
    // A re-send that extends the old text is still an append for the host.
    const grows = text.startsWith(b.text);
    const suffix = text.slice(b.text.length);
    b.text = text;
    noteUpdated(c.cs, id, grows ? { text: suffix } : undefined);
  }
  if (opts.final === true && 'final' in b && !b.final) {
    b.final = true;
    noteUpdated(c.cs, id);
  }
}

function setStatus(c: EventContext, status: TurnStatus): void {
  const t = c.turn;
  if (t.status !== status) {
    t.status = status;
    c.cs.statusChanged = true;
  }
  if (status !== 'queued' && t.queuePosition !== undefined) {
    delete t.queuePosition;
    c.cs.turnInfoChanged = true;
  }
}

/** Finds (or creates) the tool block an event is about; undefined when the id names another type. */
function toolFor(c: EventContext): ToolBlock | undefined {
  const blocks = c.turn.blocks;
  const name = str(c.payload.tool_name) ?? str(c.payload.name);
  if (c.blockId !== undefined) {
    const b = findBlock(blocks, c.blockId);
    if (b) return b.type === 'tool' ? b : undefined;
    const tool = newTool(c.blockId, name ?? toolNameFromId(c.blockId));
    add(c, tool);
    return tool;
  }
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i];
    if (b.type === 'tool' && (name === undefined || b.name === name)) return b;
  }
  const id = uniqueBlockId(blocks, `tool:${name ?? 'unknown'}:${c.eventId ?? blocks.length}`);
  const tool = newTool(id, name ?? 'unknown');
  add(c, tool);
  return tool;
}

function withTool(fn: (c: EventContext, tool: ToolBlock) => boolean): Handler {
  return (c) => {
    const tool = toolFor(c);
    if (!tool) return keepGeneric(c);
    let timed = false;
    if (c.timestamp !== undefined && tool.startedAt === undefined) {
      tool.startedAt = c.timestamp;
      timed = true;
    }
    if (fn(c, tool) || timed) noteUpdated(c.cs, tool.id);
  };
}

function errorOf(raw: unknown, p: Rec): { message: string; code?: string } {
  const nested = rec(p.error);
  const message =
    str(p.message) ??
    str(p.error_message) ??
    str(p.error) ??
    str(nested.message) ??
    str(p.detail) ??
    (typeof raw === 'string' && raw ? raw : undefined) ??
    (Object.keys(p).length > 0 ? JSON.stringify(p).slice(0, 500) : l10n.t('The agent reported an error.'));
  const code =
    strOrNum(p.code) ??
    strOrNum(p.error_code) ??
    strOrNum(nested.code) ??
    (typeof p.error === 'string' && p.error !== message ? p.error : undefined);
  return code === undefined ? { message } : { message, code };
}

/**
 * Kinds of the service's plan-approval or input request, documented by title only: the strings are
 * **assumed** (service-behaviour.md, "Event kinds"). The payload's `message`, `question`, `prompt`,
 * `text` or `title` says what the agent asks.
 */
export const INPUT_REQUEST_KINDS: readonly string[] = [
  'plan.approval_request',
  'approval.request',
  'input.request',
];

/** How each request kind is answered: approving a plan, or replying to a question. */
function requestKind(kind: string): InputRequestKind {
  return kind === 'input.request' ? 'reply' : 'approval';
}

/**
 * Kinds that do not show the agent moved on from a request (it may report its phase, files or
 * context use while waiting).
 */
const STILL_WAITING = new Set([
  ...INPUT_REQUEST_KINDS,
  'task.phase',
  'sandbox.snapshot',
  'state.snapshot',
  'context.usage',
]);

function askInput(c: EventContext): void {
  const asked = ['message', 'question', 'prompt', 'text', 'title']
    .map((k) => str(c.payload[k]))
    .find(Boolean);
  const text = asked ?? (typeof c.raw === 'string' && c.raw ? c.raw : l10n.t('Waiting for your answer.'));
  const asks = requestKind(c.kind);
  if (isTerminalStatus(c.turn.status) || (text === c.turn.needsInput && asks === c.turn.asks)) return;
  c.turn.needsInput = text;
  c.turn.asks = asks;
  c.cs.turnInfoChanged = true;
}

const handlers: Record<string, Handler> = {
  'block.create': (c) => {
    const type = str(c.payload.type) ?? '';
    const init = rec(c.payload.initial_state ?? c.payload.initialState);
    const blocks = c.turn.blocks;
    if (type === 'plan' || c.blockId?.startsWith('plan:')) {
      const created = !c.turn.plan;
      c.turn.plan ??= { todos: [] };
      const merged = Array.isArray(init.todos) && mergeTodos(c.turn.plan, init.todos);
      if (created || merged) c.cs.planChanged = true;
      return;
    }
    const id = c.blockId ?? uniqueBlockId(blocks, `${type || 'block'}:${c.eventId ?? blocks.length}`);
    const existing = findBlock(blocks, id);
    if (existing) {
      if (patchBlock(existing, init)) noteUpdated(c.cs, id);
      return;
    }
    const b = newBlockOfType(type, id) ?? newGeneric(id, 'block.create', { ...copyRecord(init), type });
    if (b.type !== 'generic') patchBlock(b, init);
    add(c, b);
  },
  'block.update': (c) => {
    const patch = rec(c.payload.patch);
    if (c.blockId === undefined) return keepGeneric(c);
    if (c.blockId.startsWith('plan:')) {
      const created = !c.turn.plan;
      c.turn.plan ??= { todos: [] };
      const merged = Array.isArray(patch.todos) && mergeTodos(c.turn.plan, patch.todos);
      if (created || merged) c.cs.planChanged = true;
      return;
    }
    const b = findBlock(c.turn.blocks, c.blockId);
    if (b) {
      if (patchBlock(b, patch)) noteUpdated(c.cs, b.id);
      return;
    }
    const type = blockTypeForId(c.blockId);
    const created =
      (type && newBlockOfType(type, c.blockId)) ??
      newGeneric(c.blockId, 'block.update', copyRecord(patch), c.blockId);
    if (created.type !== 'generic') patchBlock(created, patch);
    add(c, created);
  },
  'markdown.chunk': (c) => writeText(c, 'answer:main', newMarkdown, str(c.payload.delta)),
  thought: (c) =>
    writeText(c, 'thought:main', newThought, str(c.payload.thought), { final: c.payload.finalize === true }),
  text: (c) => writeText(c, 'text:main', newText, str(c.payload.text), { replace: true }),
  'tool.start': withTool((c, tool) => {
    const name = str(c.payload.tool_name) ?? str(c.payload.name);
    let changed = false;
    if (name !== undefined && name !== tool.name) {
      tool.name = name;
      changed = true;
    }
    if (tool.status !== 'running') {
      tool.status = 'running';
      changed = true;
    }
    return changed;
  }),
  'tool.parameters': withTool(
    (c, tool) => isRecord(c.payload.parameters) && patchBlock(tool, { parameters: c.payload.parameters }),
  ),
  'tool.log': (c) => {
    const tool = toolFor(c);
    if (!tool) return keepGeneric(c);
    const data = str(c.payload.data) ?? str(c.payload.text) ?? '';
    const stream = c.payload.stream === 'stderr' ? 'stderr' : 'stdout';
    if (!data) return;
    const trimmed = appendToLog(tool.log, stream, data, c.maxLogChars);
    if (trimmed) noteUpdated(c.cs, tool.id);
    else noteAppended(c.cs, tool.id, data, stream);
  },
  'tool.result': withTool((c, tool) => {
    const p = c.payload;
    const status =
      p.status === 'error' || p.status === 'failed' || p.status === 'failure' ? 'error' : 'success';
    const ended = c.timestamp !== undefined && c.timestamp !== tool.endedAt;
    if (c.timestamp !== undefined) tool.endedAt = c.timestamp;
    return patchBlock(tool, p.output === undefined ? { status } : { status, output: p.output }) || ended;
  }),
  'plan.update': (c) => {
    const todos = rec(c.payload.patch).todos ?? c.payload.todos;
    const created = !c.turn.plan;
    c.turn.plan ??= { todos: [] };
    const merged = Array.isArray(todos) && mergeTodos(c.turn.plan, todos);
    if (created || merged) c.cs.planChanged = true;
  },
  'sandbox.snapshot': (c) => {
    if (applySnapshot(c.transcript, c.turn, c.payload)) c.cs.filesChanged = true;
  },
  'task.phase': (c) => {
    const t = c.turn;
    const phase = str(c.payload.phase);
    const eta = num(c.payload.eta_seconds) ?? num(c.payload.etaSeconds);
    const position = num(c.payload.queue_position);
    if (phase !== undefined && phase !== t.phase) {
      t.phase = phase;
      c.cs.turnInfoChanged = true;
    }
    if (eta !== undefined && (eta !== t.etaSeconds || c.timestamp !== t.etaAt)) {
      t.etaSeconds = eta;
      // Said again, even the same figure, it is fresh again; without a time its age is unknown.
      if (c.timestamp !== undefined) t.etaAt = c.timestamp;
      else delete t.etaAt;
      c.cs.turnInfoChanged = true;
    }
    if (phase === undefined || isTerminalStatus(t.status)) return;
    setStatus(c, phase === 'queued' ? 'queued' : 'running');
    if (t.status === 'queued' && position !== undefined && position !== t.queuePosition) {
      t.queuePosition = position;
      c.cs.turnInfoChanged = true;
    }
  },
  'task.completed': (c) => {
    const t = c.turn;
    setStatus(c, 'completed');
    const { continuation, files, ...rest } = c.payload;
    const cont =
      typeof continuation === 'string'
        ? continuation
        : continuation == null
          ? undefined
          : JSON.stringify(continuation);
    if (cont !== undefined && cont !== t.continuation) {
      t.continuation = cont;
      c.cs.turnInfoChanged = true;
    }
    if (Array.isArray(files)) {
      t.outputFiles = readFiles(files);
      c.cs.turnInfoChanged = true;
    }
    if (Object.keys(rest).length > 0) {
      t.result = copyRecord(rest);
      c.cs.turnInfoChanged = true;
    }
  },
  'task.aborted': (c) => {
    setStatus(c, 'aborted');
    const reason = str(c.payload.reason) ?? str(c.payload.message) ?? str(c.raw);
    if (reason !== undefined && reason !== c.turn.abortReason) {
      c.turn.abortReason = reason;
      c.cs.turnInfoChanged = true;
    }
  },
  'task.error': (c) => {
    setStatus(c, 'error');
    c.turn.error = errorOf(c.raw, c.payload);
    c.cs.turnInfoChanged = true;
  },
  'message.received': (c) => {
    const text = str(c.payload.text) ?? str(c.payload.content) ?? '';
    const files = readFiles(c.payload.files);
    const user = c.turn.userMessage;
    if (!user.text && text) {
      user.text = text;
      if (user.files.length === 0) user.files = files;
      c.cs.turnInfoChanged = true;
    }
    const id = c.blockId ?? uniqueBlockId(c.turn.blocks, `message:${c.eventId ?? c.turn.blocks.length}`);
    const existing = findBlock(c.turn.blocks, id);
    if (existing) return keepGeneric(c);
    const m = newMessage(id);
    m.text = text;
    m.files = files;
    if (c.payload.references !== undefined) m.references = c.payload.references;
    add(c, m);
  },
  ...Object.fromEntries(INPUT_REQUEST_KINDS.map((k) => [k, askInput])),
  // Documented by title only (kind and shape assumed): the latest reading wins; one that cannot be
  // read is kept as a generic block, as an unknown kind is.
  'context.usage': (c) => {
    const reading = readContextUsage(c.payload);
    if (!reading) return keepGeneric(c);
    if (sameUsage(reading.usage, c.turn.contextUsage)) return;
    c.turn.contextUsage = reading.usage;
    c.cs.turnInfoChanged = true;
  },
  'state.snapshot': (c) => {
    const p = c.payload;
    const covered = num(p.last_event_id) ?? num(p.lastEventId);
    // A state that does not go beyond what was applied can only lose detail: skip it.
    if (covered !== undefined && c.turn.lastEventId > 0 && covered <= c.turn.lastEventId) {
      c.cs.ignored = true;
      return;
    }
    const state = { blocks: p.blocks, status: p.status, lastEventId: covered };
    applyLegacyState(
      c.turn,
      { ...state, lastStreamEntryId: p.last_stream_entry_id ?? p.lastStreamEntryId },
      c.maxLogChars,
      c.cs,
    );
  },
};

/**
 * The handlers by kind, looked up in a Map rather than the object: a kind of more than 10 characters
 * (`markdown.chunk`) comes from `JSON.parse` as a fresh string each event, and an object's keyed
 * lookup then goes through the string table (twice, with the own-property check); `Map#get` hashes
 * it once.
 */
const handlerOf: ReadonlyMap<string, Handler> = new Map(Object.entries(handlers));

/** Applies one event's effect to its turn (dedupe and bookkeeping are the caller's). */
export function applyKind(c: EventContext): void {
  const handler = handlerOf.get(c.kind) ?? keepGeneric;
  handler(c);
  // A known kind other than a request or a status report means the agent moved on (or the person
  // answered, `message.received`); an unknown kind (`focus`…) and a report of context use (read or
  // not) say nothing.
  const t = c.turn;
  if (
    t.needsInput !== undefined &&
    (isTerminalStatus(t.status) || (handler !== keepGeneric && !STILL_WAITING.has(c.kind)))
  ) {
    delete t.needsInput;
    delete t.asks;
    c.cs.turnInfoChanged = true;
  }
}
