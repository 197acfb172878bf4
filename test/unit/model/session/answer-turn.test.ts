/**
 * Answering a turn that waits for the person (issue 24, "Answer the agent where it asks"): the
 * answer goes over the waiting turn's own socket, the same turn goes on, and no turn is queued
 * behind it; against the emulator, which models the waiting turn and the answers it expects.
 */
import assert from 'node:assert/strict';
import type { Turn } from '../../../../src/core/transcript/model';
import type { SendOutcome } from '../../../../src/protocol/session-panel/messages';
import { sessionHandlers, type SessionMessageTarget } from '../../../../src/model/session/session-messages';
import { waitFor } from '../../../support/wait';
import { lastTurn, useHostRigs, type HostRig } from './host-rig';

const storedTurns = async (r: HostRig): Promise<number> =>
  (await r.client.getSession(r.host.sessionId)).messages.filter((m) => m.type === 'agent').length;

// the answers the turn received (its first message block is its own task)
const messagesOf = (t: Turn): string[] =>
  t.blocks.flatMap((b) => (b.type === 'message' ? [b.text] : [])).slice(1);

async function waiting(r: HostRig, asked: string): Promise<Turn> {
  await waitFor(
    'the turn to ask',
    () => lastTurn(r).needsInput === asked && r.host.waitingTurn() !== undefined,
  );
  return lastTurn(r);
}

async function ended(r: HostRig, t: Turn): Promise<void> {
  await waitFor('the turn to end', () => t.status === 'completed' && !r.host.busy);
}

describe('answering a turn that waits for the person (emulator)', function () {
  this.timeout(20_000);
  const rigs = useHostRigs();

  it('Approve from the panel: the same turn carries the plan out; nothing is queued behind it', async () => {
    const r = rigs.rig();
    await r.host.handle({ type: 'ready', lastSeq: null });
    await r.host.handle({ type: 'send', text: 'approve my plan', mode: 'plan', effort: 'fast' });
    const t = await waiting(r, 'Approve the plan to go on.');
    assert.equal(t.asks, 'approval');
    await waitFor('the panel to show the question', () => r.mirror.turns.at(-1)?.asks === 'approval');
    await r.host.handle({ type: 'answer', turnId: t.agentMessageId, kind: 'approve', sendId: 'a-1' });
    await waitFor('the result', () => r.mirror.sendResults.length > 0);
    assert.deepEqual(r.mirror.sendResults, [{ sendId: 'a-1', outcome: 'answered' }]);
    await ended(r, t);
    assert.equal(r.host.transcript.turns.length, 1, 'a turn was queued behind the waiting one');
    assert.equal(await storedTurns(r), 1);
    assert.deepEqual(messagesOf(t), ['Approved. Go on with the plan.']);
    assert.equal(t.needsInput, undefined);
    assert.ok(
      t.files.some((f) => f.path === 'CHANGE.md'),
      'the approved plan wrote nothing',
    );
    assert.deepEqual(
      t.plan?.todos.map((x) => x.status),
      ['completed'],
    );
  });

  it('Revise… asks again with the revised plan; Reject then ends it with nothing changed', async () => {
    const r = rigs.rig();
    await r.host.handle({ type: 'send', text: 'approve my plan', mode: 'plan', effort: 'fast' });
    const t = await waiting(r, 'Approve the plan to go on.');
    await r.host.handle({ type: 'answer', turnId: t.agentMessageId, kind: 'revise', text: 'use a map' });
    await waiting(r, 'Approve the revised plan to go on.');
    assert.deepEqual(
      t.plan?.todos.map((x) => x.content),
      ['Make the change (Revise the plan: use a map)', 'Check the result'],
    );
    await r.host.handle({ type: 'answer', turnId: t.agentMessageId, kind: 'reject', text: 'too risky' });
    await ended(r, t);
    assert.deepEqual(messagesOf(t), [
      'Revise the plan: use a map',
      'Rejected. Do not carry out this plan. Why: too risky',
    ]);
    assert.deepEqual(t.files, []);
    assert.equal(await storedTurns(r), 1);
  });

  it('what the person types into the composer while a question waits is its answer (answered, not started)', async () => {
    const r = rigs.rig();
    await r.host.handle({ type: 'ready', lastSeq: null });
    await r.host.handle({ type: 'send', text: 'ask me a name', mode: 'code', effort: 'fast' });
    const t = await waiting(r, 'Which name should the new module have?');
    assert.equal(t.asks, 'reply');
    await r.host.handle({ type: 'send', text: '  parser-v2 ', mode: 'code', effort: 'fast', sendId: 's-1' });
    await waitFor('the result', () => r.mirror.sendResults.length > 0);
    assert.deepEqual(r.mirror.sendResults, [{ sendId: 's-1', outcome: 'answered' }]);
    await ended(r, t);
    assert.deepEqual(messagesOf(t), ['parser-v2']);
    assert.equal(r.host.transcript.turns.length, 1);
    assert.equal(await storedTurns(r), 1);
    const answer = t.blocks.flatMap((b) => (b.type === 'markdown' ? [b.text] : [])).join('');
    assert.match(answer, /Going on with \*\*parser-v2\*\*/);
  });

  it('a turn that no longer waits is not answered: the answer is refused, and a send starts a turn', async () => {
    const r = rigs.rig();
    await r.host.handle({ type: 'ready', lastSeq: null });
    await r.host.handle({ type: 'send', text: 'hello', mode: 'code', effort: 'fast' });
    const t = lastTurn(r);
    await ended(r, t);
    await r.host.handle({ type: 'answer', turnId: t.agentMessageId, kind: 'approve', sendId: 'a-1' });
    await waitFor('the result', () => r.mirror.sendResults.length > 0);
    assert.deepEqual(r.mirror.sendResults, [{ sendId: 'a-1', outcome: 'refused' }]);
    assert.equal(await storedTurns(r), 1);
    assert.equal(r.host.waitingTurn(), undefined);
  });
});

