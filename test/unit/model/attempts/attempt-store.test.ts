import assert from 'node:assert/strict';
import {
  ATTEMPTS_KEY,
  AttemptStore,
  MAX_ANSWER_CHARS,
  readGroups,
  type AttemptStorage,
  type NewAttemptGroup,
} from '../../../../src/model/attempts/attempt-store';

function storage(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  const store: AttemptStorage & { raw(): unknown } = {
    get: (k) => structuredClone(values.get(k)),
    update: async (k, v) => {
      values.set(k, structuredClone(v));
    },
    raw: () => values.get(ATTEMPTS_KEY),
  };
  return store;
}

const group = (id: string, createdAt: number, sessionIds = [`${id}-1`, `${id}-2`]): NewAttemptGroup => ({
  id,
  task: 'Write a varied parser',
  mode: 'code',
  effort: 'fast',
  createdAt,
  sessionIds,
});

describe('AttemptStore (groups of attempts in workspaceState)', () => {
  it('adds a group with its attempts starting, finds a session’s group and place, and persists', async () => {
    const s = storage();
    const store = new AttemptStore(s);
    let fired = 0;
    store.onDidChange(() => fired++);
    await store.add(group('g1', 10, ['a', 'b', 'c']));
    assert.equal(fired, 1);
    assert.deepEqual(
      store.get('g1')?.attempts.map((a) => [a.sessionId, a.state]),
      [
        ['a', 'starting'],
        ['b', 'starting'],
        ['c', 'starting'],
      ],
    );
    assert.equal(store.groupOf('c')?.index, 2);
    assert.equal(store.groupOf('zzz'), undefined);
    // A new store over the same storage reads the same groups.
    assert.deepEqual(new AttemptStore(s).groups(), store.groups());
  });

  it('records states, keeps an ended state from going back, bounds answers, and marks the chosen one', async () => {
    const store = new AttemptStore(storage());
    await store.add(group('g1', 10, ['a', 'b']));
    assert.equal(await store.update('a', { state: 'running', agentMessageId: 'm1' }), true);
    assert.equal(await store.update('a', { state: 'running' }), false, 'nothing changed');
    assert.equal(
      await store.update('a', { state: 'completed', endedAt: 99, answer: 'x'.repeat(5000) }),
      true,
    );
    assert.equal(await store.update('a', { state: 'running' }), false, 'an ended attempt stays ended');
    assert.equal(await store.update('nope', { state: 'running' }), false);
    const a = store.get('g1')!.attempts[0];
    assert.equal(a.state, 'completed');
    assert.equal(a.agentMessageId, 'm1');
    assert.equal(a.answer?.length, MAX_ANSWER_CHARS);
    assert.equal(await store.choose('b'), true);
    assert.equal(store.get('g1')?.chosen, 'b');
    assert.equal(await store.choose('nope'), false);
    await store.remove('g1');
    assert.equal(store.groups().length, 0);
  });

  it('keeps at most the bound, newest first, and a session in one group only', async () => {
    const store = new AttemptStore(storage(), 3);
    for (let i = 0; i < 5; i++) await store.add(group(`g${i}`, i));
    assert.deepEqual(
      store.groups().map((g) => g.id),
      ['g4', 'g3', 'g2'],
    );
    await store.add(group('again', 9, ['g3-1', 'new']));
    assert.deepEqual(
      store.groups().map((g) => g.id),
      ['again', 'g4', 'g2'],
    );
  });

  it('refuses a group of no sessions or too many', async () => {
    const store = new AttemptStore(storage());
    await assert.rejects(store.add(group('g', 1, [])), RangeError);
    await assert.rejects(store.add(group('g', 1, ['a', 'b', 'c', 'd', 'e'])), RangeError);
  });

  it('drops stored values of another shape on read, never trusting them', () => {
    const good = {
      id: 'g1',
      task: 't',
      mode: 'code',
      effort: 'fast',
      createdAt: 1,
      attempts: [{ sessionId: 'a', state: 'completed' }],
    };
    const read = readGroups([
      good,
      { ...good, id: 'g2', mode: 'rm -rf' },
      { ...good, id: 'g3', attempts: [{ sessionId: 'b', state: 'exploded' }] },
      { ...good, id: 'g4', chosen: 'not-an-attempt', attempts: [{ sessionId: 'c', state: 'running' }] },
      { ...good, id: 'g5', attempts: [] },
      { ...good, id: 'g6', attempts: [{ sessionId: 'a', state: 'running' }] },
      'junk',
      null,
    ]);
    assert.deepEqual(
      read.map((g) => g.id),
      ['g1'],
    );
    assert.deepEqual(readGroups({ not: 'an array' }), []);
    assert.equal(new AttemptStore(storage({ [ATTEMPTS_KEY]: 42 })).groups().length, 0);
  });
});
