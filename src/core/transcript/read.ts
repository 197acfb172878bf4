/**
 * Tolerant readers for untrusted payload fields: a missing or ill-typed field reads as absent, so a
 * garbage event never throws in the reducer. Built on the primitives of `../schema` (`isRecord` is
 * the one plain-object check).
 */
import type { FileInfo } from '../client/types';
import { isFiniteNumber, isRecord, isString } from '../shared/schema';

export type Rec = Record<string, unknown>;

const EMPTY: Rec = Object.freeze({}) as Rec;

/** The value if it is a plain object, else an empty (frozen) one. */
export function rec(v: unknown): Rec {
  return isRecord(v) ? v : EMPTY;
}

export function str(v: unknown): string | undefined {
  return isString(v) ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return isFiniteNumber(v) ? v : undefined;
}

/** A string, or a finite number as a string (codes come both ways). */
export function strOrNum(v: unknown): string | undefined {
  if (isString(v)) return v;
  return isFiniteNumber(v) ? String(v) : undefined;
}

/** Copies the patch's own keys onto the target, skipping `__proto__` (no prototype pollution). */
export function assignSafe(target: Rec, patch: Rec): boolean {
  let changed = false;
  for (const k of Object.keys(patch)) {
    if (k === '__proto__') continue;
    if (target[k] !== patch[k]) {
      target[k] = patch[k];
      changed = true;
    }
  }
  return changed;
}

/** A shallow copy of an object without `__proto__` keys. */
export function copyRecord(v: Rec): Rec {
  const out: Rec = {};
  assignSafe(out, v);
  return out;
}

export function basename(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** A file entry from any of the shapes the service uses; undefined when nothing identifies it. */
export function readFileInfo(v: unknown): FileInfo | undefined {
  if (isString(v)) return v ? { key: v, name: basename(v), size: 0 } : undefined;
  if (!isRecord(v)) return undefined;
  const key = str(v.key) ?? str(v.path) ?? str(v.url) ?? '';
  const name = str(v.name) ?? str(v.filename) ?? basename(key);
  if (!key && !name) return undefined;
  const info: FileInfo = { key, name, size: num(v.size) ?? 0 };
  const type = str(v.type) ?? str(v.contentType);
  if (type !== undefined) info.type = type;
  const updatedAt = num(v.updatedAt) ?? num(v.updated_at);
  if (updatedAt !== undefined) info.updatedAt = updatedAt;
  return info;
}

/** Every readable file entry of a list (anything else reads as an empty list). */
export function readFiles(v: unknown): FileInfo[] {
  if (!Array.isArray(v)) return [];
  const out: FileInfo[] = [];
  for (const item of v) {
    const f = readFileInfo(item);
    if (f) out.push(f);
  }
  return out;
}
