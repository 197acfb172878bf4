import assert from 'node:assert/strict';
import {
  advanceSections,
  newSectionState,
  sectionsOf,
  type SectionLimits,
} from '../../../../src/webview/session-panel/markdown-sections';
import { buildRows, estimateRowHeight, type Row } from '../../../../src/webview/session-panel/render/rows';
import { Store } from '../../../../src/webview/session-panel/state';
import {
  anchoredScrollTop,
  computeWindow,
  prefixSums,
  rowAt,
} from '../../../../src/webview/shared/windowing';
import { initMessage, loadFixture, scenario } from '../session-panel/helpers';

describe('webview windowing math', () => {
  const heights = [100, 50, 200, 10, 40, 300, 25];
  const offsets = prefixSums(heights);

  it('sums heights into row offsets', () => {
    assert.deepEqual([...offsets], [0, 100, 150, 350, 360, 400, 700, 725]);
  });

  it('writes the sums into the array given when it has the right length, else into a new one', () => {
    const into = new Float64Array(8).fill(7);
    assert.equal(prefixSums(heights, into), into);
    assert.deepEqual([...into], [0, 100, 150, 350, 360, 400, 700, 725]);
    const short = new Float64Array(3);
    const out = prefixSums(heights, short);
    assert.notEqual(out, short);
    assert.deepEqual([...out], [0, 100, 150, 350, 360, 400, 700, 725]);
  });

  const rowsAt: [number, number][] = [
    [-5, 0],
    [0, 0],
    [99.9, 0],
    [100, 1],
    [355, 3],
    [724, 6],
    [10_000, 6],
  ];
  for (const [y, row] of rowsAt) {
    it(`finds row ${row} at y=${y}`, () => assert.equal(rowAt(offsets, y), row));
  }

  const windows: [
    string,
    number,
    number,
    number,
    { start: number; end: number; top: number; bottom: number },
  ][] = [
    ['the top', 0, 120, 0, { start: 0, end: 2, top: 0, bottom: 575 }],
    ['the middle with overscan', 360, 30, 20, { start: 2, end: 6, top: 150, bottom: 25 }],
    ['a range ending on a row boundary', 150, 200, 0, { start: 2, end: 3, top: 150, bottom: 375 }],
    ['the bottom', 625, 100, 0, { start: 5, end: 7, top: 400, bottom: 0 }],
    ['past the end (clamped)', 5000, 100, 0, { start: 6, end: 7, top: 700, bottom: 0 }],
    ['a viewport taller than everything', 0, 5000, 100, { start: 0, end: 7, top: 0, bottom: 0 }],
  ];
  for (const [where, top, viewport, overscan, expected] of windows) {
    it(`renders only the rows near ${where}`, () =>
      assert.deepEqual(computeWindow(offsets, top, viewport, overscan), expected));
  }

  it('keeps the spacers plus the rendered rows equal to the total height', () => {
    const hs = Array.from({ length: 5000 }, (_, i) => 20 + ((i * 37) % 90));
    const off = prefixSums(hs);
    for (let top = 0; top < off[off.length - 1]; top += 7919) {
      const w = computeWindow(off, top, 800, 800);
      const rendered = hs.slice(w.start, w.end).reduce((a, b) => a + b, 0);
      assert.equal(w.top + rendered + w.bottom, off[off.length - 1]);
      assert.ok(w.end - w.start < 60, `${w.end - w.start} rows`);
      assert.ok(
        off[w.start] <= Math.max(0, top - 800) && off[w.end] >= Math.min(off[off.length - 1], top + 1600),
      );
    }
  });

  it('caps the rendered rows of a window full of tiny rows', () => {
    const off = prefixSums(new Array(10_000).fill(1));
    const w = computeWindow(off, 0, 5000, 0, 300);
    assert.equal(w.end - w.start, 300);
  });

  it('renders nothing for an empty transcript', () => {
    assert.deepEqual(computeWindow(prefixSums([]), 0, 500, 500), { start: 0, end: 0, top: 0, bottom: 0 });
  });

  it('keeps an anchored row at the same place after rows above it changed height', () => {
    const before = prefixSums([100, 100, 100]);
    const after = prefixSums([300, 100, 100]);
    const delta = 130 - before[1];
    assert.equal(anchoredScrollTop(after, 1, delta), 330);
  });
});

