import assert from 'node:assert/strict';
import { RecentMap } from '../../../../src/core/shared/recent-map';

describe('RecentMap', () => {
  it('keeps at most max entries, dropping the least recently used first', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    assert.equal(m.get('a'), 1, 'a is now the most recently used');
    m.set('c', 3);
    assert.equal(m.size, 2);
    assert.equal(m.has('b'), false, 'b was the least recently used');
    assert.equal(m.get('a'), 1);
    assert.equal(m.get('c'), 3);
  });

  it('replaces a value without growing, and marks it used', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.set('a', 10);
    m.set('c', 3);
    assert.deepEqual([m.get('a'), m.has('b'), m.get('c')], [10, false, 3]);
  });

  it('lists its entries least recently used first, without marking them used', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.get('a');
    assert.deepEqual(
      [...m.entries()],
      [
        ['b', 2],
        ['a', 1],
      ],
    );
    m.set('c', 3);
    assert.deepEqual(
      [...m.entries()],
      [
        ['a', 1],
        ['c', 3],
      ],
      'b was still the least recently used',
    );
  });

  it('deletes and clears', () => {
    const m = new RecentMap<string, number>(3);
    m.set('a', 1);
    m.set('b', 2);
    assert.equal(m.delete('a'), true);
    assert.equal(m.delete('a'), false);
    assert.equal(m.get('a'), undefined);
    m.clear();
    assert.equal(m.size, 0);
  });

  it('refuses a bound that is not a positive integer', () => {
    assert.throws(() => new RecentMap(0), RangeError);
    assert.throws(() => new RecentMap(1.5), RangeError);
  });
});
