/**
 * A JSON-safe snapshot of a transcript and its inverse, for a local cache. Reading is defensive: a
 * snapshot that is not exactly what this version writes reads as `undefined` (refetch instead).
 * The check is a schema whose type is asserted, below, to be exactly the model's.
 */
import type { Effort, FileInfo, Mode } from '../client/types';
import {
  arrayOf,
  custom,
  isBoolean,
  isFiniteNumber,
  isRecord,
  isString,
  isUnknown,
  object,
  oneOf,
  optional,
  refine,
  variant,
  type Guard,
  type Infer,
} from '../shared/schema';
import { isContextUsage } from './context-usage';
import type { Block, FileChange, Plan, Transcript, Turn, UserMessage } from './model';

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

/**
 * A model field the snapshot check has never verified: typed as the model declares it and passed
 * as it is (Den wrote it). Listing it keeps the schema's type the model's (see `_ModelMatches`).
 */
function unchecked<T>(): Guard<T> {
  return custom<T>(isUnknown);
}

const isFileInfo = object({
  key: isString,
  name: isString,
  size: isFiniteNumber,
  type: optional(unchecked<string>()),
  updatedAt: optional(unchecked<number>()),
});

const isToolLog = object({
  segments: arrayOf(object({ stream: oneOf(['stdout', 'stderr']), data: isString })),
  chars: isFiniteNumber,
  truncatedChars: isFiniteNumber,
});

const isBlockShape = variant('type', {
  markdown: { id: isString, text: isString, final: isBoolean },
  thought: { id: isString, text: isString, final: isBoolean },
  text: { id: isString, text: isString },
  message: { id: isString, text: isString, files: arrayOf(isFileInfo), references: optional(isUnknown) },
  tool: {
    id: isString,
    name: isString,
    parameters: isRecord,
    status: oneOf(['running', 'success', 'error']),
    log: isToolLog,
    output: optional(isUnknown),
    startedAt: optional(unchecked<number>()),
    endedAt: optional(unchecked<number>()),
  },
  generic: { id: isString, kind: isString, blockId: optional(unchecked<string>()), payload: isUnknown },
});
/** A generic block's `payload` may be any value, but the key is there. */
const isBlock = refine(isBlockShape, (b) => b.type !== 'generic' || 'payload' in b);

const isUserMessage = object({
  id: isString,
  text: isString,
  mode: optional(unchecked<Mode>()),
  effort: optional(unchecked<Effort>()),
  files: arrayOf(isFileInfo),
  createdAt: isFiniteNumber,
});

const isPlan = object({
  todos: arrayOf(
    object({ id: isString, content: isString, status: oneOf(['pending', 'active', 'completed']) }),
  ),
});

const isFileChange = object({
  path: isString,
  change: oneOf(['added', 'updated', 'deleted']),
  key: unchecked<string>(),
  name: unchecked<string>(),
  updatedAt: optional(unchecked<number>()),
});

const isTurn = object({
  userMessage: isUserMessage,
  agentMessageId: isString,
  status: oneOf(['queued', 'running', 'completed', 'aborted', 'error']),
  phase: optional(unchecked<string>()),
  etaSeconds: optional(unchecked<number>()),
  etaAt: optional(unchecked<number>()),
  queuePosition: optional(unchecked<number>()),
  error: optional(object({ message: isString, code: optional(unchecked<string>()) })),
  abortReason: optional(unchecked<string>()),
  needsInput: optional(isString),
  asks: optional(oneOf(['approval', 'reply'])),
  continuation: optional(isString),
  outputFiles: optional(unchecked<FileInfo[]>()),
  result: optional(unchecked<Record<string, unknown>>()),
  blocks: arrayOf(isBlock),
  plan: optional(isPlan),
  files: arrayOf(isFileChange),
  lastEventId: isFiniteNumber,
  lastStreamEntryId: optional(isString),
  contextUsage: optional(isContextUsage),
});

const isTranscript = object({ sessionId: isString, title: optional(isString), turns: arrayOf(isTurn) });

const isSnapshot = object({ version: oneOf([TRANSCRIPT_SNAPSHOT_VERSION]), transcript: isTranscript });

/** `true` when two types are the same, not merely assignable (an optional key missing counts). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
/**
 * Compile-time: every schema above has exactly its model type, so a field added to (or changed
 * in) `model.ts` and not listed here fails the build until it is checked or marked `unchecked`.
 */
export type _ModelMatches = [
  Assert<Same<Infer<typeof isFileInfo>, FileInfo>>,
  Assert<Same<Infer<typeof isBlock>, Block>>,
  Assert<Same<Infer<typeof isUserMessage>, UserMessage>>,
  Assert<Same<Infer<typeof isPlan>, Plan>>,
  Assert<Same<Infer<typeof isFileChange>, FileChange>>,
  Assert<Same<Infer<typeof isTurn>, Turn>>,
  Assert<Same<Infer<typeof isTranscript>, Transcript>>,
  Assert<Same<Infer<typeof isSnapshot>, TranscriptSnapshot>>,
];

/** The transcript of a snapshot, or undefined when it is not a valid one of this version. */
export function fromSnapshot(value: unknown): Transcript | undefined {
  return isSnapshot(value) ? value.transcript : undefined;
}

export function deserializeTranscript(text: string): Transcript | undefined {
  try {
    return fromSnapshot(JSON.parse(text));
  } catch {
    return undefined;
  }
}
