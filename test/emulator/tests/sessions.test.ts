import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../index';
import { call, startTurn } from './helpers';

interface ListBody {
  sessions: {
    sessionId: string;
    title: string;
    updatedAt: number;
    createdAt: number;
    deleted: boolean;
    isPinned: boolean;
  }[];
  meta: { total_count: number; total_pages: number; current_page: number };
}

describe('emulator: session list and detail', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ extraSessions: 250, eventDelayMs: 0 });
  });
  after(() => emu.close());

  it('pages the list with meta counts and clamps the page size to 100', async () => {
    const first = await call<ListBody>(emu, 'GET', '/sessions?page=1&limit=100');
    const total = first.body.meta.total_count;
    assert.equal(total, 258);
    assert.equal(first.body.sessions.length, 100);
    assert.deepEqual(first.body.meta, { total_count: total, total_pages: 3, current_page: 1 });
    const last = await call<ListBody>(emu, 'GET', '/sessions?page=3&limit=100');
    assert.equal(last.body.sessions.length, total - 200);
    const clamped = await call<ListBody>(emu, 'GET', '/sessions?limit=5000');
    assert.equal(clamped.body.sessions.length, 100);
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const r = await call<ListBody>(emu, 'GET', `/sessions?page=${page}&limit=100`);
      for (const s of r.body.sessions) seen.add(s.sessionId);
    }
    assert.equal(seen.size, total);
  });

  it('sorts by updatedAt descending by default and honours sort and order', async () => {
    const isSorted = (xs: (number | string)[], dir: 1 | -1) =>
      xs.every((x, i) => i === 0 || (dir === 1 ? xs[i - 1] <= x : xs[i - 1] >= x));
    const def = await call<ListBody>(emu, 'GET', '/sessions?limit=50');
    assert.ok(
      isSorted(
        def.body.sessions.map((s) => s.updatedAt),
        -1,
      ),
    );
    assert.equal(def.body.sessions[0].title, 'Refactor auth middleware');
    const byCreated = await call<ListBody>(emu, 'GET', '/sessions?limit=50&sort=createdAt&order=asc');
    assert.ok(
      isSorted(
        byCreated.body.sessions.map((s) => s.createdAt),
        1,
      ),
    );
    const byTitle = await call<ListBody>(emu, 'GET', '/sessions?limit=100&sort=title&order=asc');
    const titles = byTitle.body.sessions.map((s) => s.title);
    assert.deepEqual(
      titles,
      [...titles].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('searches titles case-insensitively', async () => {
    const r = await call<ListBody>(emu, 'GET', '/sessions?search=AUTH%20middle');
    assert.deepEqual(
      r.body.sessions.map((s) => s.title),
      ['Refactor auth middleware'],
    );
    assert.equal(r.body.meta.total_count, 1);
  });

  it('returns a seeded session with its messages, stored events and file snapshot', async () => {
    const list = await call<ListBody>(emu, 'GET', '/sessions?search=Refactor%20auth');
    const s = list.body.sessions[0];
    assert.equal(s.isPinned, true);
    const d = await call<{
      session: { fileSnapshot: Record<string, { key: string; name: string; size: number }> };
      messages: { type: string; events: { event_id: number; stream_entry_id: string; kind: string }[] }[];
    }>(emu, 'GET', `/sessions/${s.sessionId}`);
    assert.equal(d.status, 200);
    assert.deepEqual(
      d.body.messages.map((m) => m.type),
      ['user', 'agent', 'user', 'agent'],
    );
    const agent = d.body.messages[1];
    assert.deepEqual(
      agent.events.map((e) => e.event_id),
      agent.events.map((_e, i) => i + 1),
    );
    assert.equal(agent.events.at(-1)?.kind, 'task.completed');
    assert.ok(agent.events.every((e) => /^\d+-\d+$/.test(e.stream_entry_id)));
    const files = Object.values(d.body.session.fileSnapshot);
    assert.ok(files.length >= 2);
    for (const f of files) assert.ok(f.key.startsWith(`${s.sessionId}/`) && f.name && f.size > 0);
  });

  it('answers 404 with the Error object for an unknown session', async () => {
    const r = await call(emu, 'GET', '/sessions/00000000-0000-4000-8000-000000000000');
    assert.equal(r.status, 404);
    assert.equal(typeof r.body.error, 'string');
    assert.equal(typeof r.body.message, 'string');
  });

  it('renames a session and refuses an empty title with 400', async () => {
    const t = await startTurn(emu, 'Name me later');
    const bad = await call(emu, 'PUT', `/sessions/${t.sessionId}/title`, { title: '   ' });
    assert.equal(bad.status, 400);
    const ok = await call<{ session: { title: string } }>(emu, 'PUT', `/sessions/${t.sessionId}/title`, {
      title: 'Renamed',
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.session.title, 'Renamed');
    await emu.turnEnded(t.sessionId, t.agentId);
  });

  it('deletes a session: 404 on detail, still listed with deleted:true', async () => {
    const t = await startTurn(emu, 'Delete me soon');
    await emu.turnEnded(t.sessionId, t.agentId);
    const del = await call(emu, 'DELETE', `/sessions/${t.sessionId}`);
    assert.deepEqual([del.status, del.body], [200, { success: true }]);
    assert.equal((await call(emu, 'GET', `/sessions/${t.sessionId}`)).status, 404);
    const list = await call<ListBody>(emu, 'GET', '/sessions?search=Delete%20me%20soon');
    assert.equal(list.body.sessions[0].deleted, true);
  });

  it('answers 400 with the Error object when task or session_id is missing', async () => {
    for (const body of [{ task: 'no id' }, { session_id: 'b0b0b0b0-0000-4000-8000-000000000000' }, {}]) {
      const r = await call(emu, 'POST', '/sessions/new', body);
      assert.equal(r.status, 400);
      assert.equal(typeof r.body.message, 'string');
    }
  });
});