describe('webview markdown sections', () => {
  const limits: SectionLimits = { min: 20, max: 200 };
  const texts = (text: string, s = newSectionState()): string[] => {
    advanceSections(s, text, limits);
    return sectionsOf(s, text.length).map((x) => x.prefix + text.slice(x.start, x.end));
  };

  it('keeps a short answer in one section', () => {
    assert.deepEqual(texts('Hello\n\nWorld'), ['Hello\n\nWorld']);
  });

  it('cuts after a blank line once a section is long enough', () => {
    const a = 'First paragraph long enough.\n\n';
    assert.deepEqual(texts(`${a}Second one.\n\nThird.`), [a, 'Second one.\n\nThird.']);
  });

  it('never cuts inside fenced code or before an indented continuation', () => {
    const code = '```\nline one of the code block\n\nline after a blank\n```\n';
    const list = '- an item long enough to cut after\n\n  continued inside the item\n';
    assert.deepEqual(texts(`${code}\ntail`), [`${code}\n`, 'tail']);
    assert.deepEqual(texts(list), [list]);
  });

  it('cuts an overlong section at a line end, re-opening its code fence', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `console.log(${i});`).join('\n');
    const out = texts('```js\n' + lines + '\n```\n');
    assert.ok(out.length > 1);
    for (const part of out.slice(1)) assert.ok(part.startsWith('```js\n'), part.slice(0, 20));
    assert.equal(
      out.map((p, i) => (i === 0 ? p : p.slice('```js\n'.length))).join(''),
      '```js\n' + lines + '\n```\n',
    );
  });

  it('cuts one endless line so the re-rendered tail stays bounded', () => {
    const line = 'word '.repeat(200);
    const out = texts(line);
    assert.ok(out.length >= 2);
    assert.equal(out.join(''), line);
  });

  it('gives the same sections whether the text arrives at once or in chunks', () => {
    const doc = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} with some words.\n\n- item\n- item\n\n\`\`\`\ncode ${i}\n\n\`\`\`\n\n`,
    ).join('');
    const whole = texts(doc);
    const s = newSectionState();
    let text = '';
    for (let i = 0; i < doc.length; i += 13) {
      text += doc.slice(i, i + 13);
      advanceSections(s, text, limits);
    }
    assert.deepEqual(
      sectionsOf(s, text.length).map((x) => x.prefix + text.slice(x.start, x.end)),
      whole,
    );
    assert.equal(whole.join(''), doc);
    assert.ok(whole.length > 10);
  });
});

describe('webview transcript rows', () => {
  it('lays a turn out as request, shown blocks, files and status', () => {
    const s = scenario(loadFixture('coding-turn.jsonl'), 100);
    const store = new Store({ post: () => undefined });
    store.receive(s.init);
    for (const b of s.batches) store.receive(b);
    const rows = buildRows(store.turns, () => 2);
    const names = (rs: Row[]): string[] =>
      rs.map((r) =>
        r.kind === 'block'
          ? `block:${r.blockId}${r.inGroup ? ' (in group)' : ''}`
          : r.kind === 'md'
            ? `md:${r.blockId}:${r.part}`
            : r.kind === 'group'
              ? `group:${r.blockIds.join('+')}`
              : r.kind,
      );
    assert.deepEqual(
      names(rows),
      [
        'user',
        'block:thought:1',
        'block:focus#5',
        'group:tool:write_file:1+tool:write_file:2',
        'block:thought:2',
        'block:tool:run_command:1',
        'md:answer:main:0',
        'md:answer:main:1',
        'files',
        'status',
      ],
      'the message repeating the request is not shown, nor the context window use (the header shows it)',
    );
    assert.equal(new Set(rows.map((r) => r.key)).size, rows.length, 'keys are unique');
    // Open, a group is followed by its calls' own rows, in reading order.
    const group = rows.find((r) => r.kind === 'group')!;
    const open = buildRows(
      store.turns,
      () => 2,
      (key) => key === group.key,
    );
    assert.deepEqual(names(open).slice(3, 6), [
      'group:tool:write_file:1+tool:write_file:2',
      'block:tool:write_file:1 (in group)',
      'block:tool:write_file:2 (in group)',
    ]);
    assert.equal(new Set(open.map((r) => r.key)).size, open.length, 'keys are unique');
    const metrics = { lineHeight: 20, charsPerLine: 80 };
    for (const r of open) {
      const turn = store.turn(r.turnId);
      const block = r.kind === 'block' || r.kind === 'md' ? store.block(r.turnId, r.blockId) : undefined;
      const est = estimateRowHeight(r, turn, block, 400, metrics);
      assert.ok(est >= 20 && est < 5000, `${r.key}: ${est}`);
    }
  });

  it('adds a plan row when the turn has todos', () => {
    const s = scenario(loadFixture('plan-turn.jsonl'), 100);
    const store = new Store({ post: () => undefined });
    store.receive(initMessage(s.transcript, 1));
    assert.ok(buildRows(store.turns, () => 1).some((r) => r.kind === 'plan'));
  });
});
