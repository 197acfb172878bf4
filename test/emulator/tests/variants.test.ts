import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../index';
import { call, eventsOf, openStream, startTurn } from './helpers';

describe('emulator: legacy variant', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ variant: 'legacy', eventDelayMs: 0 });
  });
  after(() => emu.close());

  it('lists `chats` with `chatId` and answers the detail as `chat` with blocks and status', async () => {
    const list = await call<{ chats: Record<string, unknown>[]; sessions?: unknown }>(
      emu,
      'GET',
      '/sessions',
    );
    assert.equal(list.body.sessions, undefined);
    const first = list.body.chats[0];
    assert.equal(typeof first.chatId, 'string');
    assert.equal(first.sessionId, undefined);
    const d = await call<{ chat: Record<string, unknown>; messages: Record<string, unknown>[] }>(
      emu,
      'GET',
      `/sessions/${String(first.chatId)}`,
    );
    assert.equal(d.body.chat.chatId, first.chatId);
    const agent = d.body.messages.find((m) => m.type === 'agent')!;
    assert.equal(agent.events, undefined);
    const blocks = agent.blocks as { id: string; type: string; content?: string }[];
    assert.ok(blocks.some((b) => b.id === 'answer:main' && (b.content ?? '').length > 0));
    assert.deepEqual(Object.keys(agent.status as object).sort(), ['error', 'eta_seconds', 'phase']);
    assert.equal((agent.status as { phase: string }).phase, 'completed');
  });

  it('answers assistant_message_id and sends a state.snapshot frame after the ack', async () => {
    const t = await startTurn(emu, 'Legacy turn');
    assert.equal(t.body.agent_message_id, undefined);
    assert.equal(typeof t.body.assistant_message_id, 'string');
    await emu.turnEnded(t.sessionId, t.agentId);
    const s = openStream(emu, t.sessionId, t.agentId);
    await s.closed;
    assert.equal(JSON.parse(s.raw[0]).type, 'ack');
    const snap = JSON.parse(s.raw[1]) as { kind: string; payload: Record<string, unknown> };
    assert.equal(snap.kind, 'state.snapshot');
    for (const k of ['status', 'blocks', 'last_event_id', 'last_stream_entry_id'])
      assert.ok(k in snap.payload, k);
    assert.equal(snap.payload.last_event_id, emu.storedEvents(t.sessionId, t.agentId).length);
    assert.equal(eventsOf(s.raw.slice(2)).length, emu.storedEvents(t.sessionId, t.agentId).length);
  });
});

describe('emulator: download modes', () => {
  const modes = ['template', 'absolute-url', 'none'] as const;
  for (const downloads of modes) {
    it(`publishes generated files per downloads:'${downloads}'`, async () => {
      const emu = await startEmulator({ seed: false, eventDelayMs: 0, downloads });
      try {
        const t = await startTurn(emu, 'Generate a file');
        await emu.turnEnded(t.sessionId, t.agentId);
        const d = await call<{ session: { fileSnapshot: Record<string, { key: string; name: string }> } }>(
          emu,
          'GET',
          `/sessions/${t.sessionId}`,
        );
        const file = Object.values(d.body.session.fileSnapshot)[0];
        const storagePath = `/media/${t.sessionId}/${file.name}`;
        if (downloads === 'absolute-url') {
          assert.equal(file.key, `${emu.url}${storagePath}`);
          const res = await fetch(file.key);
          assert.equal(res.status, 200);
          assert.ok((await res.text()).length > 0);
        } else {
          assert.equal(file.key, `${t.sessionId}/${file.name}`);
          const r = await call(emu, 'GET', storagePath);
          assert.equal(r.status, downloads === 'none' ? 404 : 200);
        }
      } finally {
        await emu.close();
      }
    });
  }
});
