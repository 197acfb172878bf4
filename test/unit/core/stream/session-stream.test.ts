import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type { AgentEvent } from '../../../../src/core/client/types';
import { SessionStream } from '../../../../src/core/stream/session-stream';
import { startEmulator, type Emulator } from '../../../emulator';
import { waitFor } from '../../../support/wait';
import {
  capturingLogger,
  closeRecordedStreams,
  count,
  essence,
  recordedStream,
  sequenceProblem,
  startTurn,
  turnOptions,
} from './stream-helpers';

describe('SessionStream against the emulator', () => {
  let emu: Emulator;

  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 1, maxConcurrent: 100 });
  });
  afterEach(closeRecordedStreams);
  after(async () => {
    await emu.close();
  });

  it('streams a scripted coding turn completely, equal to the stored events', async () => {
    const turn = await startTurn(emu, 'write a hello world script');
    const { stream, rec } = recordedStream(turnOptions(emu, turn));
    const done = await stream.done;
    assert.equal(done.kind, 'completed');
    assert.equal(done.event?.kind, 'task.completed');
    const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
    assert.deepEqual(essence(rec.events), essence(stored));
    assert.ok(rec.events.some((e) => e.kind === 'tool.log'));
    assert.equal(stream.stats.duplicates, 0);
    assert.equal(stream.cursor, stored.at(-1)?.stream_entry_id);
    assert.equal(stream.lastEventId, stored.at(-1)?.event_id);
    assert.deepEqual(
      rec.states.map((s) => s.state),
      ['connecting', 'open', 'ended'],
    );
  });

  it('follows a turn that already ended by replaying it from the start', async () => {
    const turn = await startTurn(emu, 'write a tiny parser');
    await emu.turnEnded(turn.sessionId, turn.agentMessageId);
    const { stream, rec } = recordedStream(turnOptions(emu, turn));
    assert.equal((await stream.done).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
  });

  it('resumes from a cursor mid-turn and receives only the rest', async () => {
    const turn = await startTurn(emu, 'write a csv reader');
    await emu.turnEnded(turn.sessionId, turn.agentMessageId);
    const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
    const k = Math.floor(stored.length / 2);
    const { stream, rec } = recordedStream(
      turnOptions(emu, turn, {
        lastStreamEntryId: stored[k].stream_entry_id,
        lastEventId: stored[k].event_id,
      }),
    );
    assert.equal((await stream.done).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(stored.slice(k + 1)));
  });

  it('resumes from a cursor alone by taking the first event after it as the start', async () => {
    const turn = await startTurn(emu, 'write a json printer');
    await emu.turnEnded(turn.sessionId, turn.agentMessageId);
    const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
    const k = 3;
    const { stream, rec } = recordedStream(
      turnOptions(emu, turn, { lastStreamEntryId: stored[k].stream_entry_id, reorderWindowMs: 50 }),
    );
    assert.equal((await stream.done).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(stored.slice(k + 1)));
  });

  it('skips events up to a lastEventId given without a cursor', async () => {
    const turn = await startTurn(emu, 'write a queue');
    await emu.turnEnded(turn.sessionId, turn.agentMessageId);
    const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
    const { stream, rec } = recordedStream(turnOptions(emu, turn, { lastEventId: 5 }));
    assert.equal((await stream.done).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(stored.filter((e) => e.event_id > 5)));
    assert.ok(stream.stats.duplicates >= 5);
  });

  it("follows the primary user's session with the read-only key", async () => {
    const turn = await startTurn(emu, 'write a read only check');
    const { stream, rec } = recordedStream(turnOptions(emu, turn, { apiKey: () => emu.keys.readOnly }));
    assert.equal((await stream.done).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
  });

  it('follows the stream on the older /ws/chat path', async () => {
    const turn = await startTurn(emu, 'write a chat path check');
    const { stream, rec } = recordedStream(turnOptions(emu, turn, { path: 'chat' }));
    assert.equal((await stream.done).kind, 'completed');
    assert.deepEqual(essence(rec.events), essence(emu.storedEvents(turn.sessionId, turn.agentMessageId)));
  });

  const refusals = [
    { name: 'a bad token', key: 'sk_live_not_a_real_key_123', code: 'unauthorized', status: 401 },
    { name: "another user's key", key: 'second', code: 'forbidden', status: 403 },
    { name: 'an unknown session', key: 'primary', code: 'not_found', status: 404, unknownSession: true },
  ] as const;
  for (const r of refusals) {
    it(`fails at once with ${r.code} on ${r.name}, without a retry loop`, async () => {
      const turn = await startTurn(emu, 'write a refusal check');
      const key = r.key === 'second' ? emu.keys.second : r.key === 'primary' ? emu.keys.primary : r.key;
      const sessionId = 'unknownSession' in r ? randomUUID() : turn.sessionId;
      const { stream, rec } = recordedStream(
        turnOptions(emu, { ...turn, sessionId }, { apiKey: () => key, maxConsecutiveFailures: 50 }),
      );
      const done = await stream.done;
      assert.equal(done.kind, 'failed');
      assert.equal(done.error?.code, r.code);
      assert.equal(done.error?.status, r.status);
      assert.ok(count(rec, 'connecting') <= 1, `${count(rec, 'connecting')} connection attempts`);
      assert.equal(count(rec, 'reconnecting'), 0);
      assert.equal(rec.states.at(-1)?.state, 'failed');
      assert.ok(!done.error?.message.includes(key));
    });
  }

  it('fails with a config error when no key is set, without connecting', async () => {
    const turn = await startTurn(emu, 'write a no key check');
    const { stream, rec } = recordedStream(turnOptions(emu, turn, { apiKey: () => undefined }));
    const done = await stream.done;
    assert.equal(done.error?.code, 'config');
    assert.equal(count(rec, 'connecting'), 0);
  });

  it('ends the turn with task.aborted after sendStop', async () => {
    const turn = await startTurn(emu, 'write a long answer');
    const events: AgentEvent[] = [];
    let stopped = false;
    const stream: SessionStream = new SessionStream(turnOptions(emu, turn), {
      onEvent: (ev) => {
        events.push(ev);
        if (!stopped && ev.kind === 'markdown.chunk') stopped = stream.sendStop();
      },
    });
    stream.start();
    const done = await stream.done;
    assert.ok(stopped);
    assert.equal(done.kind, 'aborted');
    assert.equal(events.at(-1)?.kind, 'task.aborted');
    const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId);
    assert.deepEqual(essence(events), essence(stored));
    assert.ok(
      stored.filter((e) => e.kind === 'markdown.chunk').length < 400,
      'the turn ran to its end anyway',
    );
    assert.equal(stream.sendStop(), false);
  });

  it('sends a stop queued before the socket opened once it opens', async () => {
    const turn = await startTurn(emu, 'write a slow answer');
    const { stream, rec } = recordedStream(turnOptions(emu, turn), false);
    assert.equal(stream.sendStop(), true);
    stream.start();
    const done = await stream.done;
    assert.equal(done.kind, 'aborted');
    assert.equal(rec.events.at(-1)?.kind, 'task.aborted');
  });

  it('sends a follow-up message the service acknowledges on the stream', async () => {
    const turn = await startTurn(emu, 'write a slow answer for follow up');
    const text = `and then a follow-up ${randomUUID()}`;
    const { stream, rec } = recordedStream(turnOptions(emu, turn), false);
    stream.sendMessage(text);
    stream.start();
    await waitFor(
      'echo',
      () => rec.events.some((e) => e.kind === 'message.received' && e.payload.text === text),
      5000,
    );
    stream.sendStop();
    await stream.done;
  });

  it('tells the service about edited files', async () => {
    const turn = await startTurn(emu, 'write a slow answer for edits');
    const { stream } = recordedStream(turnOptions(emu, turn));
    const path = `edited-${randomUUID().slice(0, 8)}.txt`;
    stream.sendFileEdits([{ path, content: 'hello' }]);
    // The service reads a socket's frames in order: once it has ended the turn on the stop sent
    // after the edits, it has taken the edits in.
    stream.sendStop();
    assert.equal((await stream.done).kind, 'aborted');
    const res = await fetch(`${emu.url}/sessions/${turn.sessionId}`, {
      headers: { authorization: `Bearer ${emu.keys.primary}` },
    });
    const body = (await res.json()) as { session?: { fileSnapshot?: Record<string, unknown> } };
    assert.ok(
      JSON.stringify(body.session?.fileSnapshot ?? {}).includes(path),
      'the edited file never reached the session',
    );
  });

  it('stops every callback and resolves done as closed on close() mid-turn', async () => {
    const turn = await startTurn(emu, 'write a slow answer to close');
    const { stream, rec } = recordedStream(turnOptions(emu, turn));
    await waitFor('two events', () => rec.events.length >= 2, 5000);
    stream.close();
    const seen = { events: rec.events.length, states: rec.states.length };
    assert.deepEqual(await stream.done, { kind: 'closed' });
    assert.equal(rec.states.at(-1)?.state, 'closed');
    // The turn goes on (an event every 300 ms). The service writes each event to every socket
    // following the turn as it stores it, so by the time it has stored two more, a socket still
    // open would have handed the first of them over, and a reconnect (5-40 ms) would have shown.
    const stored = emu.storedEvents(turn.sessionId, turn.agentMessageId).length;
    await waitFor(
      'two more events on the service',
      () => emu.storedEvents(turn.sessionId, turn.agentMessageId).length >= stored + 2,
      5000,
    );
    assert.deepEqual({ events: rec.events.length, states: rec.states.length }, seen);
    assert.equal(stream.sendStop(), false);
  });

  describe('with the older variant', () => {
    let legacy: Emulator;
    before(async () => {
      legacy = await startEmulator({ seed: false, eventDelayMs: 1, variant: 'legacy' });
    });
    after(async () => {
      await legacy.close();
    });

    it('passes the snapshot on and still delivers every event, the replay from before it included', async () => {
      const turn = await startTurn(legacy, 'write a long answer');
      await waitFor(
        'events',
        () => legacy.storedEvents(turn.sessionId, turn.agentMessageId).length >= 20,
        5000,
      );
      const { stream, rec } = recordedStream(turnOptions(legacy, turn));
      const done = await stream.done;
      assert.equal(done.kind, 'completed');
      assert.equal(done.event?.kind, 'task.completed');
      assert.equal(rec.snapshots.length, 1);
      const covered = Number(rec.snapshots[0].last_event_id);
      assert.ok(covered >= 20 && Array.isArray(rec.snapshots[0].blocks));
      const stored = legacy.storedEvents(turn.sessionId, turn.agentMessageId);
      assert.deepEqual(essence(rec.events), essence(stored));
      assert.deepEqual(rec.gaps, []);
      assert.equal(stream.lastEventId, stored.at(-1)?.event_id);
    });

    it('ends with the replay of a turn that is already over, or with its snapshot when nothing is replayed', async () => {
      const turn = await startTurn(legacy, 'write a finished legacy turn');
      await legacy.turnEnded(turn.sessionId, turn.agentMessageId);
      const stored = legacy.storedEvents(turn.sessionId, turn.agentMessageId);
      const replayed = recordedStream(turnOptions(legacy, turn));
      assert.equal((await replayed.stream.done).event?.kind, 'task.completed');
      assert.deepEqual(essence(replayed.rec.events), essence(stored));
      const after = await startEmulator({
        seed: false,
        eventDelayMs: 1,
        variant: 'legacy',
        snapshotReplay: 'after',
      });
      try {
        const t = await startTurn(after, 'write a finished legacy turn');
        await after.turnEnded(t.sessionId, t.agentMessageId);
        const { stream, rec } = recordedStream(turnOptions(after, t));
        assert.deepEqual(await stream.done, { kind: 'completed' });
        assert.equal(rec.events.length, 0);
        assert.equal(rec.snapshots.length, 1);
        assert.deepEqual(
          rec.gaps.map((g) => [g.from, g.to, g.reason]),
          [[1, after.storedEvents(t.sessionId, t.agentMessageId).length, 'snapshot']],
        );
        assert.equal(count(rec, 'reconnecting'), 0);
      } finally {
        await after.close();
      }
    });
  });

  it('delivers events with no gap when the service does not close after the terminal event', async () => {
    const quiet = await startEmulator({ seed: false, eventDelayMs: 0, closeAfterTerminal: false });
    try {
      const turn = await startTurn(quiet, 'write a lingering socket check');
      const { stream, rec } = recordedStream(turnOptions(quiet, turn));
      assert.equal((await stream.done).kind, 'completed');
      assert.equal(sequenceProblem(rec.events), undefined);
      assert.equal(count(rec, 'reconnecting'), 0);
    } finally {
      await quiet.close();
    }
  });

  it('never puts the key in logs, errors, state infos or protocol errors across a failing run', async () => {
    const faulty = await startEmulator({ seed: false, eventDelayMs: 1 });
    const key = faulty.keys.primary;
    const log = capturingLogger();
    const turn = await startTurn(faulty, 'write a slow answer with secrets');
    faulty.faults = { dropAfterFrames: 3, malformedRate: 0.3, seed: 5 };
    const { stream, rec } = recordedStream(
      turnOptions(faulty, turn, {
        logger: log,
        maxConsecutiveFailures: 3,
        backoff: { initialMs: 5, maxMs: 10 },
      }),
    );
    await waitFor(
      'drops and garbage',
      () => stream.stats.reconnects >= 2 && stream.stats.malformed >= 1,
      10_000,
    );
    await faulty.close();
    const done = await stream.done;
    assert.equal(done.kind, 'failed');
    assert.equal(done.error?.code, 'network');
    assert.ok(
      log.lines.some((l) => l.includes('token=***')),
      'the connect URL is logged, redacted',
    );
    const everything = [
      ...log.lines,
      inspect(done, { depth: 10 }),
      inspect(rec.states, { depth: 10 }),
      inspect(rec.protocolErrors, { depth: 10 }),
      JSON.stringify(stream.stats),
    ].join('\n');
    assert.ok(!everything.includes(key), 'the key leaked');
  });
});
