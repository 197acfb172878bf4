import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { Block, ChangeSet, Turn } from '../../../../src/core/transcript/model';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript, noChange } from './helpers';

type Make = ReturnType<typeof eventFactory>;

interface KindCase {
  title: string;
  before?: (e: Make) => AgentEvent[];
  event: (e: Make) => AgentEvent;
  /** Checks on the turn after the event. */
  turn: (turn: Turn) => void;
  /** The exact change set, as differences from "nothing changed". */
  changes: Partial<ChangeSet>;
}

/** The factory's events are sent at T + their id (a tool keeps when its first event and its result were sent). */
const T = 1_700_000_000_000;
const block = (turn: Turn, id: string): Block | undefined => turn.blocks.find((b) => b.id === id);
const tool = (name: string, run: number, extra: Partial<Extract<Block, { type: 'tool' }>> = {}): Block => ({
  type: 'tool',
  id: `tool:${name}:${run}`,
  name,
  parameters: {},
  log: { segments: [], chars: 0, truncatedChars: 0 },
  status: 'running',
  ...extra,
});

const cases: KindCase[] = [
  {
    title: 'block.create makes a markdown block from its initial state',
    event: (e) => e('block.create', { type: 'markdown', initial_state: { content: 'Hi' } }, 'answer:main'),
    turn: (t) =>
      assert.deepEqual(t.blocks, [{ type: 'markdown', id: 'answer:main', text: 'Hi', final: false }]),
    changes: { blocksCreated: ['answer:main'] },
  },
  {
    title: 'block.create of an existing block applies its initial state as a patch',
    before: (e) => [e('markdown.chunk', { delta: 'old' }, 'answer:main')],
    event: (e) => e('block.create', { type: 'markdown', initial_state: { content: 'new' } }, 'answer:main'),
    turn: (t) => assert.equal((block(t, 'answer:main') as { text: string }).text, 'new'),
    changes: { blocksUpdated: ['answer:main'] },
  },
  {
    title: 'block.create of an unknown type keeps a generic block with the state and type',
    event: (e) => e('block.create', { type: 'chart', initial_state: { series: [1, 2] } }, 'chart:1'),
    turn: (t) =>
      assert.deepEqual(block(t, 'chart:1'), {
        type: 'generic',
        id: 'chart:1',
        kind: 'block.create',
        payload: { series: [1, 2], type: 'chart' },
      }),
    changes: { blocksCreated: ['chart:1'] },
  },
  {
    title: 'block.update patches final',
    before: (e) => [e('block.create', { type: 'markdown', initial_state: { content: '' } }, 'answer:main')],
    event: (e) => e('block.update', { patch: { final: true } }, 'answer:main'),
    turn: (t) => assert.equal((block(t, 'answer:main') as { final: boolean }).final, true),
    changes: { blocksUpdated: ['answer:main'] },
  },
  {
    title: 'block.update that changes nothing reports nothing',
    before: (e) => [e('block.create', { type: 'markdown', initial_state: { content: 'x' } }, 'answer:main')],
    event: (e) => e('block.update', { patch: { content: 'x', final: false } }, 'answer:main'),
    turn: (t) => assert.equal(t.blocks.length, 1),
    changes: {},
  },
  {
    title: 'block.update of a missing block creates it with the type its id implies',
    event: (e) => e('block.update', { patch: { final: true } }, 'answer:late'),
    turn: (t) => assert.deepEqual(t.blocks, [{ type: 'markdown', id: 'answer:late', text: '', final: true }]),
    changes: { blocksCreated: ['answer:late'] },
  },
  {
    title: 'markdown.chunk appends its delta and reports the append',
    before: (e) => [e('markdown.chunk', { delta: 'Hel' }, 'answer:main')],
    event: (e) => e('markdown.chunk', { delta: 'lo' }, 'answer:main'),
    turn: (t) => assert.equal((block(t, 'answer:main') as { text: string }).text, 'Hello'),
    changes: { blocksUpdated: ['answer:main'], appends: [{ blockId: 'answer:main', text: 'lo' }] },
  },
  {
    title: 'markdown.chunk creates its block when missing (answer:main without a block id)',
    event: (e) => e('markdown.chunk', { delta: 'Hi' }),
    turn: (t) =>
      assert.deepEqual(t.blocks, [{ type: 'markdown', id: 'answer:main', text: 'Hi', final: false }]),
    changes: { blocksCreated: ['answer:main'] },
  },
  {
    title: 'thought appends and finalizes (a re-send, not a pure append)',
    before: (e) => [e('thought', { thought: 'Let me ' }, 'thought:1')],
    event: (e) => e('thought', { thought: 'think.', finalize: true }, 'thought:1'),
    turn: (t) =>
      assert.deepEqual(block(t, 'thought:1'), {
        type: 'thought',
        id: 'thought:1',
        text: 'Let me think.',
        final: true,
      }),
    changes: { blocksUpdated: ['thought:1'] },
  },
  {
    title: 'thought without finalize is a pure append',
    before: (e) => [e('thought', { thought: 'a' }, 'thought:1')],
    event: (e) => e('thought', { thought: 'b' }, 'thought:1'),
    turn: (t) => assert.equal((block(t, 'thought:1') as { final: boolean }).final, false),
    changes: { blocksUpdated: ['thought:1'], appends: [{ blockId: 'thought:1', text: 'b' }] },
  },
  {
    title: 'text sets the whole text of its block',
    before: (e) => [e('text', { text: 'Working on: tests.' }, 'text:1')],
    event: (e) => e('text', { text: 'Done.' }, 'text:1'),
    turn: (t) => assert.deepEqual(block(t, 'text:1'), { type: 'text', id: 'text:1', text: 'Done.' }),
    changes: { blocksUpdated: ['text:1'] },
  },
  {
    title: 'text that extends the old text is reported as an append of the rest',
    before: (e) => [e('text', { text: 'Working on: ' }, 'text:1')],
    event: (e) => e('text', { text: 'Working on: tests.' }, 'text:1'),
    turn: (t) =>
      assert.deepEqual(block(t, 'text:1'), { type: 'text', id: 'text:1', text: 'Working on: tests.' }),
    changes: { blocksUpdated: ['text:1'], appends: [{ blockId: 'text:1', text: 'tests.' }] },
  },
  {
    title: 'text without a string leaves the block as it is',
    before: (e) => [e('text', { text: 'kept' }, 'text:1')],
    event: (e) => e('text', { text: 42 }, 'text:1'),
    turn: (t) => assert.deepEqual(block(t, 'text:1'), { type: 'text', id: 'text:1', text: 'kept' }),
    changes: {},
  },
  {
    title: 'a chunk aimed at a tool block is kept as a generic block instead',
    before: (e) => [e('tool.start', { tool_name: 'grep' }, 'tool:grep:1')],
    event: (e) => e('markdown.chunk', { delta: 'x' }, 'tool:grep:1'),
    turn: (t) =>
      assert.deepEqual(
        t.blocks.map((b) => b.id),
        ['tool:grep:1', 'markdown.chunk#2'],
      ),
    changes: { blocksCreated: ['markdown.chunk#2'] },
  },
  {
    title: 'tool.start creates a running tool block named by the payload',
    event: (e) => e('tool.start', { tool_name: 'write_file' }, 'tool:write_file:1'),
    turn: (t) => assert.deepEqual(t.blocks, [tool('write_file', 1, { startedAt: T + 1 })]),
    changes: { blocksCreated: ['tool:write_file:1'] },
  },
  {
    title: 'tool.parameters merges into the parameters',
    before: (e) => [
      e('tool.start', { tool_name: 'write_file' }, 'tool:write_file:1'),
      e('tool.parameters', { parameters: { path: 'a.ts' } }, 'tool:write_file:1'),
    ],
    event: (e) => e('tool.parameters', { parameters: { content: 'x' } }, 'tool:write_file:1'),
    turn: (t) =>
      assert.deepEqual(t.blocks, [
        tool('write_file', 1, { parameters: { path: 'a.ts', content: 'x' }, startedAt: T + 1 }),
      ]),
    changes: { blocksUpdated: ['tool:write_file:1'] },
  },
  {
    title: 'tool.log appends a segment of its stream and reports it',
    before: (e) => [e('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1')],
    event: (e) => e('tool.log', { stream: 'stderr', data: 'warn\n' }, 'tool:run_command:1'),
    turn: (t) =>
      assert.deepEqual((block(t, 'tool:run_command:1') as { log: unknown }).log, {
        segments: [{ stream: 'stderr', data: 'warn\n' }],
        chars: 5,
        truncatedChars: 0,
      }),
    changes: {
      blocksUpdated: ['tool:run_command:1'],
      appends: [{ blockId: 'tool:run_command:1', text: 'warn\n', stream: 'stderr' }],
    },
  },
  {
    title: 'tool.result sets status and output',
    before: (e) => [e('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1')],
    event: (e) =>
      e('tool.result', { status: 'error', output: 'exit code 1', finalize: true }, 'tool:run_command:1'),
    turn: (t) =>
      assert.deepEqual(t.blocks, [
        tool('run_command', 1, { status: 'error', output: 'exit code 1', startedAt: T + 1, endedAt: T + 2 }),
      ]),
    changes: { blocksUpdated: ['tool:run_command:1'] },
  },
  {
    title: 'tool events without a block id go to the latest tool of that name, or a new one',
    before: (e) => [e('tool.start', { tool_name: 'grep' }, 'tool:grep:7')],
    event: (e) => e('tool.result', { status: 'success' }),
    turn: (t) =>
      assert.deepEqual(t.blocks, [tool('grep', 7, { status: 'success', startedAt: T + 1, endedAt: T + 2 })]),
    changes: { blocksUpdated: ['tool:grep:7'] },
  },
  {
    title: 'tool.start without a block id makes tool:<name>:<event id>',
    event: (e) => e('tool.start', { tool_name: 'grep' }),
    turn: (t) => assert.deepEqual(t.blocks, [tool('grep', 1, { startedAt: T + 1 })]),
    changes: { blocksCreated: ['tool:grep:1'] },
  },
  {
    title: 'plan.update creates the plan',
    event: (e) =>
      e('plan.update', { patch: { todos: [{ id: 'a', content: 'Read', status: 'pending' }] } }, 'plan:root'),
    turn: (t) => assert.deepEqual(t.plan, { todos: [{ id: 'a', content: 'Read', status: 'pending' }] }),
    changes: { planChanged: true },
  },
  {
    title: 'sandbox.snapshot lists added files',
    event: (e) =>
      e('sandbox.snapshot', {
        sandbox_id: 's',
        snapshot: { 'a.ts': { key: 'k/a.ts', name: 'a.ts', updatedAt: 5 } },
      }),
    turn: (t) =>
      assert.deepEqual(t.files, [
        { path: 'a.ts', change: 'added', key: 'k/a.ts', name: 'a.ts', updatedAt: 5 },
      ]),
    changes: { filesChanged: true },
  },
  {
    title: 'task.phase queued sets status, phase and eta',
    event: (e) => e('task.phase', { phase: 'queued', eta_seconds: 30, queue_position: 2 }),
    turn: (t) => {
      assert.equal(t.status, 'queued');
      assert.equal(t.phase, 'queued');
      assert.equal(t.etaSeconds, 30);
      assert.equal(t.queuePosition, 2);
    },
    changes: { statusChanged: true, turnInfoChanged: true },
  },
  {
    title: 'task.phase running after queued clears the queue position',
    before: (e) => [e('task.phase', { phase: 'queued', queue_position: 1 })],
    event: (e) => e('task.phase', { phase: 'running' }),
    turn: (t) => {
      assert.equal(t.status, 'running');
      assert.equal('queuePosition' in t, false);
    },
    changes: { statusChanged: true, turnInfoChanged: true },
  },
  {
    title: 'task.completed keeps a string continuation verbatim and the result files',
    event: (e) =>
      e('task.completed', {
        continuation: '{"a":1}',
        files: [{ key: 's/a.ts', name: 'a.ts', size: 3 }],
        tokens: 9,
      }),
    turn: (t) => {
      assert.equal(t.status, 'completed');
      assert.equal(t.continuation, '{"a":1}');
      assert.deepEqual(t.outputFiles, [{ key: 's/a.ts', name: 'a.ts', size: 3 }]);
      assert.deepEqual(t.result, { tokens: 9 });
    },
    changes: { statusChanged: true, turnInfoChanged: true },
  },
  {
    title: 'task.completed stores an object continuation as a JSON string',
    event: (e) => e('task.completed', { continuation: { step: 3 } }),
    turn: (t) => assert.equal(t.continuation, '{"step":3}'),
    changes: { statusChanged: true, turnInfoChanged: true },
  },
  {
    title: 'task.completed with an empty payload only completes',
    event: (e) => e('task.completed', {}),
    turn: (t) =>
      assert.deepEqual([t.status, 'continuation' in t, 'result' in t], ['completed', false, false]),
    changes: { statusChanged: true },
  },
  {
    title: 'task.aborted keeps the reason',
    event: (e) => e('task.aborted', { reason: 'Aborted by the user' }),
    turn: (t) => assert.deepEqual([t.status, t.abortReason], ['aborted', 'Aborted by the user']),
    changes: { statusChanged: true, turnInfoChanged: true },
  },
  {
    title: 'message.received adds a message block',
    event: (e) => e('message.received', { text: 'also add docs', files: [{ key: 'k', name: 'n', size: 1 }] }),
    turn: (t) =>
      assert.deepEqual(t.blocks, [
        {
          type: 'message',
          id: 'message:1',
          text: 'also add docs',
          files: [{ key: 'k', name: 'n', size: 1 }],
        },
      ]),
    changes: { blocksCreated: ['message:1'] },
  },
  {
    title: 'an unknown kind is kept verbatim as a generic block',
    event: (e) => e('focus', { title: 'Writing code', detail: 'src/a.ts' }),
    turn: (t) =>
      assert.deepEqual(t.blocks, [
        {
          type: 'generic',
          id: 'focus#1',
          kind: 'focus',
          payload: { title: 'Writing code', detail: 'src/a.ts' },
        },
      ]),
    changes: { blocksCreated: ['focus#1'] },
  },
  {
    title: 'a legacy state.snapshot merges its blocks in by id and keeps the others',
    before: (e) => [e('focus', { title: 'x' }), e('markdown.chunk', { delta: 'So' }, 'answer:main')],
    event: (e) =>
      e('state.snapshot', {
        status: { phase: 'running', eta_seconds: 9 },
        blocks: [
          { id: 'answer:main', type: 'markdown', content: 'So far' },
          { id: 'thought:1', type: 'thought', content: 'Hm.' },
        ],
        last_event_id: 40,
        last_stream_entry_id: '1-40',
      }),
    turn: (t) => {
      assert.deepEqual(t.blocks, [
        { type: 'generic', id: 'focus#1', kind: 'focus', payload: { title: 'x' } },
        { type: 'markdown', id: 'answer:main', text: 'So far', final: false },
        { type: 'thought', id: 'thought:1', text: 'Hm.', final: false },
      ]);
      assert.deepEqual(
        [t.lastEventId, t.lastStreamEntryId, t.phase, t.etaSeconds],
        [40, '1-40', 'running', 9],
      );
    },
    changes: { blocksCreated: ['thought:1'], blocksUpdated: ['answer:main'], turnInfoChanged: true },
  },
  {
    title: 'a legacy state.snapshot with a completed phase completes the turn and finalizes blocks',
    event: (e) =>
      e('state.snapshot', {
        status: { phase: 'completed' },
        blocks: [{ id: 'answer:main', type: 'markdown', content: 'Done' }],
      }),
    turn: (t) => {
      assert.equal(t.status, 'completed');
      assert.deepEqual(t.blocks, [{ type: 'markdown', id: 'answer:main', text: 'Done', final: true }]);
    },
    changes: { blocksCreated: ['answer:main'], statusChanged: true, turnInfoChanged: true },
  },
  {
    title: 'a legacy state.snapshot that covers no more than what was applied is ignored',
    before: (e) => [e('markdown.chunk', { delta: 'live text' }, 'answer:main')],
    event: (e) =>
      e('state.snapshot', {
        blocks: [{ id: 'answer:main', type: 'markdown', content: 'old' }],
        last_event_id: 1,
      }),
    turn: (t) =>
      assert.deepEqual(t.blocks, [{ type: 'markdown', id: 'answer:main', text: 'live text', final: false }]),
    changes: { ignored: true },
  },
];

