/**
 * Which workspace files are copies of agents' files (issue 24, comments "in the workspace file"):
 * the index path → sessions, the most-recent rule, what snapshots teach and take away, the bounds,
 * and the stored copy read back through its schema.
 */
import assert from 'node:assert/strict';
import type { FileInfo } from '../../../../src/core/client/types';
import {
  COUNTERPARTS_KEY,
  Counterparts,
  type CounterpartOptions,
} from '../../../../src/model/review/counterparts';
import { FakeClock } from '../shared/fake-clock';
import { memoryStorage } from '../shared/memory-storage';

const storage = memoryStorage;

const file = (name: string, over: Partial<FileInfo> = {}): FileInfo => ({
  key: name,
  name,
  size: 1,
  ...over,
});

describe('Counterparts (workspace files that are copies of agents’ files)', () => {
  let now = 1_000;
  let clock: FakeClock;
  const make = (store = storage(), options: CounterpartOptions = {}) =>
    new Counterparts(store, { now: () => now, clock, ...options });

  beforeEach(() => {
    now = 1_000;
    clock = new FakeClock();
  });

  it('maps an agent’s names to workspace paths as Apply does; an unsafe name takes no place', () => {
    const c = make();
    c.learn('s1', [
      { path: 'workspace/src/a.ts', name: '/workspace/src/a.ts' },
      { path: 'src/b.ts' },
      { path: 'evil', name: '../../etc/passwd' },
    ]);
    assert.deepEqual(c.at('src/a.ts'), { sessionId: 's1', path: 'workspace/src/a.ts', others: [] });
    assert.deepEqual(c.at('src/b.ts'), { sessionId: 's1', path: 'src/b.ts', others: [] });
    assert.equal(c.at('etc/passwd'), undefined);
    assert.equal(c.at('src/c.ts'), undefined);
    assert.deepEqual(c.size, { sessions: 1, files: 2 });
    // A session with nothing a workspace could hold is not kept.
    c.learn('s2', [{ path: 'x', name: '../x' }]);
    assert.equal(c.has('s2'), false);
  });

  it('gives a path shared by several sessions to the most recently active, naming the others', () => {
    const c = make();
    c.learn('old', [{ path: 'src/a.ts' }], { activeAt: 100 });
    c.learn('new', [{ path: 'src/a.ts' }], { activeAt: 200 });
    c.learn('mid', [{ path: 'src/a.ts' }], { activeAt: 150 });
    assert.deepEqual(c.at('src/a.ts'), { sessionId: 'new', path: 'src/a.ts', others: ['mid', 'old'] });

    // A review of `old` just now makes it the most recent; activity never moves back.
    now = 300;
    c.note('old', 'src/a.ts', 'src/a.ts');
    assert.equal(c.at('src/a.ts')?.sessionId, 'old');
    c.learn('old', [{ path: 'src/a.ts' }], { activeAt: 50 });
    assert.equal(c.at('src/a.ts')?.sessionId, 'old');

    // Equal activity: the one learned last.
    const t = make();
    t.learn('x', [{ path: 'a' }], { activeAt: 5 });
    t.learn('y', [{ path: 'a' }], { activeAt: 5 });
    assert.equal(t.at('a')?.sessionId, 'y');
  });

  it('learns stored and live snapshots; only a live deletion takes a file away', () => {
    const c = make();
    const changes: number[] = [];
    c.onDidChange(() => changes.push(1));
    c.learnUpdate('s1', {
      kind: 'stored',
      files: { 's1/src/a.ts': file('/workspace/src/a.ts'), 'src/b.ts': file('src/b.ts') },
    });
    assert.equal(c.at('src/a.ts')?.path, 'src/a.ts');
    assert.equal(c.at('src/b.ts')?.path, 'src/b.ts');
    // A stored snapshot without a file does not delete it.
    c.learnUpdate('s1', { kind: 'stored', files: {} });
    assert.ok(c.at('src/b.ts'));
    c.learnUpdate('s1', {
      kind: 'changes',
      updated: { 'src/c.ts': file('src/c.ts') },
      deleted: ['src/b.ts'],
    });
    assert.equal(c.at('src/b.ts'), undefined);
    assert.equal(c.at('src/c.ts')?.sessionId, 's1');
    // Fired when paths came or went, not for activity alone.
    assert.equal(changes.length, 2);
    c.learn('s1', [{ path: 'src/c.ts' }]);
    assert.equal(changes.length, 2);
  });

  it('learns a listed session again only when it is listed newer (or renamed)', () => {
    const c = make();
    const listed = {
      sessionId: 's1',
      updatedAt: 10,
      title: 'Parser',
      fileSnapshot: { 'src/a.ts': file('src/a.ts') },
    };
    c.learnListed(listed);
    assert.equal(c.titleOf('s1'), 'Parser');
    c.remove('s1', ['src/a.ts']);
    c.learnListed(listed);
    assert.equal(c.at('src/a.ts'), undefined, 'the same listing was learned again');
    c.learnListed({ ...listed, updatedAt: 11 });
    assert.equal(c.at('src/a.ts')?.sessionId, 's1');
    c.learnListed({ ...listed, updatedAt: 11, title: 'Parser v2' });
    assert.equal(c.titleOf('s1'), 'Parser v2');
  });

  it('keeps its bounds: the least recently active sessions go first, then a session’s oldest paths', () => {
    const c = make(storage(), { maxSessions: 2, maxFilesPerSession: 3, maxFiles: 4 });
    c.learn('a', [{ path: 'a1' }], { activeAt: 1 });
    c.learn('b', [{ path: 'b1' }], { activeAt: 3 });
    c.learn('c', [{ path: 'c1' }], { activeAt: 2 });
    // Two sessions at most: `a`, the least active, went.
    assert.equal(c.has('a'), false);
    assert.deepEqual([c.has('b'), c.has('c')], [true, true]);
    // Three paths per session: the first learned go.
    c.learn(
      'b',
      ['b2', 'b3', 'b4'].map((path) => ({ path })),
      { activeAt: 3 },
    );
    assert.equal(c.at('b1'), undefined);
    assert.ok(c.at('b4'));
    // Four files in all: the least active session makes room (here `c`).
    assert.deepEqual(c.size, { sessions: 2, files: 4 });
    c.learn('d', [{ path: 'd1' }], { activeAt: 4 });
    assert.deepEqual([c.has('b'), c.has('c'), c.has('d')], [true, false, true]);
    // A session learned as less active than all that are kept is not kept.
    c.learn('e', [{ path: 'e1' }], { activeAt: 0 });
    assert.equal(c.has('e'), false);
    assert.ok(c.size.files <= 4);
  });

  it('is written once changes settle, and read back after a reload', async () => {
    const store = storage();
    const c = make(store);
    c.learn('s1', [{ path: 'workspace/src/a.ts', name: '/workspace/src/a.ts' }, { path: 'src/b.ts' }], {
      activeAt: 5,
      title: 'Parser',
    });
    c.learn('s2', [{ path: 'src/b.ts' }], { activeAt: 9 });
    assert.equal(store.writes(), 0);
    clock.advance(1_000);
    await Promise.resolve();
    assert.equal(store.writes(), 1);
    assert.deepEqual(store.values.get(COUNTERPARTS_KEY), {
      v: 1,
      sessions: [
        { id: 's1', activeAt: 5, title: 'Parser', files: [['workspace/src/a.ts', 'src/a.ts'], 'src/b.ts'] },
        { id: 's2', activeAt: 9, files: ['src/b.ts'] },
      ],
    });
    // Nothing changed: nothing written.
    await c.flush();
    assert.equal(store.writes(), 1);

    const again = make(store);
    assert.deepEqual(again.at('src/a.ts'), { sessionId: 's1', path: 'workspace/src/a.ts', others: [] });
    assert.deepEqual(again.at('src/b.ts'), { sessionId: 's2', path: 'src/b.ts', others: ['s1'] });
    assert.equal(again.titleOf('s1'), 'Parser');
    // Forgetting a session (deleted) is written too.
    again.forget('s2');
    await again.flush();
    assert.deepEqual(make(store).at('src/b.ts')?.sessionId, 's1');
  });

  it('reads a stored copy through its schema: what is malformed is left out, never a crash', () => {
    const bad = (value: unknown) => make(storage({ [COUNTERPARTS_KEY]: value }));
    for (const v of [undefined, null, 42, 'x', [], { v: 2, sessions: [] }, { v: 1, sessions: 'no' }]) {
      assert.deepEqual(bad(v).size, { sessions: 0, files: 0 }, JSON.stringify(v));
    }
    const c = bad({
      v: 1,
      sessions: [
        null,
        { id: '', activeAt: 1, files: ['src/a.ts'] },
        { id: 'x'.repeat(200), activeAt: 1, files: ['src/a.ts'] },
        { id: 'no-time', files: ['src/a.ts'] },
        { id: 'ok', activeAt: 1, title: 7, files: ['src/a.ts'] },
        {
          id: 'good',
          activeAt: 2,
          files: ['src/ok.ts', ['src/agent.ts', 'src/ws.ts'], ['one'], 7, '../up.ts', '/abs.ts', 'a/./b', ''],
        },
      ],
    });
    assert.deepEqual(c.size, { sessions: 1, files: 2 });
    assert.deepEqual(c.at('src/ok.ts')?.sessionId, 'good');
    assert.deepEqual(c.at('src/ws.ts')?.path, 'src/agent.ts');
    // Bounds hold for what is read back too.
    const many = {
      v: 1,
      sessions: Array.from({ length: 5 }, (_, i) => ({ id: `s${i}`, activeAt: i, files: [`f${i}`] })),
    };
    const bounded = make(storage({ [COUNTERPARTS_KEY]: many }), { maxSessions: 2 });
    assert.deepEqual(bounded.size, { sessions: 2, files: 2 });
    assert.equal(bounded.at('f4')?.sessionId, 's4');
    assert.equal(bounded.at('f0'), undefined);
  });

  it('forgets every session at once (sign-out, tests)', async () => {
    const store = storage();
    const c = make(store);
    c.learn('s1', [{ path: 'a' }]);
    c.forget();
    await c.flush();
    assert.equal(c.at('a'), undefined);
    assert.deepEqual(store.values.get(COUNTERPARTS_KEY), { v: 1, sessions: [] });
  });
});
