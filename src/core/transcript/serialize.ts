/**
 * A JSON-safe snapshot of a transcript and its inverse, for a local cache. Reading is defensive: a
 * snapshot that is not exactly what this version writes reads as `undefined` (refetch instead).
 */
import type { Block, Transcript, Turn } from './model';
import { isRecord } from '../schema';
import type { Rec } from './read';

export const TRANSCRIPT_SNAPSHOT_VERSION = 1;

export interface TranscriptSnapshot {
  version: typeof TRANSCRIPT_SNAPSHOT_VERSION;
  transcript: Transcript;
}

/** A deep, JSON-safe copy (it shares nothing with the live transcript). */
export function toSnapshot(t: Transcript): TranscriptSnapshot {
  return { version: TRANSCRIPT_SNAPSHOT_VERSION, transcript: JSON.parse(JSON.stringify(t)) as Transcript };
}

export function serializeTranscript(t: Transcript): string {
  return JSON.stringify(toSnapshot(t));
}

const TURN_STATUSES = ['queued', 'running', 'completed', 'aborted', 'error'];
const TOOL_STATUSES = ['running', 'success', 'error'];
const TODO_STATUSES = ['pending', 'active', 'completed'];
const FILE_CHANGES = ['added', 'updated', 'deleted'];

const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optional = (v: unknown, test: (x: unknown) => boolean): boolean => v === undefined || test(v);
const isArrayOf = (v: unknown, test: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(test);
const isFileInfo = (v: unknown): boolean => isRecord(v) && isStr(v.key) && isStr(v.name) && isNum(v.size);

function isBlock(v: unknown): v is Block {
  if (!isRecord(v) || !isStr(v.id)) return false;
  switch (v.type) {
    case 'markdown':
    case 'thought':
      return isStr(v.text) && typeof v.final === 'boolean';
    case 'text':
      return isStr(v.text);
    case 'message':
      return isStr(v.text) && isArrayOf(v.files, isFileInfo);
    case 'tool': {
      const log = v.log as Rec;
      return (
        isStr(v.name) &&
        isRecord(v.parameters) &&
        TOOL_STATUSES.includes(v.status as string) &&
        isRecord(log) &&
        isNum(log.chars) &&
        isNum(log.truncatedChars) &&
        isArrayOf(
          log.segments,
          (s) => isRecord(s) && (s.stream === 'stdout' || s.stream === 'stderr') && isStr(s.data),
        )
      );
    }
    case 'generic':
      return isStr(v.kind) && 'payload' in v;
    default:
      return false;
  }
}

function isTurn(v: unknown): v is Turn {
  if (!isRecord(v)) return false;
  const user = v.userMessage;
  const plan = v.plan;
  return (
    isRecord(user) &&
    isStr(user.id) &&
    isStr(user.text) &&
    isNum(user.createdAt) &&
    isArrayOf(user.files, isFileInfo) &&
    isStr(v.agentMessageId) &&
    TURN_STATUSES.includes(v.status as string) &&
    isNum(v.lastEventId) &&
    optional(v.lastStreamEntryId, isStr) &&
    optional(v.continuation, isStr) &&
    optional(v.error, (e) => isRecord(e) && isStr(e.message)) &&
    isArrayOf(v.blocks, isBlock) &&
    isArrayOf(v.files, (f) => isRecord(f) && isStr(f.path) && FILE_CHANGES.includes(f.change as string)) &&
    optional(plan, (p) =>
      isArrayOf(
        (p as Rec).todos,
        (t) => isRecord(t) && isStr(t.id) && isStr(t.content) && TODO_STATUSES.includes(t.status as string),
      ),
    )
  );
}

/** The transcript of a snapshot, or undefined when it is not a valid one of this version. */
export function fromSnapshot(value: unknown): Transcript | undefined {
  if (!isRecord(value) || value.version !== TRANSCRIPT_SNAPSHOT_VERSION) return undefined;
  const t = value.transcript;
  if (!isRecord(t) || !isStr(t.sessionId) || !optional(t.title, isStr) || !isArrayOf(t.turns, isTurn)) {
    return undefined;
  }
  return t as unknown as Transcript;
}

export function deserializeTranscript(text: string): Transcript | undefined {
  try {
    return fromSnapshot(JSON.parse(text));
  } catch {
    return undefined;
  }
}
