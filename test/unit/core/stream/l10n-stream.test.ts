import assert from 'node:assert/strict';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { streamUrl } from '../../../../src/core/stream/stream-url';
import { upgradeError } from '../../../../src/core/stream/upgrade-error';

describe('core/stream: error texts go through l10n.t', () => {
  afterEach(() => setL10nBundle(undefined));

  it('a refused upgrade reads the translated lead, with the status and the server’s words', () => {
    setL10nBundle(
      {
        'This API key may not follow this session': '⟦Nicht erlaubt⟧',
        '{0} (HTTP {1}): {2}': '⟦{0} [{1}] {2}⟧',
        '{0} (HTTP {1})': '⟦{0} [{1}]⟧',
      },
      'de',
    );
    assert.equal(
      upgradeError(403, {}, '{"message":"nope"}', undefined).message,
      '⟦⟦Nicht erlaubt⟧ [403] nope⟧',
    );
    assert.equal(upgradeError(403, {}, '', undefined).message, '⟦⟦Nicht erlaubt⟧ [403]⟧');
  });

  it('a bad service URL says so in the translated words', () => {
    setL10nBundle({ 'The service URL must start with http:// or https:// (got {0})': '⟦Schema {0}⟧' }, 'de');
    assert.throws(
      () => streamUrl({ baseUrl: 'ftp://x', sessionId: 's', token: 't', messageId: 'm', cursor: '0' }),
      { message: '⟦Schema ftp:⟧' },
    );
  });

  it('without a bundle the English text is unchanged', () => {
    assert.equal(
      upgradeError(500, {}, '', undefined).message,
      'The service failed to open the live stream (HTTP 500)',
    );
  });
});
