/**
 * The Web Task page's words, pure: phase names, the results summary, the comparison headline, the
 * issue lookup of the table and the saved draft. No DOM, so plain Node tests cover them.
 */
import type { IssueKind, ResultCheck } from '../../core/webtask/result-check';
import {
  isWebTaskForm,
  type WebTaskComparisonView,
  type WebTaskForm,
  type WebTaskPhase,
  type WebTaskStatusView,
} from '../../protocol/webtask-messages';
import { formatDuration } from '../format';

export const PHASE_LABELS: Record<WebTaskPhase, string> = {
  running: 'Running',
  'needs-you': 'Needs you',
  done: 'Done',
  failed: 'Failed',
  error: 'Error',
  cancelled: 'Cancelled',
};

/** Whether the run can still be cancelled (it has not ended). */
export const isLive = (phase: WebTaskPhase): boolean => phase === 'running' || phase === 'needs-you';

export const ISSUE_WORDS: Record<IssueKind, string> = {
  missing: 'missing',
  null: 'null',
  empty: 'empty',
  'wrong-shape': 'wrong shape',
};

/** "3 rows", "1 row". */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** A time of day as the person's locale writes it, with seconds. */
export const clockTime = (ms: number): string => new Date(ms).toLocaleTimeString();

/** A date and time as the person's locale writes it. */
export const dateTime = (ms: number): string => new Date(ms).toLocaleString();

/** What the live region says when a run's phase changes. */
export function phaseAnnouncement(s: WebTaskStatusView): string {
  const words = `Web task: ${PHASE_LABELS[s.phase]}.`;
  return s.phase === 'needs-you' ? `${words} The task waits for you in the live browser.` : words;
}

/** "Started 10:02:03 · 45 s" while live; "Finished 10:03:00 · took 57 s" once ended. */
export function timeText(s: WebTaskStatusView, now: number): string {
  if (s.finishedAt !== undefined) {
    const took = formatDuration((s.finishedAt - s.startedAt) / 1000);
    return `Finished ${clockTime(s.finishedAt)} · took ${took}`;
  }
  return `Started ${clockTime(s.startedAt)} · ${formatDuration((now - s.startedAt) / 1000)}`;
}

/** The summary lines under the Results heading (each a separate sentence). */
export interface ResultSummary {
  rows: string;
  /** Per-kind totals, only the non-zero ones ("2 missing", "1 wrong shape"). */
  issues: string[];
  /** "4 rows with issues" (absent: none). */
  rowsWithIssues?: string;
  /** The prominent warning for an empty extraction. */
  warning?: string;
  /** Fields the records hold that the schema does not name. */
  extra?: string;
}

export const EMPTY_WARNINGS: Record<NonNullable<ResultCheck['empty']>, string> = {
  'no-rows': 'No rows came back.',
  'all-empty': 'Every field came back empty — check the schema’s descriptions and the query.',
};

export function resultSummary(rowCount: number, check: ResultCheck | undefined): ResultSummary {
  const out: ResultSummary = { rows: plural(rowCount, 'row'), issues: [] };
  if (!check) {
    if (rowCount === 0) out.warning = EMPTY_WARNINGS['no-rows'];
    return out;
  }
  const t = check.totals;
  const counts: [number, IssueKind][] = [
    [t.missing, 'missing'],
    [t.null, 'null'],
    [t.empty, 'empty'],
    [t.wrongShape, 'wrong-shape'],
  ];
  out.issues = counts
    .filter(([n]) => n > 0)
    .map(([n, k]) => `${n.toLocaleString('en-US')} ${ISSUE_WORDS[k]}`);
  if (check.rowsWithIssues > 0) out.rowsWithIssues = `${plural(check.rowsWithIssues, 'row')} with issues`;
  if (check.empty) out.warning = EMPTY_WARNINGS[check.empty];
  if (check.extraFields.length > 0) out.extra = `Fields not in the schema: ${check.extraFields.join(', ')}`;
  return out;
}

/** What the table needs of the check: the issue of a row's field (rows by index into `data`). */
export type IssueLookup = (row: number, field: string) => IssueKind | undefined;

export function issueLookup(check: ResultCheck | undefined): IssueLookup {
  const byRow = new Map<number, Map<string, IssueKind>>();
  for (const i of check?.issues ?? []) {
    let m = byRow.get(i.row);
    if (!m) byRow.set(i.row, (m = new Map()));
    m.set(i.field, i.kind);
  }
  return (row, field) => byRow.get(row)?.get(field);
}

/** "vs run of <time>: 2 added, 1 removed, 3 changed, 10 unchanged (matched by key `id`)". */
export function comparisonHeadline(c: WebTaskComparisonView): string {
  if (!c.previous) return c.message ?? 'There is no earlier run to compare with.';
  const by =
    c.keyField !== undefined
      ? `matched by key \`${c.keyField}\`${c.keySource === 'inferred' ? ', inferred' : ''}`
      : 'matched as whole records';
  return (
    `vs run of ${dateTime(c.previous.startedAt)}: ${c.added.length} added, ${c.removed.length} removed, ` +
    `${c.changed.length} changed, ${c.unchanged} unchanged (${by})`
  );
}

/** The first `max` items, and how many more there are. */
export function bounded<T>(items: readonly T[], max: number): { shown: readonly T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** What the page saves with `setState`: the form as typed. */
export interface WebTaskPersisted {
  form: WebTaskForm;
}

/** The saved draft, if the state holds a valid one. */
export function readDraft(state: unknown): WebTaskForm | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const form = (state as { form?: unknown }).form;
  return isWebTaskForm(form) ? form : undefined;
}
