import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import { fromSnapshot, toSnapshot } from '../../../../src/core/transcript/serialize';
import { eventFactory } from '../../../support/events';
import { AGENT, fold, liveTranscript, loadFixture, noChange, seededRandom } from './helpers';

const FIXTURES = [
  'coding-turn.jsonl',
  'plan-turn.jsonl',
  'error-turn.jsonl',
  'aborted-turn.jsonl',
  'garbage-turn.jsonl',
];

/** A long answer: framing events around `n` markdown chunks, like the emulator's "N events" turn. */
function longAnswer(n: number): AgentEvent[] {
  const e = eventFactory();
  const events = [
    e('task.phase', { phase: 'running', eta_seconds: 500 }),
    e('block.create', { type: 'markdown', initial_state: { content: '' } }, 'answer:main'),
  ];
  for (let i = 0; i < n; i++) events.push(e('markdown.chunk', { delta: `word${i % 10} ` }, 'answer:main'));
  events.push(e('block.update', { patch: { final: true } }, 'answer:main'));
  events.push(e('task.completed', {}));
  return events;
}

const KINDS = [
  'block.create',
  'block.update',
  'markdown.chunk',
  'thought',
  'text',
  'tool.start',
  'tool.parameters',
  'tool.log',
  'tool.result',
  'plan.update',
  'sandbox.snapshot',
  'task.phase',
  'task.completed',
  'task.aborted',
  'task.error',
  'message.received',
  'state.snapshot',
  'focus',
  '',
  '__proto__',
  'constructor',
  'toString',
];

/** Random JSON-ish values, biased towards the field names the reducer reads. */
function garbageFactory(rnd: () => number) {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const fields = [
    'delta',
    'thought',
    'text',
    'patch',
    'todos',
    'type',
    'initial_state',
    'parameters',
    'stream',
    'data',
    'status',
    'output',
    'snapshot',
    'deleted',
    'phase',
    'eta_seconds',
    'continuation',
    'files',
    'reason',
    'message',
    'error',
    'blocks',
    'last_event_id',
    'id',
    'content',
    'final',
    '__proto__',
    'key',
    'name',
  ];
  const value = (depth: number): unknown => {
    const r = rnd();
    if (depth > 2 || r < 0.15)
      return pick([null, true, false, 0, -1, 1e308, 'x', '', 'stderr', 'completed', 'queued', 'answer:main']);
    if (r < 0.35)
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(rnd() * 8) }, () => Math.floor(rnd() * 0xffff)),
      );
    if (r < 0.5) return Math.floor(rnd() * 100) - 10;
    if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 5); i > 0; i--) o[pick(fields)] = value(depth + 1);
    return o;
  };
  return (): AgentEvent => {
    const ev: Record<string, unknown> = { kind: pick(KINDS), payload: value(0), timestamp: value(2) };
    if (rnd() < 0.9) ev.event_id = rnd() < 0.8 ? Math.floor(rnd() * 300) : value(2);
    if (rnd() < 0.6)
      ev.block_id = pick([
        'answer:main',
        'thought:1',
        'text:1',
        'tool:x:1',
        'plan:root',
        'chart:1',
        value(2),
      ]);
    if (rnd() < 0.3) ev.stream_entry_id = value(2);
    return (rnd() < 0.02 ? pick<unknown>([null, 7, 'frame', []]) : ev) as AgentEvent;
  };
}

