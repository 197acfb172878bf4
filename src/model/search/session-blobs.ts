/**
 * The two blobs the search index keeps per session (`session-index.ts`): the text (a JSON line of
 * the session and where each field starts, then the fields joined) and the filter (a header, then a
 * Bloom filter of the text's lower-cased trigrams, those with digits also folded). How each is
 * written and read back (checked: a blob this version did not write reads as undefined), and the
 * filter's questions. No `vscode` import.
 */
import type { FieldKind, SearchField } from '../../core/search/fields';
import { DIGIT_MARK } from '../../core/search/trigram-sets';
import {
  arrayOf,
  isFiniteNumber,
  isString,
  object,
  oneOf,
  optional,
  type Guard,
} from '../../core/shared/schema';
import { FIELD_KINDS } from '../../protocol/shared/search';

/** 2: the filters also hold digit-folded trigrams (`DIGIT_MARK`); a version 1 index is rebuilt. */
export const SEARCH_INDEX_VERSION = 2;
/** Size of a session's trigram filter: 65,536 bits. */
export const BLOOM_BYTES = 8_192;
const BLOOM_MASK = BLOOM_BYTES * 8 - 1;
const MAGIC = [0x44, 0x54, 0x52, 0x49]; // "DTRI"
/** Between fields in the joined text; a match across it is not a match. */
const SEPARATOR = '\u0000';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface SessionMeta {
  sessionId: string;
  title?: string;
  usedAt: number;
  textBytes: number;
}

const isMeta: Guard<SessionMeta> = object({
  sessionId: isString,
  title: optional(isString),
  usedAt: isFiniteNumber,
  textBytes: isFiniteNumber,
});

/** `[turnId, blockId ('' for none), kind, index, start]`, start into the joined text. */
export type FieldRow = [string, string, FieldKind, number, number];

export interface SessionText {
  v: typeof SEARCH_INDEX_VERSION;
  sessionId: string;
  fields: FieldRow[];
  /** The fields joined by `SEPARATOR`; stored after the JSON line, not in it. */
  text: string;
}

type TextHead = Omit<SessionText, 'text'>;

const isRow = (v: unknown): v is FieldRow =>
  Array.isArray(v) &&
  v.length === 5 &&
  isString(v[0]) &&
  isString(v[1]) &&
  (FIELD_KINDS as readonly unknown[]).includes(v[2]) &&
  isFiniteNumber(v[3]) &&
  isFiniteNumber(v[4]);

const isTextHead: Guard<TextHead> = object({
  v: oneOf([SEARCH_INDEX_VERSION]),
  sessionId: isString,
  fields: arrayOf(isRow),
});

/** The text blob: the head as one JSON line, then the text as it is (no escaping to undo). */
export function encodeText(joined: SessionText): Uint8Array {
  const head: TextHead = { v: joined.v, sessionId: joined.sessionId, fields: joined.fields };
  return encoder.encode(`${JSON.stringify(head)}\n${joined.text}`);
}

/** The text blob read back; undefined when it is not one this version wrote. */
export function decodeText(bytes: Uint8Array): SessionText | undefined {
  const s = decoder.decode(bytes);
  const nl = s.indexOf('\n');
  if (nl < 0) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(s.slice(0, nl));
  } catch {
    return undefined;
  }
  if (!isTextHead(head)) return undefined;
  const text = s.slice(nl + 1);
  // The starts must rise and stay inside the text.
  let prev = -1;
  for (const row of head.fields) {
    if (row[4] < prev || row[4] > text.length) return undefined;
    prev = row[4];
  }
  return { ...head, text };
}

/** A trigram's bit in the filter, from its three (lower-cased) UTF-16 codes. */
function trigramBit(a: number, b: number, c: number): number {
  return (Math.imul(a * 65_599 + b * 257 + c, 0x9e3779b1) >>> 15) & BLOOM_MASK;
}

function lowerTrigramHashes(text: string, each: (h: number) => void): void {
  const s = text.toLowerCase();
  if (s.length < 3) return;
  let a = s.charCodeAt(0);
  let b = s.charCodeAt(1);
  for (let i = 2; i < s.length; i++) {
    const c = s.charCodeAt(i);
    each(trigramBit(a, b, c));
    a = b;
    b = c;
  }
}

