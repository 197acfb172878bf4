import assert from 'node:assert/strict';
import type { ToolBlock } from '../../../../src/core/transcript/model';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript, noChange } from './helpers';

const ID = 'tool:run_command:1';

/** A transcript with one running tool, and a function logging to it. */
function withTool(maxLogChars?: number) {
  const t = liveTranscript();
  const e = eventFactory();
  applyEvent(t, AGENT, e('tool.start', { tool_name: 'run_command' }, ID));
  const log = (data: string, stream = 'stdout') =>
    applyEvent(
      t,
      AGENT,
      e('tool.log', { stream, data }, ID),
      maxLogChars === undefined ? undefined : { maxLogChars },
    );
  const tool = () => t.turns[0].blocks[0] as ToolBlock;
  return { log, tool };
}

const text = (tool: ToolBlock) => tool.log.segments.map((s) => s.data).join('');

describe('transcript reducer: tool logs', () => {
  it('merges consecutive chunks of one stream and keeps streams apart', () => {
    const { log, tool } = withTool();
    log('a');
    log('b');
    log('E', 'stderr');
    log('c');
    assert.deepEqual(tool().log, {
      segments: [
        { stream: 'stdout', data: 'ab' },
        { stream: 'stderr', data: 'E' },
        { stream: 'stdout', data: 'c' },
      ],
      chars: 4,
      truncatedChars: 0,
    });
  });

  it('keeps ANSI colour codes verbatim for the renderer', () => {
    const { log, tool } = withTool();
    log('\x1b[32m✔\x1b[0m ok\n');
    assert.equal(text(tool()), '\x1b[32m✔\x1b[0m ok\n');
  });

  it('reads an unknown stream as stdout and ignores non-string data', () => {
    const { log, tool } = withTool();
    log('x', 'stdwhat');
    const cs = applyEvent(liveTranscript(), AGENT, eventFactory()('tool.log', { data: 42 }, ID));
    assert.deepEqual(tool().log.segments, [{ stream: 'stdout', data: 'x' }]);
    assert.deepEqual(cs, { ...noChange(), blocksCreated: [ID] });
  });

  it('drops the oldest text past the cap, down to three quarters, and counts it', () => {
    const { log, tool } = withTool(100);
    for (let i = 0; i < 10; i++) log(String(i).repeat(10), i % 2 ? 'stderr' : 'stdout');
    assert.equal(tool().log.chars, 100);
    assert.equal(tool().log.truncatedChars, 0);

    const cs = log('abcdefghij');
    const l = tool().log;
    assert.equal(l.chars, 75);
    assert.equal(l.truncatedChars, 35);
    assert.equal(
      text(tool()),
      '33333' + '444444444455555555556666666666777777777788888888889999999999abcdefghij',
    );
    assert.deepEqual(l.segments[0], { stream: 'stderr', data: '33333' });
    assert.equal(l.segments.length, 8);
    // A trim is more than an append: the host must re-send the block.
    assert.deepEqual(cs, { ...noChange(), blocksUpdated: [ID] });
  });

  it('keeps the tail of one chunk larger than the cap', () => {
    const { log, tool } = withTool(40);
    log('x'.repeat(100) + 'END');
    assert.equal(text(tool()), 'x'.repeat(27) + 'END');
    assert.deepEqual([tool().log.chars, tool().log.truncatedChars], [30, 73]);
  });

  it('never holds more than the cap and accounts for every character over a long run', () => {
    const { log, tool } = withTool(1000);
    let total = 0;
    for (let i = 0; i < 5000; i++) {
      const chunk = `line ${i}\n`;
      total += chunk.length;
      log(chunk, i % 7 === 0 ? 'stderr' : 'stdout');
      assert.ok(tool().log.chars <= 1000);
    }
    const l = tool().log;
    assert.equal(l.chars + l.truncatedChars, total);
    assert.equal(text(tool()).length, l.chars);
    assert.ok(text(tool()).endsWith('line 4999\n'));
  });

  it('caps at 200,000 characters by default', () => {
    const { log, tool } = withTool();
    log('y'.repeat(200_000));
    assert.equal(tool().log.truncatedChars, 0);
    log('z');
    assert.deepEqual([tool().log.chars, tool().log.truncatedChars], [150_000, 50_001]);
  });
});
