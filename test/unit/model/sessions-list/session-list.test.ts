import assert from 'node:assert/strict';
import type { ListSessionsQuery, Session, SessionPage } from '../../../../src/core/client/types';
import { SessionList } from '../../../../src/model/sessions-list/session-list';
import { firstLine, formatBytes, relativeTime, validateTitle } from '../../../../src/core/shared/format';

function session(n: number, extra: Partial<Session> = {}): Session {
  return {
    id: `db${n}`,
    sessionId: `s-${n}`,
    title: `Session ${n}`,
    createdAt: n,
    updatedAt: n,
    deleted: false,
    isPinned: false,
    fileSnapshot: {},
    ...extra,
  };
}

/** A fake server page source over `all`, recording the queries it was asked. */
function pages(all: Session[], size: number) {
  const queries: ListSessionsQuery[] = [];
  const fetch = async (q: ListSessionsQuery): Promise<SessionPage> => {
    queries.push(q);
    const matching = all.filter((s) => !q.search || s.title.includes(q.search));
    const page = q.page ?? 1;
    return {
      sessions: matching.slice((page - 1) * size, page * size),
      totalCount: matching.length,
      totalPages: Math.ceil(matching.length / size),
      currentPage: page,
    };
  };
  return { fetch, queries };
}

describe('SessionList', () => {
  it('loads page by page, newest first, until every session is listed', async () => {
    const all = Array.from({ length: 25 }, (_, i) => session(i));
    const src = pages(all, 10);
    const list = new SessionList(src.fetch, 10);
    await list.reload();
    assert.equal(list.sessions.length, 10);
    assert.ok(list.hasMore);
    for (let i = 0; i < 5 && list.hasMore; i++) await list.loadMore();
    assert.equal(list.sessions.length, 25);
    assert.equal(list.hasMore, false);
    assert.deepEqual(
      src.queries.map((q) => [q.page, q.limit, q.sort, q.order]),
      [
        [1, 10, 'updatedAt', 'desc'],
        [2, 10, 'updatedAt', 'desc'],
        [3, 10, 'updatedAt', 'desc'],
      ],
    );
  });

  it('hides deleted sessions and lists a session that moved between pages once', async () => {
    const all = [
      session(1),
      session(2, { deleted: true }),
      session(3),
      session(1, { title: 'moved' }),
      session(4),
    ];
    const list = new SessionList(pages(all, 2).fetch, 2);
    await list.reload();
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(
      list.sessions.map((s) => s.sessionId),
      ['s-1', 's-3', 's-4'],
    );
    assert.equal(list.get('s-1')?.title, 'moved');
  });

  it('sends the search filter and starts over from page one', async () => {
    const all = [session(1, { title: 'auth fix' }), session(2), session(3, { title: 'auth docs' })];
    const src = pages(all, 10);
    const list = new SessionList(src.fetch, 10);
    list.setFilter('  auth ');
    await list.reload();
    assert.equal(list.filter, 'auth');
    assert.equal(src.queries[0].search, 'auth');
    assert.deepEqual(
      list.sessions.map((s) => s.title),
      ['auth fix', 'auth docs'],
    );
    list.setFilter('   ');
    assert.equal(list.filter, undefined);
  });

  it('updates and removes sessions in place', async () => {
    const list = new SessionList(pages([session(1), session(2), session(3)], 10).fetch, 10);
    await list.reload();
    list.update({ ...session(2), title: 'renamed' });
    assert.equal(list.get('s-2')?.title, 'renamed');
    assert.equal(list.remove('s-1'), true);
    assert.equal(list.remove('s-1'), false);
    assert.equal(list.totalCount, 2);
    assert.equal(list.get('s-3')?.sessionId, 's-3', 'index rebuilt after removal');
  });

  it('drops the answer of a reload that a newer reload overtook', async () => {
    let release: (() => void) | undefined;
    const slow: SessionPage = { sessions: [session(9)], totalCount: 1, totalPages: 1, currentPage: 1 };
    let calls = 0;
    const list = new SessionList(async () => {
      calls++;
      if (calls === 1) await new Promise<void>((r) => (release = r));
      return calls === 1 ? slow : { sessions: [session(1)], totalCount: 1, totalPages: 1, currentPage: 1 };
    }, 10);
    const first = list.reload();
    await list.reload();
    release?.();
    await first;
    assert.deepEqual(
      list.sessions.map((s) => s.sessionId),
      ['s-1'],
    );
  });
});

describe('tree formatting', () => {
  const now = Date.UTC(2026, 10, 22, 12);
  const rel: [number, string][] = [
    [now - 10_000, 'just now'],
    [now - 5 * 60_000, '5 min ago'],
    [now - 3 * 3600_000, '3 h ago'],
    [now - 2 * 86400_000, '2 d ago'],
    [Date.UTC(2026, 0, 2), '2026-01-02'],
  ];
  for (const [t, text] of rel) it(`says ${text}`, () => assert.equal(relativeTime(t, now), text));

  it('formats sizes and first lines', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(200 * 1024 * 1024), '200 MB');
    assert.equal(firstLine('  fix the bug\nand more'), 'fix the bug');
    assert.equal(firstLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
  });

  it('validates titles a person types', () => {
    assert.equal(validateTitle('New name'), undefined);
    assert.match(validateTitle('   ') ?? '', /empty/);
    assert.match(validateTitle('x'.repeat(201)) ?? '', /200/);
    assert.match(validateTitle('a\u0007b') ?? '', /control/);
  });
});
