/**
 * What a person can find in a transcript: its text flattened into fields, each with a stable
 * address (the turn, the block or the turn-level part, the kind, an index among equals) so the
 * panel can scroll to it and expand a collapsed tool log or thought. `flattenTranscript` builds the
 * fields at once; `TranscriptFields` keeps them current from the reducer's change sets while a turn
 * streams (appended text is appended to its field, a changed block re-flattens that block only).
 * Browser-safe.
 */
import type { Block, ChangeSet, ToolBlock, Transcript, Turn } from '../transcript/model';
import { findBlock } from '../transcript/blocks';
import { findTurn } from '../transcript/reducer';

/**
 * `user`: the person's request; `answer`: markdown and text blocks; `thought`; `message`: a message
 * the agent received; `tool-name`, `tool-params`, `tool-log`, `tool-output` (a failed tool's output
 * is an `error`); `file`: a file name (the request's, a message's, a changed or output file); `plan`:
 * a todo; `error`: the turn's error or abort reason, a failed tool's output; `event`: an event Den
 * has no words for (its kind and payload).
 */
export type FieldKind =
  | 'user'
  | 'answer'
  | 'thought'
  | 'message'
  | 'tool-name'
  | 'tool-params'
  | 'tool-log'
  | 'tool-output'
  | 'file'
  | 'plan'
  | 'error'
  | 'event';

export interface FieldAddress {
  /** The turn's agent message id. */
  turnId: string;
  /** The block's id; absent for the turn's own parts (request, files, plan, error). */
  blockId?: string;
  kind: FieldKind;
  /** Position among fields of the same turn, block and kind (files, todos); 0 otherwise. */
  index: number;
}

export interface SearchField {
  address: FieldAddress;
  text: string;
}

/** A longest text kept for one field taken from JSON (tool output, unknown events). */
export const MAX_JSON_FIELD_CHARS = 100_000;

function jsonText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  let s: string;
  try {
    s = JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
  return s.length > MAX_JSON_FIELD_CHARS ? s.slice(0, MAX_JSON_FIELD_CHARS) : s;
}

/** A tool's parameters as `key: value` lines, string values as they are (code stays findable). */
export function parametersText(parameters: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(parameters)) lines.push(`${k}: ${jsonText(v)}`);
  return lines.join('\n');
}

function logText(tool: ToolBlock): string {
  const segs = tool.log.segments;
  if (segs.length === 1) return segs[0].data;
  let s = '';
  for (const seg of segs) s += seg.data;
  return s;
}

function field(
  turnId: string,
  blockId: string | undefined,
  kind: FieldKind,
  text: string,
  index = 0,
): SearchField {
  const address: FieldAddress = { turnId, kind, index };
  if (blockId !== undefined) address.blockId = blockId;
  return { address, text };
}

/** A block's fields, in the order the panel shows them; empty texts are left out. */
export function blockFields(turnId: string, b: Block): SearchField[] {
  const out: SearchField[] = [];
  const add = (kind: FieldKind, text: string, index = 0): void => {
    if (text) out.push(field(turnId, b.id, kind, text, index));
  };
  switch (b.type) {
    case 'markdown':
    case 'text':
      add('answer', b.text);
      break;
    case 'thought':
      add('thought', b.text);
      break;
    case 'message':
      add('message', b.text);
      b.files.forEach((f, i) => add('file', f.name, i));
      break;
    case 'tool':
      add('tool-name', b.name);
      add('tool-params', parametersText(b.parameters));
      add('tool-log', logText(b));
      add(b.status === 'error' ? 'error' : 'tool-output', jsonText(b.output));
      break;
    case 'generic':
      add('event', `${b.kind} ${jsonText(b.payload)}`);
      break;
  }
  return out;
}

/** The request's fields: its text and its files. */
function headFields(turn: Turn): SearchField[] {
  const id = turn.agentMessageId;
  const out: SearchField[] = [];
  if (turn.userMessage.text) out.push(field(id, undefined, 'user', turn.userMessage.text));
  turn.userMessage.files.forEach((f, i) => {
    if (f.name) out.push(field(id, undefined, 'file', f.name, i));
  });
  return out;
}

/** The turn-level parts after its blocks: plan, changed and output files, error. */
function tailFields(turn: Turn): SearchField[] {
  const id = turn.agentMessageId;
  const out: SearchField[] = [];
  turn.plan?.todos.forEach((todo, i) => {
    if (todo.content) out.push(field(id, undefined, 'plan', todo.content, i));
  });
  let n = turn.userMessage.files.length;
  for (const f of turn.files) out.push(field(id, undefined, 'file', f.path || f.name, n++));
  for (const f of turn.outputFiles ?? []) if (f.name) out.push(field(id, undefined, 'file', f.name, n++));
  const err = turn.error ? [turn.error.message, turn.error.code].filter(Boolean).join(' ') : '';
  if (err) out.push(field(id, undefined, 'error', err));
  if (turn.abortReason) out.push(field(id, undefined, 'error', turn.abortReason, 1));
  return out;
}

