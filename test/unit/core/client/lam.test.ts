import assert from 'node:assert/strict';
import type { LamRunResponse } from '../../../../src/core/client/types';
import { startEmulator, type Emulator } from '../../../emulator';
import { clientFor, collect, lamRequest, rejectsWith } from './helpers';

const request = lamRequest;
const all = collect<LamRunResponse>;

describe('ApiClient task runs (/lam/run)', () => {
  let emu: Emulator;
  let env: ReturnType<typeof clientFor>;

  before(async () => {
    emu = await startEmulator({ seed: false });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.faults = {};
    env = clientFor(emu);
  });
  afterEach(() => env.close());

  it('runs a task with the service-secret-key header and reads schema-shaped data', async () => {
    const res = await env.client.lamRun(
      request('find running shoes', {
        chatHistory: [{ role: 'user', content: 'hi' }],
        mode: 'deepsearch',
        servicePasscode: '1234',
        advanced: { blockAds: true, solveCaptchas: false, proxy: { country: 'US', zip: 10001 } },
      }),
    );
    assert.equal(res.taskStatus, 'DONE');
    assert.equal(res.data.length, 2);
    for (const item of res.data) assert.deepEqual(Object.keys(item).sort(), ['price', 'seller', 'title']);
    assert.ok(res.sessionId);
    assert.match(res.livestreamUrl ?? '', /enable_actions=false&theme=dark/);
    const sent = env.counter.requests[0];
    assert.equal(sent.headers['service-secret-key'], emu.keys.primary);
    assert.equal(sent.headers.authorization, undefined);
    assert.deepEqual(JSON.parse(sent.body ?? '{}'), {
      query: 'find running shoes',
      app_url: 'https://shop.example.com',
      schema: { title: 'product title', price: 'price in USD', seller: { name: 'seller name' } },
      chat_history: [{ role: 'user', content: 'hi' }],
      max_count: 2,
      stream: false,
      mode: 'deepsearch',
      service_passcode: '1234',
      advanced: { block_ads: true, solve_captchas: false, proxy: { country: 'US', zip: 10001 } },
    });
  });

  const outcomes: [string, string][] = [
    ['please fail now', 'FAILURE'],
    ['needs a human login', 'HUMAN_INTERACTION'],
  ];
  for (const [query, status] of outcomes) {
    it(`reports ${status} as a result, not an error`, async () => {
      const res = await env.client.lamRun(request(query));
      assert.equal(res.taskStatus, status);
      assert.ok(res.message.length > 0);
    });
  }

  it('maps a rejected key to unauthorized', async () => {
    const bad = clientFor(emu, { apiKey: () => 'sk_live_wrongLamKey000' });
    try {
      await rejectsWith(bad.client.lamRun(request('x')), 'unauthorized');
    } finally {
      await bad.close();
    }
  });

  it('never retries a task run on 500', async () => {
    emu.failNext({ method: 'POST', path: '^/lam/run$', status: 500 });
    await rejectsWith(env.client.lamRun(request('x')), 'server');
    assert.equal(env.counter.requests.length, 1);
  });

  it('streams every state from STARTING to DONE and ends with the body', async () => {
    const states = await all(env.client.lamRunStream(request('find shoes')));
    assert.deepEqual(
      states.map((s) => s.taskStatus),
      ['STARTING', 'PROCESSING', 'PROCESSING', 'DONE'],
    );
    assert.equal(states[3].data.length, 2);
    assert.equal(JSON.parse(env.counter.requests[0].body ?? '{}').stream, true);
  });

  it('streams a failing task to its FAILURE state', async () => {
    const states = await all(env.client.lamRunStream(request('this will fail')));
    assert.equal(states[states.length - 1].taskStatus, 'FAILURE');
  });

  it('reads a plain JSON answer when the service ignores stream:true', async () => {
    emu.failNext({
      method: 'POST',
      path: '^/lam/run$',
      status: 200,
      body: { task_status: 'DONE', message: 'at once', data: [] },
    });
    const states = await all(env.client.lamRunStream(request('x')));
    assert.deepEqual(
      states.map((s) => [s.taskStatus, s.message]),
      [['DONE', 'at once']],
    );
  });

  it('maps an error status before the stream to a DenError', async () => {
    emu.failNext({
      method: 'POST',
      path: '^/lam/run$',
      status: 429,
      headers: { 'X-Rate-Limit-Retry-After': '7' },
    });
    const err = await rejectsWith(all(env.client.lamRunStream(request('x'))), 'rate_limited');
    assert.equal(err.retryAfter, 7);
  });

  it('rejects an event that is not JSON with a protocol error', async () => {
    emu.failNext({
      method: 'POST',
      path: '^/lam/run$',
      status: 200,
      body: 'data: {"task_status":"STARTING","message":"","data":[]}\n\ndata: {broken\n\n',
      headers: { 'Content-Type': 'text/event-stream' },
    });
    const seen: string[] = [];
    const err = await rejectsWith(
      (async () => {
        for await (const s of env.client.lamRunStream(request('x'))) seen.push(s.taskStatus);
      })(),
      'protocol',
    );
    assert.deepEqual(seen, ['STARTING']);
    assert.match(err.message, /not JSON/);
  });

  it('stops cleanly when the consumer leaves early, and the client stays usable', async () => {
    for await (const s of env.client.lamRunStream(request('find shoes'))) {
      assert.equal(s.taskStatus, 'STARTING');
      break;
    }
    const res = await env.client.lamRun(request('again'));
    assert.equal(res.taskStatus, 'DONE');
  });

  it('ends the stream with aborted when the caller aborts mid-stream', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    const err = await rejectsWith(
      (async () => {
        for await (const s of env.client.lamRunStream(request('find shoes'), ac.signal)) {
          seen.push(s.taskStatus);
          ac.abort();
        }
      })(),
      'aborted',
    );
    assert.deepEqual(seen, ['STARTING']);
    assert.equal(err.message, 'Cancelled: run the task');
  });

  it('times out a stream that goes silent', async () => {
    const slow = await startEmulator({ seed: false, eventDelayMs: 200 });
    const local = clientFor(slow, { lamTimeoutMs: 100 });
    try {
      const err = await rejectsWith(all(local.client.lamRunStream(request('find shoes'))), 'timeout');
      assert.match(err.message, /went silent/);
    } finally {
      await local.close();
      await slow.close();
    }
  });
});
