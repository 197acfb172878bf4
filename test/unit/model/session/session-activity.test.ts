import assert from 'node:assert/strict';
import type { Turn } from '../../../../src/core/transcript/model';
import { newTurn } from '../../../../src/core/transcript/reducer';
import { SessionActivity, type SessionActivityEvent } from '../../../../src/model/session/session-activity';

function rig() {
  const errors: unknown[] = [];
  const a = new SessionActivity((err) => errors.push(err));
  const events: SessionActivityEvent[] = [];
  a.onDidChange(({ event }) => events.push(event));
  const kinds = () => events.map((e) => (e.detail === undefined ? e.kind : `${e.kind}: ${e.detail}`));
  return { a, events, kinds, errors };
}

const turn = (id = 'm1', more: Partial<Turn> = {}): Turn => ({ ...newTurn(id, 0), ...more });

describe('session activity: turn lifecycle events', () => {
  it('started once, then completed once, with the session, turn and title', () => {
    const { a, events, kinds } = rig();
    const t = turn();
    a.seen('s1', 'Fix it', t);
    a.seen('s1', 'Fix it', t);
    t.status = 'completed';
    a.ended('s1', 'Fix it', t);
    a.ended('s1', 'Fix it', t);
    assert.deepEqual(kinds(), ['started', 'completed']);
    assert.deepEqual(events[1], {
      kind: 'completed',
      sessionId: 's1',
      agentMessageId: 'm1',
      title: 'Fix it',
    });
  });

  it('failed carries the error; stopped has no detail; an end seen first still starts', () => {
    const { a, kinds } = rig();
    a.ended('s', 'T', turn('m1', { status: 'error', error: { message: 'Sandbox died', code: 'x' } }));
    a.ended('s', 'T', turn('m2', { status: 'aborted', abortReason: 'user' }));
    assert.deepEqual(kinds(), ['started', 'failed: Sandbox died', 'started', 'stopped']);
  });

  it('needsInput once per request: again only when it asks anew, never after the end', () => {
    const { a, kinds } = rig();
    const t = turn();
    a.seen('s', 'T', { ...t, needsInput: 'Approve?' });
    a.seen('s', 'T', { ...t, needsInput: 'Approve?' });
    a.seen('s', 'T', t);
    a.seen('s', 'T', { ...t, needsInput: 'Approve?' });
    a.seen('s', 'T', { ...t, needsInput: 'Which one?' });
    a.ended('s', 'T', { ...t, status: 'completed' });
    a.seen('s', 'T', { ...t, needsInput: 'Late?' });
    assert.deepEqual(kinds(), [
      'started',
      'needsInput: Approve?',
      'needsInput: Approve?',
      'needsInput: Which one?',
      'completed',
    ]);
  });

  it('a listener that throws is reported and does not stop the others', () => {
    const { a, kinds, errors } = rig();
    a.onDidChange(() => {
      throw new Error('listener');
    });
    a.seen('s', 'T', turn());
    assert.deepEqual(kinds(), ['started']);
    assert.equal(errors.length, 1);
  });

  it('forgets the oldest ended turns, not running ones, past 500', () => {
    const { a, kinds } = rig();
    a.seen('s', 'T', turn('running'));
    for (let i = 0; i < 600; i++) a.ended('s', 'T', turn(`m${i}`, { status: 'completed' }));
    a.seen('s', 'T', turn('running'));
    a.ended('s', 'T', turn('m599', { status: 'completed' }));
    assert.equal(kinds().filter((k) => k === 'started').length, 601);
  });
});
