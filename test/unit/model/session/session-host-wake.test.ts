import assert from 'node:assert/strict';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { waitFor } from '../../../support/wait';
import { foldStored, hostRig, lastTurn, mirrorShows, type HostRig } from './host-rig';

const ready = (rig: HostRig): Promise<void> => rig.host.handle({ type: 'ready', lastSeq: null });

/**
 * The panel of a running turn while the machine sleeps 5 minutes (see
 * test/unit/core/stream/session-stream-wake.test.ts for the stream alone): on wake the panel says it is
 * catching up after the computer slept, and ends equal to the stored events.
 */
describe('SessionHost: the machine slept during a turn', function () {
  this.timeout(20_000);
  let emu: Emulator | undefined;
  let rig: HostRig | undefined;

  afterEach(async () => {
    await rig?.close();
    await emu?.close();
    rig = undefined;
    emu = undefined;
  });

  it('says it catches up after the computer slept, then shows the whole turn once', async () => {
    emu = await startEmulator({ eventDelayMs: 30 });
    let wall = Date.now();
    // What the stream had shown when it ended the turn, taken then: the reconcile with the stored
    // history that follows a turn's end may run before a poll would look.
    let streamed: { blocks: unknown; reconciled: number } | undefined;
    rig = hostRig(emu, {
      extra: {
        events: {
          onTurnEnded: (host, t) => {
            streamed ??= { blocks: structuredClone(t.blocks), reconciled: host.reconcileStats.applied };
          },
        },
        streamOptions: {
          backoff: { initialMs: 5, maxMs: 40, factor: 2, jitter: 0.5 },
          wakeCheckMs: 20,
          wallClock: () => wall,
        },
      },
    });
    const r = rig;
    await ready(r);
    const sawWake = r.everShown(
      (m) => m.connection?.state === 'reconnecting' && /computer slept/.test(m.connection.message ?? ''),
    );
    assert.ok(await r.host.send('Add a normalizer while the laptop sleeps', 'code', 'fast'));
    await waitFor('some of the turn', () => lastTurn(r).blocks.length >= 2);
    const running = emu;
    assert.equal(running.silenceSockets(), 1);
    const turn = lastTurn(r);
    await running.turnEnded(r.host.sessionId, turn.agentMessageId);
    assert.equal(isTerminalStatus(turn.status), false, 'the turn ended over a silenced socket');
    wall += 5 * 60_000;
    await waitFor('the turn to end in the panel', () => isTerminalStatus(lastTurn(r).status), 10_000);
    const stored = foldStored(emu, r.host.sessionId, turn);
    // Before any reconcile with the stored history could mend it: what was streamed.
    assert.ok(streamed, 'the stream never ended the turn');
    assert.equal(streamed.reconciled, 0);
    assert.deepEqual(streamed.blocks, stored.blocks);
    assert.ok(sawWake(), 'the panel never said it was catching up after the computer slept');
    await r.host.whenReconciled();
    await waitFor('the view to catch up', () => mirrorShows(r));
  });
});
