import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../index';
import { call, startTurn } from './helpers';

describe('emulator: control endpoints', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 0 });
  });
  afterEach(() => {
    emu.faults = {};
  });
  after(() => emu.close());

  const post = (path: string, body: unknown) =>
    fetch(`${emu.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('replaces the fault plan with POST /__emulator/faults, without auth', async () => {
    emu.faults = { latencyMs: 5 };
    const res = await post('/__emulator/faults', { duplicateRate: 0.5, seed: 3 });
    assert.equal(res.status, 200);
    assert.deepEqual(emu.faults, { duplicateRate: 0.5, seed: 3 });
  });

  it('arms an HTTP failure with POST /__emulator/fail-next', async () => {
    assert.equal((await post('/__emulator/fail-next', { path: '^/sessions$', status: 500 })).status, 200);
    assert.equal((await call(emu, 'GET', '/sessions')).status, 500);
    assert.equal((await call(emu, 'GET', '/sessions')).status, 200);
    assert.equal((await post('/__emulator/fail-next', { path: '(', status: 500 })).status, 400);
  });

  it('returns the stored events with GET /__emulator/events/{sessionId}/{agentMessageId}', async () => {
    const t = await startTurn(emu, 'Control me');
    await emu.turnEnded(t.sessionId, t.agentId);
    const res = await fetch(`${emu.url}/__emulator/events/${t.sessionId}/${t.agentId}`);
    assert.deepEqual(await res.json(), emu.storedEvents(t.sessionId, t.agentId));
    assert.equal((await fetch(`${emu.url}/__emulator/events/${t.sessionId}/nope`)).status, 404);
  });

  it('is not affected by the fault plan it controls', async () => {
    // A latency of a minute, twice the test's own timeout: an answer at all means it was not applied.
    emu.faults = { truncateBodies: true, latencyMs: 60_000 };
    emu.failNext({ path: '^/__emulator/', status: 500 });
    const res = await post('/__emulator/faults', {});
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { faults: {} });
  });
});
