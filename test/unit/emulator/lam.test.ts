import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/index';

const SCHEMA = {
  title: 'product name',
  price: 'price in dollars',
  seller: { name: 'seller name', url: 'profile link' },
};

describe('emulator: /lam/run', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 1 });
  });
  after(() => emu.close());

  const run = (body: Record<string, unknown>) =>
    fetch(`${emu.url}/lam/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'service-secret-key': emu.keys.primary },
      body: JSON.stringify({ app_url: 'https://shop.example', ...body }),
    });

  it('answers DONE with data shaped by the schema, at most max_count items', async () => {
    const res = await run({ query: 'list the cheapest laptops', schema: SCHEMA, max_count: 4 });
    const body = (await res.json()) as {
      task_status: string;
      message: string;
      data: Record<string, unknown>[];
      properties: { sessionId: string };
      livestream_url: string;
    };
    assert.equal(res.status, 200);
    assert.equal(body.task_status, 'DONE');
    assert.equal(typeof body.message, 'string');
    assert.ok(body.data.length <= 4 && body.data.length > 0);
    for (const item of body.data) {
      assert.deepEqual(Object.keys(item).sort(), ['price', 'seller', 'title']);
      assert.equal(typeof item.price, 'number');
      assert.deepEqual(Object.keys(item.seller as object).sort(), ['name', 'url']);
    }
    assert.equal(typeof body.properties.sessionId, 'string');
    const live = new URL(body.livestream_url);
    assert.equal(live.searchParams.get('enable_actions'), 'false');
    assert.equal(live.searchParams.get('theme'), 'dark');
  });

  const outcomes: [string, string][] = [
    ['this should fail', 'FAILURE'],
    ['needs a human to log in', 'HUMAN_INTERACTION'],
  ];
  for (const [query, status] of outcomes) {
    it(`answers ${status} for "${query}"`, async () => {
      const body = (await (await run({ query, schema: SCHEMA })).json()) as {
        task_status: string;
        data: unknown[];
      };
      assert.equal(body.task_status, status);
      assert.deepEqual(body.data, []);
    });
  }

  it('streams whole response objects as server-sent events, STARTING to DONE, without a [DONE] sentinel', async () => {
    const res = await run({ query: 'list laptops', schema: SCHEMA, max_count: 2, stream: true });
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    assert.ok(!text.includes('[DONE]'));
    const states = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { task_status: string; data: unknown[] });
    assert.equal(states[0].task_status, 'STARTING');
    assert.ok(states.slice(1, -1).every((s) => s.task_status === 'PROCESSING'));
    assert.ok(states.length >= 3);
    assert.equal(states.at(-1)?.task_status, 'DONE');
    assert.equal(states.at(-1)?.data.length, 2);
  });

  it('stream switches: `no final` stops before the answer; `crlf` and `split at N` keep the bytes', async () => {
    const cut = await (await run({ query: 'list laptops, no final', schema: SCHEMA, stream: true })).text();
    assert.deepEqual(cut.match(/"task_status":"\w+"/g), [
      '"task_status":"STARTING"',
      '"task_status":"PROCESSING"',
      '"task_status":"PROCESSING"',
    ]);
    const crlf = await (await run({ query: 'x crlf split at 00007', schema: SCHEMA, stream: true })).text();
    assert.ok(crlf.startsWith('data: {"task_status":"STARTING"'), crlf.slice(0, 40));
    assert.equal(crlf.split('\r\n\r\n').length, 5);
    assert.ok(!/[^\r]\n/.test(crlf));
  });

  it('answers 400 without a query and 403 for the read-only key', async () => {
    assert.equal((await run({ schema: SCHEMA })).status, 400);
    const ro = await fetch(`${emu.url}/lam/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'service-secret-key': emu.keys.readOnly },
      body: JSON.stringify({ query: 'x' }),
    });
    assert.equal(ro.status, 403);
  });
});
