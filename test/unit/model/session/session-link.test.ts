import assert from 'node:assert/strict';
import { parseSessionLink, sessionLink } from '../../../../src/model/session/session-link';

describe('session links', () => {
  it('builds the link from the scheme, the extension id and the session id', () => {
    assert.equal(sessionLink('vscode', 'den-dev.den', 'abc-123'), 'vscode://den-dev.den/session/abc-123');
    assert.equal(sessionLink('code-oss', 'p.den', 'a b'), 'code-oss://p.den/session/a%20b');
  });

  const ID = '3f2a9c1e-5b7d-4e0f-9a8b-0c1d2e3f4a5b';
  const good: [string, string][] = [
    [`/session/${ID}`, ID],
    [`/session/${ID}/`, ID],
    [`/session/${ID.toUpperCase()}`, ID.toUpperCase()],
    [`/session/%20${ID}%20`, ID],
  ];
  for (const [path, id] of good) {
    it(`reads ${path} as the session ${id}`, () =>
      assert.deepEqual(parseSessionLink(path), { sessionId: id }));
  }

  // Issue 22 (7): a malformed id was sent to the service and reported "no longer exists (404)".
  const bad: [string, RegExp][] = [
    ['/session', /names no session/],
    ['/session/', /names no session/],
    ['/sessions/abc', /not a session link/],
    ['/', /not a session link/],
    ['/session/a/b', /not a session link/],
    ['/session/%E0%A4%A', /malformed session ID/],
    ['/session/a%2Fb', /not a session link \(“a\/b” is not a session ID/],
    ['/session/<script>', /not a session link/],
    ['/session/abc', /^it is not a session link \(“abc” is not a session ID, which is a UUID\)\.$/],
    ['/session/3f2a-11', /not a session link/],
    ['/session/sess_01.x', /not a session link/],
    [`/session/${ID.replace(/-/g, '')}`, /not a session link/],
    [`/session/${ID}0`, /not a session link/],
    [`/session/${ID.slice(0, -1)}g`, /not a session link/],
    [`/session/${'x'.repeat(201)}`, /not a session link/],
  ];
  for (const [path, problem] of bad) {
    it(`refuses ${path.slice(0, 40)} with a reason`, () => {
      const r = parseSessionLink(path);
      assert.ok('problem' in r, JSON.stringify(r));
      assert.match(r.problem, problem);
    });
  }

  it('round-trips what it builds', () => {
    const link = new URL(sessionLink('vscode', 'p.den', ID));
    assert.deepEqual(parseSessionLink(link.pathname), { sessionId: ID });
  });
});
