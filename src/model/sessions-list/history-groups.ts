import type { Session } from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';

/** A group of the Sessions view's root, in the order shown. */
export type SessionGroup = 'pinned' | 'today' | 'yesterday' | 'week' | 'older' | 'webtasks' | 'archived';

export const GROUP_ORDER: readonly SessionGroup[] = [
  'pinned',
  'today',
  'yesterday',
  'week',
  'older',
  'webtasks',
  'archived',
];

/** The groups' names, translated when read (getters: the bundle is set at activation). */
export const GROUP_LABELS: Readonly<Record<SessionGroup, string>> = {
  get pinned() {
    return l10n.t('Pinned');
  },
  get today() {
    return l10n.t('Today');
  },
  get yesterday() {
    return l10n.t('Yesterday');
  },
  get week() {
    return l10n.t('Last 7 Days');
  },
  get older() {
    return l10n.t('Older');
  },
  get webtasks() {
    return l10n.t('Web Tasks');
  },
  get archived() {
    return l10n.t('Archived');
  },
};

/**
 * The day group of a time, by local calendar days before `now`'s day: today (and the future),
 * yesterday, the 5 days before (with today and yesterday, the last 7 days), older. Days are counted
 * with the calendar, so a 23- or 25-hour day (daylight saving) moves no boundary.
 */
export function dayGroup(at: number, now: number): 'today' | 'yesterday' | 'week' | 'older' {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  if (at >= day.getTime()) return 'today';
  day.setDate(day.getDate() - 1);
  if (at >= day.getTime()) return 'yesterday';
  day.setDate(day.getDate() - 5);
  return at >= day.getTime() ? 'week' : 'older';
}

/** Which of the loaded sessions the view shows, and where. */
export interface HistoryScope {
  /** Only sessions started from this workspace (`isLocal`); pinned ones are always shown. */
  readonly workspaceOnly: boolean;
  isLocal(sessionId: string): boolean;
  /** Archived here (hidden locally): listed in the Archived group only. */
  isArchived(sessionId: string): boolean;
  /**
   * The session is a web task's own (the session of a `/lam/run` run Den recorded here): listed in
   * the Web Tasks group, not among the day's sessions, and counted as this workspace's.
   */
  isWebTask?(sessionId: string): boolean;
}

/** The group a session is shown in, or undefined when the scope hides it. */
export function groupOf(s: Session, scope: HistoryScope, now: number): SessionGroup | undefined {
  const webTask = scope.isWebTask?.(s.sessionId) ?? false;
  if (scope.workspaceOnly && !s.isPinned && !webTask && !scope.isLocal(s.sessionId)) return undefined;
  if (scope.isArchived(s.sessionId)) return 'archived';
  if (s.isPinned) return 'pinned';
  return webTask ? 'webtasks' : dayGroup(s.updatedAt, now);
}

/**
 * The loaded sessions in their groups: each group once, in `GROUP_ORDER`, its sessions in list
 * order (newest first), empty groups left out. Loading another page only adds to the groups.
 */
export function groupSessions(
  sessions: readonly Session[],
  scope: HistoryScope,
  now: number,
): { group: SessionGroup; sessions: Session[] }[] {
  const by = new Map<SessionGroup, Session[]>();
  for (const s of sessions) {
    const g = groupOf(s, scope, now);
    if (!g) continue;
    const list = by.get(g);
    if (list) list.push(s);
    else by.set(g, [s]);
  }
  return GROUP_ORDER.flatMap((group) => {
    const list = by.get(group);
    return list ? [{ group, sessions: list }] : [];
  });
}

/** Whether none of `sessions` shows in `scope` now. */
export function noneInScope(sessions: readonly Session[], scope: HistoryScope, now: number): boolean {
  return !sessions.some((s) => groupOf(s, scope, now) !== undefined);
}

/** How many of `sessions` All Sessions shows that `scope` (This Workspace) does not. */
export function countElsewhere(sessions: readonly Session[], scope: HistoryScope, now: number): number {
  const all = { ...scope, workspaceOnly: false };
  let n = 0;
  for (const s of sessions)
    if (groupOf(s, scope, now) === undefined && groupOf(s, all, now) !== undefined) n++;
  return n;
}
