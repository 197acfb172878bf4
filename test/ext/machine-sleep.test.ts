import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { lastTurn, openPanel, turnEnded, waitShows, withStoredTurn, recordConnection } from './panel-helpers';

/** Five minutes asleep, as the wall clock sees it on waking. */
const SLEPT_MS = 5 * 60_000;

/**
 * The machine asleep mid-turn, in the real extension host. While a laptop sleeps its timers stand
 * still and the wall clock moves on; the service has meanwhile dropped the socket without a word (the
 * emulator's `silenceSockets`: a half-open socket). The test moves the host's wall clock
 * (`Date.now`, which Den's stream reads) by five minutes as waking does; Den must notice, say so and
 * catch up from its cursor, not wait out its idle timeout on a dead socket.
 */
describe('The machine slept', () => {
  const den = useDen();
  const realNow = Date.now;

  afterEach(() => {
    Date.now = realNow;
  });

  it('five minutes asleep mid-turn, the socket dead on waking: the panel says it caught up after the computer slept and shows the turn exactly once', async function () {
    this.timeout(90_000);
    let slept = 0;
    Date.now = () => realNow() + slept;
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'slow answer in 20 events', mode: 'auto' } });
    const { told, stop: untap } = recordConnection(panel);
    try {
      const turn = lastTurn(panel);
      await waitFor('the turn to stream', () => turn.status === 'running' && turn.blocks.length > 0);
      const agentId = turn.agentMessageId;
      // The laptop's lid closes: the service drops the socket silently and finishes the turn.
      assert.ok(den.emu.silenceSockets() >= 1, 'no socket to silence');
      await den.emu.turnEnded(id, agentId);
      assert.equal(turn.status, 'running', 'the turn ended over a silenced socket');
      // It opens again: the wall clock has moved five minutes, the timers have not.
      slept = SLEPT_MS;
      await turnEnded(den.api, turn, 30_000);
      assert.equal(turn.status, 'completed');
      await waitShows(panel, () => withStoredTurn(den.emu, panel.transcript, agentId), 'the finished turn');
      assert.equal(panel.transcript.turns.filter((t) => t.agentMessageId === agentId).length, 1);
      assert.ok(
        told.some((c) => /computer slept/.test(c.message ?? '')),
        `the panel never said it caught up after the computer slept: ${JSON.stringify(told)}`,
      );
    } finally {
      untap();
    }
  });
});
