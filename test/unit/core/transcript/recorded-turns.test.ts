import assert from 'node:assert/strict';
import type { Block, ToolBlock, Turn } from '../../../../src/core/transcript/model';
import { fold, loadFixture } from './helpers';

function turnOf(fixture: string): Turn {
  return fold(loadFixture(fixture)).t.turns[0];
}

const byId = (turn: Turn, id: string): Block | undefined => turn.blocks.find((b) => b.id === id);

describe('transcript reducer on recorded turns', () => {
  it('folds a coding turn: thoughts, tools with logs, files, answer and continuation', () => {
    const turn = turnOf('coding-turn.jsonl');
    assert.deepEqual(
      turn.blocks.map((b) => `${b.type}:${b.id}`),
      [
        'message:message:1',
        'thought:thought:1',
        'generic:focus#5',
        'tool:tool:write_file:1',
        'tool:tool:write_file:2',
        'thought:thought:2',
        'tool:tool:run_command:1',
        'markdown:answer:main',
      ],
      "the context window use is the turn's, not a block",
    );
    assert.deepEqual(turn.contextUsage, { used: 18_432, max: 200_000, fraction: 18_432 / 200_000 });
    const write = byId(turn, 'tool:write_file:1') as ToolBlock;
    assert.equal(write.status, 'success');
    assert.equal(write.parameters.path, 'src/add-whitespace-normalizer.ts');
    assert.match(String(write.parameters.content), /export function addWhitespaceNormalizer/);

    const run = byId(turn, 'tool:run_command:1') as ToolBlock;
    assert.deepEqual(run.parameters, { command: 'npm test' });
    assert.deepEqual(
      run.log.segments.map((s) => s.stream),
      ['stdout', 'stderr', 'stdout'],
    );
    assert.match(run.log.segments[0].data, /\x1b\[32m✔\x1b\[0m collapses whitespace/);
    assert.match(run.log.segments[1].data, /^\x1b\[33m\(node:118\) Warning:/);
    assert.equal(run.log.truncatedChars, 0);

    const answer = byId(turn, 'answer:main');
    assert.equal(answer?.type === 'markdown' && answer.final, true);
    assert.match(
      answer?.type === 'markdown' ? answer.text : '',
      /^I implemented \*\*Add a whitespace normalizer/,
    );

    assert.deepEqual(
      turn.files.map((f) => [f.change, f.path]),
      [
        ['added', 'src/add-whitespace-normalizer.ts'],
        ['added', 'test/add-whitespace-normalizer.test.ts'],
      ],
    );
    assert.equal(turn.status, 'completed');
    assert.equal(turn.phase, 'running');
    assert.deepEqual(JSON.parse(turn.continuation ?? '').files, [
      'src/add-whitespace-normalizer.ts',
      'test/add-whitespace-normalizer.test.ts',
    ]);
    assert.equal(turn.outputFiles?.length, 2);
    assert.equal(turn.lastEventId, 34);
  });

  it('folds a plan turn: todos end completed in order, progress texts and the plan file', () => {
    const turn = turnOf('plan-turn.jsonl');
    assert.deepEqual(turn.plan, {
      todos: [
        { id: 'todo-1', content: 'Read the existing code', status: 'completed' },
        { id: 'todo-2', content: 'Design the change', status: 'completed' },
        { id: 'todo-3', content: 'Implement it', status: 'completed' },
        { id: 'todo-4', content: 'Write tests', status: 'completed' },
        { id: 'todo-5', content: 'Summarize', status: 'completed' },
      ],
    });
    assert.deepEqual(
      turn.blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text),
      [
        'Working on: Read the existing code.',
        'Working on: Design the change.',
        'Working on: Implement it.',
        'Working on: Write tests.',
        'Working on: Summarize.',
      ],
    );
    assert.deepEqual(
      turn.files.map((f) => f.path),
      ['PLAN.md'],
    );
    assert.equal(turn.status, 'completed');
  });

  it('folds an errored turn: the failing tool, the partial answer and the error', () => {
    const turn = turnOf('error-turn.jsonl');
    assert.equal(turn.status, 'error');
    assert.deepEqual(turn.error, {
      message: 'The sandbox process exited unexpectedly (exit code 1).',
      code: 'sandbox_failed',
    });
    assert.equal((byId(turn, 'tool:run_command:1') as ToolBlock).status, 'error');
    const answer = byId(turn, 'answer:main');
    assert.equal(answer?.type === 'markdown' && answer.final, false);
  });

  it('folds an aborted turn: status and reason, the work done so far kept', () => {
    const turn = turnOf('aborted-turn.jsonl');
    assert.equal(turn.status, 'aborted');
    assert.equal(turn.abortReason, 'Aborted by the user');
    assert.ok(byId(turn, 'thought:1'));
  });
});
