import assert from 'node:assert/strict';
import {
  compileQuery,
  isCostlyPattern,
  MatchBudget,
  MAX_MATCHES_PER_TEXT,
  requiredLiteral,
  type CompiledQuery,
  type MatchOptions,
} from '../../../../src/core/search/matcher';

function compiled(query: string, options?: MatchOptions): CompiledQuery {
  const q = compileQuery(query, options);
  assert.ok(q.ok, `compiles: ${query}`);
  return q;
}

const spans = (q: CompiledQuery, text: string) => q.find(text).map((r) => text.slice(r.start, r.end));

describe('core/search/matcher', () => {
  it('finds plain text, case-insensitive by default, with ranges in order', () => {
    const q = compiled('Fix');
    assert.deepEqual(q.find('fix it; FIX it; prefix'), [
      { start: 0, end: 3 },
      { start: 8, end: 11 },
      { start: 19, end: 22 },
    ]);
  });

  it('match case keeps only the exact case', () => {
    assert.deepEqual(spans(compiled('Fix', { matchCase: true }), 'fix Fix FIX Fix'), ['Fix', 'Fix']);
  });

  it('whole word skips matches inside words, letters of any script included', () => {
    const q = compiled('fix', { wholeWord: true });
    assert.deepEqual(spans(q, 'fix prefix fixed (fix) éfix fix_ fix'), ['fix', 'fix', 'fix']);
  });

  it('takes special characters literally unless regex is on', () => {
    assert.deepEqual(spans(compiled('a.b(c)'), 'axb(c) a.b(c)'), ['a.b(c)']);
    assert.deepEqual(spans(compiled('a.b', { regex: true }), 'axb a.b'), ['axb', 'a.b']);
    assert.deepEqual(spans(compiled('src/x-y.ts'), 'see src/x-y.ts'), ['src/x-y.ts']);
  });

  it('regex with whole word and case', () => {
    const q = compiled('exit \\d+', { regex: true, wholeWord: true, matchCase: true });
    assert.deepEqual(spans(q, 'exit 0, Exit 1, exit 12x, exit 3'), ['exit 0', 'exit 3']);
  });

  it('steps over empty matches instead of looping', () => {
    assert.deepEqual(spans(compiled('a*', { regex: true }), 'baab a'), ['aa', 'a']);
    assert.deepEqual(compiled('^', { regex: true }).find('abc'), []);
  });

  it('a bad regex is an error value with the engine words, never a throw', () => {
    const q = compileQuery('(unclosed', { regex: true });
    assert.equal(q.ok, false);
    assert.ok(!q.ok && q.code === 'invalid-regex' && q.detail.length > 0);
    // The same text is fine as plain text.
    assert.ok(compileQuery('(unclosed').ok);
  });

  it('an empty query is an error value', () => {
    assert.deepEqual(compileQuery(''), { ok: false, code: 'empty', detail: '' });
  });

  it('refuses patterns that can backtrack without end, and overlong queries', () => {
    for (const p of ['(a+)+$', '(\\w*)*x', '(x|y+){2,}', '(a)\\1', '((ab)*c)+']) {
      assert.equal(isCostlyPattern(p), true, p);
      const q = compileQuery(p, { regex: true });
      assert.ok(!q.ok && q.code === 'too-costly', p);
    }
    for (const p of ['a+b*', '(ab)+', '[(a+)]+', '\\(a+\\)+', '(?:foo|bar)\\d+'])
      assert.equal(isCostlyPattern(p), false, p);
    const long = compileQuery('x'.repeat(1_001));
    assert.ok(!long.ok && long.code === 'too-long');
  });

  it('caps matches per text and across texts', () => {
    const q = compiled('e');
    const text = 'e'.repeat(5_000);
    assert.equal(q.find(text).length, MAX_MATCHES_PER_TEXT);
    assert.equal(q.find(text, 7).length, 7);
    const budget = new MatchBudget(1_500);
    assert.equal(budget.take(q, text).length, MAX_MATCHES_PER_TEXT);
    assert.equal(budget.take(q, text).length, 500);
    assert.equal(budget.exhausted, true);
    assert.deepEqual(budget.take(q, text), []);
  });

  it('a budget not spent is not exhausted', () => {
    const budget = new MatchBudget(10);
    assert.equal(budget.take(compiled('x'), 'x x x').length, 3);
    assert.equal(budget.exhausted, false);
    assert.equal(budget.left, 7);
  });

  it('keeps a lower-cased literal: the query, or what a regex must hold', () => {
    assert.equal(compiled('MiGration').literal, 'migration');
    assert.equal(compiled('Mig.*', { regex: true }).literal, 'mig');
    assert.equal(compiled('a|b', { regex: true }).literal, '');
  });
});

describe('core/search/matcher requiredLiteral', () => {
  it('finds the longest run every match must hold, or none', () => {
    const cases: [string, string][] = [
      ['ticket-9\\d\\d failed', 'ticket-9'],
      ['exit \\d+ after', ' after'],
      ['colou?r scheme', 'r scheme'],
      ['src/x\\.ts', 'src/x.ts'],
      ['ab+cdef', 'cdef'],
      ['(optional words)? here', ' here'],
      ['[abc]+ longword', ' longword'],
      ['[\\]x] longword', ' longword'],
      ['cat|dog', ''],
      ['\\w+', ''],
      ['a{2}bcd', 'bcd'],
    ];
    for (const [source, literal] of cases) assert.equal(requiredLiteral(source), literal, source);
  });

  it('every match of a regex holds its literal (so an index may skip texts without it)', () => {
    const q = compiled('ticket-9\\d\\d failed', { regex: true });
    assert.equal(q.literal, 'ticket-9');
    assert.equal(q.find('TICKET-912 FAILED and ticket-907 failed').length, 2);
  });
});
