import assert from 'node:assert/strict';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { errorFromException, errorFromResponse } from '../../../../src/core/client/http-errors';
import { expectObject } from '../../../../src/core/client/readers';
import { normalizeSessionDetail } from '../../../../src/core/client/normalize';

describe('core/client: error texts go through l10n.t', () => {
  afterEach(() => setL10nBundle(undefined));

  it('a non-2xx answer reads the translated lead, with the status and the operation in place', () => {
    setL10nBundle(
      {
        'Request rejected ({0}) while trying to {1}': '⟦{1}: abgelehnt ({0})⟧',
        'API key rejected ({0}): set a new key': '⟦Schlüssel abgelehnt ({0})⟧',
      },
      'de',
    );
    const ctx = { operation: 'list sessions' };
    assert.equal(
      errorFromResponse({ status: 400, headers: {}, body: '' }, ctx).message,
      '⟦list sessions: abgelehnt (400)⟧',
    );
    assert.equal(
      errorFromResponse({ status: 401, headers: {}, body: '' }, ctx).message,
      '⟦Schlüssel abgelehnt (401)⟧',
    );
  });

  it('a failed connection reads the translated sentence and network words', () => {
    setL10nBundle(
      {
        'Cannot reach the service at {0} to {1}: {2}': '⟦{0} / {1} / {2}⟧',
        'connection refused': '⟦verweigert⟧',
        'Cancelled: {0}': '⟦Abgebrochen: {0}⟧',
      },
      'de',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const e = errorFromException(refused, { operation: 'open session 7', origin: 'https://den.example' });
    assert.equal(e.message, '⟦https://den.example / open session 7 / ⟦verweigert⟧⟧');
    assert.equal(
      errorFromException(new Error('x'), { operation: 'x', aborted: true }).message,
      '⟦Abgebrochen: x⟧',
    );
  });

  it('a response of the wrong shape says so in the translated words', () => {
    setL10nBundle(
      {
        'Unexpected response from the service ({0}): {1}': '⟦({0}) {1}⟧',
        'expected an object, got {0}': '⟦kein Objekt: {0}⟧',
        'an array': '⟦eine Liste⟧',
        'session detail': '⟦Sitzung⟧',
      },
      'de',
    );
    assert.throws(() => expectObject([], 'thing'), { message: '⟦(thing) ⟦kein Objekt: ⟦eine Liste⟧⟧⟧' });
    assert.throws(() => normalizeSessionDetail([]), { message: '⟦(⟦Sitzung⟧) ⟦kein Objekt: ⟦eine Liste⟧⟧⟧' });
  });

  it('without a bundle the English text is unchanged', () => {
    const e = errorFromResponse({ status: 400, headers: {}, body: '' }, { operation: 'list sessions' });
    assert.equal(e.message, 'Request rejected (400) while trying to list sessions');
  });
});