describe('transcript reducer: event kinds', () => {
  for (const c of cases) {
    it(c.title, () => {
      const e = eventFactory();
      const t = liveTranscript();
      for (const ev of c.before?.(e) ?? []) applyEvent(t, AGENT, ev);
      const cs = applyEvent(t, AGENT, c.event(e));
      c.turn(t.turns[0]);
      assert.deepEqual(cs, { ...noChange(), ...c.changes });
    });
  }

  const errorCases: { payload: unknown; error: { message: string; code?: string } }[] = [
    {
      payload: { message: 'Sandbox died', code: 'sandbox_failed' },
      error: { message: 'Sandbox died', code: 'sandbox_failed' },
    },
    {
      payload: { error: 'quota_exceeded', message: 'Out of credits' },
      error: { message: 'Out of credits', code: 'quota_exceeded' },
    },
    { payload: { error: 'boom' }, error: { message: 'boom' } },
    {
      payload: { error_message: 'bad input', error_code: 400 },
      error: { message: 'bad input', code: '400' },
    },
    { payload: { error: { message: 'nested', code: 'E1' } }, error: { message: 'nested', code: 'E1' } },
    { payload: 'plain words', error: { message: 'plain words' } },
    { payload: {}, error: { message: 'The agent reported an error.' } },
    { payload: { weird: 1 }, error: { message: '{"weird":1}' } },
  ];
  for (const c of errorCases) {
    it(`task.error reads its message from ${JSON.stringify(c.payload)}`, () => {
      const t = liveTranscript();
      const cs = applyEvent(t, AGENT, eventFactory()('task.error', c.payload));
      assert.equal(t.turns[0].status, 'error');
      assert.deepEqual(t.turns[0].error, c.error);
      assert.deepEqual(cs, { ...noChange(), statusChanged: true, turnInfoChanged: true });
    });
  }
});
