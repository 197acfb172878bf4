import assert from 'node:assert/strict';
import { turnSnapshot } from '../../../../src/editor/api/snapshot';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import type { Turn } from '../../../../src/core/transcript/model';

const stopped: Turn = {
  userMessage: { id: 'u1', text: 'do it', files: [], createdAt: 0 },
  agentMessageId: 'a1',
  status: 'aborted',
  blocks: [],
  files: [],
  lastEventId: 1,
};

describe('API snapshots in another language', () => {
  afterEach(() => setL10nBundle(undefined));

  it('says a stopped turn without a reason with the bundle, and in English without one', () => {
    assert.equal(turnSnapshot('s1', stopped).error, 'Stopped.');
    setL10nBundle({ 'Stopped.': '⟦Angehalten.⟧' }, 'de');
    assert.equal(turnSnapshot('s1', stopped).error, '⟦Angehalten.⟧');
    assert.equal(
      turnSnapshot('s1', { ...stopped, abortReason: 'the agent gave up' }).error,
      'the agent gave up',
    );
  });
});
