import assert from 'node:assert/strict';
import { answerText, toAnswer } from '../../../../src/core/transcript/answers';
import { eventFactory } from '../../../support/events';
import { fold } from './helpers';

describe('answers to a turn that waits: the documented text shapes', () => {
  it('says approve, reject (with or without why), revise and reply in stable words', () => {
    assert.equal(answerText({ kind: 'approve' }), 'Approved. Go on with the plan.');
    assert.equal(answerText({ kind: 'reject' }), 'Rejected. Do not carry out this plan.');
    assert.equal(
      answerText({ kind: 'reject', text: ' too risky ' }),
      'Rejected. Do not carry out this plan. Why: too risky',
    );
    assert.equal(answerText({ kind: 'revise', text: 'use a map\n' }), 'Revise the plan: use a map');
    assert.equal(answerText({ kind: 'reply', text: '  parser-v2 ' }), 'parser-v2');
  });

  it('builds an answer from the webview’s parts: a reply or revision needs words, approve and reject do not', () => {
    assert.deepEqual(toAnswer('approve', 'ignored'), { kind: 'approve' });
    assert.deepEqual(toAnswer('reject', ' '), { kind: 'reject' });
    assert.deepEqual(toAnswer('reject', 'why'), { kind: 'reject', text: 'why' });
    assert.equal(toAnswer('reply', '  '), undefined);
    assert.equal(toAnswer('revise', undefined), undefined);
    assert.deepEqual(toAnswer('revise', ' x '), { kind: 'revise', text: 'x' });
  });
});

describe('how a waiting turn is answered (Turn.asks)', () => {
  const e = eventFactory();
  for (const [kind, asks] of [
    ['plan.approval_request', 'approval'],
    ['approval.request', 'approval'],
    ['input.request', 'reply'],
  ] as const) {
    it(`${kind}: ${asks}, cleared with the question when the answer arrives`, () => {
      const { t } = fold([e('task.phase', { phase: 'running' }), e(kind, { question: 'Go on?' })]);
      assert.equal(t.turns[0].asks, asks);
      const after = fold([
        e('task.phase', { phase: 'running' }),
        e(kind, { question: 'Go on?' }),
        e('message.received', { text: 'yes' }),
      ]).t.turns[0];
      assert.equal(after.needsInput, undefined);
      assert.equal(after.asks, undefined);
    });
  }

  it('a question after a plan request turns the way of answering to a reply, same text or not', () => {
    const { t, changes } = fold([
      e('plan.approval_request', { message: 'Go on?' }),
      e('input.request', { question: 'Go on?' }),
    ]);
    assert.equal(t.turns[0].asks, 'reply');
    assert.equal(changes[1].turnInfoChanged, true);
  });
});
