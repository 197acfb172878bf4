/**
 * Records → table rows for the results view and the CSV writer, and the table's sort and filter.
 *
 * Flattening rules (docs/web-tasks.md):
 * - a nested object's fields become columns with dot paths (`address.city`);
 * - a list of scalars becomes one cell, its items joined with `; `;
 * - a list of objects is flattened item by item and each sub-field's values are joined with `; `
 *   in one column (`reviews.author` = `Ann; Bob`): the columns stay those of the schema whatever
 *   the list lengths (a converted JSON Schema list of objects asks for exactly this);
 * - anything else a list holds (lists in lists, objects mixed with scalars) becomes JSON text;
 * - an empty object or empty list is an empty cell; null stays null; absent stays absent.
 * Column order: the schema's fields (depth first, in key order), then other paths in order of first
 * sight. Field names containing `.` make ambiguous paths; the service's schemas rarely have them.
 */
import { isRecord } from '../shared/schema';
import { schemaLeaves, type ServiceSchema } from './service-schema';

/** One table cell: absent (`undefined`), null, or a scalar. */
export type Cell = string | number | boolean | null | undefined;

/** A flattened record: dot path → cell. */
export type FlatRow = Record<string, Cell>;

/** Joins the items of a flattened list in one cell. */
export const LIST_SEPARATOR = '; ';

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** One record flattened (see the rules at the top). */
export function flattenRecord(record: Record<string, unknown>): FlatRow {
  const out: FlatRow = {};
  const put = (path: string, v: unknown): void => {
    if (v === undefined) return;
    if (v === null || isScalar(v)) {
      out[path] = v;
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) out[path] = '';
      else if (v.every((x) => x === null || isScalar(x)))
        out[path] = v.map((x) => String(x)).join(LIST_SEPARATOR);
      else if (v.every(isRecord)) {
        const parts = v.map((x) => flattenRecord(x));
        const keys = unionKeys(parts);
        for (const k of keys) {
          out[join(path, k)] = parts
            .map((p) => (p[k] === undefined || p[k] === null ? '' : String(p[k])))
            .join(LIST_SEPARATOR);
        }
      } else out[path] = JSON.stringify(v);
      return;
    }
    if (isRecord(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0 && path !== '') out[path] = '';
      for (const k of keys) put(join(path, k), v[k]);
      return;
    }
    out[path] = String(v);
  };
  put('', record);
  return out;
}

const join = (a: string, b: string): string => (a === '' ? b : `${a}.${b}`);

function unionKeys(rows: readonly FlatRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/**
 * The columns of a table: the schema's leaf paths, then the rows' other paths in order of first
 * sight. A nested schema field that came back null or empty (`seller: null`) adds no column of its
 * own: its leaves' cells are empty (and flagged by the result check). One that came back as a
 * scalar (the wrong shape) does, so the value is seen.
 */
export function columnsFor(rows: readonly FlatRow[], schema?: ServiceSchema): string[] {
  const leaves = schema ? schemaLeaves(schema).map((l) => l.path) : [];
  const cols = leaves.map((p) => p.join('.'));
  const seen = new Set(cols);
  const groups = new Set(leaves.flatMap((p) => p.slice(1).map((_x, i) => p.slice(0, i + 1).join('.'))));
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (groups.has(k) && (r[k] === null || r[k] === '')) continue;
      if (!seen.has(k)) {
        seen.add(k);
        cols.push(k);
      }
    }
  }
  return cols;
}

/** Records flattened, with their columns. */
export interface Table {
  columns: string[];
  rows: FlatRow[];
}

export function toTable(records: readonly Record<string, unknown>[], schema?: ServiceSchema): Table {
  const rows = records.map(flattenRecord);
  return { columns: columnsFor(rows, schema), rows };
}

/** A cell as text: absent and null are empty. */
export function cellText(c: Cell): string {
  return c === undefined || c === null ? '' : String(c);
}

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The number a cell holds (a number, or a string that is one), else undefined. */
export function numericValue(c: Cell): number | undefined {
  if (typeof c === 'number') return Number.isFinite(c) ? c : undefined;
  if (typeof c === 'string' && NUMERIC.test(c)) return Number(c);
  return undefined;
}

interface SortKey {
  n: number | undefined;
  s: string;
}

const sortKey = (c: Cell): SortKey => ({ n: numericValue(c), s: cellText(c) });

/** Value order of two non-empty keys: numbers when both are numeric, else code points. */
function compareKeys(x: SortKey, y: SortKey): number {
  if (x.n !== undefined && y.n !== undefined) return x.n - y.n;
  return x.s < y.s ? -1 : x.s > y.s ? 1 : 0;
}

/**
 * Compares two cells for sorting: as numbers when both are numeric, else as strings by code point
 * (the same order everywhere, whatever the locale). Empty cells (absent, null, '') sort last.
 */
export function compareCells(a: Cell, b: Cell): number {
  const x = sortKey(a);
  const y = sortKey(b);
  if (x.s === '' || y.s === '') return x.s === y.s ? 0 : x.s === '' ? 1 : -1;
  return compareKeys(x, y);
}

/**
 * The row indexes ordered by `column` (stable: equal cells keep their order). Descending reverses
 * the order of values, but empty cells stay last. Keys are computed once per row.
 */
export function sortedIndexes(
  rows: readonly FlatRow[],
  column: string,
  direction: 'asc' | 'desc' = 'asc',
): number[] {
  const sign = direction === 'desc' ? -1 : 1;
  const keyed = rows.map((r, i) => ({ i, ...sortKey(r[column]) }));
  keyed.sort((x, y) => {
    if (x.s === '' || y.s === '') return x.s === y.s ? x.i - y.i : x.s === '' ? 1 : -1;
    const d = compareKeys(x, y);
    return d !== 0 ? d * sign : x.i - y.i;
  });
  return keyed.map((k) => k.i);
}

/**
 * A case-insensitive substring filter over rows, built once per table: `match(text)` answers the
 * indexes of the rows with a cell (in `columns`) containing `text`. An empty text matches all.
 */
export function rowFilter(rows: readonly FlatRow[], columns: readonly string[]): (text: string) => number[] {
  const haystacks = rows.map((r) => columns.map((c) => cellText(r[c]).toLowerCase()));
  return (text) => {
    const needle = text.trim().toLowerCase();
    const out: number[] = [];
    haystacks.forEach((cells, i) => {
      if (needle === '' || cells.some((c) => c.includes(needle))) out.push(i);
    });
    return out;
  };
}
