/**
 * The older variant: an agent message's state as `blocks` plus `status: {phase, eta_seconds, error}`,
 * stored (`GET /sessions/{id}`) or sent live as a `state.snapshot` frame. Mapped onto the same model.
 */
import {
  addBlock,
  appendToLog,
  findBlock,
  newGeneric,
  newMarkdown,
  newMessage,
  newText,
  newThought,
  newTool,
  readToolStatus,
  toolNameFromId,
} from './blocks';
import { noteCreated, noteUpdated } from './change-set';
import { readContextUsage, sameUsage } from './context-usage';
import {
  isTerminalStatus,
  type Block,
  type ChangeSet,
  type GenericBlock,
  type ToolBlock,
  type Turn,
  type TurnStatus,
} from './model';
import { mergeTodos } from './plan';
import { isRecord } from '../shared/schema';
import { copyRecord, num, readFiles, rec, str, strOrNum, type Rec } from './read';

/**
 * Block types of a legacy state that report the context window, read as `context.usage` is (one that
 * cannot be read stays a generic block like any unknown type).
 */
const LEGACY_USAGE_TYPES = new Set(['context_usage', 'context.usage']);

/** What a legacy state carries; every field optional and untrusted. */
export interface LegacyState {
  blocks?: unknown;
  status?: unknown;
  lastEventId?: unknown;
  lastStreamEntryId?: unknown;
}

/** A turn status from a phase word, when the word says one. */
export function statusFromPhase(phase: string | undefined): TurnStatus | undefined {
  switch (phase?.toLowerCase()) {
    case undefined:
      return undefined;
    case 'completed':
    case 'complete':
    case 'done':
    case 'finished':
    case 'succeeded':
    case 'success':
      return 'completed';
    case 'aborted':
    case 'cancelled':
    case 'canceled':
    case 'stopped':
      return 'aborted';
    case 'error':
    case 'failed':
    case 'failure':
      return 'error';
    case 'queued':
      return 'queued';
    default:
      return 'running';
  }
}

function readLog(tool: ToolBlock, raw: unknown, maxLogChars: number): void {
  if (typeof raw === 'string') appendToLog(tool.log, 'stdout', raw, maxLogChars);
  if (!Array.isArray(raw)) return;
  for (const seg of raw) {
    if (typeof seg === 'string') appendToLog(tool.log, 'stdout', seg, maxLogChars);
    else if (isRecord(seg)) {
      const data = str(seg.data) ?? str(seg.text) ?? '';
      appendToLog(tool.log, seg.stream === 'stderr' ? 'stderr' : 'stdout', data, maxLogChars);
    }
  }
}

/** The first of `keys` that holds a string, marked as read. */
function firstText(b: Rec, keys: string[], used: Set<string>): string | undefined {
  for (const k of keys) {
    const v = str(b[k]);
    if (v !== undefined) {
      used.add(k);
      return v;
    }
  }
  return undefined;
}

/**
 * A block of a known type from a legacy block, and which of its fields that reading used. A block
 * of a type Den does not know becomes a generic block holding it whole.
 */
function mapBlock(
  b: Rec,
  id: string,
  type: string,
  terminal: boolean,
  maxLogChars: number,
): { block: Block; used: Set<string> } {
  const used = new Set(['id', 'type']);
  const text = (): string => firstText(b, ['content', 'text', 'thought'], used) ?? '';
  const final = (): boolean => {
    if (typeof b.final !== 'boolean') return terminal;
    used.add('final');
    return b.final;
  };
  switch (type) {
    case 'markdown':
    case 'answer':
      return { block: { ...newMarkdown(id, text()), final: final() }, used };
    case 'thought':
    case 'thinking':
    case 'reasoning':
      return { block: { ...newThought(id, text()), final: final() }, used };
    case 'text':
      return { block: newText(id, text()), used };
    case 'message': {
      const m = newMessage(id);
      m.text = text();
      if (b.files !== undefined) used.add('files');
      m.files = readFiles(b.files);
      return { block: m, used };
    }
    case 'tool':
    case 'tool_call': {
      const tool = newTool(id, firstText(b, ['name', 'tool_name'], used) ?? toolNameFromId(id));
      if (isRecord(b.parameters)) {
        tool.parameters = copyRecord(b.parameters);
        used.add('parameters');
      }
      const status = readToolStatus(b.status);
      if (status) used.add('status');
      tool.status = status ?? (terminal ? 'success' : 'running');
      if (b.output !== undefined) {
        tool.output = b.output;
        used.add('output');
      }
      const log = b.log !== undefined ? 'log' : 'logs';
      if (b[log] !== undefined) {
        used.add(log);
        readLog(tool, b[log], maxLogChars);
      }
      return { block: tool, used };
    }
    default:
      return { block: newGeneric(id, 'block.create', copyRecord(b)), used: new Set(Object.keys(b)) };
  }
}

