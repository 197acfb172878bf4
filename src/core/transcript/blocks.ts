/**
 * Block-level building blocks of the reducer: an id index per turn, block factories, patches and the
 * capped tool log.
 */
import type {
  Block,
  GenericBlock,
  LogStream,
  MarkdownBlock,
  MessageBlock,
  TextBlock,
  ThoughtBlock,
  ToolBlock,
  ToolLog,
  ToolStatus,
} from './model';
import { isRecord } from '../shared/schema';
import { assignSafe, copyRecord, readFiles, str, type Rec } from './read';
import { streamedBlock } from './streamed-text';

interface BlockIndex {
  ids: Map<string, number>;
  length: number;
  /** Where the last lookup found its block: live events hit the same block event after event. */
  last: number;
}

// Keyed by the blocks array itself, so a deserialized or replaced array simply gets a fresh index.
const indexes = new WeakMap<Block[], BlockIndex>();

function reindex(blocks: Block[]): BlockIndex {
  const ids = new Map<string, number>();
  blocks.forEach((b, i) => {
    if (!ids.has(b.id)) ids.set(b.id, i);
  });
  const index = { ids, length: blocks.length, last: 0 };
  indexes.set(blocks, index);
  return index;
}

/** The block with this id, in O(1). */
export function findBlock(blocks: Block[], id: string): Block | undefined {
  let index = indexes.get(blocks);
  if (!index || index.length !== blocks.length) index = reindex(blocks);
  // The same block again (a streamed answer) is found without hashing the event's fresh id string.
  const hit = blocks[index.last];
  if (hit !== undefined && hit.id === id) return hit;
  const i = index.ids.get(id);
  if (i === undefined) return undefined;
  if (blocks[i]?.id === id) {
    index.last = i;
    return blocks[i];
  }
  return blocks[reindex(blocks).ids.get(id) ?? -1];
}

export function addBlock(blocks: Block[], block: Block): void {
  const index = indexes.get(blocks);
  blocks.push(block);
  if (index && index.length === blocks.length - 1) {
    if (!index.ids.has(block.id)) index.ids.set(block.id, blocks.length - 1);
    index.length = blocks.length;
  }
}

/** `base` if no block has it yet, else `base#2`, `base#3`, … */
export function uniqueBlockId(blocks: Block[], base: string): string {
  if (!findBlock(blocks, base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}#${n}`;
    if (!findBlock(blocks, id)) return id;
  }
}

/** The block type an id implies by its prefix (`answer:`, `thought:`, `text:`, `tool:`). */
export function blockTypeForId(id: string): 'markdown' | 'thought' | 'text' | 'tool' | undefined {
  if (id.startsWith('answer:') || id.startsWith('markdown:')) return 'markdown';
  if (id.startsWith('thought:')) return 'thought';
  if (id.startsWith('text:')) return 'text';
  if (id.startsWith('tool:')) return 'tool';
  return undefined;
}

/** The `<name>` of a `tool:<name>:<run>` id ('' when the id does not say). */
export function toolNameFromId(id: string): string {
  if (!id.startsWith('tool:')) return '';
  const rest = id.slice(5);
  const last = rest.lastIndexOf(':');
  return last > 0 ? rest.slice(0, last) : rest;
}

/** An answer block; its text grows by `appendText` (`streamed-text.ts`). */
export function newMarkdown(id: string, text = ''): MarkdownBlock {
  return streamedBlock('markdown', id, text);
}

/** A reasoning block; its text grows by `appendText` (`streamed-text.ts`). */
export function newThought(id: string, text = ''): ThoughtBlock {
  return streamedBlock('thought', id, text);
}

export function newText(id: string, text = ''): TextBlock {
  return { type: 'text', id, text };
}

export function newTool(id: string, name: string): ToolBlock {
  return {
    type: 'tool',
    id,
    name,
    parameters: {},
    log: { segments: [], chars: 0, truncatedChars: 0 },
    status: 'running',
  };
}

export function newMessage(id: string): MessageBlock {
  return { type: 'message', id, text: '', files: [] };
}

