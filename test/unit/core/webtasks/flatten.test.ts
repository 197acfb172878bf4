import assert from 'node:assert/strict';
import {
  columnsFor,
  compareCells,
  flattenRecord,
  rowFilter,
  sortedIndexes,
  toTable,
  type FlatRow,
} from '../../../../src/core/webtasks/flatten';

describe('webtask: flattening records into table rows', () => {
  it('gives nested fields dot paths', () => {
    assert.deepEqual(flattenRecord({ a: 1, b: { c: 'x', d: { e: null } } }), {
      a: 1,
      'b.c': 'x',
      'b.d.e': null,
    });
  });

  it('joins lists of scalars with "; "', () => {
    assert.deepEqual(flattenRecord({ tags: ['a', 'b', 3, true, null] }), { tags: 'a; b; 3; true; null' });
  });

  it('joins each sub-field of a list of objects in one column', () => {
    const row = flattenRecord({
      reviews: [
        { author: 'Ann', stars: 5 },
        { author: 'Bob', extra: { x: 1 } },
      ],
    });
    assert.deepEqual(row, { 'reviews.author': 'Ann; Bob', 'reviews.stars': '5; ', 'reviews.extra.x': '; 1' });
  });

  it('writes other lists as JSON text, and empty containers as empty cells', () => {
    assert.deepEqual(flattenRecord({ m: [[1, 2], 'x'], l: [], o: {} }), { m: '[[1,2],"x"]', l: '', o: '' });
  });

  it('orders columns by the schema first, then by first sight', () => {
    const rows: FlatRow[] = [
      { z: 1, 'a.b': 2 },
      { extra: 3, title: 'x' },
    ];
    assert.deepEqual(columnsFor(rows, { title: 't', a: { b: 'b', c: 'c' } }), [
      'title',
      'a.b',
      'a.c',
      'z',
      'extra',
    ]);
    assert.deepEqual(toTable([{ q: 1 }], { p: 'p' }).columns, ['p', 'q']);
  });

  it('adds no column for a nested schema field that came back null or empty, but one for a scalar there', () => {
    const schema = { name: 'n', seller: { name: 's', rating: 'r' } };
    const columns = (records: Record<string, unknown>[]) => toTable(records, schema).columns;
    const leaves = ['name', 'seller.name', 'seller.rating'];
    assert.deepEqual(
      columns([{ name: 'a', seller: null }, { name: 'b', seller: {} }, { seller: [] }]),
      leaves,
    );
    assert.deepEqual(columns([{ name: 'a', seller: 'Bob' }]), [...leaves, 'seller']);
    // without a schema nothing is known to be nested: null stays a column
    assert.deepEqual(toTable([{ seller: null }]).columns, ['seller']);
  });
});

describe('webtask: sorting and filtering the table', () => {
  it('compares numbers as numbers, numeric strings too', () => {
    assert.ok(compareCells(9, 10) < 0);
    assert.ok(compareCells('9', '10') < 0);
    assert.ok(compareCells('19.99', 5) > 0);
    assert.ok(compareCells('-1e3', '2') < 0);
  });

  it('compares other text by code point, the same in every locale', () => {
    assert.ok(compareCells('B', 'a') < 0);
    assert.ok(compareCells('a', 'ä') < 0);
    assert.ok(compareCells('10 items', '9 items') < 0);
    assert.equal(compareCells('x', 'x'), 0);
  });

  it('sorts empty cells last in both directions, stably', () => {
    const rows: FlatRow[] = [{ p: 3 }, { p: '' }, { p: 1 }, {}, { p: 3 }, { p: null }, { p: '2' }];
    assert.deepEqual(sortedIndexes(rows, 'p'), [2, 6, 0, 4, 1, 3, 5]);
    assert.deepEqual(sortedIndexes(rows, 'p', 'desc'), [0, 4, 6, 2, 1, 3, 5]);
  });

  it('filters case-insensitively by substring over the given columns', () => {
    const rows: FlatRow[] = [
      { a: 'Red Shoe', b: 1 },
      { a: 'blue', b: 'RED' },
      { a: 'green', b: null },
    ];
    const match = rowFilter(rows, ['a', 'b']);
    assert.deepEqual(match('red'), [0, 1]);
    assert.deepEqual(match('  SHOE '), [0]);
    assert.deepEqual(match(''), [0, 1, 2]);
    assert.deepEqual(match('null'), []);
    assert.deepEqual(rowFilter(rows, ['a'])('red'), [0]);
  });

  it('sorts and filters 10,000 rows with mixed cells correctly', () => {
    const records = Array.from({ length: 10_000 }, (_x, i) => ({
      id: i,
      price: i % 3 === 0 ? String((i * 7919) % 10_000) : (i * 7919) % 10_000,
      name: `Item ${i}`,
      seller: { city: i % 2 ? 'Oslo' : 'Bergen' },
    }));
    const { rows } = toTable(records);
    const order = sortedIndexes(rows, 'price');
    assert.equal(order.length, 10_000);
    for (let k = 1; k < order.length; k++) {
      assert.ok(Number(rows[order[k - 1]].price) <= Number(rows[order[k]].price), `at ${k}`);
    }
    assert.equal(rowFilter(rows, ['name', 'seller.city'])('oslo').length, 5_000);
  });
});
