import assert from 'node:assert/strict';
import {
  composerAttempts,
  followUpTarget,
  groupedFinish,
  groupFinishedText,
} from '../../../../src/model/attempts/attempt-routing';
import type { Attempt, AttemptGroup } from '../../../../src/model/attempts/attempt-store';

const group = (attempts: Attempt[], chosen?: string): AttemptGroup => ({
  id: 'g',
  task: 'Write a varied parser\nwith tests',
  mode: 'code',
  effort: 'fast',
  createdAt: 1,
  attempts,
  ...(chosen ? { chosen } : {}),
});

describe('attempt routing (the composer’s count, follow-ups, grouped notifications)', () => {
  it('takes 1–4 attempts from a composer, 2–4 only before the session’s first turn, and says why not', () => {
    assert.deepEqual(composerAttempts(undefined, true), { attempts: 1 });
    assert.deepEqual(composerAttempts(1, true), { attempts: 1 });
    for (const n of [2, 3, 4]) assert.deepEqual(composerAttempts(n, false), { attempts: n });
    for (const bad of [0, 5, -1, 2.5, Number.NaN, '3', null, {}]) {
      const r = composerAttempts(bad, false);
      assert.ok('error' in r, JSON.stringify(bad));
      assert.match(r.error, /whole number from 1 to 4/);
    }
    const inSession = composerAttempts(3, true);
    assert.ok('error' in inSession);
    assert.match(inSession.error, /new session/);
  });

  it('offers a follow-up typed in another attempt to the chosen one, and nothing else', () => {
    const attempts: Attempt[] = [
      { sessionId: 'a', state: 'completed' },
      { sessionId: 'b', state: 'completed' },
      { sessionId: 'c', state: 'completed' },
    ];
    assert.deepEqual(followUpTarget(group(attempts, 'c'), 'a'), { sessionId: 'c', number: 3 });
    assert.equal(followUpTarget(group(attempts, 'c'), 'c'), undefined, 'the chosen one itself');
    assert.equal(followUpTarget(group(attempts), 'a'), undefined, 'none chosen yet');
    assert.equal(followUpTarget(group(attempts, 'c'), 'zzz'), undefined, 'not an attempt');
    assert.equal(followUpTarget(undefined, 'a'), undefined);
  });

  it('holds each attempt’s finish until the group’s last, then notifies the group once', () => {
    const g = (states: Attempt['state'][]): AttemptGroup =>
      group(states.map((state, i) => ({ sessionId: `s${i}`, agentMessageId: `m${i}`, state })));
    assert.deepEqual(groupedFinish(g(['running', 'running', 'running']), 's0', 'm0', false), {
      kind: 'held',
    });
    assert.deepEqual(groupedFinish(g(['completed', 'running', 'running']), 's1', 'm1', false), {
      kind: 'held',
    });
    // The last to end: the store may or may not have recorded its own end yet.
    assert.deepEqual(groupedFinish(g(['completed', 'error', 'running']), 's2', 'm2', false), {
      kind: 'group',
      attempts: 3,
      failed: 1,
    });
    assert.deepEqual(groupedFinish(g(['completed', 'completed', 'completed']), 's2', 'm2', true), {
      kind: 'group',
      attempts: 3,
      failed: 1,
    });
    // A later turn of an attempt (the chosen one's follow-up), or no attempt at all: alone.
    assert.deepEqual(groupedFinish(g(['completed', 'completed']), 's1', 'later', false), { kind: 'alone' });
    assert.deepEqual(groupedFinish(undefined, 's1', 'm1', false), { kind: 'alone' });
    // Before its turn id is recorded, a finish is the attempt's.
    const fresh = group([
      { sessionId: 'x', state: 'starting' },
      { sessionId: 'y', state: 'completed' },
    ]);
    assert.deepEqual(groupedFinish(fresh, 'x', 'm', false), { kind: 'group', attempts: 2, failed: 0 });
  });

  it('words the group’s notification with its task’s first line and what failed', () => {
    assert.equal(
      groupFinishedText('Write a varied parser\nmore', 3, 0),
      'Den: 3 attempts of “Write a varied parser” finished',
    );
    assert.match(groupFinishedText('x', 2, 1), /2 attempts of “x” finished \(1 did not complete\)/);
  });
});