/** The fields of a legacy block that its mapping did not show, as a generic block; undefined if none. */
function leftover(b: Rec, id: string, used: Set<string>): GenericBlock | undefined {
  const rest: Rec = {};
  for (const [k, v] of Object.entries(b)) if (!used.has(k) && v !== undefined) rest[k] = v;
  return Object.keys(rest).length > 0
    ? newGeneric(`${id}#fields`, 'block.fields', copyRecord(rest), id)
    : undefined;
}

function setStatusFields(turn: Turn, state: LegacyState, cs: ChangeSet): void {
  const status = rec(state.status);
  const phase = str(status.phase);
  const eta = num(status.eta_seconds) ?? num(status.etaSeconds);
  const errorField = status.error;
  const error = str(errorField) ?? str(rec(errorField).message);
  if (phase !== undefined && phase !== turn.phase) {
    turn.phase = phase;
    cs.turnInfoChanged = true;
  }
  if (eta !== undefined && eta !== turn.etaSeconds) {
    turn.etaSeconds = eta;
    cs.turnInfoChanged = true;
  }
  const next: TurnStatus = error ? 'error' : (statusFromPhase(phase) ?? turn.status);
  if (next !== turn.status) {
    turn.status = next;
    cs.statusChanged = true;
  }
  if (error) {
    const code = strOrNum(rec(errorField).code);
    turn.error = code === undefined ? { message: error } : { message: error, code };
    cs.turnInfoChanged = true;
  }
  if (next !== 'queued' && turn.queuePosition !== undefined) {
    delete turn.queuePosition;
    cs.turnInfoChanged = true;
  }
}

/**
 * Applies a legacy state to a turn: status fields, then every block of the state replaces the turn's
 * block of that id in place (or is appended); blocks the state does not mention stay (nothing is
 * dropped). The state is read tolerantly: a block of a type Den does not know becomes a generic
 * block, and fields of a known block that Den does not show follow it as a generic `block.fields`
 * block (id `<block id>#fields`), so nothing the state carries is lost. A readable `context_usage`
 * block becomes the turn's `contextUsage` (the last one wins), not a block. `lastEventId` (when
 * given) becomes the turn's, so events the state already contains are skipped as duplicates.
 * Changes are recorded in `cs`.
 */
export function applyLegacyState(turn: Turn, state: LegacyState, maxLogChars: number, cs: ChangeSet): void {
  setStatusFields(turn, state, cs);
  const terminal = isTerminalStatus(turn.status);
  const seen = new Set<string>();
  const put = (block: Block): void => {
    const old = findBlock(turn.blocks, block.id);
    if (!old) {
      addBlock(turn.blocks, block);
      noteCreated(cs, block.id);
    } else if (JSON.stringify(old) !== JSON.stringify(block)) {
      turn.blocks[turn.blocks.indexOf(old)] = block;
      noteUpdated(cs, block.id);
    }
  };
  const raws = Array.isArray(state.blocks) ? state.blocks : [];
  raws.forEach((raw, i) => {
    if (!isRecord(raw)) {
      // Not a block at all: kept as what it is, so nothing of the state is dropped.
      if (raw !== undefined && raw !== null) put(newGeneric(`block:${i}`, 'block.create', raw));
      return;
    }
    const type = str(raw.type) ?? '';
    if (type === 'plan') {
      const created = !turn.plan;
      turn.plan ??= { todos: [] };
      const merged = Array.isArray(raw.todos) && mergeTodos(turn.plan, raw.todos);
      if (created || merged) cs.planChanged = true;
      const extra = leftover(raw, strOrNum(raw.id) ?? 'plan', new Set(['id', 'type', 'todos']));
      if (extra) put(extra);
      return;
    }
    const usage = LEGACY_USAGE_TYPES.has(type) ? readContextUsage(raw) : undefined;
    if (usage) {
      // The latest reading of the context window: the turn's, not a block (`context.usage`).
      if (!sameUsage(usage.usage, turn.contextUsage)) {
        turn.contextUsage = usage.usage;
        cs.turnInfoChanged = true;
      }
      const extra = leftover(raw, strOrNum(raw.id) ?? `${type}:${i}`, new Set(['id', 'type', ...usage.keys]));
      if (extra) put(extra);
      return;
    }
    let id = strOrNum(raw.id) ?? `${type || 'block'}:${i}`;
    for (let n = 2; seen.has(id); n++) id = `${strOrNum(raw.id) ?? type}#${n}`;
    seen.add(id);
    const { block, used } = mapBlock(raw, id, type, terminal, maxLogChars);
    put(block);
    const extra = leftover(raw, id, used);
    if (extra) put(extra);
  });

  const lastEventId = num(state.lastEventId);
  if (lastEventId !== undefined && lastEventId > turn.lastEventId) turn.lastEventId = lastEventId;
  const lastEntry = str(state.lastStreamEntryId);
  if (lastEntry !== undefined) turn.lastStreamEntryId = lastEntry;
}
