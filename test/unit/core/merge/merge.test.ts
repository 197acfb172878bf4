import assert from 'node:assert/strict';
import {
  CONFLICT_MARKERS as M,
  lineStats,
  merge3,
  same,
  type Merge3Result,
} from '../../../../src/core/merge/merge';
import { seeded } from './helpers';

/** Lines joined with `\n`, each terminated (a file with a trailing newline). */
const L = (...lines: string[]): string => lines.map((l) => l + '\n').join('');
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

interface Case {
  name: string;
  base: string;
  ours: string;
  theirs: string;
  /** The merged text; `conflicts` says how many conflicts it holds (0: clean). */
  text: string;
  conflicts?: number;
}

const cases: Case[] = [
  { name: 'nothing changed', base: L('a', 'b'), ours: L('a', 'b'), theirs: L('a', 'b'), text: L('a', 'b') },
  {
    name: 'only the agent changed a line',
    base: L('a', 'b', 'c'),
    ours: L('a', 'b', 'c'),
    theirs: L('a', 'B', 'c'),
    text: L('a', 'B', 'c'),
  },
  {
    name: 'only the workspace changed a line',
    base: L('a', 'b', 'c'),
    ours: L('a', 'b!', 'c'),
    theirs: L('a', 'b', 'c'),
    text: L('a', 'b!', 'c'),
  },
  {
    name: 'both changed, far apart: clean',
    base: L('1', '2', '3', '4', '5', '6', '7'),
    ours: L('one', '2', '3', '4', '5', '6', '7'),
    theirs: L('1', '2', '3', '4', '5', '6', 'seven'),
    text: L('one', '2', '3', '4', '5', '6', 'seven'),
  },
  {
    name: 'workspace inserts at the top, agent appends at the end',
    base: L('a', 'b', 'c'),
    ours: L('header', 'a', 'b', 'c'),
    theirs: L('a', 'b', 'c', 'footer'),
    text: L('header', 'a', 'b', 'c', 'footer'),
  },
  {
    name: 'both changed the same line differently: a conflict',
    base: L('a', 'b', 'c'),
    ours: L('a', 'mine', 'c'),
    theirs: L('a', 'agent', 'c'),
    text: L('a', M.ours, 'mine', M.base, 'b', M.separator, 'agent', M.theirs, 'c'),
    conflicts: 1,
  },
  {
    name: 'both made the identical change: clean, taken once',
    base: L('a', 'b', 'c'),
    ours: L('a', 'B', 'c', 'd'),
    theirs: L('a', 'B', 'c', 'd'),
    text: L('a', 'B', 'c', 'd'),
  },
  {
    name: 'changes on adjacent lines conflict (as in git)',
    base: L('a', 'b', 'c', 'd'),
    ours: L('a', 'B', 'c', 'd'),
    theirs: L('a', 'b', 'C', 'd'),
    text: L('a', M.ours, 'B', 'c', M.base, 'b', 'c', M.separator, 'b', 'C', M.theirs, 'd'),
    conflicts: 1,
  },
  {
    name: 'both insert different lines at the same place',
    base: L('a', 'b'),
    ours: L('a', 'x', 'b'),
    theirs: L('a', 'y', 'b'),
    text: L('a', M.ours, 'x', M.base, M.separator, 'y', M.theirs, 'b'),
    conflicts: 1,
  },
  {
    name: 'the agent deletes lines the workspace left alone',
    base: L('a', 'b', 'c', 'd', 'e'),
    ours: L('A', 'b', 'c', 'd', 'e'),
    theirs: L('a', 'b', 'e'),
    text: L('A', 'b', 'e'),
  },
  {
    name: 'the agent deletes a line the workspace changed: a conflict',
    base: L('a', 'b', 'c'),
    ours: L('a', 'b2', 'c'),
    theirs: L('a', 'c'),
    text: L('a', M.ours, 'b2', M.base, 'b', M.separator, M.theirs, 'c'),
    conflicts: 1,
  },
  {
    name: 'both delete the same lines',
    base: L('a', 'b', 'c', 'd'),
    ours: L('a', 'd'),
    theirs: L('a', 'd'),
    text: L('a', 'd'),
  },
  {
    name: 'the agent empties the file the workspace left alone',
    base: L('a', 'b'),
    ours: L('a', 'b'),
    theirs: '',
    text: '',
  },
  {
    name: 'the agent empties the file the workspace changed: a conflict',
    base: L('a', 'b'),
    ours: L('a', 'b', 'c'),
    theirs: '',
    text: L(M.ours, 'a', 'b', 'c', M.base, 'a', 'b', M.separator, M.theirs),
    conflicts: 1,
  },
  { name: 'an empty base, the agent writes a file', base: '', ours: '', theirs: L('new'), text: L('new') },
  {
    name: 'an empty base, both write different files',
    base: '',
    ours: L('mine'),
    theirs: L('theirs'),
    text: L(M.ours, 'mine', M.base, M.separator, 'theirs', M.theirs),
    conflicts: 1,
  },
  { name: 'all empty', base: '', ours: '', theirs: '', text: '' },
  {
    name: 'two conflicts and a clean change between them',
    base: L('1', '2', '3', '4', '5', '6', '7', '8', '9'),
    ours: L('1', 'o2', '3', '4', '5', '6', '7', 'o8', '9'),
    theirs: L('1', 't2', '3', '4', 't5', '6', '7', 't8', '9'),
    text: L(
      '1',
      ...[M.ours, 'o2', M.base, '2', M.separator, 't2', M.theirs],
      '3',
      '4',
      't5',
      '6',
      '7',
      ...[M.ours, 'o8', M.base, '8', M.separator, 't8', M.theirs],
      '9',
    ),
    conflicts: 2,
  },
  // Line endings: the workspace's style wins; an ending-only change is no change.
  {
    name: 'CRLF workspace, LF agent: the agent’s line comes in with CRLF',
    base: 'a\r\nb\r\nc\r\n',
    ours: 'a\r\nb\r\nc\r\n',
    theirs: 'a\nB\nc\n',
    text: 'a\r\nB\r\nc\r\n',
  },
  {
    name: 'CRLF workspace, the agent converted everything to LF: nothing changes',
    base: 'a\r\nb\r\n',
    ours: 'a\r\nb\r\n',
    theirs: 'a\nb\n',
    text: 'a\r\nb\r\n',
  },
  {
    name: 'CRLF conflict markers use CRLF',
    base: 'a\r\nb\r\n',
    ours: 'a\r\nx\r\n',
    theirs: 'a\ny\n',
    text: `a\r\n${M.ours}\r\nx\r\n${M.base}\r\nb\r\n${M.separator}\r\ny\r\n${M.theirs}\r\n`,
    conflicts: 1,
  },
  {
    name: 'mixed endings: every workspace line keeps its own, agent lines keep theirs',
    base: 'a\r\nb\nc\r\n',
    ours: 'a\r\nb\nc\r\n',
    theirs: 'a\nb\nc\nd\r\n',
    text: 'a\r\nb\nc\r\nd\r\n',
  },
  {
    name: 'a workspace file without endings takes the agent’s',
    base: 'a',
    ours: 'a',
    theirs: 'a\r\nb\r\n',
    text: 'a\r\nb\r\n',
  },
  // The trailing newline: three-way on its own.
  {
    name: 'no trailing newline anywhere stays so',
    base: 'a\nb',
    ours: 'a\nb',
    theirs: 'a\nB',
    text: 'a\nB',
  },
  {
    name: 'the workspace has no trailing newline and the agent appends lines: they are joined properly',
    base: 'a\nb',
    ours: 'a\nb',
    theirs: 'a\nb\nc',
    text: 'a\nb\nc',
  },
  {
    name: 'the agent adds the trailing newline',
    base: 'a\nb',
    ours: 'a\nb',
    theirs: 'a\nb\n',
    text: 'a\nb\n',
  },
  {
    name: 'the workspace removed the trailing newline; the agent edits elsewhere: it stays removed',
    base: 'a\nb\n',
    ours: 'a\nb',
    theirs: 'A\nb\n',
    text: 'A\nb',
  },
  {
    name: 'a byte order mark is the workspace’s',
    base: 'a\n',
    ours: '\uFEFFa\n',
    theirs: 'a\nb\n',
    text: '\uFEFFa\nb\n',
  },
  {
    name: 'the agent dropping a byte order mark is not an edit',
    base: '\uFEFFa\n',
    ours: '\uFEFFa\n',
    theirs: 'a\n',
    text: '\uFEFFa\n',
  },
  {
    name: 'a lone CR is content, not an ending',
    base: 'a\rb\n',
    ours: 'a\rb\n',
    theirs: 'a\rB\n',
    text: 'a\rB\n',
  },
];

