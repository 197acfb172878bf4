import assert from 'node:assert/strict';
import { emptyChangeSet } from '../../../../src/core/transcript/change-set';
import { applyLegacyState } from '../../../../src/core/transcript/legacy';
import type { Block, GenericBlock, Turn } from '../../../../src/core/transcript/model';
import { newTurn } from '../../../../src/core/transcript/reducer';

/** The blocks a legacy state (a `state.snapshot` or a stored `blocks` message) maps to. */
function mapped(blocks: unknown[], phase = 'running'): Turn {
  const turn = newTurn('agent-1', 0);
  applyLegacyState(turn, { blocks, status: { phase } }, 200_000, emptyChangeSet('agent-1'));
  return turn;
}

function generic(t: Turn, id: string): GenericBlock {
  const b = t.blocks.find((x) => x.id === id);
  assert.ok(b?.type === 'generic', `no generic block ${id} in ${JSON.stringify(t.blocks.map((x) => x.id))}`);
  return b;
}

/** Every value of a raw block, searched in what the turn shows (nothing may be dropped). */
function shown(t: Turn): string {
  return JSON.stringify(t.blocks);
}

describe('legacy blocks are read tolerantly', () => {
  it('keeps fields of a tool block that Den does not know as generic content next to the tool', () => {
    const t = mapped([
      {
        id: 'tool:run_command:1',
        type: 'tool',
        tool_name: 'run_command',
        parameters: { command: 'npm test' },
        status: 'success',
        output: 'exit code 0',
        output_chunks: [{ stream: 'stdout', chunk: '2 passing\n' }],
        started_at: 1700000000000,
        duration_ms: 1234,
      },
    ]);
    assert.deepEqual(
      t.blocks.map((b) => [b.id, b.type]),
      [
        ['tool:run_command:1', 'tool'],
        ['tool:run_command:1#fields', 'generic'],
      ],
    );
    const tool = t.blocks[0] as Extract<Block, { type: 'tool' }>;
    assert.deepEqual(
      [tool.name, tool.parameters, tool.status, tool.output],
      ['run_command', { command: 'npm test' }, 'success', 'exit code 0'],
    );
    const extra = generic(t, 'tool:run_command:1#fields');
    assert.equal(extra.blockId, 'tool:run_command:1');
    assert.deepEqual(extra.payload, {
      output_chunks: [{ stream: 'stdout', chunk: '2 passing\n' }],
      started_at: 1700000000000,
      duration_ms: 1234,
    });
  });

  it('keeps unknown fields of text-bearing blocks, including a second text field it did not show', () => {
    const t = mapped([
      { id: 'answer:main', type: 'markdown', content: 'Hello', citations: [{ url: 'https://example.com' }] },
      { id: 'thought:1', type: 'thought', content: 'Hmm', text: 'a different text' },
      { id: 'text:1', type: 'text', text: 'Plain', final: true },
    ]);
    assert.deepEqual(generic(t, 'answer:main#fields').payload, {
      citations: [{ url: 'https://example.com' }],
    });
    assert.deepEqual(generic(t, 'thought:1#fields').payload, { text: 'a different text' });
    assert.deepEqual(generic(t, 'text:1#fields').payload, { final: true });
  });

  it('adds nothing for blocks whose every field it shows', () => {
    const t = mapped([
      { id: 'answer:main', type: 'markdown', content: 'Hi', final: true },
      { id: 'thought:1', type: 'thought', content: 'Think' },
      { id: 'text:1', type: 'text', content: 'T' },
      {
        id: 'tool:x:1',
        type: 'tool',
        tool_name: 'x',
        parameters: {},
        logs: [{ stream: 'stdout', data: 'ok' }],
        status: 'success',
        output: 'o',
      },
      { id: 'plan:root', type: 'plan', todos: [{ id: 'a', content: 'A', status: 'pending' }] },
    ]);
    assert.ok(
      t.blocks.every((b) => b.type !== 'generic'),
      JSON.stringify(t.blocks),
    );
  });

  it('keeps blocks of unknown types whole, and entries that are not objects', () => {
    const t = mapped([
      { id: 'focus:7', type: 'focus', title: 'Writing code', detail: 'src/a.ts' },
      { id: 'usage:9', type: 'context_usage', used_tokens: 'ten', max_tokens: 100 },
      'a bare string',
      42,
    ]);
    assert.deepEqual(generic(t, 'focus:7').payload, {
      id: 'focus:7',
      type: 'focus',
      title: 'Writing code',
      detail: 'src/a.ts',
    });
    assert.deepEqual(generic(t, 'usage:9').payload, {
      id: 'usage:9',
      type: 'context_usage',
      used_tokens: 'ten',
      max_tokens: 100,
    });
    assert.equal(t.contextUsage, undefined, 'a usage block that cannot be read is only a block');
    assert.ok(shown(t).includes('a bare string'));
    assert.ok(shown(t).includes('42'));
  });

  it('keeps unknown fields of a plan block', () => {
    const t = mapped([
      {
        id: 'plan:root',
        type: 'plan',
        todos: [{ id: 'a', content: 'A', status: 'pending' }],
        approved: false,
      },
    ]);
    assert.equal(t.plan?.todos.length, 1);
    assert.deepEqual(generic(t, 'plan:root#fields').payload, { approved: false });
  });

  it('replaces a block and its extra fields in place when the state comes again', () => {
    const turn = newTurn('agent-1', 0);
    const state = (n: number): unknown[] => [
      { id: 'tool:a:1', type: 'tool', tool_name: 'a', status: 'running', ticks: n },
      { id: 'answer:main', type: 'markdown', content: `v${n}` },
    ];
    applyLegacyState(
      turn,
      { blocks: state(1), status: { phase: 'running' } },
      1000,
      emptyChangeSet('agent-1'),
    );
    const cs = emptyChangeSet('agent-1');
    applyLegacyState(turn, { blocks: state(2), status: { phase: 'running' } }, 1000, cs);
    assert.deepEqual(
      turn.blocks.map((b) => b.id),
      ['tool:a:1', 'tool:a:1#fields', 'answer:main'],
    );
    assert.deepEqual([...cs.blocksUpdated].sort(), ['answer:main', 'tool:a:1#fields']);
    assert.deepEqual(generic(turn, 'tool:a:1#fields').payload, { ticks: 2 });
  });

  it("reads a context_usage block as the turn's context use, the last one winning, with no block", () => {
    const turn = newTurn('agent-1', 0);
    const cs = emptyChangeSet('agent-1');
    applyLegacyState(
      turn,
      {
        blocks: [
          { id: 'usage:3', type: 'context_usage', used_tokens: 1000, max_tokens: 100_000 },
          { id: 'answer:main', type: 'markdown', content: 'ok' },
          { id: 'usage:9', type: 'context_usage', used: 50_000, total: 100_000, cached_tokens: 7 },
        ],
        status: { phase: 'running' },
      },
      1000,
      cs,
    );
    assert.deepEqual(turn.contextUsage, { used: 50_000, max: 100_000, fraction: 0.5 });
    assert.equal(cs.turnInfoChanged, true);
    assert.deepEqual(
      turn.blocks.map((b) => b.id),
      ['answer:main', 'usage:9#fields'],
      "only the field Den does not read is kept, as the block's extra fields",
    );
    assert.deepEqual(generic(turn, 'usage:9#fields').payload, { cached_tokens: 7 });

    const again = emptyChangeSet('agent-1');
    applyLegacyState(
      turn,
      { blocks: [{ id: 'usage:9', type: 'context_usage', used: 50_000, total: 100_000 }] },
      1000,
      again,
    );
    assert.equal(again.turnInfoChanged, false, 'the same reading again changes nothing');
  });
});
