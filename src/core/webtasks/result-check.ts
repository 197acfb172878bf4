import { l10n } from '../shared/l10n';
/**
 * Checks a web task's result `data` against the schema it was asked for, so that a run that found
 * nothing, or found records with holes, is obvious. interface.md 4.8: `data` is an array of objects,
 * each in the shape of the schema; a single object is read as one record (tolerant reader).
 *
 * Per record and per schema field:
 * - a described (string) field wants a value: a string, number or boolean, or a list of those; it is
 *   `missing` when absent, `null` when null, `empty` when a blank string or an empty list, and
 *   `wrong-shape` when an object or a list holding objects;
 * - a nested field wants an object checked field by field, or a list of such objects (a converted
 *   JSON Schema list of objects, see `json-schema.ts`), each checked; a scalar is `wrong-shape`;
 *   missing / null / an empty list make every field under it `missing` / `null` / `empty`.
 * Fields the schema does not name are listed in `extraFields`, not counted as issues.
 */
import { isRecord } from '../shared/schema';
import { schemaLeaves, type ServiceSchema } from './service-schema';

export type IssueKind = 'missing' | 'null' | 'empty' | 'wrong-shape';

/** What one field of one record lacks. */
export interface FieldIssue {
  /** Index of the record in `data`. */
  row: number;
  /** Dot path of the schema field (`address.city`). */
  field: string;
  kind: IssueKind;
  /** For `wrong-shape`: what the schema wants and what came. */
  expected?: 'value' | 'object';
  got?: string;
}

/** Counts of one schema field over all records. */
export interface FieldCounts {
  ok: number;
  missing: number;
  null: number;
  empty: number;
  wrongShape: number;
}

export interface ResultCheck {
  /** The records (`data` as an array; one object becomes one record). */
  rows: Record<string, unknown>[];
  /** Why `data` itself is unreadable (not an array of objects); items that are not objects are skipped. */
  dataProblems: string[];
  /** Per schema field (dot path, schema order). */
  fields: Map<string, FieldCounts>;
  /** Sums of the per-field counts. */
  totals: FieldCounts;
  /** Records with at least one issue. */
  rowsWithIssues: number;
  /** The issues, at most `maxIssues` (the counts stay exact). */
  issues: FieldIssue[];
  issuesTruncated: boolean;
  /** Top-level fields present in records but not in the schema, in order of first sight. */
  extraFields: string[];
  /** `no-rows`: no records; `all-empty`: records, but no schema field has a value in any. */
  empty?: 'no-rows' | 'all-empty';
}

export interface CheckOptions {
  /** Most issues listed (default 10,000). */
  maxIssues?: number;
}

const zero = (): FieldCounts => ({ ok: 0, missing: 0, null: 0, empty: 0, wrongShape: 0 });

const isScalar = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The shape name of a value, for `got`. */
export function shapeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.some((x) => isRecord(x) || Array.isArray(x)) ? 'list of objects' : 'list';
  return typeof v;
}

/** Checks `data` against `schema` (see the rules at the top). */
export function checkResult(data: unknown, schema: ServiceSchema, options: CheckOptions = {}): ResultCheck {
  const maxIssues = Math.max(0, options.maxIssues ?? 10_000);
  const dataProblems: string[] = [];
  let items: unknown[];
  if (Array.isArray(data)) items = data;
  else if (isRecord(data)) items = [data];
  else {
    items = [];
    if (data !== undefined && data !== null)
      dataProblems.push(l10n.t('data is a {0}, not a list of records', shapeOf(data)));
  }
  const rows: Record<string, unknown>[] = [];
  items.forEach((x, i) => {
    if (isRecord(x)) rows.push(x);
    else dataProblems.push(l10n.t('item {0} is a {1}, not a record; skipped', i, shapeOf(x)));
  });

  const leaves = schemaLeaves(schema).map((l) => ({ path: l.path, name: l.path.join('.') }));
  const fields = new Map(leaves.map((l) => [l.name, zero()]));
  const issues: FieldIssue[] = [];
  let issueCount = 0;
  let rowsWithIssues = 0;
  let anyValue = false;
  const extra = new Set<string>();

  rows.forEach((row, r) => {
    for (const key of Object.keys(row)) if (!Object.hasOwn(schema, key)) extra.add(key);
    let rowIssues = 0;
    for (const leaf of leaves) {
      const counts = fields.get(leaf.name) ?? zero();
      const found = fieldState(row, schema, leaf.path);
      if (found.kind === 'ok') {
        counts.ok++;
        anyValue = true;
        continue;
      }
      rowIssues++;
      if (found.kind === 'wrong-shape') {
        counts.wrongShape++;
        anyValue = true;
      } else counts[found.kind]++;
      if (issueCount++ < maxIssues) {
        const issue: FieldIssue = { row: r, field: leaf.name, kind: found.kind };
        if (found.kind === 'wrong-shape') Object.assign(issue, { expected: found.expected, got: found.got });
        issues.push(issue);
      }
    }
    if (rowIssues > 0) rowsWithIssues++;
  });

  const totals = zero();
  for (const c of fields.values()) {
    totals.ok += c.ok;
    totals.missing += c.missing;
    totals.null += c.null;
    totals.empty += c.empty;
    totals.wrongShape += c.wrongShape;
  }
  const result: ResultCheck = {
    rows,
    dataProblems,
    fields,
    totals,
    rowsWithIssues,
    issues,
    issuesTruncated: issueCount > maxIssues,
    extraFields: [...extra],
  };
  if (rows.length === 0) result.empty = 'no-rows';
  else if (!anyValue && leaves.length > 0) result.empty = 'all-empty';
  return result;
}

type State =
  | { kind: 'ok' | 'missing' | 'null' | 'empty' }
  | { kind: 'wrong-shape'; expected: 'value' | 'object'; got: string };

/**
 * The state of the leaf at `path` in `value`. Lists of objects on the way are checked item by
 * item; the worst item's state counts (an issue anywhere in the list is the field's issue).
 */
function fieldState(value: unknown, schema: ServiceSchema | string, path: readonly string[]): State {
  if (typeof schema === 'string') {
    if (value === undefined) return { kind: 'missing' };
    if (value === null) return { kind: 'null' };
    if (typeof value === 'string') return { kind: value.trim() === '' ? 'empty' : 'ok' };
    if (isScalar(value)) return { kind: 'ok' };
    if (Array.isArray(value) && value.every(isScalar)) return { kind: value.length === 0 ? 'empty' : 'ok' };
    return { kind: 'wrong-shape', expected: 'value', got: shapeOf(value) };
  }
  if (value === undefined) return { kind: 'missing' };
  if (value === null) return { kind: 'null' };
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: 'empty' };
    if (!value.every(isRecord)) return { kind: 'wrong-shape', expected: 'object', got: shapeOf(value) };
    let worst: State = { kind: 'ok' };
    for (const item of value) {
      const s = fieldState(item, schema, path);
      if (rank(s) > rank(worst)) worst = s;
    }
    return worst;
  }
  if (!isRecord(value)) return { kind: 'wrong-shape', expected: 'object', got: shapeOf(value) };
  const [head, ...rest] = path;
  const sub = schema[head];
  return fieldState(Object.hasOwn(value, head) ? value[head] : undefined, sub, rest);
}

const RANKS = { ok: 0, empty: 1, null: 2, missing: 3, 'wrong-shape': 4 } as const;
const rank = (s: State): number => RANKS[s.kind];
