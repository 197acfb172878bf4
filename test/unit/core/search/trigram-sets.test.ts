import assert from 'node:assert/strict';
import { compileQuery } from '../../../../src/core/search/matcher';
import {
  DIGIT_MARK,
  foldDigits,
  MAX_SET,
  requiredRuns,
  requiredTrigramSets,
} from '../../../../src/core/search/trigram-sets';

const sorted = (sets: string[][]) => sets.map((s) => [...s].sort().join(','));

describe('core/search/trigram-sets', () => {
  it('spells out small classes and fixed repeats into sets every match holds one of', () => {
    const sets = requiredTrigramSets('[0-9]{3}zz');
    assert.deepEqual(
      sorted(sets)[0],
      [...'0123456789']
        .map((d) => `${d}zz`)
        .sort()
        .join(','),
    );
    assert.ok(sets.every((s) => s.length <= MAX_SET));
    // \d and a plain run, lower-cased; then the same folded (the digit as the mark).
    assert.deepEqual(sorted(requiredTrigramSets('Ab\\d')), [
      [...'0123456789']
        .map((d) => `ab${d}`)
        .sort()
        .join(','),
      `ab${DIGIT_MARK}`,
    ]);
    assert.deepEqual(requiredTrigramSets('a[bB]c'), [['bbc'.replace('bbc', 'abc')]]);
  });

  it('breaks a run at what it does not know, and knows nothing across an alternation', () => {
    assert.deepEqual(requiredTrigramSets('ab|cd'), []);
    assert.deepEqual(requiredTrigramSets('a.bc'), []);
    assert.deepEqual(requiredTrigramSets('[a-z]+x'), [], 'a large class is not spelled out');
    assert.deepEqual(requiredTrigramSets('[^0-9]ab'), [], 'a negated class never is');
    assert.deepEqual(requiredTrigramSets('ab?c'), [], 'an optional character breaks the run');
    assert.deepEqual(requiredTrigramSets('\\wab'), []);
    assert.deepEqual(requiredTrigramSets('(ab|cd)ef'), [], 'a group is opaque');
    // A group with an alternation inside leaves the rest known.
    assert.deepEqual(requiredTrigramSets('(a|b)xyz'), [['xyz']]);
    // `+` keeps one, then breaks, and what follows comes right after one; `{2,4}` keeps two, then
    // breaks, and what follows comes right after two; `{5}` keeps three, then goes on after two.
    assert.deepEqual(requiredRuns('xa+b'), [
      [['x'], ['a']],
      [['a'], ['b']],
    ]);
    assert.deepEqual(requiredRuns('a{2,4}b'), [
      [['a'], ['a']],
      [['a'], ['a'], ['b']],
    ]);
    assert.deepEqual(requiredRuns('xa{5}b'), [
      [['x'], ['a'], ['a'], ['a']],
      [['a'], ['a'], ['b']],
    ]);
    // Word boundaries and anchors take no character.
    assert.deepEqual(requiredTrigramSets('\\bab\\bc'), [['abc']]);
  });

  it('folds digits: a run of digits the plain sets cannot spell out needs a set of one', () => {
    const m = DIGIT_MARK;
    const sets = requiredTrigramSets('\\d{4}zz');
    // Plain: `0zz … 9zz` and `00z … 99z` (`000 … 999` is over the size kept); then folded.
    assert.deepEqual(
      sets.map((set) => set.length),
      [10, 100, 1, 1, 1],
    );
    assert.deepEqual(sets.slice(2), [[`${m}${m}${m}`], [`${m}${m}z`], [`${m}zz`]]);
    // A class of digits and letters keeps its letters beside the mark.
    assert.deepEqual(requiredTrigramSets('[0-9a]bc').slice(-1), [[`abc`, `${m}bc`]]);
    assert.equal(foldDigits('a1b22'), `a${m}b${m}${m}`);
  });

  it('is sound: each set names a trigram of every match (random patterns over a text)', () => {
    const text = 'ticket-937 failed at 12:40; exit 2 zz9 Q4 run_command npm test 007zz 12345zz aaaaa9';
    const patterns = [
      'ticket-9\\d\\d',
      '\\d\\d:\\d\\d',
      '[0-9]{3}zz',
      'exit [0-9]',
      'q[0-9] run',
      'npm\\b',
      '_[a-d]ommand',
      'fail(ed|s)',
      '\\d{4}zz',
      '\\d+zz',
      '[0-9a]{2}7zz',
      'a{5}9',
      'a+9',
    ];
    for (const p of patterns) {
      const q = compileQuery(p, { regex: true });
      assert.ok(q.ok);
      for (const m of q.find(text)) {
        const matched = text.slice(m.start, m.end).toLowerCase();
        for (const set of q.trigramSets)
          assert.ok(
            set.some((t) => matched.includes(t) || foldDigits(matched).includes(t)),
            `${p}: ${matched} holds one of ${set.join(' ')}`,
          );
      }
      assert.ok(q.find(text).length > 0, `${p} matches the text`);
    }
  });

  it('plain queries leave it to their literal', () => {
    const q = compileQuery('abc');
    assert.ok(q.ok && q.trigramSets.length === 0 && q.literal === 'abc');
  });
});
