/**
 * The emulator's Send Feedback turn (issue 24): a follow-up whose text is Den's feedback shape
 * changes exactly the commented lines of the session's files, whatever words the comments hold.
 */
import assert from 'node:assert/strict';
import { feedbackText, isAddressed, type ThreadRecord } from '../../../src/model/review/feedback';
import { startEmulator, type Emulator } from '../index';
import { addressComments } from '../write-back';
import { call, startTurn } from './helpers';

function thread(path: string, line: number, quote: string[], body: string): ThreadRecord {
  return {
    id: `${path}:${line}`,
    sessionId: 's',
    path,
    uri: `den-session:/s/${path}`,
    startLine: line - 1,
    endLine: line - 2 + quote.length,
    quote,
    comments: [{ id: 'c', body, at: 1 }],
    state: 'open',
  };
}

describe('emulator: a Send Feedback turn', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 0 });
  });
  after(() => emu.close());

  it('changes the commented lines of two files and leaves the rest', async () => {
    const first = await startTurn(emu, 'Add omicron parser');
    await emu.turnEnded(first.sessionId, first.agentId);
    const media = async (path: string): Promise<string> =>
      (await call(emu, 'GET', `/media/${first.sessionId}/${path}`)).text;
    const src = await media('src/add-omicron-parser.ts');
    const test = await media('test/add-omicron-parser.test.ts');
    const srcLines = src.split('\n');
    const commented = [
      thread('src/add-omicron-parser.ts', 8, [srcLines[7]], 'Plan for empty input and fail loudly.'),
      thread('test/add-omicron-parser.test.ts', 1, [test.split('\n')[0]], 'Use the strict import.'),
    ];
    const next = await startTurn(emu, feedbackText(commented, 'approve nothing else'), {
      sessionId: first.sessionId,
    });
    assert.equal(next.status, 200);
    await emu.turnEnded(first.sessionId, next.agentId);
    const events = emu.storedEvents(first.sessionId, next.agentId);
    assert.equal(events.at(-1)?.kind, 'task.completed', 'a feedback turn, not a plan or a failure');
    const src2 = await media('src/add-omicron-parser.ts');
    const test2 = await media('test/add-omicron-parser.test.ts');
    assert.equal(isAddressed(commented[0], src2), true);
    assert.equal(isAddressed(commented[1], test2), true);
    assert.match(src2.split('\n')[7], /\/\/ Review: Plan for empty input and fail loudly\.$/);
    // every other line as it was
    assert.deepEqual(
      src2.split('\n').filter((_, i) => i !== 7),
      srcLines.filter((_, i) => i !== 7),
    );
    const answer = events
      .filter((e) => e.kind === 'markdown.chunk')
      .map((e) => String(e.payload.delta))
      .join('');
    assert.match(answer, /src\/add-omicron-parser\.ts`: addressed 1 of 1 comment/);
  });

  it('finds moved lines by their quote, falls back to line numbers, keeps CRLF', () => {
    const content = 'a\r\nb\r\nc\r\n';
    const out = addressComments('x.py', content, [
      { startLine: 1, endLine: 1, quote: ['c'], comment: 'why c' },
      { startLine: 2, endLine: 2, quote: ['gone'], comment: 'fix b\nmore' },
    ]);
    assert.equal(out.content, 'a\r\nb # Review: fix b\r\nc # Review: why c\r\n');
    assert.equal(out.changed, 2);
  });
});
