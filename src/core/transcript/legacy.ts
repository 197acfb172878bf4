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
import {
  isTerminalStatus,
  type Block,
  type ChangeSet,
  type ToolBlock,
  type Turn,
  type TurnStatus,
} from './model';
import { mergeTodos } from './plan';
import { copyRecord, isRecord, num, readFiles, rec, str, strOrNum, type Rec } from './read';

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

function mapBlock(b: Rec, id: string, type: string, terminal: boolean, maxLogChars: number): Block {
  const text = str(b.content) ?? str(b.text) ?? str(b.thought) ?? '';
  const final = typeof b.final === 'boolean' ? b.final : terminal;
  switch (type) {
    case 'markdown':
    case 'answer':
      return { ...newMarkdown(id, text), final };
    case 'thought':
    case 'thinking':
    case 'reasoning':
      return { ...newThought(id, text), final };
    case 'text':
      return newText(id, text);
    case 'message': {
      const m = newMessage(id);
      m.text = text;
      m.files = readFiles(b.files);
      return m;
    }
    case 'tool':
    case 'tool_call': {
      const tool = newTool(id, str(b.name) ?? str(b.tool_name) ?? toolNameFromId(id));
      if (isRecord(b.parameters)) tool.parameters = copyRecord(b.parameters);
      tool.status = readToolStatus(b.status) ?? (terminal ? 'success' : 'running');
      if (b.output !== undefined) tool.output = b.output;
      readLog(tool, b.log ?? b.logs, maxLogChars);
      return tool;
    }
    default:
      return newGeneric(id, 'block.create', copyRecord(b));
  }
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
 * dropped). `lastEventId` (when given) becomes the turn's, so events the state already contains are
 * skipped as duplicates. Changes are recorded in `cs`.
 */
export function applyLegacyState(turn: Turn, state: LegacyState, maxLogChars: number, cs: ChangeSet): void {
  setStatusFields(turn, state, cs);
  const terminal = isTerminalStatus(turn.status);
  const seen = new Set<string>();
  const raws = Array.isArray(state.blocks) ? state.blocks : [];
  raws.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const type = str(raw.type) ?? '';
    if (type === 'plan') {
      const created = !turn.plan;
      turn.plan ??= { todos: [] };
      const merged = Array.isArray(raw.todos) && mergeTodos(turn.plan, raw.todos);
      if (created || merged) cs.planChanged = true;
      return;
    }
    let id = strOrNum(raw.id) ?? `${type || 'block'}:${i}`;
    for (let n = 2; seen.has(id); n++) id = `${strOrNum(raw.id) ?? type}#${n}`;
    seen.add(id);
    const block = mapBlock(raw, id, type, terminal, maxLogChars);
    const old = findBlock(turn.blocks, id);
    if (!old) {
      addBlock(turn.blocks, block);
      noteCreated(cs, id);
    } else if (JSON.stringify(old) !== JSON.stringify(block)) {
      turn.blocks[turn.blocks.indexOf(old)] = block;
      noteUpdated(cs, id);
    }
  });

  const lastEventId = num(state.lastEventId);
  if (lastEventId !== undefined && lastEventId > turn.lastEventId) turn.lastEventId = lastEventId;
  const lastEntry = str(state.lastStreamEntryId);
  if (lastEntry !== undefined) turn.lastStreamEntryId = lastEntry;
}
