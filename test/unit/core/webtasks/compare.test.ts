import assert from 'node:assert/strict';
import { canonicalJson, compareRuns, inferKeyField } from '../../../../src/core/webtasks/compare';

describe('webtask: comparing two runs', () => {
  it('keys by id when present and unique, and lists added, removed and changed', () => {
    const before = [
      { id: 1, title: 'a', price: 1 },
      { id: 2, title: 'b', price: 2 },
      { id: 3, title: 'c', price: 3 },
    ];
    const after = [
      { id: 2, title: 'b', price: 2 },
      { id: 3, title: 'C', price: 4 },
      { id: 4, title: 'd', price: 5 },
    ];
    const r = compareRuns(before, after);
    assert.equal(r.keyField, 'id');
    assert.equal(r.keySource, 'inferred');
    assert.deepEqual(r.added, [{ id: 4, title: 'd', price: 5 }]);
    assert.deepEqual(r.removed, [{ id: 1, title: 'a', price: 1 }]);
    assert.deepEqual(
      r.changed.map((c) => [c.key, c.fields]),
      [['3', ['title', 'price']]],
    );
    assert.equal(r.unchanged, 1);
  });

  it('prefers id, then url, then link, in any case', () => {
    const rows = [{ name: 'x', Link: 'l1', URL: 'u1' }];
    assert.equal(inferKeyField(rows, rows), 'URL');
    assert.equal(inferKeyField([{ name: 'x', Link: 'l' }], [{ name: 'y', Link: 'm' }]), 'Link');
  });

  it('skips a preferred field that repeats, for the first unique field', () => {
    const before = [
      { id: 1, sku: 'A', t: 'x' },
      { id: 1, sku: 'B', t: 'y' },
    ];
    assert.equal(inferKeyField(before, [{ id: 2, sku: 'A', t: 'x' }]), 'sku');
  });

  it('needs the key unique in both runs, present and scalar', () => {
    assert.equal(inferKeyField([{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 1 }]), undefined);
    assert.equal(inferKeyField([{ a: 1 }, {}], [{ a: 1 }]), undefined);
    assert.equal(inferKeyField([{ a: { x: 1 } }], [{ a: { x: 1 } }]), undefined);
    assert.equal(inferKeyField([{ a: '' }], [{ a: 'x' }]), undefined);
  });

  it('falls back to whole-record identity, where a change is a removal and an addition', () => {
    const before = [{ t: 'a' }, { t: 'a' }, { t: 'b' }];
    const after = [{ t: 'a' }, { t: 'c' }, { t: 'b' }];
    const r = compareRuns(before, after);
    assert.equal(r.keySource, 'record');
    assert.equal(r.keyField, undefined);
    assert.deepEqual(r.added, [{ t: 'c' }]);
    assert.deepEqual(r.removed, [{ t: 'a' }]);
    assert.deepEqual(r.changed, []);
    assert.equal(r.unchanged, 2);
  });

  it('ignores key order in whole-record identity', () => {
    const r = compareRuns(
      [
        { a: 1, b: { c: 2, d: 3 } },
        { a: 1, b: 1 },
      ],
      [
        { b: { d: 3, c: 2 }, a: 1 },
        { a: 1, b: 2 },
      ],
    );
    assert.equal(r.unchanged, 1);
    assert.equal(r.added.length, 1);
    assert.equal(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }), '{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('uses a given key, pairing duplicates in order', () => {
    const before = [
      { sku: 'A', n: 1 },
      { sku: 'A', n: 2 },
    ];
    const after = [
      { sku: 'A', n: 1 },
      { sku: 'A', n: 3 },
      { sku: 'A', n: 4 },
    ];
    const r = compareRuns(before, after, { keyField: 'sku' });
    assert.equal(r.keySource, 'given');
    assert.equal(r.unchanged, 1);
    assert.deepEqual(
      r.changed.map((c) => [c.key, c.before.n, c.after.n, c.fields]),
      [['A', 2, 3, ['n']]],
    );
    assert.deepEqual(r.added, [{ sku: 'A', n: 4 }]);
  });

  it('tells 1 from "1" as keys', () => {
    const r = compareRuns([{ id: 1, t: 'x' }], [{ id: '1', t: 'x' }], { keyField: 'id' });
    assert.equal(r.added.length, 1);
    assert.equal(r.removed.length, 1);
  });

  it('names changed nested fields by their flattened paths, including removed ones', () => {
    const r = compareRuns(
      [{ id: 'a', seller: { name: 'Ann', city: 'Oslo' }, tags: ['x'] }],
      [{ id: 'a', seller: { name: 'Ann', zip: 1 }, tags: ['x', 'y'] }],
    );
    assert.deepEqual(r.changed[0].fields, ['seller.zip', 'tags', 'seller.city']);
  });

  it('compares empty runs', () => {
    const r = compareRuns([], [{ id: 1 }]);
    assert.deepEqual(r.added, [{ id: 1 }]);
    assert.deepEqual(compareRuns([], []).added, []);
  });

  it('keeps the earlier run’s order for removed records', () => {
    const r = compareRuns([{ id: 3 }, { id: 1 }, { id: 2 }], [{ id: 1 }]);
    assert.deepEqual(r.removed, [{ id: 3 }, { id: 2 }]);
  });
});
