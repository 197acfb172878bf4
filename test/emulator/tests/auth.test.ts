import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../index';
import { call, startTurn, upgradeOutcome, wsUrl } from './helpers';

describe('emulator: authentication', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0 });
  });
  after(() => emu.close());

  const unauthorized: { name: string; key: string | null }[] = [
    { name: 'no key', key: null },
    { name: 'an unknown key', key: 'sk_live_doesnotexist000' },
  ];
  for (const c of unauthorized) {
    it(`answers 401 unauthorized with the Error object for ${c.name}`, async () => {
      const r = await call(emu, 'GET', '/sessions', undefined, c.key);
      assert.equal(r.status, 401);
      assert.equal(r.body.error, 'unauthorized');
      assert.equal(typeof r.body.message, 'string');
    });
  }

  it('lets the read-only key list and read but answers 403 forbidden on every write', async () => {
    const list = await call<{ sessions: { sessionId: string }[] }>(
      emu,
      'GET',
      '/sessions',
      undefined,
      emu.keys.readOnly,
    );
    assert.equal(list.status, 200);
    const id = list.body.sessions[0].sessionId;
    assert.equal((await call(emu, 'GET', `/sessions/${id}`, undefined, emu.keys.readOnly)).status, 200);
    const writes: [string, string, unknown][] = [
      ['POST', '/sessions/new', { session_id: id, task: 'x' }],
      ['PUT', `/sessions/${id}/title`, { title: 'x' }],
      ['DELETE', `/sessions/${id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const r = await call(emu, method, path, body, emu.keys.readOnly);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.error, 'forbidden');
    }
  });

  it("shows the second user only its own sessions and answers 403 on the primary user's", async () => {
    const mine = await call<{ sessions: { sessionId: string; title: string }[] }>(
      emu,
      'GET',
      '/sessions',
      undefined,
    );
    const theirs = await call<{ sessions: { sessionId: string; title: string }[] }>(
      emu,
      'GET',
      '/sessions',
      undefined,
      emu.keys.second,
    );
    const mineIds = new Set(mine.body.sessions.map((s) => s.sessionId));
    assert.ok(theirs.body.sessions.length >= 1);
    assert.ok(theirs.body.sessions.every((s) => !mineIds.has(s.sessionId)));
    const target = mine.body.sessions[0].sessionId;
    const touches: [string, string, unknown][] = [
      ['GET', `/sessions/${target}`, undefined],
      ['PUT', `/sessions/${target}/title`, { title: 'mine now' }],
      ['DELETE', `/sessions/${target}`, undefined],
      ['POST', '/sessions/new', { session_id: target, task: 'hijack' }],
    ];
    for (const [method, path, body] of touches) {
      const r = await call(emu, method, path, body, emu.keys.second);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.error, 'forbidden');
    }
  });

  it("answers 403 when the second user aborts the primary user's turn", async () => {
    const t = await startTurn(emu, 'slow coding task');
    const r = await call(emu, 'DELETE', `/message/${t.agentId}/abort`, undefined, emu.keys.second);
    assert.equal(r.status, 403);
    await call(emu, 'DELETE', `/message/${t.agentId}/abort`);
  });

  it('rejects a socket upgrade without a valid token with HTTP 401 and an Error-object body', async () => {
    const t = await startTurn(emu, 'quick task');
    for (const token of [undefined, 'sk_live_wrong000']) {
      const out = await upgradeOutcome(wsUrl(emu, t.sessionId, { token, message_id: t.agentId }));
      assert.equal(out.status, 401);
      assert.equal(JSON.parse(out.body).error, 'unauthorized');
    }
    const forbidden = await upgradeOutcome(
      wsUrl(emu, t.sessionId, { token: emu.keys.second, message_id: t.agentId }),
    );
    assert.equal(forbidden.status, 403);
    assert.equal(JSON.parse(forbidden.body).error, 'forbidden');
    const ok = await upgradeOutcome(
      wsUrl(emu, t.sessionId, { token: emu.keys.primary, message_id: t.agentId }),
    );
    assert.equal(ok.status, 101);
    await emu.turnEnded(t.sessionId, t.agentId);
  });

  it('authenticates /lam/run with the service-secret-key header, not Bearer', async () => {
    const body = JSON.stringify({ query: 'list products', app_url: 'https://shop.example' });
    const post = (headers: Record<string, string>) =>
      fetch(`${emu.url}/lam/run`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
    const bearerOnly = await post({ Authorization: `Bearer ${emu.keys.primary}` });
    assert.equal(bearerOnly.status, 401);
    assert.equal(((await bearerOnly.json()) as { error: string }).error, 'unauthorized');
    const ok = await post({ 'service-secret-key': emu.keys.primary });
    assert.equal(ok.status, 200);
    await ok.text();
  });

  it('sends X-Rate-Limit-Max-Concurrent on every response, errors included', async () => {
    const ok = await call(emu, 'GET', '/sessions');
    const denied = await call(emu, 'GET', '/sessions', undefined, null);
    assert.equal(ok.headers.get('x-rate-limit-max-concurrent'), '3');
    assert.equal(denied.headers.get('x-rate-limit-max-concurrent'), '3');
  });

  it('uses sk_live_ keys that differ per user', () => {
    const keys = Object.values(emu.keys);
    assert.equal(new Set(keys).size, 3);
    for (const k of keys) assert.match(k, /^sk_live_[A-Za-z0-9]+$/);
  });
});
