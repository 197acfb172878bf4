import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startEmulator, type Emulator, type EmulatorOptions } from '../index';
import { scriptFor } from '../scripts';
import { waitFor } from '../../support/wait';
import { call, entryAfter, eventsOf, openStream, startTurn } from './helpers';

function useEmulator(options: EmulatorOptions): () => Emulator {
  let emu: Emulator | undefined;
  before(async () => {
    emu = await startEmulator({ seed: false, ...options });
  });
  after(() => emu?.close());
  return () => emu as Emulator;
}

describe('emulator: scripted turns', () => {
  const emu = useEmulator({ eventDelayMs: 0 });

  it('stores a coding turn with sequential event ids, increasing stream entry ids and a terminal event last', async () => {
    const t = await startTurn(emu(), 'Add a retry helper');
    assert.equal(t.status, 200);
    assert.equal(t.body.status, 'running');
    assert.equal(typeof t.body.user_message_id, 'string');
    await emu().turnEnded(t.sessionId, t.agentId);
    const events = emu().storedEvents(t.sessionId, t.agentId);
    assert.deepEqual(
      events.map((e) => e.event_id),
      events.map((_e, i) => i + 1),
    );
    for (let i = 1; i < events.length; i++) {
      assert.ok(entryAfter(events[i].stream_entry_id!, events[i - 1].stream_entry_id!), `entry ${i}`);
    }
    const kinds = events.map((e) => e.kind);
    assert.equal(kinds.at(-1), 'task.completed');
    assert.equal(kinds.filter((k) => k.startsWith('task.completed')).length, 1);
    for (const k of [
      'message.received',
      'task.phase',
      'thought',
      'tool.start',
      'tool.parameters',
      'tool.log',
      'tool.result',
      'sandbox.snapshot',
      'focus',
      'markdown.chunk',
      'block.update',
    ]) {
      assert.ok(kinds.includes(k), k);
    }
    const write = events.find((e) => e.kind === 'tool.parameters' && e.block_id === 'tool:write_file:1');
    const params = write?.payload.parameters as { path: string; content: string };
    assert.ok(params.path && params.content);
    const logs = events.filter((e) => e.kind === 'tool.log');
    assert.ok(logs.some((e) => e.payload.stream === 'stderr'));
    assert.ok(logs.some((e) => String(e.payload.data).includes('\x1b[')));
    assert.ok(
      events.some(
        (e) => e.kind === 'block.update' && (e.payload.patch as { final?: boolean }).final === true,
      ),
    );
    const done = events.at(-1)!.payload as { continuation: string; files: { key: string; name: string }[] };
    assert.equal(typeof JSON.parse(done.continuation), 'object');
    assert.ok(done.files.some((f) => f.name === params.path));

    const detail = await call<{ session: { fileSnapshot: Record<string, { key: string }> } }>(
      emu(),
      'GET',
      `/sessions/${t.sessionId}`,
    );
    const key = `${t.sessionId}/${params.path}`;
    assert.equal(detail.body.session.fileSnapshot[key].key, key);
    const media = await call(emu(), 'GET', `/media/${key}`);
    assert.equal(media.status, 200);
    assert.equal(media.text, params.content);
  });

  it('streams the ack, then every stored event with message_id, then closes with 1000', async () => {
    const t = await startTurn(emu(), 'Write a parser');
    const s = openStream(emu(), t.sessionId, t.agentId, '0-0');
    assert.equal(await s.closed, 1000);
    assert.deepEqual(JSON.parse(s.raw[0]), { type: 'ack', resume_from: '0-0' });
    const frames = eventsOf(s.raw.slice(1));
    const stored = emu().storedEvents(t.sessionId, t.agentId);
    assert.deepEqual(
      frames,
      stored.map((e) => ({ ...e, message_id: t.agentId })),
    );
  });

  it('resumes after a given stream_entry_id', async () => {
    const t = await startTurn(emu(), 'Write a lexer');
    await emu().turnEnded(t.sessionId, t.agentId);
    const stored = emu().storedEvents(t.sessionId, t.agentId);
    const cursor = stored[9].stream_entry_id!;
    const s = openStream(emu(), t.sessionId, t.agentId, cursor);
    await s.closed;
    assert.equal(JSON.parse(s.raw[0]).resume_from, cursor);
    assert.deepEqual(
      eventsOf(s.raw).map((e) => e.event_id),
      stored.slice(10).map((e) => e.event_id),
    );
  });

  it('ends a "fail" turn with task.error after some output', async () => {
    const t = await startTurn(emu(), 'This one will fail');
    await emu().turnEnded(t.sessionId, t.agentId);
    const kinds = emu()
      .storedEvents(t.sessionId, t.agentId)
      .map((e) => e.kind);
    assert.equal(kinds.at(-1), 'task.error');
    assert.ok(kinds.includes('markdown.chunk'));
    assert.ok(!kinds.includes('task.completed'));
  });

  it('moves plan todos from pending through active to completed', async () => {
    const t = await startTurn(emu(), 'Migrate the database', { mode: 'plan' });
    await emu().turnEnded(t.sessionId, t.agentId);
    const plans = emu()
      .storedEvents(t.sessionId, t.agentId)
      .filter((e) => e.kind === 'plan.update');
    assert.ok(plans.every((e) => e.block_id === 'plan:root'));
    const statuses = (i: number) =>
      (plans[i].payload.patch as { todos: { status: string }[] }).todos.map((x) => x.status);
    assert.ok(statuses(0).every((x) => x === 'pending'));
    assert.ok(plans.some((_e, i) => statuses(i).includes('active')));
    assert.ok(statuses(plans.length - 1).every((x) => x === 'completed'));
  });

  const counts: [string, number][] = [
    ['stream 250 events', 250],
    ['a long answer please', 400],
  ];
  for (const [task, n] of counts) {
    it(`emits exactly ${n} markdown chunks for "${task}"`, async () => {
      const t = await startTurn(emu(), task);
      await emu().turnEnded(t.sessionId, t.agentId);
      const events = emu().storedEvents(t.sessionId, t.agentId);
      assert.equal(events.filter((e) => e.kind === 'markdown.chunk').length, n);
      assert.equal(events.at(-1)?.kind, 'task.completed');
    });
  }

  it('spaces the events of a "slow" turn about 300 ms apart', async () => {
    const t = await startTurn(emu(), 'a slow one');
    await waitFor('four events', () => emu().storedEvents(t.sessionId, t.agentId).length >= 4);
    const ev = emu().storedEvents(t.sessionId, t.agentId);
    assert.ok(ev[3].timestamp - ev[2].timestamp >= 250, `gap ${ev[3].timestamp - ev[2].timestamp} ms`);
    await call(emu(), 'DELETE', `/message/${t.agentId}/abort`);
  });

  it('a "burst" turn of marked chunks stores every chunk in order, each with its index, after the lead-in', async () => {
    const t = await startTurn(emu(), '300 events burst marked');
    await emu().turnEnded(t.sessionId, t.agentId);
    const events = emu().storedEvents(t.sessionId, t.agentId);
    const marks = events
      .filter((e) => e.kind === 'markdown.chunk')
      .map((e) => /⟦(\d+)⟧/.exec(String(e.payload.delta))?.[1]);
    assert.deepEqual(
      marks,
      marks.map((_m, i) => String(i)),
    );
    assert.equal(marks.length, 300);
    assert.equal(events.at(-1)?.kind, 'task.completed');
    for (let i = 1; i < events.length; i++) {
      assert.ok(entryAfter(events[i].stream_entry_id!, events[i - 1].stream_entry_id!), `entry ${i}`);
    }
  });

  it('a "rate R" turn is paced: every step after the first waits 1000/R ms from the one before (the chunks after a lead-in)', () => {
    const steps = scriptFor({
      sessionId: 's',
      task: '20 events rate 200 marked',
      mode: 'auto',
      snapshotKey: (p) => p,
      now: 0,
    });
    assert.ok(steps.every((s) => s.paced));
    assert.equal(steps[1].delayMs, 1500);
    assert.deepEqual(new Set(steps.slice(2).map((s) => s.delayMs)), new Set([5]));
    const plain = scriptFor({
      sessionId: 's',
      task: '20 events',
      mode: 'auto',
      snapshotKey: (p) => p,
      now: 0,
    });
    assert.ok(plain.every((s) => !s.paced && s.delayMs === undefined));
    assert.ok(!plain.some((s) => String(s.payload.delta ?? '').includes('⟦')));
  });

  it('a "N events with T tools" turn: N steps, T tool calls with their own answer blocks, a rare word to find', () => {
    const steps = scriptFor({
      sessionId: 's',
      task: '20000 events with 2000 tools',
      mode: 'auto',
      snapshotKey: (p) => p,
      now: 0,
    });
    assert.equal(steps.length, 20_000);
    assert.equal(steps.at(-1)?.kind, 'task.completed');
    const count = (kind: string): number => steps.filter((s) => s.kind === kind).length;
    assert.equal(count('tool.start'), 2000);
    assert.equal(count('tool.result'), 2000);
    assert.equal(
      steps.filter((s) => s.kind === 'tool.result' && (s.payload as { status: string }).status === 'error')
        .length,
      80,
    );
    assert.equal(count('block.create'), 2000);
    const chunks = steps.filter((s) => s.kind === 'markdown.chunk');
    assert.equal(
      chunks.filter((s) => /migration/.test(String((s.payload as { delta: string }).delta))).length,
      Math.floor(chunks.length / 100),
    );
  });

  it('serves the same stream on the /ws/chat/{id} path', async () => {
    const t = await startTurn(emu(), 'Chat path');
    await emu().turnEnded(t.sessionId, t.agentId);
    const url = `${emu().url.replace(/^http/, 'ws')}/ws/chat/${t.sessionId}?token=${emu().keys.primary}&message_id=${t.agentId}&last_stream_entry_id=0-0`;
    const ws = new WebSocket(url);
    const raw: string[] = [];
    ws.on('message', (d) => raw.push(d.toString()));
    await new Promise((r) => ws.on('close', r));
    assert.equal(eventsOf(raw).length, emu().storedEvents(t.sessionId, t.agentId).length);
  });

  it('aborts the running turn when its session is deleted', async () => {
    const t = await startTurn(emu(), 'a slow turn to delete');
    await call(emu(), 'DELETE', `/sessions/${t.sessionId}`);
    await emu().turnEnded(t.sessionId, t.agentId);
    assert.equal(emu().storedEvents(t.sessionId, t.agentId).at(-1)?.kind, 'task.aborted');
  });

  it('runs a turn to the end with no socket connected', async () => {
    const t = await startTurn(emu(), 'Nobody is watching');
    await emu().turnEnded(t.sessionId, t.agentId);
    const d = await call<{ messages: { type: string; content: string; events: unknown[] }[] }>(
      emu(),
      'GET',
      `/sessions/${t.sessionId}`,
    );
    const agent = d.body.messages.find((m) => m.type === 'agent')!;
    assert.ok(agent.events.length > 10);
    assert.ok(agent.content.length > 0);
  });

  for (const replayIds of [true, false]) {
    it(`omits stream entry ids on live frames${replayIds ? '' : ' and replayed ones'} when switched off, keeping them stored`, async () => {
      const other = await startEmulator({
        seed: false,
        eventDelayMs: 1,
        liveStreamEntryIds: false,
        replayStreamEntryIds: replayIds,
      });
      try {
        const t = await startTurn(other, 'Anything');
        const live = openStream(other, t.sessionId, t.agentId);
        await live.closed;
        const stored = other.storedEvents(t.sessionId, t.agentId);
        assert.ok(stored.every((e) => typeof e.stream_entry_id === 'string'));
        const liveFrames = eventsOf(live.raw);
        assert.ok(liveFrames.length > 10);
        // The last frames were certainly sent live (the turn was still running then).
        assert.equal(liveFrames[liveFrames.length - 1].stream_entry_id, undefined);
        assert.ok(liveFrames.every((f) => f.message_id === t.agentId));
        const replay = openStream(other, t.sessionId, t.agentId, stored[4].stream_entry_id);
        await replay.closed;
        const replayed = eventsOf(replay.raw);
        assert.deepEqual(
          replayed.map((f) => f.event_id),
          stored.slice(5).map((e) => e.event_id),
        );
        assert.deepEqual(
          replayed.map((f) => f.stream_entry_id),
          stored.slice(5).map((e) => (replayIds ? e.stream_entry_id : undefined)),
        );
      } finally {
        await other.close();
      }
    });
  }

  it('keeps the socket open after the terminal event when closeAfterTerminal is false', async () => {
    const other = await startEmulator({ seed: false, eventDelayMs: 0, closeAfterTerminal: false });
    try {
      const t = await startTurn(other, 'Anything');
      const s = openStream(other, t.sessionId, t.agentId);
      await other.turnEnded(t.sessionId, t.agentId);
      await waitFor('terminal frame', () => eventsOf(s.raw).at(-1)?.kind === 'task.completed');
      // A close would follow the terminal frame at once; a ping's pong comes after whatever the
      // server sent before it, so once the pong (or a close) is in, the answer is known.
      await new Promise((r) => {
        s.ws.once('pong', r);
        s.ws.once('close', r);
        s.ws.ping();
      });
      assert.equal(s.ws.readyState, s.ws.OPEN);
      s.ws.close();
      assert.equal(await s.closed, 1005);
    } finally {
      await other.close();
    }
  });
});

