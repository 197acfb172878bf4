import assert from 'node:assert/strict';
import type { Session } from '../../../../src/core/client/types';
import {
  dayGroup,
  groupSessions,
  type HistoryScope,
  type SessionGroup,
} from '../../../../src/model/sessions-list/history-groups';
import { SessionList } from '../../../../src/model/sessions-list/session-list';

/** Local time (whatever TZ says), so the cases hold in every time zone. */
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  new Date(y, mo - 1, d, h, mi, s, ms).getTime();

function session(id: string, updatedAt: number, isPinned = false): Session {
  return {
    id,
    sessionId: id,
    title: id,
    createdAt: updatedAt,
    updatedAt,
    deleted: false,
    isPinned,
    fileSnapshot: {},
  };
}

function scope(
  o: { workspaceOnly?: boolean; local?: string[]; archived?: string[]; webTasks?: string[] } = {},
): HistoryScope {
  return {
    workspaceOnly: o.workspaceOnly ?? false,
    isLocal: (id) => (o.local ?? []).includes(id),
    isArchived: (id) => (o.archived ?? []).includes(id),
    ...(o.webTasks ? { isWebTask: (id: string) => o.webTasks!.includes(id) } : {}),
  };
}

const shape = (groups: { group: SessionGroup; sessions: Session[] }[]) =>
  groups.map((g) => [g.group, g.sessions.map((s) => s.sessionId)]);

