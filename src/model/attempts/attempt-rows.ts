/**
 * The comparison of a task's attempts, as the Attempts view shows it: per attempt its state, how
 * long its first turn ran, its files with the lines applying would add and remove, the conflicts
 * against the workspace and the answer's first lines; the chosen attempt first. Pure: the editor
 * supplies each session's file states (`model/session-files/file-status.ts`) and the time.
 */
import { l10n, formatCount } from '../../core/shared/l10n';
import type { Turn } from '../../core/transcript/model';
import type { FileStatus, FileStatuses } from '../session-files/file-status';
import { MAX_ANSWER_CHARS, isEndedState, type AttemptGroup, type AttemptState } from './attempt-store';

/** One of an attempt's files and its state against the workspace. */
export interface AttemptFile extends FileStatus {
  path: string;
}

export interface AttemptRow {
  sessionId: string;
  /** 1-based, in the order the attempts were started (it does not change when one is chosen). */
  number: number;
  of: number;
  state: AttemptState;
  /** From the group's start to the first turn's end (or now, while it runs); ms. */
  durationMs: number;
  chosen: boolean;
  /** Sorted by path; undefined: the file states are not known (yet, or without a folder). */
  files?: AttemptFile[];
  added: number;
  removed: number;
  /** Conflict hunks over all files. */
  conflicts: number;
  /** Files in conflict. */
  conflictedFiles: number;
  /** The answer's first lines (or why it failed). */
  answer: string;
}

/** The rows of a group: the chosen attempt first, then in the order started. */
export function attemptRows(
  group: AttemptGroup,
  statuses: (sessionId: string) => FileStatuses | undefined,
  now: number,
): AttemptRow[] {
  const rows = group.attempts.map((a, i): AttemptRow => {
    const known = statuses(a.sessionId);
    const files = known && [...known].map(([path, s]) => ({ ...s, path })).sort(byPath);
    const sum = (f: (x: AttemptFile) => number): number => (files ?? []).reduce((n, x) => n + f(x), 0);
    return {
      sessionId: a.sessionId,
      number: i + 1,
      of: group.attempts.length,
      state: a.state,
      durationMs: Math.max(
        0,
        (a.endedAt ?? (isEndedState(a.state) ? group.createdAt : now)) - group.createdAt,
      ),
      chosen: group.chosen === a.sessionId,
      ...(files ? { files } : {}),
      added: sum((x) => x.added),
      removed: sum((x) => x.removed),
      conflicts: sum((x) => (x.state === 'conflicts' ? (x.conflicts ?? 1) : 0)),
      conflictedFiles: sum((x) => (x.state === 'conflicts' ? 1 : 0)),
      answer: a.answer ?? '',
    };
  });
  return rows.sort((a, b) => Number(b.chosen) - Number(a.chosen) || a.number - b.number);
}

function byPath(a: AttemptFile, b: AttemptFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The state of an attempt from its first turn. */
export function attemptStateOf(turn: Pick<Turn, 'status' | 'needsInput'>): AttemptState {
  if (turn.needsInput !== undefined && !['completed', 'error', 'aborted'].includes(turn.status))
    return 'needsInput';
  return turn.status;
}

/** The first non-empty lines of a turn's answer (its markdown blocks), bounded; else its error. */
export function answerHead(turn: Pick<Turn, 'blocks' | 'error'>, lines = 3): string {
  const text = turn.blocks
    .filter((b) => b.type === 'markdown')
    .map((b) => (b as { text: string }).text)
    .join('\n');
  const head = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, lines)
    .join('\n');
  return (head || turn.error?.message || '').slice(0, MAX_ANSWER_CHARS);
}

/** An attempt's state in words. */
export function attemptStateWord(s: AttemptState): string {
  switch (s) {
    case 'starting':
      return l10n.t('starting');
    case 'queued':
      return l10n.t('queued');
    case 'running':
      return l10n.t('running');
    case 'needsInput':
      return l10n.t('needs input');
    case 'completed':
      return l10n.t('completed');
    case 'error':
      return l10n.t('failed');
    case 'aborted':
      return l10n.t('stopped');
    case 'failed':
      return l10n.t('did not start');
  }
}

/** A duration, short: `45 s`, `3 min 5 s`, `1 h 2 min`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return l10n.t('{0} s', formatCount(s));
  const m = Math.floor(s / 60);
  if (m < 60) return l10n.t('{0} min {1} s', formatCount(m), formatCount(s % 60));
  return l10n.t('{0} h {1} min', formatCount(Math.floor(m / 60)), formatCount(m % 60));
}

/** The files' summary: `2 files +14 −3`, `no files`, or undefined when not known. */
export function filesSummary(row: AttemptRow): string | undefined {
  if (!row.files) return undefined;
  const n = row.files.length;
  if (n === 0) return l10n.t('no files');
  const files = n === 1 ? l10n.t('1 file') : l10n.t('{0} files', formatCount(n));
  return [files, `+${formatCount(row.added)}`, `\u2212${formatCount(row.removed)}`].join(' ');
}

/** The conflicts against the workspace: `1 conflict`, `3 conflicts`; empty without any. */
export function conflictsSummary(row: AttemptRow): string {
  if (row.conflicts === 0) return '';
  return row.conflicts === 1 ? l10n.t('1 conflict') : l10n.t('{0} conflicts', formatCount(row.conflicts));
}

/** The attempt's line in the view: `completed · 12 s · 2 files +14 −3 · 1 conflict`. */
export function rowDescription(row: AttemptRow): string {
  return [
    attemptStateWord(row.state),
    formatDuration(row.durationMs),
    filesSummary(row),
    conflictsSummary(row),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The attempt's label (its number of the count), marked when chosen. */
export function rowLabel(row: Pick<AttemptRow, 'number' | 'of' | 'chosen'>): string {
  return row.chosen
    ? l10n.t('Attempt {0} of {1} (chosen)', formatCount(row.number), formatCount(row.of))
    : l10n.t('Attempt {0} of {1}', formatCount(row.number), formatCount(row.of));
}