/** Every field of one turn, in reading order. */
export function turnFields(turn: Turn): SearchField[] {
  const out = headFields(turn);
  for (const b of turn.blocks) for (const f of blockFields(turn.agentMessageId, b)) out.push(f);
  for (const f of tailFields(turn)) out.push(f);
  return out;
}

/** Every field of a transcript, in reading order (turns, then each turn's request, blocks, tail). */
export function flattenTranscript(t: Transcript): SearchField[] {
  const out: SearchField[] = [];
  for (const turn of t.turns) for (const f of turnFields(turn)) out.push(f);
  return out;
}

/** A key that names one field (for maps and equality). */
export function addressKey(a: FieldAddress): string {
  return `${a.turnId}\u0000${a.blockId ?? ''}\u0000${a.kind}\u0000${a.index}`;
}

interface BlockEntry {
  fields: SearchField[];
}

interface TurnEntry {
  turnId: string;
  head: SearchField[];
  blocks: BlockEntry[];
  byBlock: Map<string, BlockEntry>;
  tail: SearchField[];
}

function turnEntry(turn: Turn): TurnEntry {
  const e: TurnEntry = {
    turnId: turn.agentMessageId,
    head: headFields(turn),
    blocks: [],
    byBlock: new Map(),
    tail: tailFields(turn),
  };
  for (const b of turn.blocks) addBlock(e, b);
  return e;
}

function addBlock(e: TurnEntry, b: Block): void {
  const entry: BlockEntry = { fields: blockFields(e.turnId, b) };
  e.blocks.push(entry);
  if (!e.byBlock.has(b.id)) e.byBlock.set(b.id, entry);
}

const APPEND_KIND: Partial<Record<Block['type'], FieldKind>> = {
  markdown: 'answer',
  text: 'answer',
  thought: 'thought',
};

/**
 * A transcript's fields, kept current as it changes: `apply` takes each change set the reducer
 * returns. Appends cost the appended text (the field's string grows in place); a block that changed
 * otherwise re-flattens that block; a turn whose blocks were reordered re-flattens that turn. The
 * fields equal `flattenTranscript` of the same transcript at every step.
 */
export class TranscriptFields {
  #turns: TurnEntry[] = [];
  readonly #byTurn = new Map<string, TurnEntry>();
  /** Bumped on every change: a find may keep its results while it is unchanged. */
  version = 0;

  constructor(private transcript: Transcript) {
    this.reset(transcript);
  }

  /** Re-flattens everything (a reopened or replaced transcript). */
  reset(t: Transcript): void {
    this.transcript = t;
    this.#turns = t.turns.map(turnEntry);
    this.#byTurn.clear();
    for (const e of this.#turns) this.#byTurn.set(e.turnId, e);
    this.version++;
  }

  /** Takes what one `applyEvent` / `beginTurn` changed. */
  apply(cs: ChangeSet): void {
    if (cs.ignored) return;
    this.version++;
    const turn = findTurn(this.transcript, cs.turnId);
    if (!turn) return;
    const e = this.#byTurn.get(cs.turnId);
    if (!e || cs.turnCreated || cs.orderChanged) {
      const fresh = turnEntry(turn);
      if (e) this.#turns[this.#turns.indexOf(e)] = fresh;
      else this.#turns.push(fresh);
      this.#byTurn.set(cs.turnId, fresh);
      return;
    }
    if (cs.turnInfoChanged) e.head = headFields(turn);
    const appended = new Map<string, string>();
    for (const a of cs.appends) appended.set(a.blockId, (appended.get(a.blockId) ?? '') + a.text);
    const blockOf = (id: string): Block | undefined => findBlock(turn.blocks, id);
    for (const id of cs.blocksUpdated) {
      const entry = e.byBlock.get(id);
      const b = blockOf(id);
      if (!entry || !b) continue;
      const text = appended.get(id);
      if (text !== undefined && !this.#appendInPlace(entry, b, text)) entry.fields = blockFields(e.turnId, b);
      else if (text === undefined) entry.fields = blockFields(e.turnId, b);
    }
    for (const id of cs.blocksCreated) {
      const b = blockOf(id);
      if (b) addBlock(e, b);
    }
    if (cs.turnInfoChanged || cs.planChanged || cs.filesChanged || cs.statusChanged)
      e.tail = tailFields(turn);
  }

  /** Appends to the block's text or log field; false when the block must be re-flattened. */
  #appendInPlace(entry: BlockEntry, b: Block, text: string): boolean {
    const kind = b.type === 'tool' ? 'tool-log' : APPEND_KIND[b.type];
    if (!kind) return false;
    const f = entry.fields.find((x) => x.address.kind === kind);
    if (!f) return false;
    const expected = b.type === 'tool' ? b.log.chars : 'text' in b ? b.text.length : -1;
    // A capped log that dropped its oldest text, or any drift: take the block whole.
    if (f.text.length + text.length !== expected) return false;
    f.text += text;
    return true;
  }

  /** Every field, in reading order. */
  *fields(): Generator<SearchField> {
    for (const e of this.#turns) {
      yield* e.head;
      for (const b of e.blocks) yield* b.fields;
      yield* e.tail;
    }
  }

  /** The fields as an array (tests, a full pass). */
  toArray(): SearchField[] {
    return [...this.fields()];
  }
}
