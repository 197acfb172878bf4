import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import {
  normalizeEvent,
  normalizeMessage,
  normalizeSession,
  normalizeSessionDetail,
  normalizeSessionPage,
  visibleSessions,
} from '../../../../src/core/client/normalize';
import {
  normalizeAbortResult,
  normalizeLamRunResponse,
  normalizeStartTurnResult,
  normalizeUploadResult,
  turnFileFromUpload,
} from '../../../../src/core/client/normalize-results';
import { readTime } from '../../../../src/core/client/readers';

const T = Date.UTC(2025, 0, 2, 3, 4, 5);

function wireSession(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'obj1',
    sessionId: 'sess-1',
    title: 'Fix the build',
    userId: 'u1',
    createdAt: T,
    updatedAt: T + 1000,
    deleted: false,
    isPinned: true,
    sandboxImage: 'img:1',
    fileSnapshot: { 'src/a.ts': { key: 'sess-1/src/a.ts', name: 'a.ts', size: 12 } },
    ...over,
  };
}

function assertProtocol(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DenError, 'a DenError');
    assert.equal(err.code, 'protocol');
    assert.match(err.message, pattern);
    return true;
  });
}

describe('normalize', () => {
  describe('sessions', () => {
    const expected = normalizeSession(wireSession());

    it('reads a current-variant session into the model', () => {
      assert.deepEqual(expected, {
        id: 'obj1',
        sessionId: 'sess-1',
        title: 'Fix the build',
        userId: 'u1',
        createdAt: T,
        updatedAt: T + 1000,
        deleted: false,
        isPinned: true,
        sandboxImage: 'img:1',
        fileSnapshot: { 'src/a.ts': { key: 'sess-1/src/a.ts', name: 'a.ts', size: 12 } },
      });
    });

    const variants: [string, Record<string, unknown>][] = [
      ['chatId instead of sessionId', { sessionId: undefined, chatId: 'sess-1' }],
      ['timestamps as numeric strings', { createdAt: String(T), updatedAt: String(T + 1000) }],
      [
        'timestamps as ISO strings',
        { createdAt: new Date(T).toISOString(), updatedAt: new Date(T + 1000).toISOString() },
      ],
      ['timestamps in seconds', { createdAt: T / 1000, updatedAt: (T + 1000) / 1000 }],
      ['booleans as strings', { deleted: 'false', isPinned: 'true' }],
      ['extra unknown fields', { somethingNew: { nested: [1, 2] }, v: 3 }],
      ['a Mongo-style _id', { id: undefined, _id: { $oid: 'obj1' } }],
    ];
    for (const [title, over] of variants) {
      it(`reads a session with ${title} identically`, () => {
        assert.deepEqual(normalizeSession(wireSession(over)), expected);
      });
    }

    it('fills defaults for missing optional fields', () => {
      const s = normalizeSession({ sessionId: 'only' });
      assert.deepEqual(s, {
        id: 'only',
        sessionId: 'only',
        title: '',
        createdAt: 0,
        updatedAt: 0,
        deleted: false,
        isPinned: false,
        fileSnapshot: {},
      });
    });

    it('derives a file name from its key and accepts a snapshot given as an array', () => {
      const s = normalizeSession(
        wireSession({ fileSnapshot: [{ key: 'sess-1/out/report.md', size: '40' }, 'junk'] }),
      );
      assert.deepEqual(s.fileSnapshot, {
        'sess-1/out/report.md': { key: 'sess-1/out/report.md', name: 'report.md', size: 40 },
      });
    });

    it('rejects a session with no id at all', () => {
      assertProtocol(() => normalizeSession({ title: 'x' }), /no sessionId/);
      assertProtocol(() => normalizeSession('nope'), /expected an object, got a string/);
    });
  });

  describe('session pages', () => {
    const meta = { total_count: 3, total_pages: 2, current_page: 1 };

    it('reads `sessions` and `chats` lists identically', () => {
      const current = normalizeSessionPage({ sessions: [wireSession()], meta });
      const legacy = normalizeSessionPage({
        chats: [wireSession({ sessionId: undefined, chatId: 'sess-1' })],
        meta,
      });
      assert.deepEqual(legacy, current);
      assert.equal(current.totalCount, 3);
      assert.equal(current.totalPages, 2);
      assert.equal(current.currentPage, 1);
    });

    it('keeps deleted sessions, leaving hiding to visibleSessions', () => {
      const page = normalizeSessionPage({
        sessions: [wireSession(), wireSession({ sessionId: 'gone', deleted: true })],
        meta,
      });
      assert.equal(page.sessions.length, 2);
      assert.deepEqual(
        visibleSessions(page.sessions).map((s) => s.sessionId),
        ['sess-1'],
      );
    });

    it('skips unaddressable entries and counts them', () => {
      const page = normalizeSessionPage({ sessions: [wireSession(), { title: 'no id' }, 42] });
      assert.equal(page.sessions.length, 1);
      assert.equal(page.skipped, 2);
    });

    it('derives paging facts when meta is missing', () => {
      const page = normalizeSessionPage({ sessions: [wireSession()] }, { page: 4, limit: 10 });
      assert.deepEqual([page.totalCount, page.totalPages, page.currentPage], [1, 1, 4]);
    });

    it('rejects a body with no session list', () => {
      assertProtocol(() => normalizeSessionPage({ items_missing: true }), /no `sessions`/);
      assertProtocol(() => normalizeSessionPage(null), /expected an object/);
    });
  });

  describe('events and messages', () => {
    const wireEvent = {
      event_id: 3,
      stream_entry_id: '1700000000000-2',
      kind: 'markdown.chunk',
      block_id: 'answer:main',
      message_id: 'm2',
      payload: { delta: 'Hi' },
      timestamp: T,
    };

    it('reads an event and tolerates missing stream_entry_id and payload', () => {
      assert.deepEqual(normalizeEvent(wireEvent), wireEvent);
      assert.deepEqual(normalizeEvent({ event_id: '4', kind: 'focus', timestamp: String(T) }), {
        event_id: 4,
        kind: 'focus',
        payload: {},
        timestamp: T,
      });
    });

    it('rejects frames that are not events', () => {
      assertProtocol(() => normalizeEvent({ type_missing: true, event_id: 1 }), /no `kind`/);
      assertProtocol(() => normalizeEvent({ kind: 'x' }), /no `event_id`/);
      assertProtocol(() => normalizeEvent('garbage'), /expected an object/);
    });

    it('reads a current agent message with events', () => {
      const m = normalizeMessage(
        {
          id: 'm2',
          type: 'agent',
          content: '',
          createdAt: T,
          inputMode: 'code',
          aborted: false,
          files: [],
          events: [wireEvent],
        },
        'sess-1',
      );
      assert.deepEqual(m, {
        id: 'm2',
        sessionId: 'sess-1',
        type: 'agent',
        content: '',
        createdAt: T,
        inputMode: 'code',
        aborted: false,
        files: [],
        events: [wireEvent],
      });
    });

    it('reads a legacy agent message with blocks and status', () => {
      const m = normalizeMessage(
        {
          id: 'm2',
          chatId: 'sess-1',
          type: 'assistant',
          content: 'done',
          createdAt: new Date(T).toISOString(),
          blocks: [{ id: 'answer:main', type: 'markdown', content: 'Hello', extra: 1 }, { type: 'thought' }],
          status: { phase: 'completed', eta_seconds: '0', error: { message: 'boom' } },
        },
        'other',
      );
      assert.equal(m.sessionId, 'sess-1');
      assert.equal(m.type, 'agent');
      assert.deepEqual(m.events, []);
      assert.deepEqual(m.blocks, [
        { id: 'answer:main', type: 'markdown', content: 'Hello', extra: 1 },
        { id: 'block-1', type: 'thought' },
      ]);
      assert.deepEqual(m.status, { phase: 'completed', etaSeconds: 0, error: 'boom' });
    });

    it('reads a detail under `session` or `chat` identically', () => {
      const messages = [{ id: 'u1', type: 'user', content: 'do it', createdAt: T, inputMode: 'bogus' }];
      const current = normalizeSessionDetail({ session: wireSession(), messages });
      const legacy = normalizeSessionDetail({
        chat: wireSession({ sessionId: undefined, chatId: 'sess-1' }),
        messages,
      });
      assert.deepEqual(legacy, current);
      assert.equal(current.messages[0].inputMode, undefined, 'unknown modes are dropped');
      assert.equal(current.messages[0].sessionId, 'sess-1');
    });

    it('rejects a detail without a session', () => {
      assertProtocol(() => normalizeSessionDetail({ messages: [] }), /no `session`/);
      assertProtocol(
        () => normalizeSessionDetail({ session: wireSession(), messages: {} }),
        /expected an array/,
      );
    });
  });

  describe('results', () => {
    it('reads a turn start with agent_message_id or assistant_message_id identically', () => {
      const base = { session_id: 's', user_message_id: 'u', status: 'queued', queue_position: '2', extra: 1 };
      const current = normalizeStartTurnResult({ ...base, agent_message_id: 'a' });
      const legacy = normalizeStartTurnResult({ ...base, assistant_message_id: 'a' });
      assert.deepEqual(current, legacy);
      assert.deepEqual(current, {
        sessionId: 's',
        userMessageId: 'u',
        agentMessageId: 'a',
        status: 'queued',
        queuePosition: 2,
      });
      assertProtocol(() => normalizeStartTurnResult({ session_id: 's' }), /agent_message_id/);
    });

    it('reads an upload result, filling gaps from what was sent, and maps it to a turn file', () => {
      const sent = { key: 'k', size: 5, contentType: 'text/plain', filename: 'a.txt' };
      const r = normalizeUploadResult({ key: 'k2', uploadedAt: new Date(T).toISOString() }, sent);
      assert.deepEqual(r, {
        key: 'k2',
        size: 5,
        contentType: 'text/plain',
        filename: 'a.txt',
        uploadedAt: T,
      });
      assert.deepEqual(turnFileFromUpload(r), { key: 'k2', name: 'a.txt', type: 'text/plain', size: 5 });
    });

    it('treats an empty abort body as success', () => {
      assert.deepEqual(normalizeAbortResult(undefined), { success: true });
      assert.deepEqual(normalizeAbortResult({ success: false, message: 'no' }), {
        success: false,
        message: 'no',
      });
    });

    it('reads a task-run response and keeps the raw object', () => {
      const raw = {
        task_status: 'DONE',
        message: 'ok',
        data: [{ title: 'a' }, 'junk'],
        properties: { sessionId: 'ls1' },
        livestream_url: 'https://x/live?enable_actions=false&theme=dark',
      };
      const r = normalizeLamRunResponse(raw);
      assert.deepEqual(r, {
        taskStatus: 'DONE',
        message: 'ok',
        data: [{ title: 'a' }],
        sessionId: 'ls1',
        livestreamUrl: 'https://x/live?enable_actions=false&theme=dark',
        raw,
      });
      assertProtocol(() => normalizeLamRunResponse({ message: 'no status' }), /task_status/);
    });
  });

  it('reads timestamps from every accepted form', () => {
    const table: [unknown, number | undefined][] = [
      [T, T],
      [String(T), T],
      [T / 1000, T],
      [new Date(T).toISOString(), T],
      [{ $date: new Date(T).toISOString() }, T],
      ['not a date', undefined],
      [null, undefined],
    ];
    for (const [input, out] of table) assert.equal(readTime(input), out, JSON.stringify(input));
  });
});
