import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../emulator/index';
import { comboFaults, comboName, combos } from '../../../support/fault-combos';
import {
  closeRecordedStreams,
  doneWithin,
  essence,
  recordedStream,
  startTurn,
  turnOptions,
} from './stream-helpers';

describe('SessionStream: live equals stored under every combination of snapshot and faults', function () {
  this.timeout(20_000);
  let emu: Emulator | undefined;
  afterEach(async () => {
    closeRecordedStreams();
    await emu?.close();
    emu = undefined;
  });

  async function emulator(o: EmulatorOptions): Promise<Emulator> {
    emu = await startEmulator({ seed: false, eventDelayMs: 2, ...o });
    return emu;
  }

  combos('snapshot', [false, true]).forEach((c, i) => {
    it(`delivers exactly the stored events: ${comboName(c, c.snapshot ? 'snapshot' : undefined)}`, async () => {
      const e = await emulator({
        stateSnapshot: c.snapshot,
        liveStreamEntryIds: c.entryIds,
        replayStreamEntryIds: c.entryIds,
      });
      const turn = await startTurn(e, 'Add a parser with tests');
      e.faults = comboFaults(c, i + 1, 5);
      // without entry ids on frames, the stored history says where a delivered event stands (as Den does)
      const resolveCursor = async (last: number): Promise<string | undefined> =>
        e.storedEvents(turn.sessionId, turn.agentMessageId).find((ev) => ev.event_id === last)
          ?.stream_entry_id;
      const { stream, rec } = recordedStream(turnOptions(e, turn, { resolveCursor }));
      const done = await doneWithin(stream, 15_000);
      assert.equal(done.kind, 'completed');
      if (process.env.DBG)
        console.log(
          JSON.stringify(rec.gaps.map((g) => [g.from, g.to, g.reason])),
          rec.events.map((e) => e.event_id).join(','),
          JSON.stringify(e.sockets().map((s) => [s.lastStreamEntryId, s.eventFrames, s.snapshot])),
        );
      assert.deepEqual(rec.gaps, []);
      const stored = e.storedEvents(turn.sessionId, turn.agentMessageId);
      assert.deepEqual(essence(rec.events), essence(stored));
      if (c.snapshot) assert.ok(rec.snapshots.length >= 1, 'no snapshot arrived');
    });
  });

  it('reports a gap the snapshot stands for when the service resumes after it, and delivers the rest', async () => {
    const e = await emulator({ stateSnapshot: true, snapshotReplay: 'after', eventDelayMs: 5 });
    const turn = await startTurn(e, 'answer in 40 events');
    e.faults = { dropAfterFrames: 7 };
    const { stream, rec } = recordedStream(turnOptions(e, turn, { reorderWindowMs: 100 }));
    const gaps = rec.gaps;
    const done = await doneWithin(stream, 15_000);
    assert.equal(done.kind, 'completed');
    const stored = e.storedEvents(turn.sessionId, turn.agentMessageId);
    assert.ok(gaps.length >= 1, 'no gap reported');
    assert.ok(gaps.every((g) => g.reason === 'snapshot' && Array.isArray(g.snapshot?.blocks)));
    // every stored event was either delivered or inside a reported gap, exactly once, in order
    const covered = [
      ...rec.events.map((ev) => ev.event_id),
      ...gaps.flatMap((g) => Array.from({ length: g.to - g.from + 1 }, (_, k) => g.from + k)),
    ].sort((a, b) => a - b);
    assert.deepEqual(
      covered,
      stored.map((ev) => ev.event_id),
    );
    const delivered = new Set(rec.events.map((ev) => ev.event_id));
    assert.deepEqual(essence(rec.events), essence(stored.filter((ev) => delivered.has(ev.event_id))));
  });

  it('follows a new message from the session’s cursor, and from 0-0 when its first event comes before it', async () => {
    const e = await emulator({});
    const sessionId = randomUUID();
    const seeded = e.seedTurn(sessionId, 'answer in 300 events');
    const last = e.storedEvents(sessionId, seeded.agentMessageId).at(-1)?.stream_entry_id;
    const turn = await startTurn(e, 'answer in 5 events', sessionId);
    const { stream, rec } = recordedStream(turnOptions(e, turn, { lastEventId: 0, sessionCursor: last }));
    assert.equal((await doneWithin(stream, 10_000)).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(e.storedEvents(sessionId, turn.agentMessageId)));
    assert.deepEqual(
      e.sockets().map((s) => [s.lastStreamEntryId, s.foreignFrames]),
      [[last, 0]],
    );
    // a guess past the message's first events: the replay starts over from 0-0
    const late = await startTurn(e, 'answer in 5 events', sessionId);
    await e.turnEnded(sessionId, late.agentMessageId);
    const again = recordedStream(
      turnOptions(e, late, { lastEventId: 0, sessionCursor: '99999999999999-0', reorderWindowMs: 50 }),
    );
    assert.equal((await doneWithin(again.stream, 10_000)).kind, 'completed');
    assert.deepEqual(essence(again.rec.events), essence(e.storedEvents(sessionId, late.agentMessageId)));
    assert.equal(e.sockets().at(-1)?.lastStreamEntryId, '0-0');
  });
});
