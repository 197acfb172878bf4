import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import { deserializeTranscript, serializeTranscript } from '../../../../src/core/transcript/serialize';
import { INPUT_REQUEST_KINDS } from '../../../../src/core/transcript/event-kinds';
import { eventFactory, type EventMaker } from '../../../support/events';
import { fold as foldAll } from './helpers';

/** Folds the events into a fresh live turn; returns it and the last event's change set. */
function fold(events: (e: EventMaker) => AgentEvent[]) {
  const { t, changes } = foldAll(events(eventFactory()));
  return { t, turn: t.turns[0], cs: changes[changes.length - 1] };
}

const ASK = (e: EventMaker) => e('plan.approval_request', { message: 'Approve the 3-step plan?' });

describe('transcript: the agent needs input', () => {
  for (const kind of INPUT_REQUEST_KINDS) {
    it(`${kind} sets what the agent asks, as turn info, with no block`, () => {
      const { turn, cs } = fold((e) => [
        e('task.phase', { phase: 'running' }),
        e(kind, { question: 'Go on?' }),
      ]);
      assert.equal(turn.needsInput, 'Go on?');
      assert.equal(turn.status, 'running');
      assert.equal(cs.turnInfoChanged, true);
      assert.deepEqual(turn.blocks, []);
    });
  }

  it('reads message, question, prompt, text or title, a string payload, else says it waits', () => {
    const read = (payload: unknown) => fold((e) => [e('input.request', payload)]).turn.needsInput;
    assert.equal(read({ prompt: 'Which database?' }), 'Which database?');
    assert.equal(read({ title: 'Plan ready' }), 'Plan ready');
    assert.equal(read('Pick one'), 'Pick one');
    assert.equal(read({}), 'Waiting for your answer.');
  });

  it('a repeated request with the same text changes nothing', () => {
    const { cs } = fold((e) => [ASK(e), ASK(e)]);
    assert.equal(cs.turnInfoChanged, false);
  });

  it('stays while the service reports its phase, files, context use (read or not) or unknown kinds', () => {
    const { turn } = fold((e) => [
      ASK(e),
      e('task.phase', { phase: 'running' }),
      e('sandbox.snapshot', { sandbox_id: 's', snapshot: {} }),
      e('context.usage', { used_tokens: 10, max_tokens: 100 }),
      e('context.usage', { used: 10 }),
      e('focus', { title: 'Waiting' }),
    ]);
    assert.equal(turn.contextUsage?.used, 10, 'the readable usage was read');
    assert.equal(turn.needsInput, 'Approve the 3-step plan?');
  });

  const movesOn: [string, (e: EventMaker) => AgentEvent][] = [
    ['the person answers (message.received)', (e) => e('message.received', { text: 'Yes' })],
    ['the agent writes', (e) => e('markdown.chunk', { delta: 'Going on' }, 'answer:main')],
    ['the agent runs a tool', (e) => e('tool.start', { tool_name: 'run' }, 'tool:run:1')],
    ['the turn completes', (e) => e('task.completed', {})],
    ['the turn is stopped', (e) => e('task.aborted', { reason: 'user' })],
    ['the turn fails', (e) => e('task.error', { message: 'boom' })],
  ];
  for (const [title, next] of movesOn) {
    it(`is cleared when ${title}`, () => {
      const { turn, cs } = fold((e) => [ASK(e), next(e)]);
      assert.equal(turn.needsInput, undefined);
      assert.ok(!('needsInput' in turn), 'the key is left behind');
      assert.equal(cs.turnInfoChanged, true);
    });
  }

  it('a request after the turn ended is ignored', () => {
    const { turn } = fold((e) => [e('task.completed', {}), ASK(e)]);
    assert.equal(turn.needsInput, undefined);
  });

  it('survives the cache round trip', () => {
    const { t } = fold((e) => [ASK(e)]);
    const back = deserializeTranscript(serializeTranscript(t));
    assert.equal(back?.turns[0].needsInput, 'Approve the 3-step plan?');
  });
});
