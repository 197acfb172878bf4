import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/client/types';
import { startEmulator, type Emulator, type FaultPlan } from '../index';
import { call, eventsOf, openStream, startTurn, upgradeOutcome, wsUrl } from './helpers';

describe('emulator: fault switches', () => {
  let emu: Emulator;
  let done: { sessionId: string; agentId: string; stored: AgentEvent[] };
  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 0 });
    const t = await startTurn(emu, 'A turn to replay under faults');
    await emu.turnEnded(t.sessionId, t.agentId);
    done = { ...t, stored: emu.storedEvents(t.sessionId, t.agentId) };
  });
  afterEach(() => {
    emu.faults = {};
  });
  after(() => emu.close());

  /** Replays the finished turn from the start under a fault plan; returns the raw frames after the ack. */
  async function replay(plan: FaultPlan, last?: string): Promise<{ raw: string[]; code: number }> {
    emu.faults = plan;
    const s = openStream(emu, done.sessionId, done.agentId, last);
    const code = await s.closed;
    return { raw: s.raw.slice(1), code };
  }

  it('drops the connection without a close frame after every N event frames, losing nothing on resume', async () => {
    const first = await replay({ dropAfterFrames: 5 });
    assert.equal(first.code, 1006);
    assert.equal(eventsOf(first.raw).length, 5);
    const seen: AgentEvent[] = [...eventsOf(first.raw)];
    for (let i = 0; i < 50 && seen.length < done.stored.length; i++) {
      const next = await replay({ dropAfterFrames: 5 }, seen.at(-1)!.stream_entry_id);
      seen.push(...eventsOf(next.raw));
    }
    assert.deepEqual(
      seen.map((e) => e.event_id),
      done.stored.map((e) => e.event_id),
    );
  });

  it('sends every event frame twice at duplicateRate 1', async () => {
    const { raw } = await replay({ duplicateRate: 1 });
    const ids = eventsOf(raw).map((e) => e.event_id);
    assert.deepEqual(
      ids,
      done.stored.flatMap((e) => [e.event_id, e.event_id]),
    );
  });

  it('swaps adjacent frames at reorderRate 1, delivering each exactly once', async () => {
    const { raw } = await replay({ reorderRate: 1 });
    const ids = eventsOf(raw).map((e) => e.event_id);
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      done.stored.map((e) => e.event_id),
    );
    assert.deepEqual(ids.slice(0, 4), [2, 1, 4, 3]);
  });

  it('inserts garbage frames at malformedRate 1 while keeping every event', async () => {
    const { raw } = await replay({ malformedRate: 1 });
    const events = eventsOf(raw);
    assert.equal(events.length, done.stored.length);
    assert.equal(raw.length - events.length, done.stored.length);
  });

  it('makes the same fault decisions for the same seed and different ones for another seed', async () => {
    const plan: FaultPlan = { duplicateRate: 0.3, reorderRate: 0.3, malformedRate: 0.3, seed: 7 };
    const a = await replay(plan);
    const b = await replay({ ...plan });
    const c = await replay({ ...plan, seed: 8 });
    assert.deepEqual(a.raw, b.raw);
    assert.notDeepEqual(a.raw, c.raw);
  });

  it('delays HTTP responses by latencyMs', async () => {
    emu.faults = { latencyMs: 150 };
    const t0 = Date.now();
    const r = await call(emu, 'GET', '/sessions');
    assert.equal(r.status, 200);
    assert.ok(Date.now() - t0 >= 140);
  });

  it('cuts JSON bodies in half and destroys the socket with truncateBodies', async () => {
    emu.faults = { truncateBodies: true };
    const res = await fetch(`${emu.url}/sessions/${done.sessionId}`, {
      headers: { Authorization: `Bearer ${emu.keys.primary}` },
    });
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
  });

  it('fails the next matching requests with failNext, then recovers', async () => {
    emu.failNext({
      method: 'GET',
      path: '^/sessions$',
      status: 503,
      body: { error: 'unavailable', message: 'maintenance' },
      headers: { 'Retry-After': '1' },
      times: 2,
    });
    emu.failNext({ path: '^/sessions/', status: 502, body: '<html>Bad gateway</html>' });
    const first = await call(emu, 'GET', '/sessions');
    const second = await call(emu, 'GET', '/sessions');
    const third = await call(emu, 'GET', '/sessions');
    assert.deepEqual([first.status, second.status, third.status], [503, 503, 200]);
    assert.equal(first.body.message, 'maintenance');
    assert.equal(first.headers.get('retry-after'), '1');
    const gateway = await call(emu, 'GET', `/sessions/${done.sessionId}`);
    assert.deepEqual([gateway.status, gateway.text], [502, '<html>Bad gateway</html>']);
    assert.equal((await call(emu, 'GET', `/sessions/${done.sessionId}`)).status, 200);
  });

  it('fails a socket upgrade with failNext on a /ws/ path', async () => {
    emu.failNext({ path: '^/ws/', status: 503 });
    const url = wsUrl(emu, done.sessionId, { token: emu.keys.primary, message_id: done.agentId });
    assert.equal((await upgradeOutcome(url)).status, 503);
    assert.equal((await upgradeOutcome(url)).status, 101);
  });
});
