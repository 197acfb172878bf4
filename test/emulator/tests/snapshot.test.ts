import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { emptyChangeSet } from '../../../src/core/transcript/change-set';
import { applyLegacyState } from '../../../src/core/transcript/legacy';
import { newTurn } from '../../../src/core/transcript/reducer';
import { startEmulator, type Emulator, type EmulatorOptions } from '../index';
import { eventsOf, openStream, startTurn } from './helpers';

interface SnapshotFrame {
  kind: string;
  payload: {
    status: { phase: string };
    blocks: Record<string, unknown>[];
    last_event_id: number;
    last_stream_entry_id: string;
  };
}

describe('emulator: state.snapshot and replay switches', () => {
  const emus: Emulator[] = [];
  const emulator = async (o: EmulatorOptions): Promise<Emulator> => {
    const e = await startEmulator({ seed: false, eventDelayMs: 0, ...o });
    emus.push(e);
    return e;
  };
  afterEach(async () => {
    for (const e of emus.splice(0)) await e.close();
  });

  async function finishedTurn(emu: Emulator, task = 'Write a helper'): Promise<{ sid: string; mid: string }> {
    const t = await startTurn(emu, task);
    await emu.turnEnded(t.sessionId, t.agentId);
    return { sid: t.sessionId, mid: t.agentId };
  }

  it('sends a snapshot in the current variant when switched on, then replays from before it', async () => {
    const emu = await emulator({ stateSnapshot: true });
    const { sid, mid } = await finishedTurn(emu);
    const s = openStream(emu, sid, mid);
    await s.closed;
    const stored = emu.storedEvents(sid, mid);
    assert.equal(JSON.parse(s.raw[0]).type, 'ack');
    const snap = JSON.parse(s.raw[1]) as SnapshotFrame;
    assert.equal(snap.kind, 'state.snapshot');
    assert.equal(snap.payload.last_event_id, stored.length);
    assert.equal(snap.payload.last_stream_entry_id, stored.at(-1)?.stream_entry_id);
    // the replay repeats every event the snapshot summarizes
    assert.deepEqual(
      eventsOf(s.raw.slice(2)).map((e) => e.event_id),
      stored.map((e) => e.event_id),
    );
    assert.deepEqual(emu.sockets()[0], {
      sessionId: sid,
      messageId: mid,
      lastStreamEntryId: '0-0',
      eventFrames: stored.length,
      foreignFrames: 0,
      snapshot: true,
    });
  });

  it('sends no snapshot in the current variant by default', async () => {
    const emu = await emulator({});
    const { sid, mid } = await finishedTurn(emu);
    const s = openStream(emu, sid, mid);
    await s.closed;
    assert.ok(s.raw.every((r) => !r.includes('state.snapshot')));
    assert.equal(emu.sockets()[0].snapshot, false);
  });

  it("replays only what follows the snapshot with snapshotReplay: 'after'", async () => {
    const emu = await emulator({ stateSnapshot: true, snapshotReplay: 'after', eventDelayMs: 5 });
    const t = await startTurn(emu, 'answer in 40 events');
    const s = openStream(emu, t.sessionId, t.agentId);
    await s.closed;
    const covered = (JSON.parse(s.raw[1]) as SnapshotFrame).payload.last_event_id;
    const stored = emu.storedEvents(t.sessionId, t.agentId).map((e) => e.event_id);
    assert.ok(covered >= 2);
    assert.deepEqual(
      eventsOf(s.raw).map((e) => e.event_id),
      stored.filter((id) => id > covered),
    );
    // a finished turn: the snapshot stands for all of it, nothing is replayed
    const again = openStream(emu, t.sessionId, t.agentId);
    await again.closed;
    assert.equal((JSON.parse(again.raw[1]) as SnapshotFrame).payload.last_event_id, stored.length);
    assert.equal(eventsOf(again.raw).length, 0);
  });

  it('writes snapshot blocks with fields and types Den does not know', async () => {
    const emu = await emulator({ stateSnapshot: true });
    const { sid, mid } = await finishedTurn(emu, 'Add a parser');
    const s = openStream(emu, sid, mid);
    await s.closed;
    const blocks = (JSON.parse(s.raw[1]) as SnapshotFrame).payload.blocks;
    const tool = blocks.find((b) => b.id === 'tool:run_command:1');
    assert.ok(tool && Array.isArray(tool.output_chunks) && tool.output_chunks.length > 0);
    assert.equal(tool.logs, undefined);
    assert.equal(typeof tool.duration_ms, 'number');
    const types = blocks.map((b) => b.type);
    for (const t of ['focus', 'context_usage', 'sandbox_files', 'markdown', 'thought'])
      assert.ok(types.includes(t), t);
    // the context use comes as a block of its own type, in the shape of the live event
    const usage = blocks.find((b) => b.type === 'context_usage');
    assert.deepEqual(usage && { used: usage.used_tokens, max: usage.max_tokens }, {
      used: 18_432,
      max: 200_000,
    });
    // Den reads it as the turn's context use, not as a block
    const turn = newTurn(mid, 0);
    applyLegacyState(turn, { blocks, status: { phase: 'completed' } }, 200_000, emptyChangeSet(mid));
    assert.deepEqual(turn.contextUsage, { used: 18_432, max: 200_000, fraction: 0.09216 });
    assert.equal(
      turn.blocks.some((b) => b.id === usage?.id),
      false,
    );
  });

  it('reports the coding turn’s context use as a context.usage event, after its files and before its answer', async () => {
    const emu = await emulator({});
    const { sid, mid } = await finishedTurn(emu, 'Add a parser');
    const kinds = emu.storedEvents(sid, mid).map((e) => e.kind);
    const at = kinds.indexOf('context.usage');
    assert.ok(
      at > kinds.indexOf('sandbox.snapshot') && at < kinds.indexOf('markdown.chunk'),
      kinds.join(' '),
    );
    assert.deepEqual(emu.storedEvents(sid, mid)[at].payload, { used_tokens: 18_432, max_tokens: 200_000 });
  });

  it('cuts connections right after the snapshot at the dropAfterSnapshot rate', async () => {
    const emu = await emulator({ stateSnapshot: true });
    const { sid, mid } = await finishedTurn(emu);
    emu.faults = { dropAfterSnapshot: 1 };
    const cut = openStream(emu, sid, mid);
    assert.equal(await cut.closed, 1006);
    assert.equal(cut.raw.length, 2);
    assert.equal(JSON.parse(cut.raw[1]).kind, 'state.snapshot');
    emu.faults = {};
    const whole = openStream(emu, sid, mid);
    await whole.closed;
    assert.equal(eventsOf(whole.raw).length, emu.storedEvents(sid, mid).length);
  });

  it('replays the session’s whole stream after the cursor, each frame under its own message', async () => {
    const emu = await emulator({});
    const sid = randomUUID();
    const first = emu.seedTurn(sid, 'answer in 30 events');
    const t = await startTurn(emu, 'answer in 5 events', { sessionId: sid });
    await emu.turnEnded(sid, t.agentId);
    const s = openStream(emu, sid, t.agentId);
    await s.closed;
    const events = eventsOf(s.raw);
    assert.equal(events.filter((e) => e.message_id === first.agentMessageId).length, first.events);
    assert.equal(
      events.filter((e) => e.message_id === t.agentId).length,
      emu.storedEvents(sid, t.agentId).length,
    );
    assert.equal(emu.sockets()[0].foreignFrames, first.events);
    // from the first turn's last entry only the new turn's events come
    const after = emu.storedEvents(sid, first.agentMessageId).at(-1)?.stream_entry_id;
    const s2 = openStream(emu, sid, t.agentId, after);
    await s2.closed;
    assert.ok(eventsOf(s2.raw).every((e) => e.message_id === t.agentId));
    assert.equal(emu.sockets()[1].foreignFrames, 0);
  });

  it("replays only the followed message with replayScope: 'message'", async () => {
    const emu = await emulator({ replayScope: 'message' });
    const sid = randomUUID();
    emu.seedTurn(sid, 'answer in 30 events');
    const t = await startTurn(emu, 'answer in 5 events', { sessionId: sid });
    await emu.turnEnded(sid, t.agentId);
    const s = openStream(emu, sid, t.agentId);
    await s.closed;
    assert.ok(eventsOf(s.raw).every((e) => e.message_id === t.agentId));
  });

  it('seeds a long completed turn at once, before any live event', async () => {
    const emu = await emulator({});
    const sid = randomUUID();
    const seeded = emu.seedTurn(sid, 'answer in 2000 events');
    assert.equal(seeded.events, 2004 + 2);
    const t = await startTurn(emu, 'answer in 3 events', { sessionId: sid });
    await emu.turnEnded(sid, t.agentId);
    const last = emu.storedEvents(sid, seeded.agentMessageId).at(-1)!.stream_entry_id!;
    const firstLive = emu.storedEvents(sid, t.agentId)[0].stream_entry_id!;
    assert.ok(Number(firstLive.split('-')[0]) > Number(last.split('-')[0]));
  });
});
