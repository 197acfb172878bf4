import assert from 'node:assert/strict';
import { KeptOutHunks, type KeptOutFile } from '../../../../src/model/apply/kept-out';
import { fakeMemento as storage } from '../../../support/memento';

const A: KeptOutFile = { sessionId: 's1', file: 'file:///w/src/a.ts\nsrc/a.ts', version: 'v1' };
const B: KeptOutFile = { sessionId: 's1', file: 'file:///w/src/b.ts\nsrc/b.ts', version: 'v1' };
const list = (s: ReadonlySet<number>): number[] => [...s].sort((x, y) => x - y);

describe('KeptOutHunks (the hunks a person kept out, per session, kept in the workspace state)', () => {
  it('keeps hunks out for that version of the file only, and says which were new', async () => {
    const kept = new KeptOutHunks(storage());
    const fired: string[] = [];
    kept.onDidChange((id) => fired.push(id));

    assert.deepEqual(await kept.add(A, [2, 0]), [2, 0]);
    assert.deepEqual(await kept.add(A, [0, 1]), [1]);
    assert.deepEqual(await kept.add(A, [1]), []);

    assert.deepEqual(list(kept.get(A)), [0, 1, 2]);
    assert.deepEqual(list(kept.get({ ...A, version: 'v2' })), []);
    assert.deepEqual(list(kept.get(B)), []);
    assert.deepEqual(list(kept.get({ ...A, sessionId: 's2' })), []);
    assert.deepEqual(fired, ['s1', 's1']);
  });

  it('survives a reload: a fresh store over the same storage (and reload()) reads the marks back', async () => {
    const store = storage();
    const kept = new KeptOutHunks(store);
    await kept.add(A, [1]);
    await kept.add(B, [0, 3]);

    assert.deepEqual(list(new KeptOutHunks(store).get(A)), [1]);
    assert.deepEqual(list(new KeptOutHunks(store).get(B)), [0, 3]);
    kept.reload();
    assert.deepEqual(list(kept.get(B)), [0, 3]);
  });

  it('removes hunks (accepted, or the reject undone); the last one removes the session', async () => {
    const store = storage();
    const kept = new KeptOutHunks(store);
    await kept.add(A, [0, 1]);

    assert.equal(await kept.remove(A, [1, 5]), true);
    assert.deepEqual(list(kept.get(A)), [0]);
    assert.equal(await kept.remove({ ...A, version: 'v2' }, [0]), false);
    assert.equal(await kept.remove(A, [0]), true);

    assert.deepEqual(list(new KeptOutHunks(store).get(A)), []);
    assert.deepEqual([...store.values], [['den.keptOutHunks.sessions', []]]);
  });

  it('drops the marks of an older version of the file at its next write: the agent changed it', async () => {
    const store = storage();
    const kept = new KeptOutHunks(store);
    await kept.add(A, [0, 1]);

    await kept.add({ ...A, version: 'v2' }, [4]);

    assert.deepEqual(list(kept.get(A)), []);
    assert.deepEqual(list(kept.get({ ...A, version: 'v2' })), [4]);
    assert.deepEqual(store.values.get('den.keptOutHunks.s1'), [[A.file, 'v2', [4]]]);
  });

  it('forgets a session (removed), or every session (reset), in memory and in the storage', async () => {
    const store = storage();
    const kept = new KeptOutHunks(store);
    await kept.add(A, [0]);
    await kept.add({ ...A, sessionId: 's2' }, [1]);
    await kept.add({ ...A, sessionId: 's3' }, [2]);
    const fired: string[] = [];
    kept.onDidChange((id) => fired.push(id));

    assert.equal(kept.has('s1'), true);
    await kept.forget('s1');
    assert.equal(kept.has('s1'), false);
    assert.equal(kept.has('s2'), true);
    assert.deepEqual(list(kept.get(A)), []);
    assert.deepEqual(list(new KeptOutHunks(store).get({ ...A, sessionId: 's2' })), [1]);
    assert.deepEqual(store.values.get('den.keptOutHunks.sessions'), ['s2', 's3']);
    await kept.forget('s1');
    assert.deepEqual(fired, ['s1']);

    await kept.forget();
    assert.deepEqual(list(kept.get({ ...A, sessionId: 's3' })), []);
    assert.deepEqual([...store.values], [['den.keptOutHunks.sessions', []]]);
    assert.deepEqual(fired.sort(), ['s1', 's2', 's3']);
  });

  it('is bounded: the sessions and files marked least recently go first, and hunks per file', async () => {
    const store = storage();
    const kept = new KeptOutHunks(store, { maxSessions: 2, maxFiles: 2, maxHunks: 3 });
    const C: KeptOutFile = { ...A, file: 'file:///w/c.ts\nc.ts' };
    await kept.add(A, [0]);
    await kept.add(B, [0]);
    await kept.add(A, [1]);
    await kept.add(C, [0, 1, 2, 3, 4]);

    // B was marked least recently; A's second mark made it more recent.
    assert.deepEqual(list(kept.get(B)), []);
    assert.deepEqual(list(kept.get(A)), [0, 1]);
    assert.deepEqual(list(kept.get(C)), [0, 1, 2]);

    await kept.add({ ...A, sessionId: 's2' }, [0]);
    await kept.add({ ...A, sessionId: 's3' }, [0]);
    assert.deepEqual(list(new KeptOutHunks(store).get(A)), []);
    assert.equal(store.values.has('den.keptOutHunks.s1'), false);
    assert.deepEqual(store.values.get('den.keptOutHunks.sessions'), ['s2', 's3']);
  });

  it('checks what it reads back: malformed entries, indices and indexes are left out, never a crash', () => {
    const good = [A.file, 'v1', [2, 2, -1, 1.5, '3', 0]];
    const store = storage({
      'den.keptOutHunks.sessions': ['s1', 7, 's1', 's-none', null],
      'den.keptOutHunks.s1': [
        good,
        'nonsense',
        [B.file, 'v1'],
        [B.file, 1, [0]],
        [42, 'v1', [0]],
        ['file:///w/empty.ts\nempty.ts', 'v1', ['x']],
        null,
      ],
      'den.keptOutHunks.s-none': { not: 'an array' },
    });
    const kept = new KeptOutHunks(store);

    assert.deepEqual(list(kept.get(A)), [0, 2]);
    assert.deepEqual(list(kept.get(B)), []);
    assert.deepEqual(list(kept.get({ ...A, sessionId: 's-none' })), []);
    assert.deepEqual(list(new KeptOutHunks(storage({ 'den.keptOutHunks.sessions': 'x' })).get(A)), []);
  });

  it('ignores indices that are not hunks when adding', async () => {
    const kept = new KeptOutHunks(storage());
    assert.deepEqual(await kept.add(A, [-1, 1.5, Number.NaN]), []);
    assert.deepEqual(list(kept.get(A)), []);
  });
});
