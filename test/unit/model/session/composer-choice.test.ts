import assert from 'node:assert/strict';
import { ComposerChoice } from '../../../../src/model/session/composer-choice';

describe('Composer choice (mode and fast/think of a session)', () => {
  it('starts from the defaults it is given', () => {
    const c = new ComposerChoice({ mode: 'slides', effort: 'think' });
    assert.deepEqual(c.current, { mode: 'slides', effort: 'think' });
    assert.equal(c.mode, 'slides');
    assert.equal(c.effort, 'think');
  });

  it('keeps what the person chose, and says whether it changed', () => {
    const c = new ComposerChoice({ mode: 'auto', effort: 'fast' });
    assert.equal(c.choose('plan', 'fast'), true);
    assert.equal(c.choose('plan', 'fast'), false);
    assert.equal(c.choose('plan', 'think'), true);
    assert.deepEqual(c.current, { mode: 'plan', effort: 'think' });
  });

  it('gives a copy: changing it does not change the choice', () => {
    const defaults = { mode: 'auto', effort: 'fast' } as const;
    const c = new ComposerChoice({ ...defaults });
    const now = c.current;
    now.mode = 'code';
    assert.deepEqual(c.current, defaults);
  });

  it("gives a turn request its own mode and effort, else the composer's", () => {
    const c = new ComposerChoice({ mode: 'deepsearch', effort: 'think' });
    assert.deepEqual(c.for({}), { mode: 'deepsearch', effort: 'think' });
    assert.deepEqual(c.for({ mode: 'code' }), { mode: 'code', effort: 'think' });
    assert.deepEqual(c.for({ mode: 'code', effort: 'fast' }), { mode: 'code', effort: 'fast' });
  });
});