describe('merge3', () => {
  for (const c of cases) {
    it(c.name, () => {
      const r = merge3({ base: c.base, ours: c.ours, theirs: c.theirs });
      assert.equal(r.binary, false);
      if (r.binary) return;
      assert.equal(r.text, c.text);
      assert.equal(r.clean, !c.conflicts);
      assert.equal(r.clean ? 0 : r.conflicts.length, c.conflicts ?? 0);
    });
  }

  it('gives each conflict its ranges in the workspace, base, agent and merged lines', () => {
    const r = merge3({
      base: L('1', '2', '3', '4', '5'),
      ours: L('0', '1', 'o2', 'o2b', '3', '4', '5'),
      theirs: L('1', 't2', '3', '4'),
    });
    assert.ok(!r.binary && !r.clean);
    assert.deepEqual(r.conflicts, [
      {
        oursRange: { start: 2, end: 4 },
        baseRange: { start: 1, end: 2 },
        theirsRange: { start: 1, end: 2 },
        resultRange: { start: 2, end: 10 },
      },
    ]);
    const lines = r.text.split('\n');
    assert.equal(lines[2], M.ours);
    assert.equal(lines[9], M.theirs);
    assert.deepEqual(lines.slice(10), ['3', '4', '']);
  });

  it('takes bytes as well as text, and says binary for NUL bytes or invalid UTF-8 on any side', () => {
    assert.deepEqual(merge3({ base: bytes('a\n'), ours: bytes('a\n'), theirs: bytes('é\n') }), {
      binary: false,
      clean: true,
      text: 'é\n',
    });
    const binaries: [string, Merge3Result][] = [
      ['NUL in the agent’s', merge3({ base: 'a', ours: 'a', theirs: 'a\0b' })],
      ['NUL in the workspace', merge3({ base: 'a', ours: bytes('a\0'), theirs: 'a' })],
      ['invalid UTF-8 in the base', merge3({ base: Uint8Array.of(0xc3, 0x28), ours: 'a', theirs: 'b' })],
      [
        'a lone surrogate byte sequence',
        merge3({ base: 'a', ours: Uint8Array.of(0xed, 0xa0, 0x80), theirs: 'a' }),
      ],
    ];
    for (const [what, r] of binaries) assert.deepEqual(r, { binary: true, clean: false }, what);
  });

  // (How long these take is measured in bench/hunks.ts; the work is bounded by the diff's budget,
  // in steps, not by a clock: line-diff.test.ts. No elapsed-time check here.)
  it('merges big files with a few edits correctly', () => {
    const base = Array.from({ length: 50_000 }, (_, i) => (i % 7 === 0 ? '' : `line ${i % 997}`));
    const ours = base.slice();
    ours[100] = 'ours';
    const theirs = base.slice();
    theirs.splice(40_000, 3, 'theirs');
    const r = merge3({ base: L(...base), ours: L(...ours), theirs: L(...theirs) });
    const expected = ours.slice();
    expected.splice(40_000, 3, 'theirs');
    assert.deepEqual(r, { binary: false, clean: true, text: L(...expected) });
  });

  it('gives unrelated big files a conflict', () => {
    const rnd = seeded(5);
    const lines = (): string[] => Array.from({ length: 20_000 }, () => `x ${rnd() % 5000}`);
    const r = merge3({ base: L(...lines()), ours: L(...lines()), theirs: L(...lines()) });
    assert.ok(!r.binary && !r.clean);
  });
});

