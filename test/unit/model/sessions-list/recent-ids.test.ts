import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { RecentIds, type IdStorage } from '../../../../src/model/sessions-list/recent-ids';

/** A `Memento`-like store that counts writes; what it holds is measured as the JSON VS Code writes. */
function storage(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  let writes = 0;
  const store: IdStorage & { bytes(): number; writes(): number } = {
    get: (k) => structuredClone(values.get(k)),
    update: async (k, v) => {
      writes++;
      values.set(k, v);
    },
    bytes: () => Buffer.byteLength(JSON.stringify(Object.fromEntries(values))),
    writes: () => writes,
  };
  return store;
}

describe('RecentIds (the bounded local memory of session ids)', () => {
  it('stays under 100 KB with both stores full after 100,000 recorded ids, keeping the most recent', async () => {
    const store = storage();
    const local = new RecentIds(store, 'den.sessions.workspace');
    const archived = new RecentIds(store, 'den.sessions.archived');
    const ids = Array.from({ length: 100_000 }, () => randomUUID());
    for (const id of ids) await local.add(id);
    for (const id of ids) await archived.add(id);
    assert.ok(store.bytes() <= 100 * 1024, `${store.bytes()} bytes stored`);
    assert.equal(local.size, 1000);
    assert.deepEqual(local.list(), ids.slice(-1000).reverse());
    assert.ok(local.has(ids[ids.length - 1]) && !local.has(ids[0]));
    // Read back by a new window: the same ids, newest first.
    assert.deepEqual(new RecentIds(store, 'den.sessions.workspace').list(), local.list());
  });

  it('bounds by characters too, so long ids cannot grow it past its share', async () => {
    const store = storage();
    const ids = new RecentIds(store, 'k', 1000, 2_000);
    for (let i = 0; i < 500; i++) await ids.add(`${String(i).padStart(4, '0')}-${'x'.repeat(95)}`);
    assert.ok(store.bytes() <= 2_000, `${store.bytes()} bytes stored`);
    assert.equal(ids.list()[0], `0499-${'x'.repeat(95)}`);
    assert.equal(await ids.add('y'.repeat(129)), false, 'an over-long id is recorded');
  });

  it('moves an id added again to the front, deletes, and writes only on a change', async () => {
    const store = storage();
    const ids = new RecentIds(store, 'k');
    await ids.add('a');
    await ids.add('b');
    assert.equal(await ids.add('b'), false);
    await ids.add('a');
    assert.deepEqual(ids.list(), ['a', 'b']);
    assert.equal(store.writes(), 3);
    assert.equal(await ids.delete('b'), true);
    assert.equal(await ids.delete('b'), false);
    assert.deepEqual(store.get('k'), ['a']);
    // After deleting the newest, the next newest counts as such.
    await ids.add('c');
    await ids.delete('c');
    assert.equal(await ids.add('a'), false);
  });

  it('reads a stored list tolerantly and within its bounds', () => {
    const store = storage({ k: ['n1', 7, 'n2', null, 'n1', 'n3'] });
    assert.deepEqual(new RecentIds(store, 'k', 2).list(), ['n1', 'n2']);
    assert.deepEqual(new RecentIds(storage({ k: 'junk' }), 'k').list(), []);
  });
});