const MARK = DIGIT_MARK.charCodeAt(0);
const folds = (code: number): number => (code >= 48 && code <= 57 ? MARK : code);

/**
 * The trigram filter of a text: its lower-cased trigrams, and each one that holds a digit once more
 * with every digit as `DIGIT_MARK` (`core/search/trigram-sets.ts`), in one pass.
 */
export function trigramFilter(text: string): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES);
  const set = (h: number): void => {
    bloom[h >>> 3] |= 1 << (h & 7);
  };
  const s = text.toLowerCase();
  if (s.length < 3) return bloom;
  let a = s.charCodeAt(0);
  let b = s.charCodeAt(1);
  for (let i = 2; i < s.length; i++) {
    const c = s.charCodeAt(i);
    set(trigramBit(a, b, c));
    const fa = folds(a);
    const fb = folds(b);
    const fc = folds(c);
    if (fa !== a || fb !== b || fc !== c) set(trigramBit(fa, fb, fc));
    a = b;
    b = c;
  }
  return bloom;
}

/** Whether the filter may hold every trigram of `literal` (always, for fewer than 3 characters). */
export function mayHold(bloom: Uint8Array, literal: string): boolean {
  let ok = true;
  lowerTrigramHashes(literal, (h) => {
    if (ok && !(bloom[h >>> 3] & (1 << (h & 7)))) ok = false;
  });
  return ok;
}

/** The filter's bit positions of each trigram of each set (a query's `trigramSets`, hashed once). */
export function hashSets(sets: readonly string[][]): number[][] {
  return sets.map((set) =>
    set.map((tri) => {
      let h = -1;
      lowerTrigramHashes(tri, (x) => (h = x));
      return h;
    }),
  );
}

/** Whether the filter may hold at least one trigram of every set (hashed by `hashSets`). */
export function mayHoldSets(bloom: Uint8Array, sets: readonly number[][]): boolean {
  return sets.every((set) => set.some((h) => h < 0 || (bloom[h >>> 3] & (1 << (h & 7))) !== 0));
}

export function encodeFilter(meta: SessionMeta, bloom: Uint8Array): Uint8Array {
  const head = encoder.encode(JSON.stringify(meta));
  const out = new Uint8Array(9 + head.length + BLOOM_BYTES);
  out.set(MAGIC, 0);
  out[4] = SEARCH_INDEX_VERSION;
  new DataView(out.buffer).setUint32(5, head.length);
  out.set(head, 9);
  out.set(bloom, 9 + head.length);
  return out;
}

export function decodeFilter(bytes: Uint8Array): { meta: SessionMeta; bloom: Uint8Array } | undefined {
  if (bytes.length < 9 || MAGIC.some((m, i) => bytes[i] !== m) || bytes[4] !== SEARCH_INDEX_VERSION)
    return undefined;
  const len = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(5);
  if (bytes.length !== 9 + len + BLOOM_BYTES) return undefined;
  let meta: unknown;
  try {
    meta = JSON.parse(decoder.decode(bytes.subarray(9, 9 + len)));
  } catch {
    return undefined;
  }
  if (!isMeta(meta)) return undefined;
  return { meta, bloom: bytes.slice(9 + len) };
}

/** The fields joined into one text, and each field's row. */
export function joinFields(sessionId: string, fields: readonly SearchField[]): SessionText {
  const rows: FieldRow[] = [];
  const parts: string[] = [];
  let at = 0;
  for (const f of fields) {
    const a = f.address;
    rows.push([a.turnId, a.blockId ?? '', a.kind, a.index, at]);
    parts.push(f.text);
    at += f.text.length + SEPARATOR.length;
  }
  return { v: SEARCH_INDEX_VERSION, sessionId, fields: rows, text: parts.join(SEPARATOR) };
}

/** The row holding offset `at` (binary search over the starts). */
export function rowAt(rows: FieldRow[], at: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid][4] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
