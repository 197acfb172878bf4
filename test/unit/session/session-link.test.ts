import assert from 'node:assert/strict';
import { parseSessionLink, sessionLink } from '../../../src/session/session-link';

describe('session links', () => {
  it('builds the link from the scheme, the extension id and the session id', () => {
    assert.equal(sessionLink('vscode', 'den-dev.den', 'abc-123'), 'vscode://den-dev.den/session/abc-123');
    assert.equal(sessionLink('code-oss', 'p.den', 'a b'), 'code-oss://p.den/session/a%20b');
  });

  const good: [string, string][] = [
    ['/session/3f2a-11', '3f2a-11'],
    ['/session/3f2a-11/', '3f2a-11'],
    ['/session/sess_01.x', 'sess_01.x'],
    ['/session/%20abc%20', 'abc'],
  ];
  for (const [path, id] of good) {
    it(`reads ${path} as the session ${id}`, () =>
      assert.deepEqual(parseSessionLink(path), { sessionId: id }));
  }

  const bad: [string, RegExp][] = [
    ['/session', /names no session/],
    ['/session/', /names no session/],
    ['/sessions/abc', /not a session link/],
    ['/', /not a session link/],
    ['/session/a/b', /not a session link/],
    ['/session/%E0%A4%A', /malformed session ID/],
    ['/session/a%2Fb', /not a session ID/],
    ['/session/<script>', /not a session ID/],
    [`/session/${'x'.repeat(201)}`, /not a session ID/],
  ];
  for (const [path, problem] of bad) {
    it(`refuses ${path.slice(0, 40)} with a reason`, () => {
      const r = parseSessionLink(path);
      assert.ok('problem' in r, JSON.stringify(r));
      assert.match(r.problem, problem);
    });
  }

  it('round-trips what it builds', () => {
    const link = new URL(sessionLink('vscode', 'p.den', 'id-1'));
    assert.deepEqual(parseSessionLink(link.pathname), { sessionId: 'id-1' });
  });
});
