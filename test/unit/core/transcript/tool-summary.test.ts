import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import { newTool } from '../../../../src/core/transcript/blocks';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import type { ToolBlock } from '../../../../src/core/transcript/model';
import {
  eventPreview,
  exitCodeOf,
  groupLineText,
  groupSummary,
  jsonOutput,
  testCountsOf,
  toolLineText,
  toolSummary,
} from '../../../../src/core/transcript/tool-summary';
import { AGENT, fold } from './helpers';

function tool(name: string, patch: Partial<ToolBlock> = {}, log = ''): ToolBlock {
  const b = newTool(`tool:${name}:1`, name);
  Object.assign(b, { status: 'success' }, patch);
  if (log) b.log = { segments: [{ stream: 'stdout', data: log }], chars: log.length, truncatedChars: 0 };
  return b;
}

const line = (b: ToolBlock, cutOff = false): string => toolLineText(toolSummary(b, cutOff));

describe('a tool call in one line (toolSummary)', () => {
  it('says a written file by its path and the lines it wrote, not its content', () => {
    const b = tool('write_file', { parameters: { path: 'src/x.ts', content: 'a\nb\nc\n' } });
    assert.equal(line(b), 'write_file src/x.ts · +3');
  });

  it('says a read file by its path and the lines it read (one line in the singular)', () => {
    const one = tool('read_file', { parameters: { path: 'legacy/m.js' }, output: 'module 4' });
    assert.equal(line(one), 'read_file legacy/m.js · 1 line');
    const many = tool('read_file', { parameters: { path: 'legacy/m.js' }, output: 'a\nb\nc\n' });
    assert.equal(line(many), 'read_file legacy/m.js · 3 lines');
  });

  it('says an edit by the lines it adds and removes', () => {
    const b = tool('str_replace', { parameters: { file_path: 'a.ts', old_str: 'x', new_str: 'y\nz' } });
    assert.equal(line(b), 'str_replace a.ts · +2 −1');
  });

  it('says a command with its exit code and the test counts its log ends with (ANSI codes aside)', () => {
    const b = tool(
      'run_command',
      { parameters: { command: 'npm test' }, output: 'exit code 0' },
      '\n  \x1b[32m2 passing\x1b[0m \x1b[90m(14ms)\x1b[0m\n',
    );
    assert.equal(line(b), 'run_command npm test · exit 0 · 2 passing');
  });

  it('says a failed command failed, in words, with its exit code and failing tests', () => {
    const b = tool(
      'bash',
      { parameters: { cmd: 'npm ci' }, output: 'exit code 1', status: 'error' },
      '3 passing\n1 failing\n',
    );
    assert.equal(line(b), 'bash npm ci · failed · exit 1 · 3 passing · 1 failing');
  });

  it('says a failed tool without an exit code by the first words of its output', () => {
    const b = tool('write_file', {
      parameters: { path: '/etc/x' },
      status: 'error',
      output: 'EACCES: permission denied\nat …',
    });
    assert.equal(line(b), 'write_file /etc/x · failed · EACCES: permission denied at …');
  });

  it('says a web search by its query and how many results it found (JSON output)', () => {
    const out = JSON.stringify([
      { title: 'a' },
      { title: 'b' },
      { title: 'c' },
      { title: 'd' },
      { title: 'e' },
    ]);
    assert.equal(
      line(tool('web_search', { parameters: { query: 'rust async' }, output: out })),
      'web_search “rust async” · 5 results',
    );
    const one = tool('search', { parameters: { q: 'x' }, output: { results: [{}] } });
    assert.equal(line(one), 'search “x” · 1 result');
  });

  it('shows a running tool live: running, and the last line of its log', () => {
    const b = tool(
      'run_command',
      { parameters: { command: 'npm test' }, status: 'running' },
      '> mocha\n\n  \x1b[32m✔\x1b[0m adds\n',
    );
    assert.equal(line(b), 'run_command npm test · running… · ✔ adds');
    assert.equal(line(b, true), 'run_command npm test · did not finish');
  });

  it('falls back to the first short one-line text of an unknown tool', () => {
    const b = tool('deploy_preview', {
      parameters: { config: { a: 1 }, notes: 'long\ntext', target: 'staging' },
    });
    assert.equal(line(b), 'deploy_preview staging');
    assert.equal(line(tool('noop')), 'noop');
    assert.equal(line(tool('', { parameters: { n: 3 } })), 'tool');
  });

  it('keeps the subject on one line and clipped', () => {
    const b = tool('run_command', { parameters: { command: `echo ${'x'.repeat(200)}\nsecond line` } });
    const s = toolSummary(b);
    assert.ok(s.subject.length <= 80, s.subject);
    assert.ok(s.subject.endsWith('…'));
    assert.ok(!s.subject.includes('\n'));
  });

  it('reads exit codes and test counts in their usual shapes', () => {
    assert.equal(exitCodeOf('exit code 2'), 2);
    assert.equal(exitCodeOf('Process exited with code 127'), 127);
    assert.equal(exitCodeOf({ exit_code: 3 }), 3);
    assert.equal(exitCodeOf('File written'), undefined);
    assert.deepEqual(testCountsOf('Tests: 4 passed, 1 failed'), ['4 passing', '1 failing']);
    assert.deepEqual(testCountsOf('0 failing'), []);
  });

  it('reads JSON output: a value, or a string holding one; anything else is not JSON', () => {
    assert.deepEqual(jsonOutput('[1, 2]'), [1, 2]);
    assert.deepEqual(jsonOutput({ a: 1 }), { a: 1 });
    assert.equal(jsonOutput('{not json}'), undefined);
    assert.equal(jsonOutput('exit code 0'), undefined);
    assert.equal(jsonOutput(42), undefined);
  });
});

