import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../emulator/index';
import { comboFaults, comboName, combos } from '../../../support/fault-combos';
import { waitFor } from '../../../support/wait';
import { foldStored, hostRig, lastTurn, mirrorShows, type HostRig } from './host-rig';

const ready = (rig: HostRig): Promise<void> => rig.host.handle({ type: 'ready', lastSeq: null });

/** Sends a task and waits for its turn to end, the stream to stop and the reconciliation to settle. */
async function runTurn(rig: HostRig, text: string): Promise<void> {
  assert.equal(await rig.host.send(text, 'code', 'fast'), true, 'the turn did not start');
  const turn = lastTurn(rig);
  await waitFor(
    `"${text}" to end`,
    () => isTerminalStatus(turn.status) && rig.host.runningTurns().length === 0,
    12_000,
  );
  await rig.host.whenReconciled();
}

describe('SessionHost: what the panel shows equals what the service stored', function () {
  this.timeout(20_000);
  let emu: Emulator | undefined;
  const rigs: HostRig[] = [];
  const rig = (
    e: Emulator,
    ...a: Parameters<typeof hostRig> extends [unknown, ...infer R] ? R : never
  ): HostRig => {
    const r = hostRig(e, ...a);
    rigs.push(r);
    return r;
  };
  const emulator = async (o: EmulatorOptions): Promise<Emulator> => {
    emu = await startEmulator(o);
    return emu;
  };

  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
    await emu?.close();
    emu = undefined;
  });

  combos('replay', ['before', 'after'] as const).forEach((c, i) => {
    it(`shows exactly the stored events without a reopen: ${comboName(c, `snapshot, replay ${c.replay} it`)}`, async () => {
      const e = await emulator({
        seed: false,
        stateSnapshot: true,
        snapshotReplay: c.replay,
        liveStreamEntryIds: c.entryIds,
        replayStreamEntryIds: c.entryIds,
      });
      e.faults = comboFaults(c, i + 1, 6);
      const r = rig(e);
      await ready(r);
      await runTurn(r, 'Add a parser with tests');
      const turn = lastTurn(r);
      assert.deepEqual(turn, foldStored(e, r.host.sessionId, turn));
      await waitFor('the view to catch up', () => mirrorShows(r));
      assert.equal(r.mirror.count('init'), 1, 'the view was repainted');
      // tool logs, the files list and blocks of unknown kinds all made it
      assert.ok(turn.blocks.some((b) => b.type === 'tool' && b.log.chars > 0));
      assert.ok(turn.blocks.some((b) => b.type === 'generic'));
      assert.equal(turn.files.length, 2);
    });
  });

  it('reconciles every turn with the stored history when it ends', async () => {
    const e = await emulator({ seed: false });
    const r = rig(e);
    await ready(r);
    await runTurn(r, 'Add a parser with tests');
    const stats = r.host.reconcileStats;
    assert.deepEqual(stats.requested, { end: 1, snapshot: 0, gap: 0, malformed: 0 });
    assert.equal(stats.applied, 1);
    assert.deepEqual(lastTurn(r), foldStored(e, r.host.sessionId, lastTurn(r)));
  });

  it('reconciles after a snapshot, a gap it could not fill and an unreadable frame', async () => {
    const e = await emulator({ seed: false, stateSnapshot: true, snapshotReplay: 'after', eventDelayMs: 5 });
    e.faults = { dropAfterFrames: 10, malformedRate: 0.2, seed: 3 };
    const r = rig(e);
    await ready(r);
    await runTurn(r, 'answer in 60 events');
    const { requested, fetches } = r.host.reconcileStats;
    assert.ok(
      requested.snapshot > 0 && requested.gap > 0 && requested.malformed > 0,
      JSON.stringify(requested),
    );
    assert.ok(fetches >= 1);
    assert.deepEqual(lastTurn(r), foldStored(e, r.host.sessionId, lastTurn(r)));
    assert.equal(r.mirror.count('init'), 1);
  });

  it('shows the stored events of a turn shown from the older variant’s summary, without repeating it', async () => {
    const e = await emulator({ seed: false, variant: 'legacy', eventDelayMs: 10 });
    const first = rig(e);
    await ready(first);
    assert.ok(await first.host.send('answer in 80 events', 'code', 'fast'));
    const id = lastTurn(first).agentMessageId;
    await waitFor('some stored events', () => e.storedEvents(first.host.sessionId, id).length > 20);
    // another panel opens the session meanwhile: the history is blocks and a status, no events
    const r = rig(e, { sessionId: first.host.sessionId });
    await ready(r);
    await r.host.open();
    const turn = lastTurn(r);
    assert.equal(turn.lastEventId, 0);
    assert.ok(turn.blocks.length > 0, 'no summary shown');
    await waitFor(
      'the turn to end',
      () => isTerminalStatus(turn.status) && r.host.runningTurns().length === 0,
    );
    await r.host.whenReconciled();
    assert.deepEqual(turn, foldStored(e, r.host.sessionId, turn));
    await waitFor('the view to catch up', () => mirrorShows(r));
    assert.equal(r.mirror.count('init'), 1);
  });

  it('follows a new turn in a 20,000-event session from the session’s last known stream_entry_id', async () => {
    const e = await emulator({ seed: false });
    const sessionId = randomUUID();
    const seeded = e.seedTurn(sessionId, 'answer in 20000 events');
    const last = e.storedEvents(sessionId, seeded.agentMessageId).at(-1)?.stream_entry_id;
    const r = rig(e, { sessionId });
    await ready(r);
    await r.host.open();
    await runTurn(r, 'answer in 10 events');
    const turn = lastTurn(r);
    assert.deepEqual(turn, foldStored(e, sessionId, turn));
    const sockets = e.sockets().filter((s) => s.messageId === turn.agentMessageId);
    assert.ok(sockets.length >= 1);
    assert.deepEqual(
      sockets.map((s) => [s.lastStreamEntryId, s.foreignFrames]),
      sockets.map(() => [last, 0]),
    );
    const sent = sockets.reduce((n, s) => n + s.eventFrames, 0);
    assert.ok(sent <= e.storedEvents(sessionId, turn.agentMessageId).length, `${sent} event frames sent`);
  });
});