/** Runs `body` with the process's time zone set to `tz` (Node reads TZ on each date call). */
function inZone(tz: string, body: () => void): void {
  const saved = process.env.TZ;
  process.env.TZ = tz;
  try {
    body();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe('history groups (Today, Yesterday, Last 7 Days, Older)', () => {
  const now = at(2026, 3, 10, 0, 0, 5); // 5 s past midnight, Tuesday 10 March

  const cases: [string, number, ReturnType<typeof dayGroup>][] = [
    ['midnight today', at(2026, 3, 10), 'today'],
    ['a millisecond before midnight', at(2026, 3, 9, 23, 59, 59, 999), 'yesterday'],
    ['a later time today (the clock ahead)', at(2026, 3, 10, 18), 'today'],
    ['yesterday at midnight', at(2026, 3, 9), 'yesterday'],
    ['just before yesterday', at(2026, 3, 8, 23, 59, 59, 999), 'week'],
    ['six days back at midnight (the 7th day)', at(2026, 3, 4), 'week'],
    ['just before the 7 days', at(2026, 3, 3, 23, 59, 59, 999), 'older'],
    ['a year ago', at(2025, 3, 10, 12), 'older'],
  ];
  for (const [name, t, expected] of cases) {
    it(`puts ${name} in ${expected}`, () => assert.equal(dayGroup(t, now), expected));
  }

  it('counts calendar days, not 24-hour spans, across a daylight-saving change', () => {
    inZone('America/New_York', () => {
      // Clocks went forward on Sunday 8 March 2026: that day had 23 hours.
      const monday = at(2026, 3, 9, 0, 30);
      assert.equal(dayGroup(at(2026, 3, 8, 0, 0), monday), 'yesterday');
      assert.equal(dayGroup(at(2026, 3, 7, 23, 59), monday), 'week');
      assert.equal(dayGroup(at(2026, 3, 8, 12), at(2026, 3, 8, 23, 59)), 'today');
      // 24 hours before Monday 00:30 is Saturday 23:30 here: still not "yesterday".
      assert.equal(dayGroup(monday - 24 * 3_600_000, monday), 'week');
    });
  });

  it('groups by the local day of the time zone in effect', () => {
    const utcNow = Date.UTC(2026, 2, 10, 3, 0); // 03:00 UTC on the 10th
    const t = Date.UTC(2026, 2, 9, 23, 0); // 23:00 UTC on the 9th
    inZone('UTC', () => assert.equal(dayGroup(t, utcNow), 'yesterday'));
    // In New York both are on the 9th (22:00 and 18:00 local).
    inZone('America/New_York', () => assert.equal(dayGroup(t, utcNow), 'today'));
    // In Tokyo both are on the 10th (12:00 and 08:00 local).
    inZone('Asia/Tokyo', () => assert.equal(dayGroup(t, utcNow), 'today'));
  });

  it('lists each group once, in order, pinned first and archived last, sessions in list order', () => {
    const list = [
      session('p-old', at(2025, 1, 1), true),
      session('t1', at(2026, 3, 10, 0, 0, 1)),
      session('y1', at(2026, 3, 9, 12)),
      session('t2', at(2026, 3, 10, 0, 0, 0)),
      session('o1', at(2026, 2, 1)),
      session('w1', at(2026, 3, 5)),
      session('a1', at(2026, 3, 10, 0, 0, 2)),
    ];
    assert.deepEqual(shape(groupSessions(list, scope({ archived: ['a1'] }), now)), [
      ['pinned', ['p-old']],
      ['today', ['t1', 't2']],
      ['yesterday', ['y1']],
      ['week', ['w1']],
      ['older', ['o1']],
      ['archived', ['a1']],
    ]);
    assert.deepEqual(shape(groupSessions([], scope(), now)), []);
  });

  it('This Workspace shows only sessions started here, and pinned ones; All Sessions shows every one', () => {
    const list = [
      session('here', at(2026, 3, 10, 0, 0, 1)),
      session('web-app', at(2026, 3, 10, 0, 0, 2)),
      session('pinned-elsewhere', at(2026, 3, 1), true),
      session('here-archived', at(2026, 3, 9)),
      session('elsewhere-archived', at(2026, 3, 9)),
    ];
    const o = { local: ['here', 'here-archived'], archived: ['here-archived', 'elsewhere-archived'] };
    assert.deepEqual(shape(groupSessions(list, scope({ ...o, workspaceOnly: true }), now)), [
      ['pinned', ['pinned-elsewhere']],
      ['today', ['here']],
      ['archived', ['here-archived']],
    ]);
    assert.deepEqual(shape(groupSessions(list, scope(o), now)), [
      ['pinned', ['pinned-elsewhere']],
      ['today', ['here', 'web-app']],
      ['archived', ['here-archived', 'elsewhere-archived']],
    ]);
  });

  it('puts web tasks’ own sessions under Web Tasks, after the days and before Archived, in either scope', () => {
    const list = [
      session('run-1', at(2026, 3, 10, 0, 0, 3)),
      session('chat', at(2026, 3, 10, 0, 0, 2)),
      session('run-pinned', at(2026, 3, 10, 0, 0, 1), true),
      session('run-archived', at(2026, 3, 9)),
      session('run-2', at(2026, 2, 1)),
    ];
    const o = {
      local: ['chat'],
      archived: ['run-archived'],
      webTasks: ['run-1', 'run-2', 'run-pinned', 'run-archived'],
    };
    const all = [
      ['pinned', ['run-pinned']],
      ['today', ['chat']],
      ['webtasks', ['run-1', 'run-2']],
      ['archived', ['run-archived']],
    ];
    assert.deepEqual(shape(groupSessions(list, scope(o), now)), all);
    // Runs recorded in this workspace are its sessions: This Workspace lists them too, grouped.
    assert.deepEqual(shape(groupSessions(list, scope({ ...o, workspaceOnly: true }), now)), all);
    // Without the marks, the same sessions crowd the days.
    assert.deepEqual(shape(groupSessions(list, scope({ ...o, webTasks: [] }), now)), [
      ['pinned', ['run-pinned']],
      ['today', ['run-1', 'chat']],
      ['older', ['run-2']],
      ['archived', ['run-archived']],
    ]);
  });

  it('fills the groups as pages load, with no group or session twice', async () => {
    // 30 sessions, one every 7 hours back from `now`, 10 a page; page 2 lists page 1's last again
    // (a session that moved between pages), and page 3 the rest.
    const all = Array.from({ length: 30 }, (_, i) => session(`s${i}`, now - i * 7 * 3_600_000));
    const pages = [all.slice(0, 10), all.slice(9, 19), all.slice(19)];
    const list = new SessionList(async (q) => {
      const page = q.page ?? 1;
      return { sessions: pages[page - 1], currentPage: page, totalPages: 3, totalCount: 30 };
    }, 10);
    await list.reload();
    const first = groupSessions(list.sessions, scope(), now);
    assert.deepEqual(
      first.map((g) => g.group),
      ['today', 'yesterday', 'week'],
    );
    await list.loadMore();
    await list.loadMore();
    const groups = groupSessions(list.sessions, scope(), now);
    assert.deepEqual(
      groups.map((g) => g.group),
      ['today', 'yesterday', 'week', 'older'],
    );
    const ids = groups.flatMap((g) => g.sessions.map((s) => s.sessionId));
    assert.equal(new Set(ids).size, ids.length, 'a session is listed twice');
    assert.equal(ids.length, 30);
    // The first page's sessions stay where they were.
    for (const g of first) {
      const later = groups.find((x) => x.group === g.group);
      assert.deepEqual(
        later?.sessions.slice(0, g.sessions.length).map((s) => s.sessionId),
        g.sessions.map((s) => s.sessionId),
      );
    }
  });
});
