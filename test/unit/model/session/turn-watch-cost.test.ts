import assert from 'node:assert/strict';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import { TURN_WATCH_QUERY } from '../../../../src/model/session/turn-watch';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../emulator/index';
import { waitFor } from '../../../support/wait';
import { FakeClock } from '../shared/fake-clock';
import { hostRig, lastTurn, type HostRig } from './host-rig';

const ready = (rig: HostRig): Promise<void> => rig.host.handle({ type: 'ready', lastSeq: null });

/** `GET /sessions?…` (the list) and `GET /sessions/{id}` (a whole stored history). */
const isList = (r: { method: string; url: string }): boolean =>
  r.method === 'GET' && /^\/sessions\?/.test(r.url);
const isRead = (r: { method: string; url: string }, id: string): boolean =>
  r.method === 'GET' && r.url === `/sessions/${id}`;

/**
 * What the watch for turns started elsewhere costs the service: a shown, idle panel asks a small
 * page of the session list and reads the whole history only when its session moved there; the
 * looks back off while nothing changes. Window 2 runs on a fake clock; window 1 is hidden once its
 * first turn ended, so every request counted here is window 2's.
 */
describe('TurnWatch: cheap looks for turns started elsewhere', function () {
  this.timeout(40_000);
  let emu: Emulator;
  const rigs: HostRig[] = [];
  const rig = (...a: Parameters<typeof hostRig>): HostRig => {
    const r = hostRig(...a);
    rigs.push(r);
    return r;
  };

  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
    await emu.close();
  });

  async function twoWindows(
    options: EmulatorOptions = {},
  ): Promise<{ one: HostRig; two: HostRig; clock: FakeClock; id: string }> {
    emu = await startEmulator({ eventDelayMs: 20, ...options });
    const one = rig(emu);
    await ready(one);
    assert.ok(await one.host.send('First: add a whitespace normalizer', 'code', 'fast'));
    await waitFor('the first turn to end', () => isTerminalStatus(lastTurn(one).status), 8_000);
    await one.host.whenReconciled();
    one.host.link.setVisible(false);
    const clock = new FakeClock();
    const two = rig(emu, { sessionId: one.host.sessionId, extra: { clock } });
    await two.host.open();
    await ready(two);
    assert.equal(two.host.transcript.turns.length, 1);
    return { one, two, clock, id: one.host.sessionId };
  }

  /**
   * The turn window 1 starts for window 2 to find: it asks a question and waits, so it is still running
   * whenever window 2 looks, however slow the machine (a paced turn could end first); it ends when
   * window 1 answers (`answerInWindowOne`).
   */
  const SECOND_TURN = 'Second: ask me a name, from window 1';

  async function answerInWindowOne(one: HostRig): Promise<void> {
    await waitFor('window 1 to see the question', () => one.host.waitingTurn() !== undefined, 5_000);
    const turnId = lastTurn(one).agentMessageId;
    await one.host.handle({ type: 'answer', turnId, kind: 'reply', text: 'parser-v2' });
  }

  /** Runs window 2's next look: not a moment before it is due, then until it is done. */
  async function nextLook(two: HostRig, clock: FakeClock): Promise<number> {
    const before = two.host.watchStats;
    const due = before.nextInMs;
    assert.ok(due !== undefined, 'no look armed');
    clock.advance(due - 1);
    const { looks, reads } = two.host.watchStats;
    assert.deepEqual(
      { looks, reads },
      { looks: before.looks, reads: before.reads },
      'a look came before it was due',
    );
    clock.advance(1);
    await waitFor('the look to end', () => two.host.watchStats.nextInMs !== undefined, 5_000);
    return due;
  }

  it('an idle shown panel asks only the session list, backing off 5 → 30 s, and never reads the history', async () => {
    const { two, clock, id } = await twoWindows();
    const from = emu.requests().length;
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) delays.push(await nextLook(two, clock));
    assert.deepEqual(delays, [5_000, 10_000, 20_000, 30_000, 30_000, 30_000]);
    const sent = emu.requests().slice(from);
    assert.equal(sent.filter(isList).length, 6, JSON.stringify(sent));
    assert.equal(sent.filter((r) => isRead(r, id)).length, 0, 'the whole history was read');
    assert.equal(sent.length, 6, JSON.stringify(sent));
    const q = new URL(sent[0].url, emu.url).searchParams;
    assert.equal(q.get('limit'), String(TURN_WATCH_QUERY.limit));
    assert.equal(q.get('sort'), 'updatedAt');
    assert.equal(q.get('order'), 'desc');
    assert.deepEqual(two.host.watchStats, { looks: 6, reads: 0, nextInMs: 30_000 });
  });

  it('looks after 5 s again once the panel is focused or shown again', async () => {
    const { two, clock } = await twoWindows();
    for (let i = 0; i < 3; i++) await nextLook(two, clock);
    assert.equal(two.host.watchStats.nextInMs, 30_000);
    two.host.lookedAt();
    assert.equal(await nextLook(two, clock), 5_000);
    assert.equal(two.host.watchStats.nextInMs, 10_000);
    two.host.link.setVisible(false);
    assert.equal(two.host.watchStats.nextInMs, undefined, 'a hidden panel keeps a look armed');
    const looks = two.host.watchStats.looks;
    clock.advance(120_000);
    assert.equal(two.host.watchStats.looks, looks, 'a hidden panel looked');
    two.host.link.setVisible(true);
    two.reloadView();
    await ready(two);
    assert.equal(await nextLook(two, clock), 5_000);
  });

  it('finds a turn started elsewhere after the looks backed off: one read, followed live, then 5 s again', async () => {
    const { one, two, clock } = await twoWindows();
    for (let i = 0; i < 4; i++) await nextLook(two, clock);
    assert.equal(two.host.watchStats.nextInMs, 30_000);
    assert.ok(await one.host.send(SECOND_TURN, 'code', 'fast'));
    const turnId = lastTurn(one).agentMessageId;
    const from = emu.requests().length;
    clock.advance(30_000);
    await waitFor('window 2 to follow the new turn', () => two.host.runningTurns().length === 1, 5_000);
    assert.equal(lastTurn(two).agentMessageId, turnId);
    assert.equal(isTerminalStatus(lastTurn(two).status), false, 'found only after it ended');
    assert.equal(two.host.watchStats.reads, 1);
    assert.equal(emu.requests().slice(from).filter(isList).length, 1);
    await waitFor('a look armed', () => two.host.watchStats.nextInMs !== undefined, 5_000);
    assert.equal(two.host.watchStats.nextInMs, 5_000, 'the looks did not start again at 5 s');
    await answerInWindowOne(one);
    await waitFor('window 2 to see the end', () => isTerminalStatus(lastTurn(two).status), 20_000);
    // Its end moved the session: the next look after the turn reads once more, then only asks.
    await waitFor('a look armed again', () => {
      clock.advance(1_000);
      return two.host.runningTurns().length === 0 && two.host.watchStats.nextInMs !== undefined;
    });
    const reads = two.host.watchStats.reads;
    await nextLook(two, clock);
    assert.ok(two.host.watchStats.reads <= reads + 1);
    const settled = two.host.watchStats.reads;
    for (let i = 0; i < 3; i++) await nextLook(two, clock);
    assert.equal(two.host.watchStats.reads, settled, 'reads went on while nothing changed');
    assert.equal(two.host.transcript.turns.length, 2);
  });

  it('a session that fell off the list page is read once, then the looks only ask again', async () => {
    const { two, clock, id } = await twoWindows({ extraSessions: 12 });
    // Ten other sessions updated after it push it off the first page.
    const page = await two.client.listSessions({ limit: 20, sort: 'updatedAt', order: 'desc' });
    const others = page.sessions.filter((s) => s.sessionId !== id).slice(0, TURN_WATCH_QUERY.limit);
    for (const s of others) await two.client.renameSession(s.sessionId, `${s.title} (renamed)`);
    const from = emu.requests().length;
    await nextLook(two, clock);
    assert.equal(two.host.watchStats.reads, 1, 'it could have changed unseen: one read');
    for (let i = 0; i < 3; i++) await nextLook(two, clock);
    assert.equal(two.host.watchStats.reads, 1);
    assert.equal(
      emu
        .requests()
        .slice(from)
        .filter((r) => isRead(r, id)).length,
      1,
    );
  });

  describe('a service whose session list has no updatedAt', () => {
    it('reads the whole history at each look instead, backing off 5 → 60 s, and still finds a turn', async () => {
      const { one, two, clock, id } = await twoWindows({ listUpdatedAt: false });
      const from = emu.requests().length;
      const delays: number[] = [];
      for (let i = 0; i < 6; i++) delays.push(await nextLook(two, clock));
      assert.deepEqual(delays, [5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
      const sent = emu.requests().slice(from);
      // The list was asked once: it told nothing usable, so it is not asked again while shown.
      assert.equal(sent.filter(isList).length, 1, JSON.stringify(sent));
      assert.equal(sent.filter((r) => isRead(r, id)).length, 6, JSON.stringify(sent));
      assert.deepEqual(two.host.watchStats, { looks: 1, reads: 6, nextInMs: 60_000 });

      assert.ok(await one.host.send(SECOND_TURN, 'code', 'fast'));
      clock.advance(60_000);
      await waitFor('window 2 to follow the new turn', () => two.host.runningTurns().length === 1, 5_000);
      assert.equal(lastTurn(two).agentMessageId, lastTurn(one).agentMessageId);
      assert.equal(isTerminalStatus(lastTurn(two).status), false, 'found only after it ended');
      await waitFor('a look armed', () => two.host.watchStats.nextInMs !== undefined, 5_000);
      assert.equal(two.host.watchStats.nextInMs, 5_000, 'the looks did not start again at 5 s');
      await answerInWindowOne(one);
      await waitFor('window 2 to see the end', () => isTerminalStatus(lastTurn(two).status), 20_000);
    });
  });
});
