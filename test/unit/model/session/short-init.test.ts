import assert from 'node:assert/strict';
import type { Block } from '../../../../src/core/transcript/model';
import { shortTurns, textChars } from '../../../../src/model/session/short-init';
import type { TurnView } from '../../../../src/protocol/session-panel/view';

function turn(id: string, blocks: Block[]): TurnView {
  return {
    id,
    userMessage: { id: `u-${id}`, text: `task ${id}`, files: [], createdAt: 1 },
    status: 'completed',
    hasContinuation: false,
    createdAt: 1,
    blocks,
    files: [],
  } as unknown as TurnView;
}
const md = (id: string, text: string): Block => ({ type: 'markdown', id, text, final: true });
const tool = (id: string): Block =>
  ({ type: 'tool', id, name: 'run', status: 'completed' }) as unknown as Block;
const textOf = (b: Block | undefined): string => (b && 'text' in b ? String(b.text) : '');

describe('shortTurns (a long session’s first init)', () => {
  it('leaves turns that fit the budget as they are (undefined)', () => {
    const turns = [turn('a', [md('m', 'short text')])];
    assert.equal(shortTurns(turns, 100), undefined);
    assert.equal(textChars(turns), 10);
  });

  it('keeps the newest texts whole, cuts the one across the budget at a blank line, empties the older', () => {
    const para = (i: number): string => `Paragraph ${i} ${'y'.repeat(30)}.\n\n`;
    const long = Array.from({ length: 10 }, (_, i) => para(i)).join('');
    const turns = [
      turn('old', [md('m0', long), tool('t0')]),
      turn('mid', [md('m1', long)]),
      turn('new', [md('m2', 'the newest answer'), tool('t2')]),
    ];
    const budget = 17 + para(0).length * 3 + 10;
    const out = shortTurns(turns, budget)!;
    assert.ok(out);
    assert.equal(out.length, 3);
    assert.equal(textOf(out[2].blocks[0]), 'the newest answer');
    assert.equal(out[2].blocks[1], turns[2].blocks[1], 'a tool block is not touched');
    assert.equal(textOf(out[1].blocks[0]), para(7) + para(8) + para(9));
    assert.equal(textOf(out[0].blocks[0]), '');
    assert.equal(out[0].blocks[1], turns[0].blocks[1]);
    assert.ok(textChars(out) <= budget);
    // the input is not changed
    assert.equal(textOf(turns[1].blocks[0]), long);
    assert.equal(out[0].id, 'old');
    assert.equal(out[0].userMessage.text, 'task old');
  });

  it('never cuts inside a code fence: the kept part starts after the fence closes', () => {
    const text = `Intro.\n\n\`\`\`ts\nconst a = 1;\n\nconst b = 2;\n\`\`\`\n\nAfter the code.\n\nLast line.`;
    const out = shortTurns(
      [turn('a', [md('m', text)])],
      'const b = 2;\n```\n\nAfter the code.\n\nLast line.'.length,
    )!;
    assert.equal(textOf(out[0].blocks[0]), 'After the code.\n\nLast line.');
  });

  it('sends nothing of a text whose last paragraph alone is over the budget', () => {
    const out = shortTurns([turn('a', [md('m', 'x'.repeat(500))])], 100)!;
    assert.equal(textOf(out[0].blocks[0]), '');
  });
});