describe('lineStats', () => {
  const cases: [string, string, string, { added: number; removed: number }][] = [
    ['same', L('a', 'b'), L('a', 'b'), { added: 0, removed: 0 }],
    ['a line changed', L('a', 'b'), L('a', 'c'), { added: 1, removed: 1 }],
    ['lines appended', L('a'), L('a', 'b', 'c'), { added: 2, removed: 0 }],
    ['lines removed', L('a', 'b', 'c'), L('c'), { added: 0, removed: 2 }],
    ['from nothing', '', L('a', 'b'), { added: 2, removed: 0 }],
    ['to nothing', L('a', 'b'), '', { added: 0, removed: 2 }],
    ['endings only', 'a\r\nb\r\n', 'a\nb', { added: 0, removed: 0 }],
  ];
  for (const [name, a, b, expected] of cases) {
    it(`counts ${name}`, () => assert.deepEqual(lineStats(a, b), expected));
  }

  it('is undefined for binary content', () => {
    assert.equal(lineStats('a', Uint8Array.of(0xff)), undefined);
  });
});

describe('same', () => {
  const bin = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x01);
  const bin2 = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x02);
  const cases: [string, string | Uint8Array, string | Uint8Array, boolean][] = [
    ['equal strings', 'a', 'a', true],
    ['text and its bytes', 'é\n', bytes('é\n'), true],
    ['CRLF and LF', 'a\r\nb', 'a\nb', true],
    ['a byte order mark and CRLF', '\uFEFFa\r\nb\r\n', 'a\nb\n', true],
    ['a trailing newline', 'a', 'a\n', false],
    ['different lines', 'a\n', 'b\n', false],
    ['equal binaries', bin, Uint8Array.from(bin), true],
    ['different binaries', bin, bin2, false],
    ['binary and text', bin, 'PNG', false],
    ['empty', '', new Uint8Array(), true],
  ];
  for (const [name, a, b, expected] of cases) it(name, () => assert.equal(same(a, b), expected));
});
