/**
 * An apply plan in words, for the modal the person answers before anything is written: what
 * happens (counts and lines), the conflicts, what is skipped or refused and why, and what needs
 * their confirmation. Plain sentences, one a line, like `error-text.ts`. No `vscode` import.
 */
import { show } from '../../core/paths/path-safety';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { ApplyPlan, PlanEntry } from './apply-types';

/** How many paths or messages one line or list names before "and N more". */
const MAX_LISTED = 5;

/**
 * The plan as lines joined by `\n`, such as:
 *
 *     1 file can run code: Den writes it only if you confirm it separately.
 *     .vscode/tasks.json: a task can run by itself when the folder opens
 *     3 new, 2 changed, 1 deletion (+40 −12 lines).
 *     1 conflict in src/a.ts.
 *     Needs your confirmation:
 *     Delete src/old.ts (it has unsaved changes).
 */
export function summaryText(plan: ApplyPlan): string {
  const s = plan.summary;
  const lines: string[] = [];
  // First: the files that can run code, every one, with why.
  if (s.runsCode.length > 0) {
    lines.push(
      s.runsCode.length === 1
        ? l10n.t('1 file can run code: Den writes it only if you confirm it separately.')
        : l10n.t(
            '{0} files can run code: Den writes them only if you confirm them separately.',
            formatCount(s.runsCode.length),
          ),
    );
    lines.push(...s.runsCode);
  }
  const parts = [
    s.newFiles ? l10n.t('{0} new', formatCount(s.newFiles)) : '',
    s.changed ? l10n.t('{0} changed', formatCount(s.changed)) : '',
    s.deleted
      ? s.deleted === 1
        ? l10n.t('1 deletion')
        : l10n.t('{0} deletions', formatCount(s.deleted))
      : '',
  ].filter(Boolean);
  if (parts.length > 0) {
    lines.push(
      l10n.t('{0} (+{1} −{2} lines).', parts.join(', '), formatCount(s.added), formatCount(s.removed)),
    );
  } else {
    lines.push(
      plan.entries.length > 0 || plan.leftOut > 0
        ? l10n.t('Nothing to apply.')
        : l10n.t('No files to apply.'),
    );
  }
  if (s.conflicts) {
    const where = listed(s.conflictFiles.map((f) => withLines(f, plan)));
    lines.push(
      s.conflicts === 1
        ? l10n.t('1 conflict in {0}.', where)
        : l10n.t('{0} conflicts in {1}.', formatCount(s.conflicts), where),
    );
  }
  if (s.identical) {
    lines.push(
      s.identical === 1
        ? l10n.t('1 file needs no change.')
        : l10n.t('{0} files need no change.', formatCount(s.identical)),
    );
  }
  if (s.dirty) {
    lines.push(
      s.dirty === 1
        ? l10n.t('1 file has unsaved changes: the edit goes into the editor, unsaved.')
        : l10n.t(
            '{0} files have unsaved changes: the edit goes into the editor, unsaved.',
            formatCount(s.dirty),
          ),
    );
  }
  const problems = plan.entries.filter((e) => e.action === 'refused' || e.action === 'failed');
  if (problems.length > 0) {
    const lead = [
      s.refused ? l10n.t('{0} refused', formatCount(s.refused)) : '',
      s.failed ? l10n.t('{0} failed', formatCount(s.failed)) : '',
    ];
    lines.push(l10n.t('Not applied: {0}.', lead.filter(Boolean).join(', ')));
    const reasons = problems.map((e) => e.reason ?? e.path);
    if (reasons.length <= MAX_LISTED) lines.push(...reasons);
    else {
      const more = formatCount(reasons.length - MAX_LISTED + 1);
      lines.push(...reasons.slice(0, MAX_LISTED - 1));
      lines.push(l10n.t('… and {0} more: Show All Refused lists every one.', more));
    }
  }
  if (plan.leftOut) {
    const n = formatCount(plan.leftOut);
    const max = formatCount(plan.maxFiles);
    lines.push(
      plan.leftOut === 1
        ? plan.maxFiles === 1
          ? l10n.t('1 more file left out: Den applies at most 1 file at once.')
          : l10n.t('1 more file left out: Den applies at most {0} files at once.', max)
        : plan.maxFiles === 1
          ? l10n.t('{0} more files left out: Den applies at most 1 file at once.', n)
          : l10n.t('{0} more files left out: Den applies at most {1} files at once.', n, max),
    );
  }
  if (s.needsConfirmation.length > 0) {
    lines.push(l10n.t('Needs your confirmation:'));
    lines.push(...capped(s.needsConfirmation));
  }
  return lines.join('\n');
}

/** The refused and failed entries: the summary names the first few, `problemsText` every one. */
export function problemsOf(plan: ApplyPlan): PlanEntry[] {
  return plan.entries.filter((e) => e.action === 'refused' || e.action === 'failed');
}

/** Whether the summary leaves some refused or failed paths unnamed (then offer `problemsText`). */
export function problemsCapped(plan: ApplyPlan): boolean {
  return problemsOf(plan).length > MAX_LISTED;
}

/**
 * Every refused or failed path and why, for a document the person reads before (or after)
 * confirming: a heading (`title`), then one path a line, then its reason.
 */
export function problemsText(plan: ApplyPlan, title: string): string {
  const problems = problemsOf(plan);
  const lines = [title, ''];
  for (const e of problems) {
    lines.push(
      `${e.action === 'refused' ? l10n.t('refused') : l10n.t('failed')}  ${show(e.relPath ?? e.path)}`,
    );
    lines.push(`    ${e.reason ?? ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A conflicting file with the workspace lines in conflict, 1-based as editors count:
 * `src/a.ts (lines 3–5 and 12)`; an insertion stands at the line before which it goes.
 */
function withLines(relPath: string, plan: ApplyPlan): string {
  const entry = plan.entries.find((e) => e.relPath === relPath && e.conflicts?.length);
  if (!entry?.conflicts) return relPath;
  const ranges = entry.conflicts.map(({ oursRange: r }) =>
    r.end - r.start > 1 ? `${r.start + 1}–${r.end}` : `${r.start + 1}`,
  );
  if (ranges.length === 1 && !ranges[0].includes('–')) return l10n.t('{0} (line {1})', relPath, ranges[0]);
  const all =
    ranges.length > 1
      ? l10n.t('{0} and {1}', ranges.slice(0, -1).join(', '), ranges[ranges.length - 1])
      : ranges[0];
  return l10n.t('{0} (lines {1})', relPath, all);
}

/** `a, b and c`, or the first few and "N more files". */
function listed(items: readonly string[]): string {
  if (items.length <= MAX_LISTED) {
    return items.length > 1
      ? l10n.t('{0} and {1}', items.slice(0, -1).join(', '), items[items.length - 1])
      : items[0];
  }
  const more = items.length - MAX_LISTED + 1;
  return l10n.t('{0} and {1} more files', items.slice(0, MAX_LISTED - 1).join(', '), formatCount(more));
}

/** The lines, or the first few and "… and N more." */
function capped(items: readonly string[]): string[] {
  if (items.length <= MAX_LISTED) return [...items];
  const more = items.length - MAX_LISTED + 1;
  return [...items.slice(0, MAX_LISTED - 1), l10n.t('… and {0} more.', formatCount(more))];
}