describe('the answer handlers', () => {
  const turn = { agentMessageId: 'm-1', needsInput: 'Go on?' } as Turn;
  function target(outcome: 'sent' | 'notWaiting' | 'unsent', waits = true) {
    const calls: string[] = [];
    const settled: [string, SendOutcome][] = [];
    const t = {
      view: { settleSend: (id: string, o: SendOutcome) => settled.push([id, o]), heldText: undefined },
      turns: {
        waitingTurn: () => (waits ? turn : undefined),
        answer: (id: string, a: { kind: string; text?: string }) => {
          calls.push(`answer ${id} ${a.kind} ${a.text ?? ''}`.trim());
          return outcome;
        },
        send: (text: string) => {
          calls.push(`send ${text}`);
          return Promise.resolve(true);
        },
      },
    } as unknown as SessionMessageTarget;
    return { handlers: sessionHandlers(t), calls, settled };
  }

  for (const [outcome, result] of [
    ['sent', 'answered'],
    ['unsent', 'refused'],
    ['notWaiting', 'refused'],
  ] as const) {
    it(`an answer that was ${outcome} settles its send as ${result}`, async () => {
      const { handlers, calls, settled } = target(outcome);
      await handlers.answer({ type: 'answer', turnId: 'm-1', kind: 'reply', text: ' yes ', sendId: 'x' });
      assert.deepEqual(calls, ['answer m-1 reply yes']);
      assert.deepEqual(settled, [['x', result]]);
    });
  }

  it('an empty reply or revision sends nothing and is refused; Approve needs no text', async () => {
    const { handlers, calls, settled } = target('sent');
    await handlers.answer({ type: 'answer', turnId: 'm-1', kind: 'reply', text: '  ', sendId: 'a' });
    await handlers.answer({ type: 'answer', turnId: 'm-1', kind: 'revise', sendId: 'b' });
    await handlers.answer({ type: 'answer', turnId: 'm-1', kind: 'approve', sendId: 'c' });
    assert.deepEqual(calls, ['answer m-1 approve']);
    assert.deepEqual(settled, [
      ['a', 'refused'],
      ['b', 'refused'],
      ['c', 'answered'],
    ]);
  });

  it('a composer send answers the waiting turn, unless it continues a turn or nothing waits', async () => {
    const waiting = target('sent');
    await waiting.handlers.send({ type: 'send', text: 'yes', mode: 'code', effort: 'fast', sendId: 's' });
    await waiting.handlers.send({
      type: 'send',
      text: 'more',
      mode: 'code',
      effort: 'fast',
      continueTurnId: 'm-0',
    });
    assert.deepEqual(waiting.calls, ['answer m-1 reply yes', 'send more']);
    assert.deepEqual(waiting.settled, [['s', 'answered']]);
    const idle = target('sent', false);
    await idle.handlers.send({ type: 'send', text: 'new task', mode: 'code', effort: 'fast', sendId: 's' });
    assert.deepEqual(idle.calls, ['send new task']);
    assert.deepEqual(idle.settled, [['s', 'started']]);
  });
});
