import assert from 'node:assert/strict';
import type { FileInfo, Message, SessionDetail } from '../../../../src/core/client/types';
import {
  changeTarget,
  countReviewed,
  markPath,
  ReviewMarks,
  snapshotTarget,
  turnFilesOf,
  unreviewed,
  type ReviewTarget,
} from '../../../../src/model/review/review-marks';
import {
  isMarked,
  marksByPath,
  reviewedCountText,
  reviewPath,
  reviewVersion,
} from '../../../../src/protocol/session-panel/reviewed';
import { fakeMemento } from '../../../support/memento';

const S = 'sess-1';

const storage = fakeMemento;

const at = (path: string, updatedAt: number, key = path): ReviewTarget => ({ path, key, updatedAt });

describe('ReviewMarks (which versions of the agent’s files a person marked reviewed)', () => {
  it('marks a version reviewed and says so only for that version: a newer one clears it', async () => {
    const marks = new ReviewMarks(storage());
    const fired: string[] = [];
    marks.onDidChange((id) => fired.push(id));

    assert.equal(await marks.set(S, [at('src/a.ts', 1)], true), true);

    assert.equal(marks.isReviewed(S, at('src/a.ts', 1)), true);
    // The agent changed the file in a later turn: the new version is not reviewed.
    assert.equal(marks.isReviewed(S, at('src/a.ts', 2)), false);
    assert.equal(marks.isReviewed(S, at('src/a.ts', 1, 'other-key')), false);
    assert.equal(marks.isReviewed(S, at('src/b.ts', 1)), false);
    assert.equal(marks.isReviewed('sess-2', at('src/a.ts', 1)), false);
    assert.deepEqual(fired, [S]);
  });

  it('toggles both ways, and a mark that is already so changes nothing', async () => {
    const marks = new ReviewMarks(storage());
    let fired = 0;
    marks.onDidChange(() => fired++);
    await marks.set(S, [at('a.ts', 1)], true);
    assert.equal(await marks.set(S, [at('a.ts', 1)], true), false);
    assert.equal(await marks.set(S, [at('a.ts', 1)], false), true);
    assert.equal(marks.isReviewed(S, at('a.ts', 1)), false);
    assert.equal(await marks.set(S, [at('a.ts', 1)], false), false);
    assert.equal(fired, 2);
    assert.deepEqual(marks.view(S), []);
  });

  it('keeps an earlier turn’s version reviewed beside a newer one', async () => {
    const marks = new ReviewMarks(storage());
    await marks.set(S, [at('a.ts', 1)], true);
    await marks.set(S, [at('a.ts', 2)], true);
    assert.ok(marks.isReviewed(S, at('a.ts', 1)) && marks.isReviewed(S, at('a.ts', 2)));
    await marks.set(S, [at('a.ts', 1)], false);
    assert.deepEqual(marks.view(S), [{ path: 'a.ts', versions: ['a.ts@2'] }]);
  });

  it('reads one path however a turn, the snapshot or a URI names it', async () => {
    const marks = new ReviewMarks(storage());
    await marks.set(S, [at('/workspace/src/a.ts', 5, 'k')], true);
    assert.ok(marks.isReviewed(S, at('workspace/src/a.ts', 5, 'k')));
    assert.ok(marks.isReviewed(S, at(`${S}/workspace/src/a.ts`, 5, 'k')), 'a storage key');
    assert.ok(marks.isReviewed(S, at('workspace//./src/a.ts', 5, 'k')));
    assert.equal(markPath(S, `/${S}/x/y.ts`), 'x/y.ts');
  });

  it('counts a deletion as its own version, apart from the content before it', async () => {
    const marks = new ReviewMarks(storage());
    await marks.set(S, [{ path: 'gone.ts', key: 'gone.ts', updatedAt: 3, deleted: true }], true);
    assert.ok(marks.isReviewed(S, { path: 'gone.ts', deleted: true }));
    assert.equal(marks.isReviewed(S, at('gone.ts', 3)), false);
  });

  it('survives a reload (a new instance over the same storage) and forgets a deleted session', async () => {
    const store = storage();
    const first = new ReviewMarks(store);
    await first.set(S, [at('a.ts', 1), at('b.ts', 2)], true);
    const second = new ReviewMarks(store);
    assert.ok(second.isReviewed(S, at('a.ts', 1)) && second.isReviewed(S, at('b.ts', 2)));
    await second.forget(S);
    assert.equal(new ReviewMarks(store).isReviewed(S, at('a.ts', 1)), false);
    assert.deepEqual([...store.values.keys()], ['den.reviewMarks.sessions']);
  });

  it('stays bounded: the least recently marked sessions, paths and versions go first', async () => {
    const store = storage();
    const marks = new ReviewMarks(store, { maxSessions: 3, maxPaths: 4, maxVersions: 2 });
    for (let i = 0; i < 5; i++) await marks.set(`s${i}`, [at('a.ts', 1)], true);
    assert.deepEqual(store.values.get('den.reviewMarks.sessions'), ['s2', 's3', 's4']);
    assert.equal(store.values.has('den.reviewMarks.s0'), false);
    assert.equal(new ReviewMarks(store).isReviewed('s0', at('a.ts', 1)), false);
    for (let i = 0; i < 6; i++) await marks.set('s4', [at(`f${i}.ts`, 1)], true);
    assert.deepEqual(
      marks.view('s4').map((v) => v.path),
      ['f2.ts', 'f3.ts', 'f4.ts', 'f5.ts'],
    );
    for (let v = 1; v <= 3; v++) await marks.set('s4', [at('f5.ts', v)], true);
    assert.deepEqual(marks.view('s4').find((v) => v.path === 'f5.ts')?.versions, ['f5.ts@2', 'f5.ts@3']);
  });

  it('reads malformed storage as no marks, never throwing', () => {
    const store = storage({
      'den.reviewMarks.sessions': [S, 42, S, null],
      [`den.reviewMarks.${S}`]: [['a.ts', ['a.ts@1', 7]], 'junk', [3, []], ['b.ts', 'x'], ['c.ts', []]],
    });
    const marks = new ReviewMarks(store);
    assert.ok(marks.isReviewed(S, at('a.ts', 1)));
    assert.deepEqual(marks.view(S), [{ path: 'a.ts', versions: ['a.ts@1'] }]);
    assert.deepEqual(new ReviewMarks(storage({ 'den.reviewMarks.sessions': 'x' })).view(S), []);
  });
});

