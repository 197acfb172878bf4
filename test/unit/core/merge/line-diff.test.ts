import assert from 'node:assert/strict';
import { diffLines, type Hunk } from '../../../../src/core/merge/line-diff';
import { merge3 } from '../../../../src/core/merge/merge';
import { seeded } from './helpers';

/** `a` with the hunks applied, taking the new lines from `b`. */
function apply(a: readonly string[], b: readonly string[], hunks: Hunk[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    assert.ok(h.aStart >= at, 'hunks in order, not overlapping');
    out.push(...a.slice(at, h.aStart), ...b.slice(h.bStart, h.bEnd));
    at = h.aEnd;
  }
  out.push(...a.slice(at));
  return out;
}

/** Length of a longest common subsequence, by dynamic programming (small inputs only). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let next = new Int32Array(b.length + 1);
  for (let i = a.length - 1; i >= 0; i--) {
    const row = new Int32Array(b.length + 1);
    for (let j = b.length - 1; j >= 0; j--)
      row[j] = a[i] === b[j] ? next[j + 1] + 1 : Math.max(next[j], row[j + 1]);
    next = row;
  }
  return next[0];
}

const changedInA = (hunks: Hunk[]): number => hunks.reduce((n, h) => n + h.aEnd - h.aStart, 0);

describe('diffLines', () => {
  const table: [string, string[], string[], Hunk[]][] = [
    ['equal', ['a', 'b'], ['a', 'b'], []],
    ['both empty', [], [], []],
    ['all added', [], ['a', 'b'], [{ aStart: 0, aEnd: 0, bStart: 0, bEnd: 2 }]],
    ['all removed', ['a', 'b'], [], [{ aStart: 0, aEnd: 2, bStart: 0, bEnd: 0 }]],
    ['one replaced', ['a', 'b', 'c'], ['a', 'x', 'c'], [{ aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 }]],
    [
      'an insertion and a deletion',
      ['a', 'b', 'c', 'd'],
      ['a', 'n', 'b', 'c'],
      [
        { aStart: 1, aEnd: 1, bStart: 1, bEnd: 2 },
        { aStart: 3, aEnd: 4, bStart: 4, bEnd: 4 },
      ],
    ],
  ];
  for (const [name, a, b, hunks] of table) {
    it(`finds the hunks: ${name}`, () => assert.deepEqual(diffLines(a, b), hunks));
  }

  it('is correct and minimal on 2,000 random pairs (checked against dynamic programming)', () => {
    const rnd = seeded(11);
    for (let k = 0; k < 2_000; k++) {
      const alphabet = 1 + (rnd() % 6);
      const a = Array.from({ length: rnd() % 25 }, () => String(rnd() % alphabet));
      const b = Array.from({ length: rnd() % 25 }, () => String(rnd() % alphabet));
      const hunks = diffLines(a, b);
      assert.deepEqual(apply(a, b, hunks), b, `${a} → ${b}`);
      assert.equal(a.length - changedInA(hunks), lcsLength(a, b), `minimal: ${a} → ${b}`);
      for (let h = 1; h < hunks.length; h++) assert.ok(hunks[h].aStart > hunks[h - 1].aEnd, 'apart');
    }
  });

  it('treats lines as whole strings (no prototype keys, no trimming)', () => {
    const a = ['__proto__', 'constructor', ' x', 'toString'];
    const b = ['constructor', 'x', '__proto__', 'toString'];
    const hunks = diffLines(a, b);
    assert.deepEqual(apply(a, b, hunks), b);
    assert.equal(a.length - changedInA(hunks), lcsLength(a, b));
  });

  it('gives a correct, coarser diff when the budget runs out', () => {
    const a = ['1', '2', '3', '4', '5', '6', '7', '8'];
    const b = ['2', '1', '4', '3', '6', '5', '8', '7'];
    const hunks = diffLines(a, b, { budget: 1 });
    assert.deepEqual(apply(a, b, hunks), b);
    assert.ok(a.length - changedInA(hunks) <= lcsLength(a, b));
    assert.deepEqual(hunks, [{ aStart: 0, aEnd: 8, bStart: 0, bEnd: 8 }]);
  });
});

describe('merge3 properties', () => {
  /** A random edit of `lines`: some lines replaced, removed or inserted. */
  function edit(lines: string[], rnd: () => number, tag: string): string[] {
    const out = lines.slice();
    for (let n = rnd() % 4; n > 0; n--) {
      const at = rnd() % (out.length + 1);
      const op = rnd() % 3;
      if (op === 0 && at < out.length) out[at] = `${tag}${rnd() % 9}`;
      else if (op === 1 && at < out.length) out.splice(at, 1);
      else out.splice(at, 0, `${tag}${rnd() % 9}`);
    }
    return out;
  }
  const text = (lines: string[]): string => lines.map((l) => `${l}\n`).join('');

  it('on 1,000 random edits: one side unchanged gives the other; equal sides give that side', () => {
    const rnd = seeded(23);
    for (let k = 0; k < 1_000; k++) {
      const base = Array.from({ length: rnd() % 12 }, () => String(rnd() % 5));
      const x = edit(base, rnd, 'x');
      const y = edit(base, rnd, 'y');
      const b = text(base);
      assert.deepEqual(merge3({ base: b, ours: b, theirs: text(y) }), {
        binary: false,
        clean: true,
        text: text(y),
      });
      assert.deepEqual(merge3({ base: b, ours: text(x), theirs: b }), {
        binary: false,
        clean: true,
        text: text(x),
      });
      assert.deepEqual(merge3({ base: b, ours: text(x), theirs: text(x) }), {
        binary: false,
        clean: true,
        text: text(x),
      });
      // A clean merge of two edits contains each side's new lines.
      const r = merge3({ base: b, ours: text(x), theirs: text(y) });
      if (r.binary || !r.clean) continue;
      const merged = r.text.split('\n');
      for (const l of [...x, ...y]) if (!base.includes(l)) assert.ok(merged.includes(l), `${l} kept`);
    }
  });
});
