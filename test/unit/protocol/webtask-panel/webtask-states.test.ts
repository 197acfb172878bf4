import assert from 'node:assert/strict';
import { WEB_TASK_PHASES, type WebTaskPhase } from '../../../../src/protocol/webtask-panel/webtask-messages';
import { isLiveStatus, phaseOf, webTaskStates } from '../../../../src/protocol/webtask-panel/webtask-states';

/**
 * The one table of web task states (issue 22, point 6): each state has one name, and only a request
 * that still goes is live and offers Cancel.
 */
describe('web task states: the one table every surface reads', () => {
  const states = webTaskStates();
  // phase → name, live, Cancel offered
  const expected: [WebTaskPhase, string, boolean][] = [
    ['running', 'Running', true],
    ['needs-you', 'Waiting for you', true],
    ['needs-person', 'Needs a person', false],
    ['done', 'Done', false],
    ['failed', 'Failed', false],
    ['interrupted', 'Interrupted', false],
    ['error', 'Error', false],
    ['cancelled', 'Cancelled', false],
  ];

  it('covers every phase of the protocol, once', () => {
    assert.deepEqual(Object.keys(states).sort(), [...WEB_TASK_PHASES].sort());
    assert.deepEqual(expected.map(([p]) => p).sort(), [...WEB_TASK_PHASES].sort());
  });

  for (const [phase, name, live] of expected) {
    it(`${phase}: “${name}”, ${live ? 'live, with Cancel' : 'finished, no Cancel'}`, () => {
      const s = states[phase];
      assert.equal(s.name, name);
      assert.equal(s.live, live);
      assert.equal(s.actions.includes('cancel'), live);
      assert.ok(s.icon && s.color);
    });
  }

  it('gives each state its own name', () => {
    const names = Object.values(states).map((s) => s.name);
    assert.equal(new Set(names).size, names.length);
  });

  it('a final HUMAN_INTERACTION is finished, needs a person, and offers Watch Live but no Cancel', () => {
    const s = states[phaseOf('HUMAN_INTERACTION', false)];
    assert.equal(s.name, 'Needs a person');
    assert.equal(s.live, false);
    assert.equal(s.needsPerson, true);
    assert.deepEqual(s.actions, ['watchLive']);
  });

  it('a status with finishedAt is never live, whatever its phase says', () => {
    for (const phase of WEB_TASK_PHASES) assert.equal(isLiveStatus({ phase, finishedAt: 1 }), false);
    assert.equal(isLiveStatus({ phase: 'running' }), true);
    assert.equal(isLiveStatus({ phase: 'needs-you' }), true);
    assert.equal(isLiveStatus({ phase: 'needs-person' }), false);
  });
});
