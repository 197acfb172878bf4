import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { errorOutcome, failureHint } from '../../../../src/model/webtasks/run-words';

/** A pseudo bundle: a few of the runner's messages, marked so a translated text is told apart. */
const PSEUDO: Record<string, string> = {
  'Cancelled.': '⟦Cancelled.⟧',
  'The service rejected the API key (401){0}.': '⟦401{0}: rejected⟧',
  'Sign in again or check the API key: Den: Set API Key.': '⟦Sign in again⟧',
  'Wait {0} s, then run it again.': '⟦{0} s⟧',
  'The service failed ({0}){1}.': '⟦failed {0}{1}⟧',
  'The web task could not run: {0}': '⟦could not run: {0}⟧',
  'Check the app URL opens in a browser, then run again.': '⟦Check the app URL⟧',
};

const STREAMED = { stream: true };

describe('web task words through l10n.t', () => {
  beforeEach(() => setL10nBundle(PSEUDO, 'de'));
  afterEach(() => setL10nBundle(undefined));

  it('translates the outcome of a request error, with the args in place', () => {
    assert.deepEqual(
      errorOutcome(new DenError({ code: 'unauthorized', message: 'no', serverMessage: 'bad key' }), STREAMED),
      { taskStatus: 'ERROR', message: '⟦401 (bad key): rejected⟧', hint: '⟦Sign in again⟧' },
    );
    assert.deepEqual(errorOutcome(new DenError({ code: 'aborted', message: 'x' }), STREAMED), {
      taskStatus: 'CANCELLED',
      message: '⟦Cancelled.⟧',
    });
    assert.equal(errorOutcome(new Error('boom'), STREAMED).message, '⟦could not run: boom⟧');
  });

  it('fills a translated message with a status and a wait', () => {
    const busy = errorOutcome(
      new DenError({ code: 'rate_limited', message: 'x', retryAfter: 2.5 }),
      STREAMED,
    );
    assert.equal(busy.hint, '⟦3 s⟧');
    const failed = errorOutcome(new DenError({ code: 'server', message: 'x', status: 503 }), STREAMED);
    assert.equal(failed.message, '⟦failed 503⟧');
  });

  it('translates the hint after a FAILURE, and falls back to English when the bundle lacks one', () => {
    assert.equal(failureHint('page did not load (502)'), '⟦Check the app URL⟧');
    assert.match(failureHint('CAPTCHA shown'), /^The site showed a CAPTCHA/);
  });

  it('gives the English texts without a bundle', () => {
    setL10nBundle(undefined);
    assert.equal(
      errorOutcome(new DenError({ code: 'aborted', message: 'x' }), STREAMED).message,
      'Cancelled.',
    );
  });
});
