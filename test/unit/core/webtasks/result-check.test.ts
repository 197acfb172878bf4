import assert from 'node:assert/strict';
import { checkResult } from '../../../../src/core/webtasks/result-check';

const SCHEMA = { title: 'title', price: 'price', seller: { name: 'name', city: 'city' } };

const good = (i: number) => ({ title: `t${i}`, price: 10 + i, seller: { name: `s${i}`, city: 'Oslo' } });

describe('webtask: checking results against the schema', () => {
  it('counts every field ok for complete records, and flags nothing', () => {
    const r = checkResult([good(1), good(2)], SCHEMA);
    assert.equal(r.rows.length, 2);
    assert.deepEqual(r.totals, { ok: 8, missing: 0, null: 0, empty: 0, wrongShape: 0 });
    assert.deepEqual([...r.fields.keys()], ['title', 'price', 'seller.name', 'seller.city']);
    assert.equal(r.rowsWithIssues, 0);
    assert.deepEqual(r.issues, []);
    assert.equal(r.empty, undefined);
  });

  it('finds missing, null, empty and wrong-shape fields per row and field', () => {
    const rows = [
      { title: 't', price: null, seller: { name: '', city: 'x' } },
      { title: { text: 't' }, seller: 'Bob' },
      good(3),
    ];
    const r = checkResult(rows, SCHEMA);
    assert.deepEqual(r.issues, [
      { row: 0, field: 'price', kind: 'null' },
      { row: 0, field: 'seller.name', kind: 'empty' },
      { row: 1, field: 'title', kind: 'wrong-shape', expected: 'value', got: 'object' },
      { row: 1, field: 'price', kind: 'missing' },
      { row: 1, field: 'seller.name', kind: 'wrong-shape', expected: 'object', got: 'string' },
      { row: 1, field: 'seller.city', kind: 'wrong-shape', expected: 'object', got: 'string' },
    ]);
    assert.deepEqual(r.fields.get('price'), { ok: 1, missing: 1, null: 1, empty: 0, wrongShape: 0 });
    assert.deepEqual(r.totals, { ok: 6, missing: 1, null: 1, empty: 1, wrongShape: 3 });
    assert.equal(r.rowsWithIssues, 2);
  });

  it('makes every field under a missing or null object missing or null', () => {
    const r = checkResult(
      [
        { title: 'a', price: 1 },
        { title: 'b', price: 2, seller: null },
      ],
      SCHEMA,
    );
    assert.deepEqual(
      r.issues.map((i) => `${i.row}:${i.field}:${i.kind}`),
      ['0:seller.name:missing', '0:seller.city:missing', '1:seller.name:null', '1:seller.city:null'],
    );
  });

  it('accepts numbers, booleans and lists of scalars for a described field; an empty list is empty', () => {
    const r = checkResult(
      [
        { title: ['a', 'b'], price: true, seller: { name: 'n', city: 'c' } },
        { title: [], price: 0, seller: { name: 'n', city: 'c' } },
        { title: [{ a: 1 }], price: 1, seller: { name: 'n', city: 'c' } },
      ],
      SCHEMA,
    );
    assert.deepEqual(
      r.issues.map((i) => `${i.row}:${i.field}:${i.kind}:${i.got ?? ''}`),
      ['1:title:empty:', '2:title:wrong-shape:list of objects'],
    );
  });

  it('checks each item of a list of objects for a nested field; the worst item counts', () => {
    const schema = { reviews: { author: 'who', stars: 'stars' } };
    const r = checkResult(
      [
        {
          reviews: [
            { author: 'a', stars: 5 },
            { author: 'b', stars: 4 },
          ],
        },
        { reviews: [{ author: 'a', stars: 5 }, { author: null }] },
        { reviews: [] },
        { reviews: ['x'] },
      ],
      schema,
    );
    assert.deepEqual(
      r.issues.map((i) => `${i.row}:${i.field}:${i.kind}`),
      [
        '1:reviews.author:null',
        '1:reviews.stars:missing',
        '2:reviews.author:empty',
        '2:reviews.stars:empty',
        '3:reviews.author:wrong-shape',
        '3:reviews.stars:wrong-shape',
      ],
    );
  });

  it('flags an extraction with no rows', () => {
    const r = checkResult([], SCHEMA);
    assert.equal(r.empty, 'no-rows');
    assert.deepEqual(r.dataProblems, []);
  });

  it('flags an extraction whose every field is empty', () => {
    const r = checkResult([{ title: '', price: null }, { seller: {} }], SCHEMA);
    assert.equal(r.empty, 'all-empty');
    assert.equal(r.totals.ok, 0);
    assert.equal(r.rowsWithIssues, 2);
  });

  it('does not call a run with one real value empty', () => {
    const r = checkResult([{ title: '', price: 3 }], SCHEMA);
    assert.equal(r.empty, undefined);
  });

  it('reads one object as one record', () => {
    const r = checkResult(good(1), SCHEMA);
    assert.equal(r.rows.length, 1);
    assert.equal(r.totals.ok, 4);
  });

  it('reports data that is not records, and skips items that are not', () => {
    assert.deepEqual(checkResult('oops', SCHEMA).dataProblems, ['data is a string, not a list of records']);
    const r = checkResult([good(1), 3, null], SCHEMA);
    assert.equal(r.rows.length, 1);
    assert.deepEqual(r.dataProblems, [
      'item 1 is a number, not a record; skipped',
      'item 2 is a null, not a record; skipped',
    ]);
  });

  it('lists fields the schema does not name, without counting them as issues', () => {
    const r = checkResult(
      [
        { ...good(1), rating: 4 },
        { ...good(2), stock: 1, rating: 2 },
      ],
      SCHEMA,
    );
    assert.deepEqual(r.extraFields, ['rating', 'stock']);
    assert.equal(r.issues.length, 0);
  });

  it('bounds the issue list but keeps the counts exact', () => {
    const rows = Array.from({ length: 1000 }, () => ({}));
    const r = checkResult(rows, SCHEMA, { maxIssues: 10 });
    assert.equal(r.issues.length, 10);
    assert.equal(r.issuesTruncated, true);
    assert.equal(r.totals.missing, 4000);
  });

  it('does not read inherited properties as fields', () => {
    const r = checkResult([{ title: 't', price: 1, seller: { name: 'n', city: 'c' } }], {
      toString: 'x',
    } as never);
    assert.deepEqual(
      r.issues.map((i) => i.kind),
      ['missing'],
    );
  });
});
