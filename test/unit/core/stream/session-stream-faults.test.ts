import assert from 'node:assert/strict';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../emulator';
import {
  closeRecordedStreams,
  count,
  doneWithin,
  essence,
  recordedStream,
  sequenceProblem,
  startTurn,
  turnOptions,
} from './stream-helpers';

let running: Emulator | undefined;

/** A fresh emulator per test, so fault plans and timings never leak between tests. */
function withEmulator(options: EmulatorOptions, body: (emu: Emulator) => Promise<void>): () => Promise<void> {
  return async () => {
    running = await startEmulator({ seed: false, maxConcurrent: 20, ...options });
    await body(running);
  };
}

const stormBackoff = { initialMs: 1, maxMs: 8, factor: 2, jitter: 0.5 };

/**
 * How long a stream may take before it counts as hung and its progress is reported: a guard, far
 * above what these take even on a busy machine (how fast they go is for `npm run bench`).
 */
const HUNG_MS = 50_000;

describe('SessionStream under faults', function () {
  this.timeout(HUNG_MS + 10_000);

  afterEach(async () => {
    closeRecordedStreams();
    await running?.close();
    running = undefined;
  });

  for (const liveStreamEntryIds of [true, false]) {
    it(
      `delivers a 5,000-event turn exactly once through at least 100 forced drops (live stream_entry_id ${liveStreamEntryIds ? 'on' : 'off'})`,
      withEmulator({ eventDelayMs: 0, liveStreamEntryIds }, async (emu) => {
        emu.faults = { dropAfterFrames: 40 };
        const turn = await startTurn(emu, 'stream 5000 events');
        const { stream, rec } = recordedStream(turnOptions(emu, turn, { backoff: stormBackoff }));
        const done = await doneWithin(stream, HUNG_MS);
        assert.equal(done.kind, 'completed', done.error?.message);
        const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
        assert.ok(stored.length >= 5000);
        assert.equal(sequenceProblem(rec.events), undefined);
        assert.deepEqual(essence(rec.events), essence(stored));
        assert.ok(stream.stats.reconnects >= 100, `only ${stream.stats.reconnects} reconnects`);
        assert.equal(count(rec, 'failed'), 0);
      }),
    );
  }

  it(
    'resumes where the stored history says when no socket frame carries a stream_entry_id, through 100 drops',
    withEmulator({ eventDelayMs: 0, liveStreamEntryIds: false, replayStreamEntryIds: false }, async (emu) => {
      emu.faults = { dropAfterFrames: 40 };
      const turn = await startTurn(emu, 'stream 5000 events');
      let lookups = 0;
      // The extension reads the stored history over HTTP; the in-process copy keeps this test fast.
      const resolveCursor = async (lastEventId: number): Promise<string | undefined> => {
        lookups++;
        const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
        return stored.find((e) => e.event_id === lastEventId)?.stream_entry_id;
      };
      const { stream, rec } = recordedStream(
        turnOptions(emu, turn, { backoff: stormBackoff, resolveCursor }),
      );
      assert.equal((await doneWithin(stream, HUNG_MS)).kind, 'completed');
      assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
      assert.ok(stream.stats.reconnects >= 100, `only ${stream.stats.reconnects} reconnects`);
      assert.ok(lookups >= 100, `only ${lookups} cursor lookups`);
    }),
  );

  it(
    'delivers exactly once through duplicated, reordered and malformed frames, counting each',
    withEmulator({ eventDelayMs: 0 }, async (emu) => {
      emu.faults = { duplicateRate: 0.1, reorderRate: 0.1, malformedRate: 0.1, seed: 42 };
      const turn = await startTurn(emu, 'stream 2000 events');
      const { stream, rec } = recordedStream(turnOptions(emu, turn));
      assert.equal((await doneWithin(stream, HUNG_MS)).kind, 'completed');
      assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
      const { duplicates, reordered, malformed } = stream.stats;
      assert.ok(duplicates > 0 && reordered > 0 && malformed > 0, JSON.stringify(stream.stats));
      assert.equal(rec.protocolErrors.length, malformed);
      assert.ok(rec.protocolErrors.every((p) => p.err.code === 'protocol'));
    }),
  );

  it(
    'delivers exactly once when every fault strikes together',
    withEmulator({ eventDelayMs: 0 }, async (emu) => {
      emu.faults = { dropAfterFrames: 60, duplicateRate: 0.1, reorderRate: 0.1, malformedRate: 0.1, seed: 7 };
      const turn = await startTurn(emu, 'stream 3000 events');
      const { stream, rec } = recordedStream(turnOptions(emu, turn, { backoff: stormBackoff }));
      assert.equal((await doneWithin(stream, HUNG_MS)).kind, 'completed');
      assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
      assert.ok(stream.stats.reconnects >= 20, JSON.stringify(stream.stats));
    }),
  );

  it(
    'reconnects after silence longer than the idle timeout and still completes exactly',
    withEmulator({}, async (emu) => {
      const turn = await startTurn(emu, 'slow stream 3 events');
      const { stream, rec } = recordedStream(turnOptions(emu, turn, { idleTimeoutMs: 120 }));
      assert.equal((await doneWithin(stream, HUNG_MS)).kind, 'completed');
      assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
      const timeouts = rec.states.filter(
        (s) => s.state === 'reconnecting' && s.info.error?.code === 'timeout',
      );
      assert.ok(timeouts.length >= 1, 'no idle reconnect');
      assert.equal(stream.stats.duplicates, 0);
    }),
  );

  it(
    'waits out a 429 on the upgrade for as long as Retry-After says, then streams',
    withEmulator({}, async (emu) => {
      const turn = await startTurn(emu, 'write a rate limit check');
      emu.failNext({ path: '^/ws/', status: 429, headers: { 'X-Rate-Limit-Retry-After': '1' }, times: 1 });
      const { stream, rec } = recordedStream(turnOptions(emu, turn));
      assert.equal((await doneWithin(stream, HUNG_MS)).kind, 'completed');
      const retry = rec.states.find((s) => s.state === 'reconnecting');
      assert.equal(retry?.info.error?.code, 'rate_limited');
      // the wait it scheduled (no wall-clock check: the stream's own timer takes it)
      assert.ok((retry?.info.delayMs ?? 0) >= 1000);
      assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
    }),
  );

  it(
    'retries 5xx on the upgrade with backoff and recovers',
    withEmulator({}, async (emu) => {
      const turn = await startTurn(emu, 'write a server error check');
      emu.failNext({ path: '^/ws/', status: 503, body: { error: 'unavailable', message: 'busy' }, times: 3 });
      const { stream, rec } = recordedStream(turnOptions(emu, turn));
      assert.equal((await doneWithin(stream, HUNG_MS)).kind, 'completed');
      assert.equal(count(rec, 'reconnecting'), 3);
      assert.ok(
        rec.states.filter((s) => s.state === 'reconnecting').every((s) => s.info.error?.code === 'server'),
      );
      const delays = rec.states.filter((s) => s.state === 'reconnecting').map((s) => s.info.delayMs ?? 0);
      assert.ok(delays[2] > delays[0], `delays do not grow: ${delays.join(', ')}`);
    }),
  );

  it(
    'gives up with the last error after the allowed consecutive failures',
    withEmulator({}, async (emu) => {
      const turn = await startTurn(emu, 'write a give up check');
      emu.failNext({ path: '^/ws/', status: 502, times: 100 });
      const { stream, rec } = recordedStream(turnOptions(emu, turn, { maxConsecutiveFailures: 4 }));
      const done = await doneWithin(stream, HUNG_MS);
      assert.equal(done.kind, 'failed');
      assert.equal(done.error?.code, 'server');
      assert.equal(done.error?.status, 502);
      assert.equal(count(rec, 'connecting'), 4);
      assert.equal(rec.states.at(-1)?.state, 'failed');
    }),
  );
});
