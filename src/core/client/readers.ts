import { l10n } from '../shared/l10n';
import { isBoolean, isFiniteNumber, isRecord, isString, object } from '../shared/schema';
import { DenError } from './errors';

/*
 * Tolerant readers of wire bodies: each coerces what the service sends in more than one form (ids
 * as numbers, `$oid`, times as seconds, ms, ISO strings or `$date`) and reads anything else as
 * absent. Shape checks use the primitives of `../schema` (`isRecord` for a JSON object).
 */

/** A JSON object as received, before normalization. */
export type WireObject = Record<string, unknown>;

/** Builds the `protocol` error every normalizer throws on a shape it cannot read. */
export function protocolError(what: string, problem: string, details?: Record<string, unknown>): DenError {
  return new DenError({
    code: 'protocol',
    message: l10n.t('Unexpected response from the service ({0}): {1}', what, problem),
    details,
  });
}

/** MongoDB-style `{ "$oid": "…" }`: the `id` fields are database object ids. */
const isObjectId = object({ $oid: isString });

/** The value as an object, or a `protocol` error naming `what`. */
export function expectObject(v: unknown, what: string): WireObject {
  if (!isRecord(v)) throw protocolError(what, l10n.t('expected an object, got {0}', describe(v)));
  return v;
}

/** Short description of a value's shape for error messages (never the value itself: it may be large). */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return l10n.t('an array');
  return typeof v === 'object' ? l10n.t('an object') : l10n.t('a {0}', typeof v);
}

/** The first of `keys` present on `o` (not undefined/null). */
export function pick(o: WireObject, ...keys: string[]): unknown {
  for (const k of keys) {
    const v = o[k];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A non-empty string, or a number turned into one (ids sometimes arrive as numbers). */
export function readId(v: unknown): string | undefined {
  if (isString(v)) return v.length > 0 ? v : undefined;
  if (isFiniteNumber(v)) return String(v);
  if (isObjectId(v)) return v.$oid;
  return undefined;
}

export function readString(v: unknown): string | undefined {
  if (isString(v)) return v;
  // Any number, NaN included, reads as its text (as it always has).
  if (typeof v === 'number' || isBoolean(v)) return String(v);
  return undefined;
}

/** A finite number, also from a numeric string. */
export function readNumber(v: unknown): number | undefined {
  if (isFiniteNumber(v)) return v;
  if (isString(v) && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function readBoolean(v: unknown): boolean | undefined {
  if (isBoolean(v)) return v;
  if (v === 1 || v === 'true' || v === '1') return true;
  if (v === 0 || v === 'false' || v === '0') return false;
  return undefined;
}

/** Below this a number is taken as Unix seconds (1e11 ms is March 1973, 1e11 s is far future). */
const SECONDS_LIMIT = 1e11;

/**
 * A timestamp as Unix ms from a number (ms, or seconds when small), a numeric string, an ISO
 * date string, or `{ "$date": … }`.
 */
export function readTime(v: unknown): number | undefined {
  if (isRecord(v) && v.$date !== undefined) return readTime(v.$date);
  const n = readNumber(v);
  if (n !== undefined) return Math.abs(n) < SECONDS_LIMIT ? Math.round(n * 1000) : Math.round(n);
  if (isString(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** The value as an array, or undefined when absent; a `protocol` error when present but not an array. */
export function readArray(v: unknown, what: string): unknown[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw protocolError(what, l10n.t('expected an array, got {0}', describe(v)));
  return v;
}

/** The last path segment of a key or path. */
export function baseName(key: string): string {
  const parts = key.split(/[\\/]/).filter((p) => p.length > 0);
  return parts.length > 0 ? parts[parts.length - 1] : key;
}
