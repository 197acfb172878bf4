import assert from 'node:assert/strict';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript } from './helpers';

describe('core/transcript: the reducer’s own words go through l10n.t', () => {
  afterEach(() => setL10nBundle(undefined));

  it('an error without words and a request without a question read the translated texts', () => {
    setL10nBundle(
      {
        'The agent reported an error.': '⟦Der Agent meldete einen Fehler.⟧',
        'Waiting for your answer.': '⟦Wartet auf Ihre Antwort.⟧',
      },
      'de',
    );
    const asked = liveTranscript();
    applyEvent(asked, AGENT, eventFactory()('input.request', {}));
    assert.equal(asked.turns[0].needsInput, '⟦Wartet auf Ihre Antwort.⟧');
    const failed = liveTranscript();
    applyEvent(failed, AGENT, eventFactory()('task.error', {}));
    assert.deepEqual(failed.turns[0].error, { message: '⟦Der Agent meldete einen Fehler.⟧' });
  });
});