describe('reviewed marks: counts and what is left', () => {
  const files = [at('a.ts', 1), at('b.ts', 1), at('c.ts', 1)];
  const marked = (f: ReviewTarget): boolean => f.path !== 'b.ts';

  it('counts and lists what is not reviewed, in order', () => {
    assert.deepEqual(countReviewed(files, marked), { reviewed: 2, total: 3 });
    assert.deepEqual(unreviewed(files, marked), [files[1]]);
    assert.deepEqual(
      unreviewed(files, () => true),
      [],
    );
    assert.equal(reviewedCountText(2, 3), '2 of 3 reviewed');
  });

  it('matches as the webview does, from the marks the host sends', () => {
    const map = marksByPath([{ path: '/src/a.ts', versions: [reviewVersion({ key: 'k', updatedAt: 9 })] }]);
    assert.ok(isMarked(map, 'src/a.ts', { key: 'k', updatedAt: 9 }));
    assert.equal(isMarked(map, 'src/a.ts', { key: 'k' }), false);
    assert.equal(reviewPath('\\src\\.\\a.ts'), 'src/a.ts');
  });
});

describe('turnFilesOf (each turn’s changed files, as marks name them)', () => {
  const snapshot = (updated: Record<string, number>, deleted: string[] = []) => ({
    kind: 'sandbox.snapshot',
    payload: {
      snapshot: Object.fromEntries(
        Object.entries(updated).map(([p, t]) => [p, { key: p, name: p, updatedAt: t }]),
      ),
      deleted,
    },
  });
  function detail(): SessionDetail {
    const user = (id: string, content: string): Message =>
      ({ id, sessionId: S, type: 'user', content, createdAt: 1 }) as Message;
    const agent = (id: string, events: { kind: string; payload: Record<string, unknown> }[]): Message =>
      ({
        id,
        sessionId: S,
        type: 'agent',
        content: '',
        createdAt: 2,
        events: events.map((e, i) => ({ event_id: i + 1, timestamp: 2, ...e })),
      }) as unknown as Message;
    const file: FileInfo = { key: 'a.ts', name: 'a.ts', size: 1, updatedAt: 20 };
    return {
      session: { sessionId: S, title: 't', fileSnapshot: { 'a.ts': file } },
      messages: [
        user('u1', 'one'),
        agent('a1', [snapshot({ 'a.ts': 10, 'b.ts': 10 })]),
        user('u2', 'two'),
        agent('a2', [snapshot({ 'a.ts': 20 }, ['b.ts'])]),
      ],
    } as unknown as SessionDetail;
  }

  it('gives each turn its own versions, by user and agent message id, once per history', () => {
    const d = detail();
    const byTurn = turnFilesOf(d);
    assert.deepEqual(byTurn.get('u1'), [at('a.ts', 10), at('b.ts', 10)]);
    assert.deepEqual(byTurn.get('a2'), [at('a.ts', 20), { ...at('b.ts', 10), deleted: true }]);
    assert.equal(turnFilesOf(d), byTurn);
    assert.deepEqual(snapshotTarget(S, 'a.ts', d.session.fileSnapshot['a.ts']), at('a.ts', 20));
    assert.deepEqual(changeTarget({ path: 'x', change: 'added', key: 'k', name: 'x' }), {
      path: 'x',
      key: 'k',
    });
  });
});