describe('consecutive tool calls in one line (groupSummary)', () => {
  const timed = (start: number, end: number, status: ToolBlock['status'] = 'success'): ToolBlock =>
    tool('run_command', { startedAt: start, endedAt: end, status });

  it('counts the calls and the failed ones, and the time from the first start to the last end', () => {
    const g = groupSummary(
      [timed(1000, 3000), timed(3000, 20_000, 'error'), timed(20_000, 49_000, 'error')],
      false,
    );
    assert.deepEqual(g, { count: 3, failed: 2, running: 0, seconds: 48 });
    assert.equal(
      groupLineText(g, (s) => `${s} s`),
      '3 tool calls · 2 failed · 48 s',
    );
  });

  it('says running while a call of a live turn runs, and no time', () => {
    const g = groupSummary([timed(0, 1000), tool('x', { status: 'running', startedAt: 1000 })], true);
    assert.equal(
      groupLineText(g, (s) => `${s} s`),
      '2 tool calls · running…',
    );
  });

  it('leaves the time out when a call has none (an older stored session)', () => {
    const g = groupSummary([timed(0, 1000), tool('x')], false);
    assert.equal(g.seconds, undefined);
    assert.equal(
      groupLineText(g, (s) => `${s} s`),
      '2 tool calls',
    );
  });

  it('does not count a call its ended turn cut off as running', () => {
    const g = groupSummary([tool('x', { status: 'running' }), tool('y', { status: 'running' })], false);
    assert.equal(g.running, 0);
  });
});

describe('an event Den has no words for, in a few words (eventPreview)', () => {
  it('takes the first short texts and numbers of its payload', () => {
    assert.equal(eventPreview({ title: 'Writing code', detail: 'src/x.ts' }), 'Writing code · src/x.ts');
    assert.equal(
      eventPreview({ used_tokens: 18432, max_tokens: 200000 }),
      'used_tokens 18432 · max_tokens 200000',
    );
    assert.equal(eventPreview('ready'), 'ready');
    assert.equal(eventPreview(null), '');
    assert.equal(eventPreview([1, 2]), '');
    assert.equal(eventPreview({ nested: { a: 1 } }), '');
  });
});

describe('the times a transcript keeps for one-line summaries and estimates', () => {
  const ev = (kind: string, payload: unknown, block_id: string | undefined, timestamp?: number): AgentEvent =>
    ({
      kind,
      payload,
      ...(block_id ? { block_id } : {}),
      ...(timestamp !== undefined ? { timestamp } : {}),
    }) as AgentEvent;

  it('records when a tool started and ended (its events’ timestamps)', () => {
    const { t } = fold([
      ev('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1', 1000),
      ev('tool.parameters', { parameters: { command: 'ls' } }, 'tool:run_command:1', 1500),
      ev('tool.result', { status: 'success', output: 'exit code 0' }, 'tool:run_command:1', 4000),
    ]);
    const b = t.turns[0].blocks[0] as ToolBlock;
    assert.equal(b.startedAt, 1000);
    assert.equal(b.endedAt, 4000);
  });

  it('records when the service said its estimate, again when it says it again, and none without a time', () => {
    const { t } = fold([ev('task.phase', { phase: 'running', eta_seconds: 20 }, undefined, 5000)]);
    assert.equal(t.turns[0].etaAt, 5000);
    applyEvent(t, AGENT, ev('task.phase', { phase: 'running', eta_seconds: 20 }, undefined, 9000));
    assert.equal(t.turns[0].etaAt, 9000, 'the same figure said later is fresh again');
    applyEvent(t, AGENT, ev('task.phase', { phase: 'running', eta_seconds: 12 }, undefined));
    assert.equal(t.turns[0].etaSeconds, 12);
    assert.equal(t.turns[0].etaAt, undefined);
  });
});