export function newGeneric(id: string, kind: string, payload: unknown, blockId?: string): GenericBlock {
  const b: GenericBlock = { type: 'generic', id, kind, payload: payload === undefined ? null : payload };
  if (blockId !== undefined) b.blockId = blockId;
  return b;
}

/** A block of a known type from a type name (`markdown`, `answer`, `thinking`, …), else undefined. */
export function newBlockOfType(type: string, id: string): Block | undefined {
  switch (type) {
    case 'markdown':
    case 'answer':
      return newMarkdown(id);
    case 'thought':
    case 'thinking':
    case 'reasoning':
      return newThought(id);
    case 'text':
      return newText(id);
    case 'tool':
    case 'tool_call':
      return newTool(id, toolNameFromId(id));
    case 'message':
      return newMessage(id);
    default:
      return undefined;
  }
}

/** Reads a tool status; `undefined` for anything unrecognised. */
export function readToolStatus(v: unknown): ToolStatus | undefined {
  switch (v) {
    case 'success':
    case 'ok':
    case 'completed':
    case 'done':
      return 'success';
    case 'error':
    case 'failed':
    case 'failure':
      return 'error';
    case 'running':
    case 'pending':
    case 'started':
      return 'running';
    default:
      return undefined;
  }
}

/**
 * Applies a state patch (`block.update` patch, `block.create` initial state) to a block. Unknown
 * fields of known block types are ignored. Returns whether anything changed.
 */
export function patchBlock(b: Block, patch: Rec): boolean {
  let changed = false;
  switch (b.type) {
    case 'markdown':
    case 'thought':
    case 'text':
    case 'message': {
      const text = str(patch.text) ?? str(patch.content);
      if (text !== undefined && text !== b.text) {
        b.text = text;
        changed = true;
      }
      if (b.type === 'message' && Array.isArray(patch.files)) {
        b.files = readFiles(patch.files);
        changed = true;
      }
      if (b.type === 'markdown' || b.type === 'thought') {
        const fin = patch.final ?? patch.finalize;
        if (typeof fin === 'boolean' && fin !== b.final) {
          b.final = fin;
          changed = true;
        }
      }
      return changed;
    }
    case 'tool': {
      const name = str(patch.name) ?? str(patch.tool_name);
      if (name !== undefined && name !== b.name) {
        b.name = name;
        changed = true;
      }
      if (isRecord(patch.parameters)) changed = assignSafe(b.parameters, patch.parameters) || changed;
      const status = readToolStatus(patch.status);
      if (status !== undefined && status !== b.status) {
        b.status = status;
        changed = true;
      }
      if (patch.output !== undefined && patch.output !== b.output) {
        b.output = patch.output;
        changed = true;
      }
      return changed;
    }
    case 'generic': {
      // Copy before merging: the payload may be the very object of a stored event.
      const next = isRecord(b.payload) ? copyRecord(b.payload) : { value: b.payload };
      if (!assignSafe(next, patch)) return false;
      b.payload = next;
      return true;
    }
  }
}

/**
 * Appends to a capped log, merging with the last segment when the stream is the same. Returns true
 * when old text had to be dropped (the change is then more than an append).
 */
export function appendToLog(log: ToolLog, stream: LogStream, data: string, maxChars: number): boolean {
  if (!data) return false;
  const last = log.segments[log.segments.length - 1];
  if (last && last.stream === stream) last.data += data;
  else log.segments.push({ stream, data });
  log.chars += data.length;
  if (log.chars <= maxChars) return false;
  trimLog(log, Math.floor(maxChars * 0.75));
  return true;
}

function trimLog(log: ToolLog, target: number): void {
  const segs = log.segments;
  let drop = log.chars - target;
  let whole = 0;
  while (whole < segs.length && segs[whole].data.length <= drop) {
    drop -= segs[whole].data.length;
    whole++;
  }
  segs.splice(0, whole);
  if (drop > 0 && segs.length > 0) segs[0].data = segs[0].data.slice(drop);
  log.truncatedChars += log.chars - target;
  log.chars = target;
}
