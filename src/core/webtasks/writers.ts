/**
 * Result files: CSV, JSON Lines and pretty JSON, as strings (the caller encodes them as UTF-8).
 *
 * CSV (RFC 4180): a header row of the flattened columns (`flatten.ts`), CRLF line ends, a field
 * quoted when it holds a comma, a double quote, CR or LF (quotes inside doubled). No BOM unless
 * `bom: true` (Excel needs one to read UTF-8). Formula-injection guard (on by default): a text
 * cell starting with `=`, `+`, `-`, `@`, a tab or CR, which a spreadsheet would run as a formula, is
 * prefixed with `'`; numbers, and text that is just a number (`-12.5`), are left alone.
 *
 * JSON Lines: one record per line (`\n`), compact, U+2028 and U+2029 escaped so that no line
 * reader splits a record. Pretty JSON: the records as an indented array, the same escapes.
 */
import { cellText, toTable, type Cell } from './flatten';
import type { ServiceSchema } from './service-schema';

export interface CsvOptions {
  /** Puts the schema's fields first in the column order. */
  schema?: ServiceSchema;
  /** Columns to write, in order (default: all, see `columnsFor`). */
  columns?: readonly string[];
  /** Start with a UTF-8 byte order mark (for Excel). Default false. */
  bom?: boolean;
  /** Prefix formula-like text cells with `'`. Default true. */
  formulaGuard?: boolean;
}

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** One CSV field, quoted when needed, with the formula guard applied to text when `guard`. */
export function csvField(c: Cell, guard = true): string {
  let s = cellText(c);
  if (guard && typeof c === 'string' && FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Records as CSV (see the rules at the top). No records and no columns: an empty file. */
export function toCsv(records: readonly Record<string, unknown>[], options: CsvOptions = {}): string {
  const table = toTable(records, options.schema);
  const columns = options.columns ?? table.columns;
  const guard = options.formulaGuard ?? true;
  const lines: string[] = [];
  if (columns.length > 0) lines.push(columns.map((c) => csvField(c, guard)).join(','));
  for (const row of table.rows) lines.push(columns.map((c) => csvField(row[c], guard)).join(','));
  const body = lines.length > 0 ? `${lines.join('\r\n')}\r\n` : '';
  return options.bom ? `\uFEFF${body}` : body;
}

/** JSON text with U+2028 / U+2029 escaped (JSON.stringify leaves them raw). */
function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Records as JSON Lines: one per line, each line ended by `\n`; no records: an empty file. */
export function toJsonLines(records: readonly unknown[]): string {
  return records.map((r) => `${safeJson(r)}\n`).join('');
}

/** Records as an indented JSON array, ended by `\n`. */
export function toPrettyJson(records: readonly unknown[]): string {
  return `${safeJson(records, 2)}\n`;
}
