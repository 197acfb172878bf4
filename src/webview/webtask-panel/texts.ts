/**
 * The Web Task page's words, pure: phase names, the results summary, the comparison headline, the
 * issue lookup of the table and the saved draft. No DOM, so plain Node tests cover them.
 */
import { l10n } from '../../core/shared/l10n';
import type { IssueKind, ResultCheck } from '../../core/webtasks/result-check';
import {
  isWebTaskForm,
  WEB_TASK_PHASES,
  type WebTaskComparisonView,
  type WebTaskForm,
  type WebTaskPhase,
  type WebTaskStatusView,
} from '../../protocol/webtask-panel/webtask-messages';
import { webTaskState } from '../../protocol/webtask-panel/webtask-states';
import { formatDuration } from '../shared/format';

/** The phases' names, from the one table every surface reads (a function: the bundle arrives with `init`). */
export const phaseLabels = (): Record<WebTaskPhase, string> =>
  Object.fromEntries(WEB_TASK_PHASES.map((p) => [p, webTaskState(p).name])) as Record<WebTaskPhase, string>;

export const issueWords = (): Record<IssueKind, string> => ({
  missing: l10n.t('missing'),
  null: l10n.t('null'),
  empty: l10n.t('empty'),
  'wrong-shape': l10n.t('wrong shape'),
});

/** "3 rows", "1 row". */
export const rowsText = (n: number): string =>
  n === 1 ? l10n.t('{0} row', n.toLocaleString('en-US')) : l10n.t('{0} rows', n.toLocaleString('en-US'));

/** A time of day as the person's locale writes it, with seconds. */
export const clockTime = (ms: number): string => new Date(ms).toLocaleTimeString();

/** A date and time as the person's locale writes it. */
export const dateTime = (ms: number): string => new Date(ms).toLocaleString();

/** What the live region says when a run's phase changes. */
export function phaseAnnouncement(s: WebTaskStatusView): string {
  const words = l10n.t('Web task: {0}.', phaseLabels()[s.phase]);
  if (s.phase === 'needs-you') return l10n.t('{0} The task waits for you in the live browser.', words);
  if (s.phase === 'needs-person') return l10n.t('{0} The task is over; the app needs a person.', words);
  return words;
}

/** "Started 10:02:03 · 45 s" while live; "Finished 10:03:00 · took 57 s" once ended. */
export function timeText(s: WebTaskStatusView, now: number): string {
  if (s.finishedAt !== undefined) {
    const ms = s.finishedAt - s.startedAt;
    // (a run answered within a second did not take "0 s")
    const took = ms < 1000 ? l10n.t('under 1 s') : formatDuration(ms / 1000);
    return l10n.t('Finished {0} · took {1}', clockTime(s.finishedAt), took);
  }
  return l10n.t('Started {0} · {1}', clockTime(s.startedAt), formatDuration((now - s.startedAt) / 1000));
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

const emptyWarnings = (): Record<NonNullable<ResultCheck['empty']>, string> => ({
  'no-rows': l10n.t('No rows came back.'),
  'all-empty': l10n.t('Every field came back empty — check the schema’s descriptions and the query.'),
});

export function resultSummary(rowCount: number, check: ResultCheck | undefined): ResultSummary {
  const out: ResultSummary = { rows: rowsText(rowCount), issues: [] };
  if (!check) {
    if (rowCount === 0) out.warning = emptyWarnings()['no-rows'];
    return out;
  }
  const t = check.totals;
  const counts: [number, IssueKind][] = [
    [t.missing, 'missing'],
    [t.null, 'null'],
    [t.empty, 'empty'],
    [t.wrongShape, 'wrong-shape'],
  ];
  const words = issueWords();
  out.issues = counts.filter(([n]) => n > 0).map(([n, k]) => `${n.toLocaleString('en-US')} ${words[k]}`);
  if (check.rowsWithIssues > 0)
    out.rowsWithIssues = l10n.t('{0} with issues', rowsText(check.rowsWithIssues));
  if (check.empty) out.warning = emptyWarnings()[check.empty];
  if (check.extraFields.length > 0)
    out.extra = l10n.t('Fields not in the schema: {0}', check.extraFields.join(', '));
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
  if (!c.previous) return c.message ?? l10n.t('There is no earlier run to compare with.');
  const by =
    c.keyField !== undefined
      ? c.keySource === 'inferred'
        ? l10n.t('matched by key `{0}`, inferred', c.keyField)
        : l10n.t('matched by key `{0}`', c.keyField)
      : l10n.t('matched as whole records');
  return l10n.t(
    'vs run of {0}: {1} added, {2} removed, {3} changed, {4} unchanged ({5})',
    dateTime(c.previous.startedAt),
    c.added.length,
    c.removed.length,
    c.changed.length,
    c.unchanged,
    by,
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
