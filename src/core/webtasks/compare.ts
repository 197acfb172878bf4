/**
 * Compare with Previous Run: which records a run added, removed or changed against an earlier one.
 *
 * Records are matched by a key field: the one given, else one inferred — the first of `id`, `url`,
 * `link` (any case), then the first other top-level field, whose values are present, scalar and
 * unique in both runs — else by whole-record identity (then "changed" cannot happen: a changed
 * record is one removed and one added). Duplicate keys of a given key pair up in order of
 * appearance. A changed record lists its changed fields as flattened paths (`flatten.ts`).
 */
import { isRecord } from '../shared/schema';
import { cellText, flattenRecord, type FlatRow } from './flatten';

export interface ChangedRecord {
  key: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** Flattened paths whose cells differ (in the later record's column order, then removed paths). */
  fields: string[];
}

export interface RunComparison {
  /** The key field used; undefined: whole-record identity. */
  keyField?: string;
  keySource: 'given' | 'inferred' | 'record';
  added: Record<string, unknown>[];
  removed: Record<string, unknown>[];
  changed: ChangedRecord[];
  unchanged: number;
}

const PREFERRED = ['id', 'url', 'link'];

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A key text of a scalar value (typed, so that `1` and `"1"` differ). */
const keyOf = (v: unknown): string => JSON.stringify(v);

/** JSON with object keys sorted: equal records give equal text whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isRecord(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Whether every record has a non-empty scalar at `field`, all different. */
function uniqueIn(records: readonly Record<string, unknown>[], field: string): boolean {
  const seen = new Set<string>();
  for (const r of records) {
    const v = r[field];
    if (!isScalar(v) || cellText(v) === '') return false;
    const k = keyOf(v);
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

/** The key field two runs can be matched by (see the rules at the top), if any. */
export function inferKeyField(
  before: readonly Record<string, unknown>[],
  after: readonly Record<string, unknown>[],
): string | undefined {
  if (before.length === 0 && after.length === 0) return undefined;
  const names: string[] = [];
  for (const r of [...before, ...after])
    for (const k of Object.keys(r)) if (!names.includes(k)) names.push(k);
  const preferred = PREFERRED.flatMap((p) => names.filter((n) => n.toLowerCase() === p));
  const rest = names.filter((n) => !preferred.includes(n));
  return [...preferred, ...rest].find((f) => uniqueIn(before, f) && uniqueIn(after, f));
}

/** Compares two runs' records (`before` the earlier run). */
export function compareRuns(
  before: readonly Record<string, unknown>[],
  after: readonly Record<string, unknown>[],
  options: { keyField?: string } = {},
): RunComparison {
  const given = options.keyField?.trim() || undefined;
  const keyField = given ?? inferKeyField(before, after);
  const keySource = given ? 'given' : keyField ? 'inferred' : 'record';
  /** The key value as shown (the field's text) and as matched (typed). */
  const shown = (r: Record<string, unknown>): string => {
    if (keyField === undefined) return canonicalJson(r);
    const v = r[keyField];
    return isScalar(v) ? String(v) : canonicalJson(v);
  };
  const keyFor = (r: Record<string, unknown>): string =>
    keyField === undefined || !isScalar(r[keyField]) ? shown(r) : keyOf(r[keyField]);

  const pending = new Map<string, Record<string, unknown>[]>();
  for (const r of before) {
    const k = keyFor(r);
    const list = pending.get(k);
    if (list) list.push(r);
    else pending.set(k, [r]);
  }
  const result: RunComparison = { keySource, added: [], removed: [], changed: [], unchanged: 0 };
  if (keyField !== undefined) result.keyField = keyField;
  for (const r of after) {
    const k = keyFor(r);
    const earlier = pending.get(k)?.shift();
    if (!earlier) {
      result.added.push(r);
      continue;
    }
    const fields = changedFields(flattenRecord(earlier), flattenRecord(r));
    if (fields.length === 0) result.unchanged++;
    else result.changed.push({ key: shown(r), before: earlier, after: r, fields });
  }
  for (const list of pending.values()) result.removed.push(...list);
  // Keep the earlier run's order for removed records.
  const order = new Map(before.map((r, i) => [r, i]));
  result.removed.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  return result;
}

function changedFields(a: FlatRow, b: FlatRow): string[] {
  const out: string[] = [];
  for (const k of Object.keys(b)) if (!Object.hasOwn(a, k) || a[k] !== b[k]) out.push(k);
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) out.push(k);
  return out;
}