describe('transcript reducer: robustness', () => {
  it('ignores events at or below the last applied event id', () => {
    const e = eventFactory();
    const t = liveTranscript();
    const first = e('markdown.chunk', { delta: 'a' }, 'answer:main');
    const second = e('markdown.chunk', { delta: 'b' }, 'answer:main');
    applyEvent(t, AGENT, first);
    applyEvent(t, AGENT, second);
    assert.deepEqual(applyEvent(t, AGENT, second), { ...noChange(), ignored: true });
    assert.deepEqual(applyEvent(t, AGENT, first), { ...noChange(), ignored: true });
    assert.equal((t.turns[0].blocks[0] as { text: string }).text, 'ab');
    assert.deepEqual([t.turns[0].lastEventId, t.turns[0].lastStreamEntryId], [2, '1700000000000-2']);
  });

  it('folds a log with every event delivered twice to the same model', () => {
    const events = loadFixture('coding-turn.jsonl');
    const doubled = events.flatMap((ev) => [ev, { ...ev }]);
    assert.deepEqual(fold(doubled).t, fold(events).t);
  });

  it('creates the turn for events of an unknown message', () => {
    const t = createTranscript('s');
    const cs = applyEvent(t, 'agent-x', eventFactory()('markdown.chunk', { delta: 'hi' }));
    assert.deepEqual(cs, { ...noChange('agent-x'), turnCreated: true, blocksCreated: ['answer:main'] });
    assert.equal(t.turns[0].agentMessageId, 'agent-x');
    assert.equal(t.turns[0].status, 'running');
  });

  it('fills the request of a turn learnt from its events when beginTurn comes later', () => {
    const t = createTranscript('s');
    applyEvent(t, 'agent-x', eventFactory()('message.received', { text: 'do it' }));
    assert.equal(t.turns[0].userMessage.text, 'do it');
    const cs = beginTurn(t, {
      agentMessageId: 'agent-x',
      userMessageId: 'u1',
      text: 'do it',
      mode: 'code',
      createdAt: 5,
    });
    assert.deepEqual(cs, { ...noChange('agent-x'), turnInfoChanged: true });
    assert.deepEqual(t.turns.length, 1);
    assert.deepEqual(t.turns[0].userMessage, {
      id: 'u1',
      text: 'do it',
      files: [],
      createdAt: 5,
      mode: 'code',
    });
  });

  it('keeps every unknown kind and garbage payload of the garbage log without throwing', () => {
    const { t, changes } = fold(
      loadFixture('garbage-turn.jsonl'),
      undefined,
      '7d0c5a1e-6a7b-4e11-9a55-0badc0ffee00',
    );
    const turn = t.turns[0];
    const generic = turn.blocks.filter((b) => b.type === 'generic').map((b) => b.id);
    assert.deepEqual(generic, [
      'dev_server.ready#13',
      'plan_approval.request#14',
      'chart:1',
      'event#17',
      'focus#20',
      'widget:1',
    ]);
    assert.deepEqual(
      turn.blocks.find((b) => b.id === 'chart:1'),
      {
        type: 'generic',
        id: 'chart:1',
        kind: 'block.create',
        payload: { series: [1, 2, 3, 4], type: 'chart' },
      },
    );
    assert.deepEqual(turn.contextUsage, { used: 1200, max: 200_000, fraction: 0.006 }, 'read, not a block');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(
      (turn.blocks.find((b) => b.id === 'answer:main') as { text: string }).text,
      'The deploy failed once, then succeeded.',
    );
    assert.equal(
      (turn.blocks.find((b) => b.id === 'text:main') as { text: string }).text,
      'event_id is a string',
    );
    assert.equal(
      (turn.blocks.find((b) => b.id === 'text:1') as { text: string }).text,
      ' no event_id at all',
    );
    assert.equal(changes.filter((c) => c.ignored).length, 1);
    assert.deepEqual(turn.error, { message: 'a plain string payload' });
    assert.equal(turn.status, 'completed');
    assert.equal(turn.continuation, '{"state":"opaque","step":3}');
    assert.deepEqual(
      turn.outputFiles?.map((f) => f.key),
      ['s/report.md', 's/raw.log'],
    );
    assert.deepEqual(turn.plan?.todos, [
      { id: 't1', content: 'Read logs', status: 'pending' },
      { id: 'Write summary', content: 'Write summary', status: 'completed' },
    ]);
    assert.equal(turn.lastEventId, 24);
  });

  it('survives 5,000 random garbage events and keeps the model valid and serializable', () => {
    const rnd = seededRandom(0xd3e);
    const next = garbageFactory(rnd);
    const t = liveTranscript();
    for (let i = 0; i < 5000; i++) {
      const id = rnd() < 0.9 ? AGENT : 'agent-2';
      assert.doesNotThrow(() => applyEvent(t, id, next(), { maxLogChars: 64 }), `event ${i}`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    for (const turn of t.turns) {
      assert.ok(['queued', 'running', 'completed', 'aborted', 'error'].includes(turn.status));
      assert.equal(new Set(turn.blocks.map((b) => b.id)).size, turn.blocks.length, 'block ids are unique');
      for (const b of turn.blocks) if (b.type === 'tool') assert.ok(b.log.chars <= 64);
    }
    assert.ok(fromSnapshot(toSnapshot(t)), 'the result reads back as a valid snapshot');
  });

  it('is a deterministic fold: the same events give deep-equal models', () => {
    for (const name of FIXTURES) {
      const events = loadFixture(name);
      const a = fold(events);
      const b = fold(events);
      assert.deepEqual(a.t, b.t, name);
      assert.deepEqual(a.changes, b.changes, name);
    }
    const rnd = seededRandom(7);
    const garbage = Array.from({ length: 500 }, garbageFactory(rnd));
    assert.deepEqual(fold(garbage).t, fold(garbage).t);
  });

  it('folds a 50,000-chunk answer into one block with every chunk, in order', () => {
    const events = longAnswer(50_000);
    const t: Transcript = liveTranscript();
    let appends = 0;
    for (const ev of events) appends += applyEvent(t, AGENT, ev).appends.length;
    const turn = t.turns[0];
    assert.equal(turn.blocks.length, 1);
    const text = (turn.blocks[0] as { text: string }).text;
    assert.equal(text.length, 50_000 * 'wordN '.length);
    assert.ok(text.startsWith('word0 word1 word2 '));
    assert.ok(text.endsWith('word8 word9 '));
    assert.equal(appends, 50_000);
    assert.deepEqual([turn.status, turn.lastEventId], ['completed', 50_004]);
  });
});
