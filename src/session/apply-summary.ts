/**
 * An apply plan in words, for the modal the person answers before anything is written: what
 * happens (counts and lines), the conflicts, what is skipped or refused and why, and what needs
 * their confirmation. Plain sentences, one a line, like `error-text.ts`. No `vscode` import.
 */
import { plural } from './apply-decide';
import type { ApplyPlan } from './apply-types';

/** How many paths or messages one line or list names before "and N more". */
const MAX_LISTED = 5;

/**
 * The plan as lines joined by `\n`, such as:
 *
 *     3 new, 2 changed, 1 deletion (+40 −12 lines).
 *     1 conflict in src/a.ts.
 *     Needs your confirmation:
 *     Delete src/old.ts (it has unsaved changes).
 */
export function summaryText(plan: ApplyPlan): string {
  const s = plan.summary;
  const lines: string[] = [];
  const parts = [
    s.newFiles ? `${s.newFiles} new` : '',
    s.changed ? `${s.changed} changed` : '',
    s.deleted ? plural(s.deleted, 'deletion') : '',
  ].filter(Boolean);
  if (parts.length > 0) lines.push(`${parts.join(', ')} (+${s.added} −${s.removed} lines).`);
  else lines.push(plan.entries.length > 0 || plan.leftOut > 0 ? 'Nothing to apply.' : 'No files to apply.');
  if (s.conflicts) {
    const where = s.conflictFiles.map((f) => withLines(f, plan));
    lines.push(`${plural(s.conflicts, 'conflict')} in ${listed(where, 'file')}.`);
  }
  if (s.identical) {
    lines.push(`${plural(s.identical, 'file')} ${s.identical === 1 ? 'needs' : 'need'} no change.`);
  }
  if (s.dirty) {
    const verb = s.dirty === 1 ? 'has' : 'have';
    lines.push(`${plural(s.dirty, 'file')} ${verb} unsaved changes: the edit goes into the editor, unsaved.`);
  }
  const problems = plan.entries.filter((e) => e.action === 'refused' || e.action === 'failed');
  if (problems.length > 0) {
    const lead = [s.refused ? `${s.refused} refused` : '', s.failed ? `${s.failed} failed` : ''];
    lines.push(`Not applied: ${lead.filter(Boolean).join(', ')}.`);
    lines.push(...capped(problems.map((e) => e.reason ?? e.path)));
  }
  if (plan.leftOut) {
    lines.push(
      `${plural(plan.leftOut, 'more file')} left out: Den applies at most ${plural(plan.maxFiles, 'file')} at once.`,
    );
  }
  if (s.needsConfirmation.length > 0) {
    lines.push('Needs your confirmation:');
    lines.push(...capped(s.needsConfirmation));
  }
  return lines.join('\n');
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
  const many = ranges.length > 1 || ranges[0].includes('–');
  return `${relPath} (${many ? 'lines' : 'line'} ${ranges.length > 1 ? `${ranges.slice(0, -1).join(', ')} and ${ranges.at(-1)}` : ranges[0]})`;
}

/** `a, b and c`, or the first few and "N more files". */
function listed(items: readonly string[], noun: string): string {
  if (items.length <= MAX_LISTED) {
    return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items[0];
  }
  const more = items.length - MAX_LISTED + 1;
  return `${items.slice(0, MAX_LISTED - 1).join(', ')} and ${more} more ${noun}s`;
}

/** The lines, or the first few and "… and N more." */
function capped(items: readonly string[]): string[] {
  if (items.length <= MAX_LISTED) return [...items];
  const more = items.length - MAX_LISTED + 1;
  return [...items.slice(0, MAX_LISTED - 1), `… and ${more} more.`];
}
