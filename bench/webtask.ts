import { checkResult } from '../src/core/webtasks/result-check';
import { rowFilter, sortedIndexes, toTable } from '../src/core/webtasks/flatten';
import { toCsv, toJsonLines, toPrettyJson } from '../src/core/webtasks/writers';
import { compareRuns } from '../src/core/webtasks/compare';
import { sampleFor } from '../test/emulator/lam';
import { WEB_TASK_SAMPLE } from '../test/emulator/web-task-sample';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface WebTaskBench {
  rows: number;
  csvBytes: number;
  /** Medians, ms. The baseline is `JSON.stringify` of the same records. */
  baselineMs: number;
  csvMs: number;
  jsonlMs: number;
  jsonMs: number;
  checkMs: number;
  tableMs: number;
  sortMs: number;
  filterMs: number;
  compareMs: number;
}

/** Records of the demo's schema (nested seller, some gaps), as the emulator makes them. */
export function sampleRecords(rows: number, shift = 0): Record<string, unknown>[] {
  const schema = WEB_TASK_SAMPLE.schema as unknown as Parameters<typeof sampleFor>[0];
  return Array.from({ length: rows }, (_x, i) => {
    const r = sampleFor(schema, i + shift, shift);
    if (i % 7 === 3) delete r.name;
    if (i % 11 === 5) r.price = null;
    return r;
  });
}

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/**
 * The web task results' Node-side work for a 10,000-row run: export (CSV, JSON Lines, JSON), the
 * check against the schema, the table (flatten, sort by price, build the filter and use it) and
 * a comparison with a drifted rerun. Median of `rounds` after a warm-up.
 */
export function benchWebTask(rows = 10_000, rounds = 15): WebTaskBench {
  const records = sampleRecords(rows);
  const rerun = sampleRecords(rows, 1);
  const schema = WEB_TASK_SAMPLE.schema as unknown as Parameters<typeof checkResult>[1];
  const t: Record<Exclude<keyof WebTaskBench, 'rows' | 'csvBytes'>, number[]> = {
    baselineMs: [],
    csvMs: [],
    jsonlMs: [],
    jsonMs: [],
    checkMs: [],
    tableMs: [],
    sortMs: [],
    filterMs: [],
    compareMs: [],
  };
  let csvBytes = 0;
  for (let r = 0; r <= rounds; r++) {
    const base = time(() => JSON.stringify(records));
    let csv = '';
    const csvMs = time(() => (csv = toCsv(records, { schema })));
    csvBytes = Buffer.byteLength(csv);
    const jsonlMs = time(() => toJsonLines(records));
    const jsonMs = time(() => toPrettyJson(records));
    const checkMs = time(() => checkResult(records, schema));
    let table = toTable([], schema);
    const tableMs = time(() => (table = toTable(records, schema)));
    const sortMs = time(() => sortedIndexes(table.rows, 'price', 'desc'));
    const filterMs = time(() => rowFilter(table.rows, table.columns)('seller name 9'));
    const compareMs = time(() => compareRuns(records, rerun));
    if (r === 0) continue; // warm-up
    t.baselineMs.push(base);
    t.csvMs.push(csvMs);
    t.jsonlMs.push(jsonlMs);
    t.jsonMs.push(jsonMs);
    t.checkMs.push(checkMs);
    t.tableMs.push(tableMs);
    t.sortMs.push(sortMs);
    t.filterMs.push(filterMs);
    t.compareMs.push(compareMs);
  }
  return {
    rows,
    csvBytes,
    baselineMs: median(t.baselineMs),
    csvMs: median(t.csvMs),
    jsonlMs: median(t.jsonlMs),
    jsonMs: median(t.jsonMs),
    checkMs: median(t.checkMs),
    tableMs: median(t.tableMs),
    sortMs: median(t.sortMs),
    filterMs: median(t.filterMs),
    compareMs: median(t.compareMs),
  };
}
