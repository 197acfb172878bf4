/**
 * Line comments → the next turn (issue 24): the feedback text's stable shape, read back the way the
 * emulator reads it; which threads go; when the agent changed a thread's lines; stored threads.
 */
import assert from 'node:assert/strict';
import {
  MAX_QUOTED_LINES,
  MAX_THREADS,
  boundThreads,
  feedbackText,
  isAddressed,
  openThreads,
  parseFeedback,
  readThreads,
  type ThreadRecord,
} from '../../../../src/model/review/feedback';

let ids = 0;
function thread(over: Partial<ThreadRecord> = {}): ThreadRecord {
  ids++;
  return {
    id: `t${ids}`,
    sessionId: 's1',
    path: 'src/a.ts',
    uri: 'den-session:/s1/src/a.ts',
    startLine: 0,
    endLine: 0,
    quote: ['const a = 1;'],
    comments: [{ id: `c${ids}`, body: 'Rename a.', at: 1 }],
    state: 'open',
    ...over,
  };
}

describe('review feedback', () => {
  it('writes each comment with its path, 1-based lines, the quoted lines and the note', () => {
    const text = feedbackText(
      [
        thread({ path: 'src/a.ts', startLine: 11, endLine: 13, quote: ['x', 'y', 'z'] }),
        thread({
          path: 'src/b.ts',
          startLine: 2,
          endLine: 2,
          quote: ['foo()'],
          comments: [{ id: 'c', body: 'Two lines\nof comment', at: 1 }],
        }),
      ],
      ' Keep the API. ',
    );
    assert.equal(
      text,
      [
        'Review feedback on your changes: 2 comments. Change the code each comment points at, then say what you changed.',
        '',
        '[1] src/a.ts, lines 12-14',
        '> x',
        '> y',
        '> z',
        'Comment: Rename a.',
        '',
        '[2] src/b.ts, line 3',
        '> foo()',
        'Comment: Two lines',
        '  of comment',
        '',
        'Overall: Keep the API.',
      ].join('\n'),
    );
  });

  it('reads back what it wrote (the emulator’s side)', () => {
    const t1 = thread({ path: 'src/a.ts', startLine: 4, endLine: 5, quote: ['> not a quote', 'b'] });
    const t2 = thread({ path: 'lib/c d.py', comments: [{ id: 'c', body: 'One\nTwo', at: 1 }] });
    const parsed = parseFeedback(feedbackText([t1, t2], 'All good\notherwise'));
    assert.deepEqual(parsed.entries, [
      { path: 'src/a.ts', startLine: 5, endLine: 6, quote: ['> not a quote', 'b'], comment: 'Rename a.' },
      { path: 'lib/c d.py', startLine: 1, endLine: 1, quote: ['const a = 1;'], comment: 'One\nTwo' },
    ]);
    assert.equal(parsed.note, 'All good\notherwise');
  });

  it('caps the quote and says how many lines it left out', () => {
    const quote = Array.from({ length: MAX_QUOTED_LINES + 5 }, (_, i) => `line ${i}`);
    const text = feedbackText([thread({ startLine: 0, endLine: quote.length - 1, quote })]);
    assert.match(text, /> … \(5 more lines\)/);
    assert.equal(parseFeedback(text).entries[0].quote.length, MAX_QUOTED_LINES);
  });

  it('is not feedback when the text does not start as one', () => {
    assert.deepEqual(parseFeedback('[1] src/a.ts, line 1\nComment: x').entries, []);
  });

  it('sends only the session’s open threads with comments, by path then line', () => {
    const all = [
      thread({ path: 'b.ts', startLine: 1 }),
      thread({ path: 'a.ts', startLine: 9 }),
      thread({ path: 'a.ts', startLine: 2 }),
      thread({ state: 'resolved' }),
      thread({ state: 'addressed' }),
      thread({ sessionId: 's2' }),
      thread({ comments: [] }),
    ];
    assert.deepEqual(
      openThreads(all, 's1').map((t) => `${t.path}:${t.startLine}`),
      ['a.ts:2', 'a.ts:9', 'b.ts:1'],
    );
  });

  describe('addressed', () => {
    const t = thread({ quote: ['  return a;', '}'] });
    it('when the quoted lines changed', () => {
      assert.equal(isAddressed(t, 'function f() {\n  return a + 1;\n}\n'), true);
    });
    it('not when they only moved (or gained trailing spaces or CRLF)', () => {
      assert.equal(isAddressed(t, '// new header\nfunction f() {\r\n  return a;   \r\n}\r\n'), false);
    });
    it('when the file is gone', () => assert.equal(isAddressed(t, undefined), true));
    it('never for a quote of blank lines', () => {
      assert.equal(isAddressed(thread({ quote: ['', '  '] }), 'anything'), false);
    });
  });

  describe('stored threads', () => {
    it('keeps the well-formed ones and drops the rest', () => {
      const good = thread();
      const stored = [good, { ...thread(), state: 'weird' }, { ...thread(), endLine: -1 }, 'x', null];
      assert.deepEqual(readThreads(stored), [good]);
      assert.deepEqual(readThreads({ not: 'an array' }), []);
    });

    it('bounds the list, dropping the oldest closed threads first', () => {
      const many = [
        thread({ state: 'resolved' }),
        ...Array.from({ length: MAX_THREADS }, () => thread()),
        thread({ state: 'addressed' }),
      ];
      const kept = boundThreads(many);
      assert.equal(kept.length, MAX_THREADS);
      assert.ok(kept.every((k) => k.state === 'open'));
    });
  });
});