describe('emulator: queueing, concurrency and abort', () => {
  const emu = useEmulator({ eventDelayMs: 15, maxConcurrent: 2 });

  it('queues a turn behind the running one of the same session and starts it after the first ends', async () => {
    const a = await startTurn(emu(), 'First');
    const b = await startTurn(emu(), 'Second', { sessionId: a.sessionId });
    const c = await startTurn(emu(), 'Third', { sessionId: a.sessionId });
    assert.deepEqual([b.body.status, b.body.queue_position], ['queued', 1]);
    assert.deepEqual([c.body.status, c.body.queue_position], ['queued', 2]);
    await emu().turnEnded(a.sessionId, c.agentId);
    const aEnd = emu().storedEvents(a.sessionId, a.agentId).at(-1)!;
    const bEvents = emu().storedEvents(a.sessionId, b.agentId);
    assert.deepEqual(
      bEvents.slice(0, 2).map((e) => e.kind),
      ['message.received', 'task.phase'],
    );
    assert.equal(bEvents[1].payload.phase, 'queued');
    const bRunning = bEvents.find((e) => e.kind === 'task.phase' && e.payload.phase === 'running')!;
    assert.ok(entryAfter(bRunning.stream_entry_id!, aEnd.stream_entry_id!));
    assert.equal(bEvents.at(-1)?.kind, 'task.completed');
  });

  it('answers 429 with X-Rate-Limit-Retry-After beyond maxConcurrent running turns, but still queues in a busy session', async () => {
    const a = await startTurn(emu(), 'One');
    const b = await startTurn(emu(), 'Two');
    const c = await startTurn(emu(), 'Three');
    assert.equal(c.status, 429);
    assert.equal(c.body.error, 'rate_limited');
    const r = await call(emu(), 'POST', '/sessions/new', { session_id: c.sessionId, task: 'again' });
    assert.ok(Number(r.headers.get('x-rate-limit-retry-after')) >= 1);
    assert.equal(r.headers.get('x-rate-limit-max-concurrent'), '2');
    const queued = await startTurn(emu(), 'Behind one', { sessionId: a.sessionId });
    assert.equal(queued.body.status, 'queued');
    assert.equal((await call(emu(), 'GET', `/sessions/${c.sessionId}`)).status, 404);
    await emu().turnEnded(b.sessionId, b.agentId);
    const d = await startTurn(emu(), 'Four');
    assert.equal(d.status, 200);
    await Promise.all([
      emu().turnEnded(a.sessionId, queued.agentId),
      emu().turnEnded(d.sessionId, d.agentId),
    ]);
  });

  it('aborts a running turn over HTTP: task.aborted last, message aborted, the queued turn runs next', async () => {
    const a = await startTurn(emu(), 'Long running work');
    const next = await startTurn(emu(), 'After the abort', { sessionId: a.sessionId });
    const s = openStream(emu(), a.sessionId, a.agentId);
    await waitFor('five frames', () => eventsOf(s.raw).length >= 5);
    const r = await call(emu(), 'DELETE', `/message/${a.agentId}/abort`);
    assert.deepEqual([r.status, r.body.success], [200, true]);
    assert.equal(typeof r.body.message, 'string');
    assert.equal(await s.closed, 1000);
    const last = eventsOf(s.raw).at(-1)!;
    assert.equal(last.kind, 'task.aborted');
    assert.equal(typeof last.payload.reason, 'string');
    const d = await call<{ messages: { id: string; aborted: boolean }[] }>(
      emu(),
      'GET',
      `/sessions/${a.sessionId}`,
    );
    assert.equal(d.body.messages.find((m) => m.id === a.agentId)?.aborted, true);
    const again = await call(emu(), 'DELETE', `/message/${a.agentId}/abort`);
    assert.equal(again.body.success, false);
    await emu().turnEnded(a.sessionId, next.agentId);
    assert.equal(emu().storedEvents(a.sessionId, next.agentId).at(-1)?.kind, 'task.completed');
  });

  it('answers 404 when aborting an unknown message', async () => {
    assert.equal((await call(emu(), 'DELETE', '/message/nope/abort')).status, 404);
  });

  it('stops the followed turn on a {"type":"stop"} frame and ignores garbage client frames', async () => {
    const a = await startTurn(emu(), 'Stop me');
    const s = openStream(emu(), a.sessionId, a.agentId);
    await waitFor('three frames', () => eventsOf(s.raw).length >= 3);
    for (const junk of ['not json', '{"type":"mystery"}', '[]', '42']) s.ws.send(junk);
    s.ws.send(JSON.stringify({ type: 'stop' }));
    await s.closed;
    assert.equal(eventsOf(s.raw).at(-1)?.kind, 'task.aborted');
  });

  it('queues a follow-up turn from a {"type":"message"} frame and retracts it on {"type":"retract"}', async () => {
    const a = await startTurn(emu(), 'Base work');
    const s = openStream(emu(), a.sessionId, a.agentId);
    await waitFor('three frames', () => eventsOf(s.raw).length >= 3);
    s.ws.send(JSON.stringify({ type: 'message', text: 'Also update the README', files: [] }));
    s.ws.send(JSON.stringify({ type: 'message', text: 'And bump the version', files: [] }));
    await waitFor(
      'two acknowledgements',
      () =>
        eventsOf(s.raw).filter((e) => e.kind === 'message.received' && e.payload.agent_message_id).length ===
        2,
    );
    s.ws.send(JSON.stringify({ type: 'retract' }));
    // The server reads the retract before this socket's closing handshake, which it answers after.
    await s.closed;
    const d = await call<{ messages: { type: string; content: string }[] }>(
      emu(),
      'GET',
      `/sessions/${a.sessionId}`,
    );
    const userTexts = d.body.messages.filter((m) => m.type === 'user').map((m) => m.content);
    assert.deepEqual(userTexts, ['Base work', 'Also update the README']);
    const followUp = eventsOf(s.raw).find((e) => e.kind === 'message.received' && e.payload.agent_message_id);
    await emu().turnEnded(a.sessionId, String(followUp!.payload.agent_message_id));
  });

  describe('a turn that waits for the person', () => {
    const kindsAfter = (raw: string[], from: number): string[] =>
      eventsOf(raw)
        .slice(from)
        .map((e) => e.kind);

    it('a plan waits for approval; "Approved…" over its socket carries it out in the same turn', async () => {
      const a = await startTurn(emu(), 'approve my plan', { mode: 'plan' });
      const s = openStream(emu(), a.sessionId, a.agentId);
      await waitFor('the request', () => eventsOf(s.raw).some((e) => e.kind === 'plan.approval_request'));
      const asked = eventsOf(s.raw).length;
      s.ws.send(JSON.stringify({ type: 'message', text: 'Approved. Go on with the plan.', files: [] }));
      await s.closed;
      const after = eventsOf(s.raw).slice(asked);
      assert.equal(after[0].kind, 'message.received');
      assert.equal(after[0].payload.text, 'Approved. Go on with the plan.');
      assert.equal(after[0].payload.agent_message_id, undefined, 'the answer started a new turn');
      assert.equal(after.at(-1)?.kind, 'task.completed');
      assert.ok(
        after.some((e) => e.kind === 'sandbox.snapshot' && 'CHANGE.md' in (e.payload.snapshot as object)),
      );
      const d = await call<{ messages: { type: string }[] }>(emu(), 'GET', `/sessions/${a.sessionId}`);
      assert.equal(d.body.messages.length, 2, 'one user and one agent message');
    });

    it('any other answer revises the plan and asks again; "Rejected…" ends it with nothing written', async () => {
      const a = await startTurn(emu(), 'approve my plan', { mode: 'plan' });
      const s = openStream(emu(), a.sessionId, a.agentId);
      const requests = (): number => eventsOf(s.raw).filter((e) => e.kind === 'plan.approval_request').length;
      await waitFor('the request', () => requests() === 1);
      s.ws.send(JSON.stringify({ type: 'message', text: 'Revise the plan: smaller steps', files: [] }));
      await waitFor('the request again', () => requests() === 2);
      const revised = eventsOf(s.raw)
        .filter((e) => e.kind === 'plan.update')
        .at(-1)!;
      assert.match(JSON.stringify(revised.payload), /smaller steps/);
      const asked = eventsOf(s.raw).length;
      s.ws.send(
        JSON.stringify({ type: 'message', text: 'Rejected. Do not carry out this plan.', files: [] }),
      );
      await s.closed;
      const after = kindsAfter(s.raw, asked);
      assert.equal(after[0], 'message.received');
      assert.equal(after.at(-1), 'task.completed');
      assert.ok(!after.includes('sandbox.snapshot'), 'a rejected plan wrote files');
    });

    it('a question (input.request) goes on with the reply as typed', async () => {
      const a = await startTurn(emu(), 'ask me a name');
      const s = openStream(emu(), a.sessionId, a.agentId);
      await waitFor('the question', () => eventsOf(s.raw).some((e) => e.kind === 'input.request'));
      s.ws.send(JSON.stringify({ type: 'message', text: 'parser-v2', files: [] }));
      await s.closed;
      const done = eventsOf(s.raw).at(-1)!;
      assert.equal(done.kind, 'task.completed');
      const snap = eventsOf(s.raw).find((e) => e.kind === 'sandbox.snapshot')!;
      assert.ok('ANSWER.md' in (snap.payload.snapshot as object));
      const d = await call<{ messages: { type: string }[] }>(emu(), 'GET', `/sessions/${a.sessionId}`);
      assert.equal(d.body.messages.length, 2);
    });
  });
});
