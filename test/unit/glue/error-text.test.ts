import assert from 'node:assert/strict';
import { DenError, type DenErrorCode } from '../../../src/core/api/errors';
import { presentError } from '../../../src/ui/error-text';

const KEY = 'sk_live_secretSecret123';

describe('error presentation', () => {
  const cases: [DenErrorCode, Partial<ConstructorParameters<typeof DenError>[0]>, RegExp, string[]][] = [
    ['unauthorized', { status: 401 }, /rejected the API key\. Set a new key/, ['den.setApiKey']],
    ['forbidden', { status: 403 }, /no access/, []],
    ['not_found', { status: 404 }, /no longer exists/, []],
    ['rate_limited', { status: 429, retryAfter: 11.2 }, /rate limiting.*Retry in 12 s/, []],
    ['network', {}, /cannot be reached.*retries by itself/, ['den.configure', 'den.showLog']],
    ['timeout', {}, /did not answer in time/, ['den.showLog']],
    ['server', { status: 502, message: 'Bad gateway' }, /failed \(502\): Bad gateway/, ['den.showLog']],
    ['protocol', { message: 'truncated body' }, /cannot read \(truncated body\)/, ['den.showLog']],
    ['config', { message: 'Sign in first (Den: Set API Key).' }, /Sign in first/, ['den.setApiKey']],
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
    assert.equal(p.message, 'Den could not rename the session: Service error 500: database unavailable');
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
});
