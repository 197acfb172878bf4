import assert from 'node:assert/strict';
import type { SearchField } from '../../../../src/core/search/fields';
import { contextLine, findInFields } from '../../../../src/core/search/find';
import { compileQuery, MatchBudget, type CompiledQuery } from '../../../../src/core/search/matcher';

const q = (s: string): CompiledQuery => {
  const c = compileQuery(s);
  assert.ok(c.ok);
  return c;
};

const field = (blockId: string, text: string): SearchField => ({
  address: { turnId: 't', blockId, kind: 'answer', index: 0 },
  text,
});

describe('core/search/find', () => {
  it('finds in fields in order with addresses and a count', () => {
    const r = findInFields(
      [field('a', 'one needle'), field('b', 'none'), field('c', 'needle needle')],
      q('needle'),
    );
    assert.deepEqual(
      r.matches.map((m) => [m.address.blockId, m.ranges.length]),
      [
        ['a', 1],
        ['c', 2],
      ],
    );
    assert.equal(r.count, 3);
    assert.equal(r.capped, false);
  });

  it('stops at the budget and says it was capped', () => {
    const fields = Array.from({ length: 10 }, (_, i) => field(`b${i}`, 'x x x'));
    const r = findInFields(fields, q('x'), new MatchBudget(7));
    assert.equal(r.count, 7);
    assert.equal(r.capped, true);
    assert.equal(r.matches.length, 3);
  });

  it('gives the line of a match, cut around it with ellipses', () => {
    assert.deepEqual(contextLine('first\nthe needle here\nlast', { start: 10, end: 16 }), {
      text: 'the needle here',
      start: 4,
      end: 10,
    });
    const long = `${'a'.repeat(200)}NEEDLE${'b'.repeat(200)}`;
    const c = contextLine(long, { start: 200, end: 206 }, 10);
    assert.equal(c.text, `…${'a'.repeat(10)}NEEDLE${'b'.repeat(10)}…`);
    assert.equal(c.text.slice(c.start, c.end), 'NEEDLE');
  });
});
