import assert from 'node:assert/strict';
import { transcriptToMarkdown } from '../../../../src/core/transcript/markdown-export';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import { eventFactory } from '../../../support/events';
import { AGENT, fold, loadFixture } from './helpers';

describe('transcript Markdown export', () => {
  it('renders a coding turn: prompt, mode, thoughts, tool summaries, answer, files, status', () => {
    const t = fold(loadFixture('coding-turn.jsonl')).t;
    t.turns[0].userMessage.effort = 'think';
    const md = transcriptToMarkdown(t, { title: 'Normalizer work' });
    assert.ok(md.startsWith('# Normalizer work\n\n_Session `sess-0001` · 1 turn_'));
    assert.match(
      md,
      /## Turn 1\n\n\*\*Prompt\*\* \(mode `code`, effort `think`\)\n\n> Add a whitespace normalizer with tests/,
    );
    assert.match(md, /> \*\*Thinking:\*\* The task asks me to add a whitespace normalizer/);
    assert.match(
      md,
      /- Tool `write_file` \(success\) — path: `src\/add-whitespace-normalizer\.ts`, content: \(11 lines\)\n- Tool `write_file`/,
    );
    assert.match(md, /- Tool `run_command` \(success\) — command: `npm test`/);
    assert.match(
      md,
      /- Event `focus`: `\{"title":"Writing code","detail":"src\/add-whitespace-normalizer\.ts"\}`/,
    );
    assert.match(md, /\nI implemented \*\*Add a whitespace normalizer with tests\*\*\./);
    assert.match(
      md,
      /\*\*Files\*\*\n\n- added `src\/add-whitespace-normalizer\.ts`\n- added `test\/add-whitespace-normalizer\.test\.ts`/,
    );
    assert.match(md, /_Status: completed_\n$/);
    // The prompt echoed by message.received is not repeated.
    assert.equal(md.split('Add a whitespace normalizer with tests').length - 1, 2);
    // Logs stay out of the summary.
    assert.doesNotMatch(md, /\x1b\[|Warning:/);
  });

  it('renders the plan as a checklist', () => {
    const t = fold(loadFixture('plan-turn.jsonl')).t;
    t.turns[0].plan!.todos[1].status = 'active';
    t.turns[0].plan!.todos[2].status = 'pending';
    const md = transcriptToMarkdown(t);
    assert.match(
      md,
      /\*\*Plan\*\*\n\n- \[x\] Read the existing code\n- \[ \] \*\*Design the change\*\* \(in progress\)\n- \[ \] Implement it\n/,
    );
  });

  it('states errors, abort reasons and queue positions', () => {
    const cases: [string, RegExp][] = [
      [
        'error-turn.jsonl',
        /\*\*Status: error\*\* — The sandbox process exited unexpectedly \(exit code 1\)\. \(sandbox_failed\)/,
      ],
      ['aborted-turn.jsonl', /_Status: aborted — Aborted by the user_/],
    ];
    for (const [name, re] of cases) assert.match(transcriptToMarkdown(fold(loadFixture(name)).t), re, name);
    const t = createTranscript('s');
    beginTurn(t, { agentMessageId: 'a', text: 'later', status: 'queued', queuePosition: 2, createdAt: 0 });
    assert.match(transcriptToMarkdown(t), /_Status: queued \(position 2\)_/);
  });

  it('keeps untrusted text from breaking the document: fences closed, backticks in code spans', () => {
    const t = createTranscript('s', 'Multi\nline title');
    beginTurn(t, { agentMessageId: AGENT, text: 'line one\n\nline two', createdAt: 0 });
    const e = eventFactory();
    applyEvent(t, AGENT, e('markdown.chunk', { delta: 'Here:\n```ts\nconst a = 1;' }, 'answer:main'));
    applyEvent(t, AGENT, e('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1'));
    applyEvent(
      t,
      AGENT,
      e('tool.parameters', { parameters: { command: 'echo `date`' } }, 'tool:run_command:1'),
    );
    const md = transcriptToMarkdown(t);
    assert.ok(md.startsWith('# Multi line title\n'));
    assert.match(md, /> line one\n>\n> line two/);
    assert.match(md, /const a = 1;\n```\n\n- Tool/);
    assert.match(md, /command: `` echo `date` ``/);
    assert.match(md, /_Status: running_/);
  });

  it('titles an untitled session by its id and counts turns', () => {
    const t = createTranscript('abc');
    beginTurn(t, { agentMessageId: 'a1', text: 'one', createdAt: 0 });
    beginTurn(t, { agentMessageId: 'a2', text: 'two', createdAt: 0 });
    const md = transcriptToMarkdown(t);
    assert.ok(md.startsWith('# Session abc\n\n_Session `abc` · 2 turns_'));
    assert.match(md, /## Turn 1[\s\S]*\n---\n\n## Turn 2/);
  });
});
