// The streaming path of /lam/run against the emulator, at its edges: a body split at every byte
// boundary (inside CRLFs and multi-byte characters), a stream that ends without a final status,
// HUMAN_INTERACTION, the error statuses before a stream starts, and a cancel mid-stream.
import assert from 'node:assert/strict';
import { readLamStream } from '../../../../src/core/client/lam-stream';
import type { LamRunRequest, LamRunResponse } from '../../../../src/core/client/types';
import { startEmulator } from '../../../emulator';
import { waitFor } from '../../../support/wait';
import { clientFor, useEmulatorClient, collect, lamRequest, rejectsWith } from './helpers';

const UNICODE = 'Ünïcødé 👍🏽 שלום';

const request = (query: string, over: Partial<LamRunRequest> = {}): LamRunRequest =>
  lamRequest(query, { schema: { title: 'product title', price: 'price in USD' }, maxCount: 1, ...over });
const all = collect<LamRunResponse>;

/** What a test compares of a state: the fields that do not change from run to run. */
const facts = (s: LamRunResponse): [string, string, unknown] => [s.taskStatus, s.message, s.data];

describe('ApiClient task-run stream edges (/lam/run, stream: true)', () => {
  const t = useEmulatorClient();

  /** The next task run is answered with this instead. */
  const answerOnce = (status: number, body?: string, headers?: Record<string, string>): void =>
    t.emu.failNext({ method: 'POST', path: '^/lam/run$', status, body, headers });

  for (const eol of ['lf', 'crlf']) {
    it(`reads the same states whatever byte the body is split at (${eol}, multi-byte text)`, async function () {
      this.timeout(120_000);
      const query = (at: number) => `${UNICODE} ${eol} split at ${String(at).padStart(5, '0')}`;
      const whole = await all(t.env.client.lamRunStream(request(query(0))));
      assert.deepEqual(
        whole.map((s) => s.taskStatus),
        ['STARTING', 'PROCESSING', 'PROCESSING', 'DONE'],
      );
      assert.ok(whole[3].message.includes(UNICODE), whole[3].message);
      // The body's length: every state re-encoded as the emulator frames it.
      const sep = eol === 'crlf' ? 4 : 2;
      const length = whole.reduce((n, s) => n + Buffer.byteLength(`data: ${JSON.stringify(s.raw)}`) + sep, 0);
      for (let at = 1; at < length; at++) {
        const states = await all(t.env.client.lamRunStream(request(query(at))));
        // The answer's message echoes the query, so its split index too.
        const expected = whole.map(facts).map(([status, message, data]) => {
          return [status, message.replace('00000', String(at).padStart(5, '0')), data];
        });
        assert.deepEqual(states.map(facts), expected, `split at byte ${at}`);
      }
    });
  }

  it('reads a body written one byte per write', async () => {
    const states = await all(t.env.client.lamRunStream(request(`${UNICODE} crlf byte by byte`)));
    assert.deepEqual(
      states.map((s) => s.taskStatus),
      ['STARTING', 'PROCESSING', 'PROCESSING', 'DONE'],
    );
    assert.equal(states[3].data.length, 1);
  });

  it('fails a stream that ends without a final status, after yielding what came', async () => {
    const seen: string[] = [];
    const err = await rejectsWith(
      (async () => {
        for await (const s of t.env.client.lamRunStream(request('find shoes, no final')))
          seen.push(s.taskStatus);
      })(),
      'protocol',
    );
    assert.deepEqual(seen, ['STARTING', 'PROCESSING', 'PROCESSING']);
    assert.match(err.message, /ended before the task finished \(last status: PROCESSING\)/);
    assert.equal(err.details?.truncated, true);
  });

  it('fails an event stream with no state at all', async () => {
    answerOnce(200, ': nothing but a comment\n\n', { 'Content-Type': 'text/event-stream' });
    const err = await rejectsWith(all(t.env.client.lamRunStream(request('x'))), 'protocol');
    assert.match(err.message, /ended before the task finished \(no status at all\)/);
  });

  it('accepts an unknown last status as final (tolerant reader)', async () => {
    answerOnce(
      200,
      'data: {"task_status":"STARTING","message":"","data":[]}\n\ndata: {"task_status":"COMPLETED","message":"ok","data":[]}\n\n',
      { 'Content-Type': 'text/event-stream' },
    );
    const states = await all(t.env.client.lamRunStream(request('x')));
    assert.deepEqual(
      states.map((s) => s.taskStatus),
      ['STARTING', 'COMPLETED'],
    );
  });

  it('streams a task that needs a person to HUMAN_INTERACTION, as a result', async () => {
    const states = await all(t.env.client.lamRunStream(request('needs a human login')));
    const last = states[states.length - 1];
    assert.equal(last.taskStatus, 'HUMAN_INTERACTION');
    assert.match(last.message, /a person must take over/);
    assert.match(last.livestreamUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/livestream\//);
  });

  it('streams a failing task to FAILURE with its message', async () => {
    const states = await all(t.env.client.lamRunStream(request('please fail')));
    assert.deepEqual(facts(states[states.length - 1]), [
      'FAILURE',
      'The task failed: the page did not load (HTTP 502).',
      [],
    ]);
  });

  it('maps 401 on a stream to unauthorized', async () => {
    const bad = clientFor(t.emu, { apiKey: () => 'sk_live_wrongLamKey000' });
    try {
      const err = await rejectsWith(all(bad.client.lamRunStream(request('x'))), 'unauthorized');
      assert.ok(!err.message.includes('sk_live_wrongLamKey000'));
    } finally {
      await bad.close();
    }
  });

  it('maps 403 on a stream to forbidden', async () => {
    const ro = clientFor(t.emu, { apiKey: () => t.emu.keys.readOnly });
    try {
      await rejectsWith(all(ro.client.lamRunStream(request('x'))), 'forbidden');
    } finally {
      await ro.close();
    }
  });

  it('maps 429 on a stream to rate_limited with the wait, and does not repeat the run', async () => {
    answerOnce(429, undefined, { 'X-Rate-Limit-Retry-After': '3' });
    const err = await rejectsWith(all(t.env.client.lamRunStream(request('x'))), 'rate_limited');
    assert.equal(err.retryAfter, 3);
    assert.equal(t.env.counter.count('POST', /^\/lam\/run$/), 1);
  });

  it('maps a non-JSON 500 on a stream to a server error quoting the body, once', async () => {
    answerOnce(500, '<html><body>Bad Gateway upstream</body></html>', { 'Content-Type': 'text/html' });
    const err = await rejectsWith(all(t.env.client.lamRunStream(request('x'))), 'server');
    assert.equal(err.status, 500);
    assert.match(err.serverMessage ?? err.message, /Bad Gateway upstream/);
    assert.equal(t.env.counter.count('POST', /^\/lam\/run$/), 1);
  });

  it('cancels mid-stream: the consumer sees aborted, and the client stays usable', async () => {
    const slow = await startEmulator({ seed: false, eventDelayMs: 50 });
    const local = clientFor(slow);
    try {
      const ac = new AbortController();
      const seen: string[] = [];
      const done = rejectsWith(
        (async () => {
          for await (const s of local.client.lamRunStream(request('find shoes'), ac.signal))
            seen.push(s.taskStatus);
        })(),
        'aborted',
      );
      await waitFor('the first state', () => seen.length > 0);
      ac.abort();
      await done;
      assert.deepEqual(seen, ['STARTING']);
      const res = await local.client.lamRun(request('again'));
      assert.equal(res.taskStatus, 'DONE');
    } finally {
      await local.close();
      await slow.close();
    }
  });
});

describe('readLamStream on a recorded body split at every boundary', () => {
  const BODY =
    '\uFEFFdata: {"task_status":"STARTING","message":"é 👍","data":[]}\r\n\r\n' +
    ': keep-alive\r\n\r\n' +
    'data: {"task_status":"PROCESSING","message":"שלום",\r\ndata: "data":[]}\r\n\r\n' +
    'data: {"task_status":"DONE","message":"ok","data":[{"a":"e\u0301"}]}';
  const bytes = Buffer.from(BODY, 'utf8');

  const response = (pieces: Buffer[]) => ({
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: (async function* () {
      for (const p of pieces) yield new Uint8Array(p);
    })(),
    cancel: () => undefined,
  });

  const read = async (pieces: Buffer[]) => {
    const out: [string, string, unknown][] = [];
    for await (const s of readLamStream(response(pieces))) out.push([s.taskStatus, s.message, s.data]);
    return out;
  };

  it('yields the same states for the whole body, each two-way split, and one byte per chunk', async () => {
    const whole = await read([bytes]);
    assert.deepEqual(whole, [
      ['STARTING', 'é 👍', []],
      ['PROCESSING', 'שלום', []],
      ['DONE', 'ok', [{ a: 'e\u0301' }]],
    ]);
    for (let at = 1; at < bytes.length; at++) {
      assert.deepEqual(await read([bytes.subarray(0, at), bytes.subarray(at)]), whole, `split at ${at}`);
    }
    assert.deepEqual(await read(Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1))), whole);
  });
});
