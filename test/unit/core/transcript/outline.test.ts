import assert from 'node:assert/strict';
import type { Block, ToolBlock } from '../../../../src/core/transcript/model';
import { markdownHeadings, turnOutline, type OutlineInput } from '../../../../src/core/transcript/outline';
import { fold, loadFixture } from './helpers';

function tool(
  id: string,
  name: string,
  parameters: Record<string, unknown>,
  extra: Partial<ToolBlock> = {},
): Block {
  return {
    type: 'tool',
    id,
    name,
    parameters,
    log: { segments: [], chars: 0, truncatedChars: 0 },
    status: 'success',
    ...extra,
  };
}

const md = (id: string, text: string): Block => ({ type: 'markdown', id, text, final: true });

function turn(blocks: Block[], patch: Partial<OutlineInput> = {}): OutlineInput {
  return { blocks, files: [], status: 'completed', ...patch };
}

describe('turn outline', () => {
  it('finds ATX headings outside fenced code, with their offsets and without inline marks', () => {
    const text = [
      '# Plan',
      'text',
      '```sh',
      '# a shell comment',
      '```',
      '## The **new** [parser](x.md) ##',
      '~~~',
      '### fenced too',
      '~~~',
      '####### seven is not a heading',
      '#nospace',
      '   ###### Six',
    ].join('\n');
    const hs = markdownHeadings(text);
    assert.deepEqual(
      hs.map((h) => [h.level, h.text]),
      [
        [1, 'Plan'],
        [2, 'The new parser'],
        [6, 'Six'],
      ],
    );
    assert.equal(text.slice(hs[1].offset, hs[1].offset + 2), '##');
    assert.equal(markdownHeadings('').length, 0);
  });

  it('groups consecutive tool calls by name, split by answer text, not by thoughts', () => {
    const o = turnOutline(
      turn([
        md('answer:1', 'First I look around.\n\nMore.'),
        tool('tool:read:1', 'read_file', { path: 'a.ts' }),
        { type: 'thought', id: 'thought:1', text: 'hmm', final: true },
        tool(
          'tool:run:1',
          'run_command',
          { command: 'npm test' },
          { status: 'error', output: 'exit code 1' },
        ),
        tool('tool:read:2', 'read_file', { path: 'b.ts' }),
        tool('tool:read:3', 'read_file', { path: 'c.ts' }),
        md('answer:2', '## Fix\n\nDone.\n\n## Tests\n'),
        tool('tool:run:2', 'run_command', { command: 'npm test' }, { status: 'running' }),
      ]),
    );
    assert.deepEqual(o.steps, [
      {
        type: 'text',
        key: 'text:answer:1',
        text: 'First I look around.',
        target: { kind: 'block', blockId: 'answer:1', offset: 0 },
      },
      {
        type: 'tools',
        key: 'tools:tool:read:1',
        count: 4,
        failed: 1,
        running: 0,
        tools: [
          { name: 'read_file', count: 3 },
          { name: 'run_command', count: 1 },
        ],
        target: { kind: 'block', blockId: 'tool:read:1' },
      },
      {
        type: 'heading',
        key: 'h:answer:2:0',
        level: 2,
        text: 'Fix',
        target: { kind: 'block', blockId: 'answer:2', offset: 0 },
      },
      {
        type: 'heading',
        key: 'h:answer:2:15',
        level: 2,
        text: 'Tests',
        target: { kind: 'block', blockId: 'answer:2', offset: 15 },
      },
      {
        type: 'tools',
        key: 'tools:tool:run:2',
        count: 1,
        failed: 0,
        running: 1,
        tools: [{ name: 'run_command', count: 1 }],
        target: { kind: 'block', blockId: 'tool:run:2' },
      },
    ]);
    assert.deepEqual(o.failures, [
      {
        type: 'tool',
        key: 'fail:tool:run:1',
        name: 'run_command',
        subject: 'npm test',
        detail: 'exit code 1',
        target: { kind: 'block', blockId: 'tool:run:1' },
      },
    ]);
  });

  it('says the plan, the turn’s error, and points each file at the last call that wrote it', () => {
    const o = turnOutline(
      turn(
        [
          tool('tool:w:1', 'write_file', { path: 'src/a.ts' }),
          tool('tool:w:2', 'write_file', { file_path: './src/a.ts' }),
          tool(
            'tool:e:1',
            'edit',
            { path: '/sandbox/work/lib/b.ts' },
            { status: 'error', output: { error: { message: 'no such file' } } },
          ),
          md('answer:main', '   \n- **Wrote** the files\n'),
        ],
        {
          status: 'error',
          error: { message: 'The sandbox process exited unexpectedly.', code: 'sandbox_failed' },
          plan: {
            todos: [
              { id: '1', content: 'Read', status: 'completed' },
              { id: '2', content: 'Write the code', status: 'active' },
              { id: '3', content: 'Test', status: 'pending' },
            ],
          },
          files: [
            { path: 'src/a.ts', change: 'added', key: 'k1', name: 'a.ts' },
            { path: 'lib/b.ts', change: 'updated', key: 'k2', name: 'b.ts' },
            { path: 'README.md', change: 'deleted', key: 'k3', name: 'README.md' },
          ],
        },
      ),
    );
    assert.deepEqual(o.steps[0], {
      type: 'plan',
      key: 'plan',
      done: 1,
      total: 3,
      active: 'Write the code',
      target: { kind: 'plan' },
    });
    assert.deepEqual(o.steps[2], {
      type: 'text',
      key: 'text:answer:main',
      text: 'Wrote the files',
      target: { kind: 'block', blockId: 'answer:main', offset: 4 },
    });
    assert.deepEqual(
      o.files.map((f) => [f.path, f.change, f.target]),
      [
        ['src/a.ts', 'added', { kind: 'block', blockId: 'tool:w:2' }],
        ['lib/b.ts', 'updated', { kind: 'block', blockId: 'tool:e:1' }],
        ['README.md', 'deleted', { kind: 'files' }],
      ],
    );
    assert.deepEqual(
      o.failures.map((f) => (f.type === 'tool' ? [f.type, f.name, f.detail] : [f.type, f.message, f.code])),
      [
        ['tool', 'edit', 'no such file'],
        ['turn', 'The sandbox process exited unexpectedly.', 'sandbox_failed'],
      ],
    );
  });

  it('outlines a recorded coding turn, and follows it as it streams', () => {
    const events = loadFixture('coding-turn.jsonl');
    const half = fold(events.slice(0, 12)).t.turns[0];
    const mid = turnOutline(half);
    assert.equal(mid.steps.length, 1);
    assert.deepEqual(mid.steps[0].type === 'tools' && [mid.steps[0].count, mid.steps[0].running], [2, 1]);
    const whole = fold(events).t.turns[0];
    const o = turnOutline(whole);
    assert.deepEqual(
      o.steps.map((s) => s.type),
      ['tools', 'text'],
    );
    assert.deepEqual(o.steps[0].type === 'tools' && o.steps[0].tools, [
      { name: 'write_file', count: 2 },
      { name: 'run_command', count: 1 },
    ]);
    assert.deepEqual(
      o.files.map((f) => f.target),
      [
        { kind: 'block', blockId: 'tool:write_file:1' },
        { kind: 'block', blockId: 'tool:write_file:2' },
      ],
    );
    assert.deepEqual(o.failures, []);
  });

  it('never throws on odd input: empty turns, blank answers, odd parameter and output shapes', () => {
    assert.deepEqual(turnOutline(turn([])), { steps: [], files: [], failures: [] });
    const o = turnOutline(
      turn(
        [
          md('answer:blank', '\n\n   \n'),
          tool('tool:x:1', 'x', { path: 42, command: ['git', 'status'] }, { status: 'error', output: null }),
          { type: 'generic', id: 'generic:1', kind: 'focus', payload: {} },
        ],
        { status: 'error' },
      ),
    );
    assert.deepEqual(
      o.steps.map((s) => s.type),
      ['tools'],
    );
    assert.deepEqual(o.failures[0], {
      type: 'tool',
      key: 'fail:tool:x:1',
      name: 'x',
      subject: 'git status',
      target: { kind: 'block', blockId: 'tool:x:1' },
    });
    assert.deepEqual(o.failures[1], {
      type: 'turn',
      key: 'fail:turn',
      message: '',
      target: { kind: 'status' },
    });
  });
});
