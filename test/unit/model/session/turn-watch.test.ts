import assert from 'node:assert/strict';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import { TURN_WATCH_INTERVAL_MS } from '../../../../src/model/session/turn-watch';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { waitFor } from '../../../support/wait';
import { FakeClock } from '../shared/fake-clock';
import { foldStored, hostRig, lastTurn, mirrorShows, type HostRig } from './host-rig';

const ready = (rig: HostRig): Promise<void> => rig.host.handle({ type: 'ready', lastSeq: null });

/**
 * The same session shown in two windows: each window has its own extension host, so its own
 * `SessionHost`. The service tells the second nothing of a turn the first starts; it finds it by
 * reading the stored history while it shows the session (`TurnWatch`), on its own clock here.
 */
describe('SessionHost: a turn started in another window', function () {
  this.timeout(15_000);
  let emu: Emulator;
  const rigs: HostRig[] = [];
  const rig = (...a: Parameters<typeof hostRig>): HostRig => {
    const r = hostRig(...a);
    rigs.push(r);
    return r;
  };

  beforeEach(async () => {
    emu = await startEmulator({ eventDelayMs: 40 });
  });

  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
    await emu.close();
  });

  /** Window 1 with a finished first turn, window 2 showing the session with its history loaded. */
  async function twoWindows(): Promise<{ one: HostRig; two: HostRig; clock: FakeClock }> {
    const one = rig(emu);
    await ready(one);
    assert.ok(await one.host.send('First: add a whitespace normalizer', 'code', 'fast'));
    await waitFor('the first turn to end', () => isTerminalStatus(lastTurn(one).status), 8_000);
    const clock = new FakeClock();
    const two = rig(emu, { sessionId: one.host.sessionId, extra: { clock } });
    await two.host.open();
    await ready(two);
    assert.equal(two.host.transcript.turns.length, 1);
    return { one, two, clock };
  }

  it('follows the turn live in the second window; both end equal to the stored events, no duplicate, no gap', async () => {
    const { one, two, clock } = await twoWindows();
    assert.ok(await one.host.send('Second: add tests for the normalizer', 'code', 'fast'));
    const turnId = lastTurn(one).agentMessageId;
    // Nothing tells window 2 before it looks.
    assert.equal(two.host.transcript.turns.length, 1);
    clock.advance(TURN_WATCH_INTERVAL_MS);
    await waitFor('window 2 to follow the new turn', () => two.host.runningTurns().length === 1, 5_000);
    // Live: window 2 follows it while it runs, not only after it ended.
    assert.equal(lastTurn(two).agentMessageId, turnId);
    assert.equal(isTerminalStatus(lastTurn(two).status), false);
    await waitFor(
      'both windows to see the end',
      () => isTerminalStatus(lastTurn(one).status) && isTerminalStatus(lastTurn(two).status),
      8_000,
    );
    await one.host.whenReconciled();
    const stored = foldStored(emu, one.host.sessionId, lastTurn(one));
    assert.deepEqual(lastTurn(one), stored);
    // What window 2 streamed, before its reconcile with the stored history could fix anything.
    assert.deepEqual(lastTurn(two).blocks, stored.blocks);
    assert.equal(two.host.reconcileStats.applied, 0);
    // Window 2's timers (batching, the reconcile at the turn's end) run on its fake clock.
    await waitFor('window 2 to reconcile', () => {
      clock.advance(1_000);
      return two.host.reconcileStats.fetches > 0;
    });
    await two.host.whenReconciled();
    assert.deepEqual(lastTurn(two).blocks, stored.blocks);
    assert.equal(lastTurn(two).status, 'completed');
    assert.equal(two.host.transcript.turns.length, 2);
    await waitFor('window 2 view to catch up', () => {
      clock.advance(100);
      return mirrorShows(two);
    });
  });

  it('looks only while the session is shown and idle; a hidden panel sends no request', async () => {
    const { one, two, clock } = await twoWindows();
    two.host.link.setVisible(false);
    assert.ok(await one.host.send('Second: while window 2 is hidden', 'code', 'fast'));
    clock.advance(10 * TURN_WATCH_INTERVAL_MS);
    assert.equal(two.host.transcript.turns.length, 1, 'a hidden panel looked');
    await waitFor('the turn to end', () => isTerminalStatus(lastTurn(one).status), 8_000);
    // Shown again: the next look brings the turn in (ended, from the stored history).
    two.host.link.setVisible(true);
    two.reloadView();
    await ready(two);
    clock.advance(TURN_WATCH_INTERVAL_MS);
    await waitFor('window 2 to show the second turn', () => two.host.transcript.turns.length === 2, 5_000);
    await waitFor('it to end', () => isTerminalStatus(lastTurn(two).status), 5_000);
    assert.deepEqual(lastTurn(two).blocks, foldStored(emu, one.host.sessionId, lastTurn(one)).blocks);
  });
});
