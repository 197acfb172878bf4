import assert from 'node:assert/strict';
import { errorFromException } from '../../../../src/core/client/http-errors';
import { presentError } from '../../../../src/model/shared/error-text';
import { listProblemMessage, welcomeKeys } from '../../../../src/model/sessions-list/welcome-state';

const failure = (err: unknown) =>
  errorFromException(err, { operation: 'list sessions', origin: 'https://svc' });
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('proxy and certificate errors, as a person reads them', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'a proxy that wants credentials',
      coded(
        'Proxy refused the tunnel to svc:443: HTTP/1.1 407 Proxy Authentication Required',
        'DEN_PROXY_REFUSED',
      ),
      /^Den could not load sessions: The proxy wants credentials \(407 Proxy Authentication Required\): put them in the http\.proxy setting, as http:\/\/user:password@host:port\.$/,
    ],
    [
      'a proxy that drops the CONNECT',
      coded('Proxy closed the connection instead of opening a tunnel to svc:443', 'DEN_PROXY_CLOSED'),
      /^Den could not load sessions: The proxy closed the connection instead of connecting to the service: check the http\.proxy setting/,
    ],
    [
      'a self-signed certificate',
      coded('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
      /^Den could not load sessions: The service's certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): .* set http\.proxyStrictSSL to false to skip the check\.$/,
    ],
  ];
  for (const [what, err, words] of cases) {
    it(`${what}: says what to set, in the view's message rather than the "cannot reach" welcome`, () => {
      const e = failure(err);
      assert.equal(e.code, 'network');
      const p = presentError(e, 'load sessions');
      assert.match(p.message, words);
      assert.doesNotMatch(p.message, /cannot be reached|Check the URL/);
      assert.deepEqual(welcomeKeys(e), { 'den.authError': false, 'den.offline': false });
      assert.match(listProblemMessage({ error: e, retryInMs: 4_000 }) ?? '', /Retrying in 4 s\.$/);
    });
  }

  it('a refused connection is still "cannot reach", under the offline welcome', () => {
    const e = failure(coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'));
    assert.match(presentError(e, 'load sessions').message, /cannot be reached/);
    assert.equal(welcomeKeys(e)['den.offline'], true);
  });
});
