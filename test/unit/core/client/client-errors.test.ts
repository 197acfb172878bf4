import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ApiClient } from '../../../../src/core/client/client';
import { startEmulator, type Emulator } from '../../../emulator';
import { waitFor } from '../../../support/wait';
import { FakeClock } from '../../model/shared/fake-clock';
import { capturingLogger, clientFor, countingDispatcher, newSessionId, rejectsWith } from './helpers';

describe('ApiClient error paths', () => {
  let emu: Emulator;
  let env: ReturnType<typeof clientFor>;

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0 });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.faults = {};
    env = clientFor(emu);
  });
  afterEach(() => env.close());

  async function primarySessionId(): Promise<string> {
    return (await env.client.listSessions({ limit: 1 })).sessions[0].sessionId;
  }

  it('fails with config before any network call when no key is set', async () => {
    for (const key of [undefined, '', '   ']) {
      const local = clientFor(emu, { apiKey: () => key });
      try {
        const err = await rejectsWith(local.client.listSessions(), 'config');
        assert.match(err.message, /No API key is set/);
        await rejectsWith(local.client.lamRun({ query: 'q', appUrl: 'https://a.example' }), 'config');
        assert.equal(local.counter.requests.length, 0);
      } finally {
        await local.close();
      }
    }
  });

  it('refuses to build a client without a base URL', () => {
    assert.throws(() => new ApiClient({ baseUrl: ' ', apiKey: () => 'k' }), /No service URL/);
  });

  it('maps a rejected key to unauthorized with an actionable message, without retrying', async () => {
    const local = clientFor(emu, { apiKey: () => 'sk_live_notAKnownKey123' });
    try {
      const err = await rejectsWith(local.client.listSessions(), 'unauthorized');
      assert.equal(err.status, 401);
      assert.equal(err.serverError, 'unauthorized');
      assert.match(err.message, /^API key rejected \(401\): set a new key/);
      assert.equal(local.counter.requests.length, 1);
    } finally {
      await local.close();
    }
  });

  it('maps every write with the read-only key to forbidden, while reads work', async () => {
    const ro = clientFor(emu, { apiKey: () => emu.keys.readOnly });
    try {
      const id = (await ro.client.listSessions({ limit: 1 })).sessions[0].sessionId;
      await ro.client.getSession(id);
      const writes: [string, Promise<unknown>][] = [
        ['startTurn', ro.client.startTurn({ sessionId: newSessionId(), task: 'nope' })],
        ['renameSession', ro.client.renameSession(id, 'nope')],
        ['deleteSession', ro.client.deleteSession(id)],
        ['abortMessage', ro.client.abortMessage('m-1')],
        [
          'upload',
          ro.client.upload({
            key: 'k/x.txt',
            filename: 'x.txt',
            contentType: 'text/plain',
            size: 2,
            body: Readable.from([Buffer.from('hi')]),
          }),
        ],
      ];
      for (const [name, call] of writes) {
        const err = await rejectsWith(call, 'forbidden');
        assert.equal(err.status, 403, name);
        assert.match(err.message, /^Not allowed \(403\)/, name);
      }
    } finally {
      await ro.close();
    }
  });

  it("maps another user's session to forbidden for the second key", async () => {
    const id = await primarySessionId();
    const second = clientFor(emu, { apiKey: () => emu.keys.second });
    try {
      const read = await rejectsWith(second.client.getSession(id), 'forbidden');
      assert.match(read.message, new RegExp(`may not open session ${id}`));
      await rejectsWith(second.client.renameSession(id, 'mine now'), 'forbidden');
      await rejectsWith(second.client.deleteSession(id), 'forbidden');
      const own = await second.client.listSessions();
      assert.ok(!own.sessions.some((s) => s.sessionId === id), 'the second user lists only its own');
    } finally {
      await second.close();
    }
  });

  it('maps an unknown session to not_found without retrying', async () => {
    const err = await rejectsWith(env.client.getSession('no-such-session'), 'not_found');
    assert.equal(err.status, 404);
    assert.match(err.message, /^Session no-such-session does not exist or was deleted \(404\)/);
    assert.equal(env.counter.requests.length, 1);
    await rejectsWith(env.client.abortMessage('no-such-message'), 'not_found');
  });

  it('surfaces a 429 whose retry-after is too long, with the wait in the message', async () => {
    emu.failNext({
      method: 'GET',
      path: '^/sessions$',
      status: 429,
      headers: { 'X-Rate-Limit-Retry-After': '120' },
    });
    const err = await rejectsWith(env.client.listSessions(), 'rate_limited');
    assert.equal(err.retryAfter, 120);
    assert.match(err.message, /^Rate limited: retry in 120 s/);
    assert.equal(env.counter.requests.length, 1);
  });

  it('waits out a short 429 retry-after on a GET and succeeds', async () => {
    emu.failNext({
      method: 'GET',
      path: '^/sessions$',
      status: 429,
      headers: { 'X-Rate-Limit-Retry-After': '0.05' },
    });
    const logger = capturingLogger();
    const own = clientFor(emu, { logger });
    try {
      const page = await own.client.listSessions({ limit: 1 });
      assert.equal(page.sessions.length, 1);
      // the wait it chose is the retry-after, not its own (1–5 ms) backoff
      assert.ok(
        logger.lines.some((l) => /retry 1\/3 in 50 ms$/.test(l)),
        logger.lines.join('\n'),
      );
      assert.equal(own.counter.count('GET', /^\/sessions$/), 2);
    } finally {
      await own.close();
    }
  });

  it('maps the concurrency limit on turn starts to rate_limited and never retries the start', async () => {
    const limited = await startEmulator({ eventDelayMs: 0, maxConcurrent: 1 });
    const local = clientFor(limited);
    try {
      const a = await local.client.startTurn({ sessionId: newSessionId(), task: 'slow one' });
      const err = await rejectsWith(
        local.client.startTurn({ sessionId: newSessionId(), task: 'slow two' }),
        'rate_limited',
      );
      assert.ok((err.retryAfter ?? 0) > 0);
      assert.match(err.message, /^Rate limited: retry in \d+ s/);
      assert.equal(local.counter.count('POST', /^\/sessions\/new$/), 2);
      assert.equal(local.client.rateLimit.maxConcurrent, 1);
      await local.client.abortMessage(a.agentMessageId);
    } finally {
      await local.close();
      await limited.close();
    }
  });

  it('retries a GET on 500 and succeeds, counting the attempts', async () => {
    emu.failNext({ method: 'GET', path: '^/sessions$', status: 500, times: 2 });
    const page = await env.client.listSessions({ limit: 2 });
    assert.equal(page.sessions.length, 2);
    assert.equal(env.counter.count('GET', /^\/sessions$/), 3);
  });

  it('gives up after the configured retries with the last server error', async () => {
    emu.failNext({ method: 'GET', path: '^/sessions/gives-up$', status: 503, times: 10 });
    const err = await rejectsWith(env.client.getSession('gives-up'), 'server');
    assert.equal(err.status, 503);
    assert.equal(env.counter.count('GET', /^\/sessions\/gives-up$/), 4, 'one attempt plus three retries');
  });

  it('retries rename, delete and abort on 5xx as idempotent calls', async () => {
    const { sessionId, agentMessageId } = await env.client.startTurn({
      sessionId: newSessionId(),
      task: 'slow retry',
    });
    emu.failNext({ method: 'PUT', path: '/title$', status: 502 });
    emu.failNext({ method: 'DELETE', path: '/abort$', status: 502 });
    emu.failNext({ method: 'DELETE', path: '^/sessions/', status: 502 });
    await env.client.renameSession(sessionId, 'Retried');
    await env.client.abortMessage(agentMessageId);
    await env.client.deleteSession(sessionId);
    assert.equal(env.counter.count('PUT', /\/title$/), 2);
    assert.equal(env.counter.count('DELETE', /\/abort$/), 2);
    assert.equal(env.counter.count('DELETE', /^\/sessions\//), 2);
  });

  it('never retries a turn start on 500', async () => {
    emu.failNext({
      method: 'POST',
      path: '^/sessions/new$',
      status: 500,
      body: { error: 'internal', message: 'database down' },
    });
    const sessionId = newSessionId();
    const err = await rejectsWith(env.client.startTurn({ sessionId, task: 'only once' }), 'server');
    assert.equal(err.message, 'Service error 500: database down');
    assert.equal(err.serverError, 'internal');
    assert.equal(env.counter.count('POST', /^\/sessions\/new$/), 1);
    await rejectsWith(env.client.getSession(sessionId), 'not_found');
  });

  it('shows a non-JSON error body trimmed, with the status', async () => {
    emu.failNext({
      method: 'GET',
      path: '^/sessions/text-body$',
      status: 500,
      body: '\n  upstream exploded  \n',
      times: 4,
    });
    const err = await rejectsWith(env.client.getSession('text-body'), 'server');
    assert.equal(err.message, 'Service error 500: upstream exploded');
  });

  it('maps truncated bodies to a protocol error after retrying a GET', async () => {
    emu.faults = { truncateBodies: true };
    const err = await rejectsWith(env.client.listSessions(), 'protocol');
    assert.match(err.message, /cut off/);
    assert.equal(err.details?.truncated, true);
    assert.equal(env.counter.count('GET', /^\/sessions$/), 4);
  });

  it('does not repeat a turn start whose answer was truncated, so the turn runs once', async () => {
    const sessionId = newSessionId();
    emu.faults = { truncateBodies: true };
    await rejectsWith(env.client.startTurn({ sessionId, task: 'exactly once' }), 'protocol');
    emu.faults = {};
    assert.equal(env.counter.count('POST', /^\/sessions\/new$/), 1);
    const detail = await env.client.getSession(sessionId);
    assert.equal(detail.messages.filter((m) => m.type === 'user').length, 1);
  });

  it('times out a slow answer, and retries a GET on timeout', async () => {
    // An answer held for a minute, twice the test's own timeout: settling at all proves Den did not
    // wait for it. Its own emulator, so the held requests cannot touch another test's.
    const slow = await startEmulator({ eventDelayMs: 0 });
    slow.faults = { latencyMs: 60_000 };
    const local = clientFor(slow, { timeoutMs: 60, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    try {
      const err = await rejectsWith(local.client.listSessions(), 'timeout');
      assert.match(err.message, /No answer from the service within 0\.1 s while trying to list sessions/);
      assert.equal(local.counter.count('GET', /^\/sessions$/), 2);
    } finally {
      await local.close();
      await slow.close();
    }
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    // The answer would take a minute, and Den's own timeouts run on a clock that never moves:
    // only the abort can end the call before the test times out.
    const slow = await startEmulator({ eventDelayMs: 0 });
    slow.faults = { latencyMs: 60_000 };
    const local = clientFor(slow, { deadlineTimers: new FakeClock() });
    try {
      const ac = new AbortController();
      const pending = local.client.listSessions({}, ac.signal);
      // Abort once the service holds the request (its answer would take a minute).
      await waitFor('the request to reach the service', () => slow.requestsInFlight === 1);
      ac.abort();
      const err = await rejectsWith(pending, 'aborted');
      assert.equal(err.message, 'Cancelled: list sessions');
      assert.equal(local.counter.requests.length, 1);
    } finally {
      await local.close();
      await slow.close();
    }
  });

  it('sends nothing when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await rejectsWith(env.client.startTurn({ sessionId: newSessionId(), task: 'x' }, ac.signal), 'aborted');
    assert.equal(env.counter.requests.length, 0);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    emu.failNext({ method: 'GET', path: '^/sessions/abort-in-backoff$', status: 500 });
    const ac = new AbortController();
    // Aborts once the client has announced its wait before the retry (up to 1e8 ms, about a day).
    const logger = {
      ...capturingLogger(),
      warn: (m: string) => void (/retry 1\/3/.test(m) && setImmediate(() => ac.abort())),
    };
    const local = clientFor(emu, { logger, retry: { retries: 3, baseDelayMs: 1e8, maxDelayMs: 1e8 } });
    try {
      await rejectsWith(local.client.getSession('abort-in-backoff', ac.signal), 'aborted');
      assert.equal(local.counter.requests.length, 1);
    } finally {
      await local.close();
    }
  });

  it('retries a turn start only while the connection is refused, then reports a network error', async () => {
    const gone = await startEmulator({ seed: false });
    const url = gone.url;
    await gone.close();
    const counter = countingDispatcher();
    const client = new ApiClient({
      baseUrl: url,
      apiKey: () => 'sk_live_anything1234',
      dispatcher: counter.dispatcher,
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      const err = await rejectsWith(client.startTurn({ sessionId: newSessionId(), task: 'x' }), 'network');
      assert.match(
        err.message,
        new RegExp(`Cannot reach the service at ${url} to start a turn: connection refused`),
      );
      assert.equal(counter.requests.length, 3);
    } finally {
      await client.close();
      await counter.close();
    }
  });

  it('maps an unreadable 2xx body to protocol', async () => {
    emu.failNext({ method: 'GET', path: '^/sessions$', status: 200, body: '<html>login portal</html>' });
    const err = await rejectsWith(env.client.listSessions(), 'protocol');
    assert.match(err.message, /is not JSON/);
    emu.failNext({ method: 'GET', path: '^/sessions$', status: 200, body: { unexpected: true } });
    const shape = await rejectsWith(env.client.listSessions(), 'protocol');
    assert.match(shape.message, /no `sessions`/);
  });
});
