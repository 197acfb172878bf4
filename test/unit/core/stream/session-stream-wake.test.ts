import assert from 'node:assert/strict';
import { WAKE_JUMP_MS } from '../../../../src/core/stream/stream-types';
import { startEmulator, type Emulator } from '../../../emulator';
import { waitFor } from '../../../support/wait';
import {
  capturingLogger,
  closeRecordedStreams,
  doneWithin,
  essence,
  recordedStream,
  sequenceProblem,
  startTurn,
  turnOptions,
} from './stream-helpers';

const FIVE_MINUTES = 5 * 60_000;

/**
 * The machine asleep for 5 minutes, then awake. While it sleeps nothing runs: Node's timers and
 * `performance.now()` stand still (Linux, macOS), only the wall clock moves on. The service drops
 * the socket meanwhile and the client never hears of it (a half-open socket: `silenceSockets`); the
 * turn goes on and is stored. Here the wall clock the stream reads jumps by 5 minutes, as it does
 * at wake; the idle timeout stays at its default 45 s, so only noticing the wake can bring the turn
 * in within the test's time.
 */
describe('SessionStream: the machine slept for 5 minutes', function () {
  this.timeout(30_000);
  let emu: Emulator | undefined;

  afterEach(async () => {
    closeRecordedStreams();
    await emu?.close();
    emu = undefined;
  });

  it('notices the wake, reconnects from its cursor and delivers the rest of the turn once, in order', async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 30 });
    const turn = await startTurn(emu, 'a turn that runs while the laptop sleeps');
    let wall = Date.now();
    const log = capturingLogger();
    const { stream, rec } = recordedStream(
      turnOptions(emu, turn, { wakeCheckMs: 20, wallClock: () => wall, logger: log }),
    );
    await waitFor('a few events', () => rec.events.length >= 3);
    // Lid closed: the socket goes silent for good; the turn runs on to its end on the service.
    const running = emu;
    assert.equal(running.silenceSockets(), 1);
    const before = rec.events.length;
    await running.turnEnded(turn.sessionId, turn.agentMessageId);
    assert.ok(rec.events.length - before <= 1, 'events still arrived over the silenced socket');
    // Lid opened: the wall clock is 5 minutes further than the paused timers think.
    wall += FIVE_MINUTES;
    const done = await doneWithin(stream, 15_000);

    assert.equal(done.kind, 'completed', done.error?.message);
    const stored = running.storedEvents(turn.sessionId, turn.agentMessageId);
    assert.equal(sequenceProblem(rec.events), undefined);
    assert.deepEqual(essence(rec.events), essence(stored));
    assert.equal(stream.stats.reconnects, 1);
    // What the panel is told: reconnecting because the computer slept, with how long.
    const woke = rec.states.find((s) => s.state === 'reconnecting');
    assert.ok(woke?.info.error, JSON.stringify(rec.states));
    assert.match(woke.info.error.message, /computer slept/);
    // The wall clock stood still in the test between looks: 5 minutes less one look's interval.
    assert.equal(woke.info.error.details?.sleptMs, FIVE_MINUTES - 20);
    assert.equal(woke.info.delayMs, 0);
    assert.ok(
      log.lines.some((l) => /^info stream: timers were paused for about 300 s/.test(l)),
      log.lines.join('\n'),
    );
  });

  it('takes a wall clock that moves with the timers, or less than the jump ahead, as no sleep', async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 5 });
    const turn = await startTurn(emu, 'an ordinary turn');
    let wall = Date.now();
    const { stream, rec } = recordedStream(
      turnOptions(emu, turn, { wakeCheckMs: 20, wallClock: () => wall }),
    );
    await waitFor('a few events', () => rec.events.length >= 3);
    wall += WAKE_JUMP_MS - 1_000;
    const done = await doneWithin(stream, 15_000);
    assert.equal(done.kind, 'completed');
    assert.equal(stream.stats.reconnects, 0);
    assert.equal(rec.states.filter((s) => s.state === 'reconnecting').length, 0);
  });
});
