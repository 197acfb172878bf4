/**
 * Reviewed marks as both sides of the panel see them: which version of an agent's file a mark names,
 * the marks of a session as the host sends them (`reviewed` delta), and "3 of 5 reviewed" in words.
 * The rules are in `src/model/review/review-marks.ts`; this is the part the webview needs too.
 * No `vscode` import: the webview bundle uses it.
 */
import { formatCount, l10n } from '../../core/shared/l10n';

/** A version of an agent's file: its key and `updatedAt`, or that the agent deleted it. */
export interface ReviewedVersionOf {
  key?: string;
  updatedAt?: number;
  /** A deletion (a turn's `change: 'deleted'`, a session's deleted path). */
  deleted?: boolean;
}

/** The marks of one path of a session: the versions marked reviewed (oldest first). */
export interface ReviewedView {
  path: string;
  versions: string[];
}

/**
 * The identity of a version a mark is kept for: its key and `updatedAt` (what Den already names a
 * version by, `?key=…&updatedAt=…`); every deletion of a path is one version, `deleted`.
 */
export function reviewVersion(v: ReviewedVersionOf): string {
  if (v.deleted) return 'deleted';
  return `${v.key ?? ''}@${v.updatedAt ?? ''}`;
}

/**
 * A path as marks are kept by: `/`-separated, no empty or `.` segment, no leading `/` (a turn may
 * name `/workspace/src/a.ts` where the session's files say `workspace/src/a.ts`).
 */
export function reviewPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** Whether `version` of `path` is marked reviewed in `marks` (by path). */
export function isMarked(
  marks: ReadonlyMap<string, readonly string[]>,
  path: string,
  version: ReviewedVersionOf,
): boolean {
  return marks.get(reviewPath(path))?.includes(reviewVersion(version)) ?? false;
}

/** The marks as a map by path (what the host sends, as the webview and the model read it). */
export function marksByPath(views: readonly ReviewedView[]): Map<string, readonly string[]> {
  return new Map(views.map((v) => [reviewPath(v.path), v.versions]));
}

/** "3 of 5 reviewed": how many of a turn's files are marked reviewed. */
export function reviewedCountText(reviewed: number, total: number): string {
  return l10n.t('{0} of {1} reviewed', formatCount(reviewed), formatCount(total));
}
