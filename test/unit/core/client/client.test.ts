import assert from 'node:assert/strict';
import { visibleSessions } from '../../../../src/core/client/normalize';
import type { Session, SessionDetail } from '../../../../src/core/client/types';
import { startEmulator, type Emulator } from '../../../emulator';
import { clientFor, newSessionId, rejectsWith } from './helpers';

describe('ApiClient against the emulator', () => {
  let emu: Emulator;
  let env: ReturnType<typeof clientFor>;

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0, extraSessions: 30 });
  });
  after(() => emu.close());
  beforeEach(() => {
    env = clientFor(emu);
  });
  afterEach(() => env.close());

  it('starts a turn with every request field mapped to its wire name', async () => {
    const sessionId = newSessionId();
    const res = await env.client.startTurn({
      sessionId,
      task: 'Add a health endpoint',
      mode: 'code',
      effort: 'think',
      files: [{ key: `${sessionId}/a.txt`, name: 'a.txt', type: 'text/plain', size: 3 }],
      basePrompt: 'Be brief',
      references: [{ url: 'https://example.com' }],
      history: [{ role: 'user', content: 'hi' }],
      continuation: JSON.stringify({ step: 1 }),
      sdkVersion: '1.0.0',
    });
    assert.equal(res.sessionId, sessionId);
    assert.ok(res.agentMessageId);
    assert.ok(res.userMessageId);
    assert.equal(res.status, 'running');
    const sent = env.counter.requests.find((r) => r.path === '/sessions/new');
    assert.deepEqual(JSON.parse(sent?.body ?? '{}'), {
      session_id: sessionId,
      task: 'Add a health endpoint',
      mode: 'code',
      ace_version: 'think',
      files: [{ key: `${sessionId}/a.txt`, name: 'a.txt', type: 'text/plain', size: 3 }],
      base_prompt: 'Be brief',
      references: [{ url: 'https://example.com' }],
      history: [{ role: 'user', content: 'hi' }],
      continuation: '{"step":1}',
      sdk_version: '1.0.0',
    });
    assert.equal(sent?.headers.authorization, `Bearer ${emu.keys.primary}`);
    await emu.turnEnded(sessionId, res.agentMessageId);
    const detail = await env.client.getSession(sessionId);
    const user = detail.messages.find((m) => m.type === 'user');
    assert.equal(user?.content, 'Add a health endpoint');
    assert.equal(user?.inputMode, 'code');
    assert.deepEqual(user?.files, [
      { key: `${sessionId}/a.txt`, name: 'a.txt', size: 3, type: 'text/plain' },
    ]);
  });

  it('sends the configured SDK version and an empty file list when the request names none', async () => {
    const local = clientFor(emu, { sdkVersion: 'den/9.9.9' });
    try {
      const sessionId = newSessionId();
      const res = await local.client.startTurn({ sessionId, task: 'defaults' });
      const sent = JSON.parse(local.counter.requests[0].body ?? '{}') as Record<string, unknown>;
      assert.deepEqual(sent, {
        session_id: sessionId,
        task: 'defaults',
        files: [],
        sdk_version: 'den/9.9.9',
      });
      await emu.turnEnded(sessionId, res.agentMessageId);
    } finally {
      await local.close();
    }
  });

  it('queues a second turn in a busy session and reports its position', async () => {
    const sessionId = newSessionId();
    const first = await env.client.startTurn({ sessionId, task: 'slow work' });
    const second = await env.client.startTurn({ sessionId, task: 'then this' });
    assert.equal(second.status, 'queued');
    assert.ok((second.queuePosition ?? 0) >= 1);
    await env.client.abortMessage(first.agentMessageId);
    await emu.turnEnded(sessionId, second.agentMessageId);
  });

  it('lists sessions page by page with the paging facts', async () => {
    const first = await env.client.listSessions({ page: 1, limit: 10 });
    const second = await env.client.listSessions({ page: 2, limit: 10 });
    assert.equal(first.sessions.length, 10);
    assert.equal(first.currentPage, 1);
    assert.equal(second.currentPage, 2);
    assert.ok(first.totalCount >= 38, `total ${first.totalCount}`);
    assert.equal(first.totalPages, Math.ceil(first.totalCount / 10));
    const ids = new Set([...first.sessions, ...second.sessions].map((s) => s.sessionId));
    assert.equal(ids.size, 20, 'pages do not overlap');
  });

  it('clamps the page size to 100', async () => {
    const page = await env.client.listSessions({ limit: 5000 });
    assert.ok(page.sessions.length <= 100);
    assert.equal(page.totalPages, Math.ceil(page.totalCount / 100));
  });

  it('passes search, sort and order through', async () => {
    const found = await env.client.listSessions({ search: 'POSTGRES' });
    assert.ok(found.sessions.length >= 1);
    for (const s of found.sessions) assert.match(s.title, /postgres/i);
    const asc = await env.client.listSessions({ sort: 'title', order: 'asc', limit: 100 });
    const titles = asc.sessions.map((s) => s.title);
    assert.deepEqual(
      titles,
      [...titles].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('reads a seeded session with its messages and stored events', async () => {
    const page = await env.client.listSessions({ search: 'Refactor auth middleware' });
    const detail = await env.client.getSession(page.sessions[0].sessionId);
    assert.equal(detail.session.title, 'Refactor auth middleware');
    assert.equal(detail.session.isPinned, true);
    const agent = detail.messages.filter((m) => m.type === 'agent');
    assert.ok(agent.length >= 2);
    for (const m of agent) {
      assert.ok(m.events.length > 0);
      const ids = m.events.map((e) => e.event_id);
      assert.deepEqual(
        ids,
        ids.map((_x, i) => i + 1),
        'event ids count from 1',
      );
      assert.ok(m.events.every((e) => typeof e.stream_entry_id === 'string'));
    }
    assert.ok(Object.keys(detail.session.fileSnapshot).length > 0);
  });

  it('renames a session and returns it', async () => {
    const { sessionId } = await env.client.startTurn({ sessionId: newSessionId(), task: 'rename me' });
    const renamed = await env.client.renameSession(sessionId, 'A better title');
    assert.equal(renamed?.title, 'A better title');
    assert.equal((await env.client.getSession(sessionId)).session.title, 'A better title');
  });

  it('rejects an empty title with a bad_request carrying the service message', async () => {
    const { sessionId } = await env.client.startTurn({ sessionId: newSessionId(), task: 'keep my name' });
    const err = await rejectsWith(env.client.renameSession(sessionId, '   '), 'bad_request');
    assert.match(err.message, /title/);
  });

  it('deletes a session: it 404s afterwards and lists with deleted:true', async () => {
    const { sessionId, agentMessageId } = await env.client.startTurn({
      sessionId: newSessionId(),
      task: 'doomed',
    });
    await emu.turnEnded(sessionId, agentMessageId);
    await env.client.deleteSession(sessionId);
    const err = await rejectsWith(env.client.getSession(sessionId), 'not_found');
    assert.match(err.message, new RegExp(`Session ${sessionId} does not exist or was deleted`));
    const page = await env.client.listSessions({ limit: 100, sort: 'updatedAt', order: 'desc' });
    const listed = page.sessions.find((s: Session) => s.sessionId === sessionId);
    assert.equal(listed?.deleted, true);
    assert.ok(!visibleSessions(page.sessions).some((s) => s.sessionId === sessionId));
  });

  it('aborts a running turn: the turn ends with task.aborted and the message is marked aborted', async () => {
    const sessionId = newSessionId();
    const { agentMessageId } = await env.client.startTurn({ sessionId, task: 'slow job' });
    const res = await env.client.abortMessage(agentMessageId);
    assert.equal(res.success, true);
    await emu.turnEnded(sessionId, agentMessageId);
    const stored = emu.storedEvents(sessionId, agentMessageId);
    assert.equal(stored[stored.length - 1].kind, 'task.aborted');
    const detail = await env.client.getSession(sessionId);
    assert.equal(detail.messages.find((m) => m.id === agentMessageId)?.aborted, true);
  });

  it('reports the service concurrency limit from response headers', async () => {
    assert.deepEqual(env.client.rateLimit, {});
    await env.client.listSessions({ limit: 1 });
    assert.equal(env.client.rateLimit.maxConcurrent, 3);
  });

  it('reads the key through the getter on every request, so a new key applies at once', async () => {
    let key = 'sk_live_wrong000000';
    const local = clientFor(emu, { apiKey: () => key });
    try {
      await rejectsWith(local.client.listSessions(), 'unauthorized');
      key = emu.keys.primary;
      assert.ok((await local.client.listSessions({ limit: 1 })).sessions.length === 1);
    } finally {
      await local.close();
    }
  });
});

describe('ApiClient against the legacy variant', () => {
  let current: Emulator;
  let legacy: Emulator;

  before(async () => {
    [current, legacy] = await Promise.all([
      startEmulator({ eventDelayMs: 0 }),
      startEmulator({ eventDelayMs: 0, variant: 'legacy' }),
    ]);
  });
  after(() => Promise.all([current.close(), legacy.close()]));

  /** What must match across variants: everything but generated ids and clock-based times. */
  function sessionShape(s: Session): unknown {
    return {
      fields: Object.keys(s).sort(),
      title: s.title,
      deleted: s.deleted,
      isPinned: s.isPinned,
      files: Object.entries(s.fileSnapshot).map(([path, f]) => [
        path.replace(s.sessionId, '<id>'),
        f.name,
        f.size,
      ]),
    };
  }

  function messageShape(d: SessionDetail): unknown {
    return d.messages.map((m) => ({
      type: m.type,
      content: m.content,
      inputMode: m.inputMode,
      aborted: m.aborted,
      files: m.files.map((f) => f.name),
    }));
  }

  it('lists and reads the same seeded sessions identically from chats/chatId/chat', async () => {
    const a = clientFor(current);
    const b = clientFor(legacy);
    try {
      const [pa, pb] = await Promise.all([
        a.client.listSessions({ limit: 100 }),
        b.client.listSessions({ limit: 100 }),
      ]);
      assert.ok(pa.sessions.length > 0);
      assert.deepEqual(pb.sessions.map(sessionShape), pa.sessions.map(sessionShape));
      assert.deepEqual([pb.totalCount, pb.totalPages], [pa.totalCount, pa.totalPages]);
      for (let i = 0; i < pa.sessions.length; i++) {
        const [da, db] = await Promise.all([
          a.client.getSession(pa.sessions[i].sessionId),
          b.client.getSession(pb.sessions[i].sessionId),
        ]);
        assert.deepEqual(sessionShape(db.session), sessionShape(da.session));
        assert.deepEqual(messageShape(db), messageShape(da));
        for (const m of db.messages.filter((x) => x.type === 'agent')) {
          assert.ok(m.blocks && m.blocks.length > 0, 'legacy agent messages carry blocks');
          assert.ok(m.status?.phase, 'and a status');
        }
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('starts and aborts a turn through assistant_message_id', async () => {
    const b = clientFor(legacy);
    try {
      const sessionId = newSessionId();
      const res = await b.client.startTurn({ sessionId, task: 'slow legacy turn' });
      assert.ok(res.agentMessageId);
      assert.equal((await b.client.abortMessage(res.agentMessageId)).success, true);
      await legacy.turnEnded(sessionId, res.agentMessageId);
    } finally {
      await b.close();
    }
  });
});
