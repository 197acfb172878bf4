import assert from 'node:assert/strict';
import { DenError, MISSING_KEY, type DenErrorCode } from '../../../../src/core/client/errors';
import { errorFromResponse } from '../../../../src/core/client/http-errors';
import { upgradeError } from '../../../../src/core/stream/upgrade-error';
import { presentError } from '../../../../src/model/shared/error-text';

/** The DenError the client makes of a response with this status and JSON body. */
function fromResponse(status: number, body: unknown, operation = 'load sessions'): DenError {
  return errorFromResponse({ status, headers: {}, body: JSON.stringify(body) }, { operation });
}

const KEY = 'sk_live_secretSecret123';

describe('error presentation', () => {
  const cases: [DenErrorCode, Partial<ConstructorParameters<typeof DenError>[0]>, RegExp, string[]][] = [
    ['unauthorized', { status: 401 }, /rejected the API key\. Set a new key/, ['den.setApiKey']],
    ['forbidden', { status: 403 }, /no access/, []],
    ['not_found', { status: 404 }, /no longer exists/, []],
    ['rate_limited', { status: 429, retryAfter: 11.2 }, /rate limiting.*Retry in 12 s/, []],
    ['network', {}, /cannot be reached.*retries by itself/, ['den.configure', 'den.showLog']],
    ['timeout', {}, /did not answer in time/, ['den.showLog']],
    [
      'server',
      { status: 502, message: 'Bad gateway' },
      /the service had an error \(502\): Bad gateway\.$/,
      ['den.showLog'],
    ],
    ['protocol', { message: 'truncated body' }, /cannot read \(truncated body\)/, ['den.showLog']],
    [
      'config',
      { message: 'Sign in first (Den: Set API Key).', details: MISSING_KEY },
      /Sign in first/,
      ['den.setApiKey'],
    ],
    // What offers "Set API Key" is the missing-key detail, not a word of the (translated) text.
    ['config', { message: 'The key file is not readable.' }, /key file/, ['den.configure']],
    ['config', { message: 'No service URL is set.' }, /No service URL/, ['den.configure']],
  ];
  for (const [code, extra, text, commands] of cases) {
    it(`says what to do for ${code}${extra.status ? ` (${extra.status})` : ''}`, () => {
      const p = presentError(new DenError({ code, message: 'x', ...extra }), 'load sessions');
      assert.match(p.message, /^Den could not load sessions/);
      assert.match(p.message, text);
      assert.deepEqual(
        p.actions.map((a) => a.command),
        commands,
      );
    });
  }

  it('does not repeat the status when the message already names it', () => {
    const p = presentError(
      new DenError({ code: 'server', status: 500, message: 'Service error 500: database unavailable' }),
      'rename the session',
    );
    assert.equal(
      p.message,
      'Den could not rename the session: the service had an error (500): database unavailable.',
    );
  });

  it('never repeats the key, even when the server echoes it', () => {
    const err = new DenError({ code: 'server', status: 500, message: `bad key ${KEY} in ?token=${KEY}` });
    const p = presentError(err, 'load sessions', KEY);
    assert.ok(!p.message.includes(KEY), p.message);
  });

  it('presents a non-Den error as a network problem without a stack', () => {
    const p = presentError(new TypeError('fetch failed'), 'refresh');
    assert.match(p.message, /cannot be reached \(TypeError: fetch failed\)/);
    assert.ok(!p.message.includes('    at '));
  });

  it('calls a 5xx an error of the service, in its own words, never "cannot reach"', () => {
    const p = presentError(
      fromResponse(500, { error: 'internal', message: 'Database connection lost' }),
      'load sessions',
    );
    assert.equal(
      p.message,
      'Den could not load sessions: the service had an error (500): Database connection lost.',
    );
    assert.doesNotMatch(p.message, /reach/);
    const bare = presentError(fromResponse(503, {}), 'load sessions');
    assert.equal(bare.message, 'Den could not load sessions: the service had an error (503).');
  });

  it('without an action, says the last request failed rather than "could not reach"', () => {
    const p = presentError(fromResponse(502, { message: 'upstream timed out' }));
    assert.equal(p.message, "Den's last request failed: the service had an error (502): upstream timed out.");
    // Words that only name the status are not quoted after it (issue 22: "(500) (500)").
    const bare = presentError(fromResponse(502, { message: 'Bad gateway' }));
    assert.equal(bare.message, "Den's last request failed: the service had an error (502).");
  });

  it("shows the service's own message for a 403, e.g. that the key is read-only", () => {
    const p = presentError(
      fromResponse(403, { error: 'forbidden', message: 'This key is read-only' }, 'rename the session'),
      'rename the session',
    );
    assert.equal(
      p.message,
      'Den could not rename the session: the service refused (403): This key is read-only.',
    );
    const live = presentError(
      upgradeError(403, {}, '{"error":"forbidden","message":"This key cannot access this session."}', KEY),
      'follow the turn',
    );
    assert.equal(
      live.message,
      'Den could not follow the turn: the service refused (403): This key cannot access this session.',
    );
  });

  it('says a 403 without a message means the key has no access', () => {
    const p = presentError(fromResponse(403, { error: 'forbidden' }), 'rename the session');
    assert.equal(p.message, 'Den could not rename the session: this API key has no access to it (403).');
  });

  it('keeps when to try again apart from the summary, so a caller with its own schedule can say that', () => {
    const limited = presentError(
      new DenError({ code: 'rate_limited', status: 429, message: 'x', retryAfter: 45 }),
      'load sessions',
    );
    assert.equal(
      limited.summary,
      'Den could not load sessions: the service is rate limiting requests (429).',
    );
    assert.equal(limited.retryHint, 'Retry in 45 s.');
    assert.equal(limited.message, `${limited.summary} ${limited.retryHint}`);
    const offline = presentError(new DenError({ code: 'network', message: 'ECONNREFUSED' }), 'load sessions');
    assert.equal(offline.retryHint, 'Den retries by itself.');
    assert.doesNotMatch(offline.summary, /retries/);
    const failed = presentError(fromResponse(500, { message: 'Database connection lost' }), 'load sessions');
    assert.equal(failed.retryHint, undefined);
    assert.equal(failed.summary, failed.message);
  });
});
