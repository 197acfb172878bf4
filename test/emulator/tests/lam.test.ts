import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../index';

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

  it('`no final` with streaming off cuts the JSON answer before its announced length', async () => {
    const res = await run({ query: 'list laptops, no final', schema: SCHEMA, stream: false });
    assert.equal(res.status, 200);
    assert.ok(Number(res.headers.get('content-length')) > 0);
    await assert.rejects(res.text());
    // without the switch the same answer arrives whole
    const whole = await run({ query: 'list laptops', schema: SCHEMA, stream: false });
    assert.equal((await whole.json()).task_status, 'DONE');
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

  type Answer = { task_status: string; data: Record<string, unknown>[]; properties: { sessionId: string } };
  const answer = async (body: Record<string, unknown>) => (await (await run(body)).json()) as Answer;

  it('`drift`: each rerun of the same query starts one record later with prices raised by one', async () => {
    const schema = { url: 'product link', price: 'price in dollars' };
    const first = await answer({ query: 'list laptops drift', schema, max_count: 3 });
    const second = await answer({ query: 'list laptops drift', schema, max_count: 3 });
    assert.deepEqual(
      first.data.map((r) => r.url),
      [1, 2, 3].map((n) => `https://example.com/items/${n}`),
    );
    assert.deepEqual(
      second.data.map((r) => r.url),
      [2, 3, 4].map((n) => `https://example.com/items/${n}`),
    );
    assert.equal(second.data[0].price, (first.data[1].price as number) + 1);
    // another app URL counts its own runs
    const other = await answer({
      query: 'list laptops drift',
      schema,
      max_count: 3,
      app_url: 'https://b.example',
    });
    assert.equal(other.data[0].url, 'https://example.com/items/1');
  });

  it('guesses values by whole words: a "product page" link is a URL, not an age', async () => {
    const { data } = await answer({
      query: 'list',
      schema: { url: 'link to the product page', stock: 'number of items in stock', title: 'the title' },
      max_count: 1,
    });
    assert.deepEqual(data[0], { url: 'https://example.com/items/1', stock: 3, title: 'title 1' });
  });

  it('`gaps`: every third record lacks its second field, the next one has its last null', async () => {
    const { data } = await answer({ query: 'laptops with gaps', schema: SCHEMA, max_count: 3 });
    assert.deepEqual(Object.keys(data[0]), ['title', 'price', 'seller']);
    assert.deepEqual(Object.keys(data[1]), ['title', 'seller']);
    assert.equal(data[2].seller, null);
    assert.equal(typeof data[2].title, 'string');
  });

  it('`hold`: keeps the stream in PROCESSING until the client goes away', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${emu.url}/lam/run`, {
      method: 'POST',
      signal: ctl.signal,
      headers: { 'Content-Type': 'application/json', 'service-secret-key': emu.keys.primary },
      body: JSON.stringify({ query: 'hold on', schema: SCHEMA, stream: true }),
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('Still working (3).')) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the held stream ended by itself');
      text += Buffer.from(value).toString('utf8');
    }
    assert.ok(!text.includes('"DONE"'));
    ctl.abort();
    await assert.rejects(reader.read());
  });

  it('records each request body, passcode included', async () => {
    await run({ query: 'record me', service_passcode: 'p4ss' });
    const last = emu.lamRequests().at(-1);
    assert.equal(last?.query, 'record me');
    assert.equal(last?.service_passcode, 'p4ss');
  });

  it("`lamSessions`: the run's session is in the caller's list", async () => {
    const withSessions = await startEmulator({ seed: false, eventDelayMs: 1, lamSessions: true });
    try {
      const headers = { 'Content-Type': 'application/json', 'service-secret-key': withSessions.keys.primary };
      const res = await fetch(`${withSessions.url}/lam/run`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: 'find it', app_url: 'https://shop.example' }),
      });
      const { properties } = (await res.json()) as Answer;
      const got = await fetch(`${withSessions.url}/sessions/${properties.sessionId}`, {
        headers: { Authorization: `Bearer ${withSessions.keys.primary}` },
      });
      assert.equal(got.status, 200);
    } finally {
      await withSessions.close();
    }
  });
});
