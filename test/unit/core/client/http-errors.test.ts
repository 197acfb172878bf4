import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import {
  errorFromException,
  errorFromResponse,
  parseRetryAfter,
  redactError,
  quoteBody,
} from '../../../../src/core/client/http-errors';
import { retryBackoff, retryDelay, DEFAULT_RETRY } from '../../../../src/core/client/retry';

const KEY = 'sk_live_abcdef123456';
const ctx = { operation: 'list sessions', secrets: [KEY] };

function res(status: number, body: unknown, headers: Record<string, string> = {}) {
  return { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

describe('http-errors', () => {
  const statusTable: [number, string, RegExp][] = [
    [401, 'unauthorized', /^API key rejected \(401\): set a new key — Invalid key$/],
    [403, 'forbidden', /^Not allowed \(403\): this API key may not list sessions — Invalid key$/],
    [404, 'not_found', /^Not found \(404\) while trying to list sessions — Invalid key$/],
    [429, 'rate_limited', /^Rate limited \(429\)/],
    [400, 'bad_request', /^Request rejected \(400\) while trying to list sessions — Invalid key$/],
    [409, 'bad_request', /Request rejected \(409\)/],
    [500, 'server', /^Service error 500: Invalid key$/],
    [503, 'server', /^Service error 503: Invalid key$/],
    [302, 'protocol', /redirect \(302\)/],
  ];
  for (const [status, code, message] of statusTable) {
    it(`maps status ${status} to ${code} with an actionable message`, () => {
      const err = errorFromResponse(res(status, { error: 'x', message: 'Invalid key' }), ctx);
      assert.equal(err.code, code);
      assert.equal(err.status, status);
      assert.equal(err.serverError, 'x');
      assert.match(err.message, message);
    });
  }

  it('keeps the Error object fields intact', () => {
    const err = errorFromResponse(
      res(403, { error: 'forbidden', message: 'Read-only key', details: { scope: 'read' } }),
      ctx,
    );
    assert.equal(err.serverError, 'forbidden');
    assert.equal(err.serverMessage, 'Read-only key');
    assert.deepEqual(err.details, { scope: 'read' });
    assert.equal(err.fault, 'user');
  });

  it('uses a trimmed, collapsed, capped text body when the body is not JSON', () => {
    const err = errorFromResponse(res(502, `  Bad gateway\n\n  upstream ${'z'.repeat(1000)}  `), ctx);
    assert.equal(err.code, 'server');
    assert.ok(err.message.startsWith('Service error 502: Bad gateway upstream zzz'));
    assert.ok(err.message.length < 340, `capped (${err.message.length})`);
    assert.ok(err.message.endsWith('…'));
  });

  it('shows the title of an HTML error page rather than its markup', () => {
    const html =
      '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>x</h1></body></html>';
    assert.equal(
      errorFromResponse(res(503, html), ctx).message,
      'Service error 503 while trying to list sessions',
    );
    const titled = '<html><head><title>503 Down for maintenance</title></head></html>';
    assert.equal(errorFromResponse(res(503, titled), ctx).message, 'Service error 503: Down for maintenance');
    assert.equal(quoteBody('<html><body><p>Hello <b>there</b></p></body></html>'), 'Hello there');
  });

  it('says what failed when a 5xx has no body', () => {
    assert.equal(
      errorFromResponse(res(500, ''), ctx).message,
      'Service error 500 while trying to list sessions',
    );
  });

  it('uses the 404 text the caller gives', () => {
    const err = errorFromResponse(res(404, { error: 'not_found' }), {
      ...ctx,
      notFound: 'Session s1 does not exist',
    });
    assert.equal(err.message, 'Session s1 does not exist (404) — not_found');
  });

  it('reads retry-after in seconds from either header, or from an HTTP date', () => {
    assert.equal(parseRetryAfter({ 'x-rate-limit-retry-after': '12' }), 12);
    assert.equal(parseRetryAfter({ 'retry-after': '0.5' }), 0.5);
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    assert.equal(parseRetryAfter({ 'retry-after': new Date(now + 7000).toUTCString() }, now), 7);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
    const err = errorFromResponse(
      res(429, { error: 'rate_limited' }, { 'x-rate-limit-retry-after': '12' }),
      ctx,
    );
    assert.equal(err.retryAfter, 12);
    assert.match(err.message, /^Rate limited: retry in 12 s/);
  });

  it('never lets the key through in message, server error or details', () => {
    const body = {
      error: `bad key ${KEY}`,
      message: `Key ${KEY} is not valid; Bearer ${KEY}`,
      details: { key: KEY, nested: [{ again: `token=${KEY}` }], [KEY]: 1 },
    };
    for (const status of [400, 401, 403, 404, 429, 500]) {
      const err = errorFromResponse(res(status, body), ctx);
      const everything = JSON.stringify([err.message, err.serverError, err.serverMessage, err.details]);
      assert.ok(!everything.includes(KEY), `status ${status}: ${everything}`);
      assert.ok(!everything.includes('abcdef123456'));
    }
    const plain = errorFromResponse(res(500, `oops ${KEY}`), ctx);
    assert.ok(!plain.message.includes(KEY));
  });

  it("redacts the service's own message when an error leaves the core", () => {
    const err = new DenError({
      code: 'forbidden',
      message: 'Not allowed',
      serverMessage: `key ${KEY} is read-only`,
    });
    assert.equal(redactError(err, [KEY]).serverMessage, 'key *** is read-only');
  });

  describe('exceptions', () => {
    const code = (c: string) => Object.assign(new Error(`connect ${c} 127.0.0.1:1`), { code: c });

    const table: [string, unknown, Partial<Parameters<typeof errorFromException>[1]>, string, RegExp][] = [
      ['a refused connection', code('ECONNREFUSED'), {}, 'network', /connection refused/],
      ['an unknown host', code('ENOTFOUND'), {}, 'network', /host not found/],
      ['a closed socket', code('UND_ERR_SOCKET'), {}, 'network', /connection closed/],
      [
        'a TLS failure',
        code('SELF_SIGNED_CERT_IN_CHAIN'),
        {},
        'network',
        /^The service's certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN\): .*http\.proxyStrictSSL/,
      ],
      [
        'a proxy that closed the CONNECT',
        code('DEN_PROXY_CLOSED'),
        {},
        'network',
        /^The proxy closed the connection instead of connecting to the service/,
      ],
      ['an undici headers timeout', code('UND_ERR_HEADERS_TIMEOUT'), {}, 'timeout', /No answer/],
      ["Den's own timer", new Error('x'), { timedOut: true, timeoutMs: 1500 }, 'timeout', /within 1\.5 s/],
      [
        'an idle timer',
        new Error('x'),
        { timedOut: true, timeoutMs: 2000, idle: true },
        'timeout',
        /silent for 2 s/,
      ],
      ['the caller aborting', new Error('x'), { aborted: true }, 'aborted', /^Cancelled: list sessions$/],
      ['an AbortError', Object.assign(new Error('x'), { name: 'AbortError' }), {}, 'aborted', /Cancelled/],
      ['an aggregated refusal', new AggregateError([code('ECONNREFUSED')], 'x'), {}, 'network', /refused/],
    ];
    for (const [title, err, facts, expected, message] of table) {
      it(`maps ${title} to ${expected}`, () => {
        const den = errorFromException(err, { ...ctx, origin: 'http://127.0.0.1:1', ...facts });
        assert.equal(den.code, expected);
        assert.match(den.message, message);
        assert.equal(den.cause, err);
      });
    }

    it('passes a DenError through unchanged', () => {
      const den = new DenError({ code: 'protocol', message: 'p' });
      assert.equal(errorFromException(den, ctx), den);
    });
  });

  describe('retry decisions', () => {
    const policy = { ...DEFAULT_RETRY, retries: 3 };
    const refused = new DenError({
      code: 'network',
      message: 'n',
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    const server = new DenError({ code: 'server', message: 's', status: 500 });
    const reset = new DenError({
      code: 'network',
      message: 'n',
      cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
    });
    const limited = (s: number) => new DenError({ code: 'rate_limited', message: 'r', retryAfter: s });
    const truncated = new DenError({ code: 'protocol', message: 't', details: { truncated: true } });
    const garbage = new DenError({ code: 'protocol', message: 'g' });
    const table: [string, DenError, boolean, boolean][] = [
      ['a 5xx of an idempotent request', server, true, true],
      ['a 5xx of a turn start', server, false, false],
      ['a reset connection of a turn start', reset, false, false],
      ['a refused connection of a turn start', refused, false, true],
      ['a truncated body of an idempotent request', truncated, true, true],
      ['an unreadable body', garbage, true, false],
      ['a 429 with a short retry-after', limited(2), true, true],
      ['a 429 with a long retry-after', limited(120), true, false],
      ['a 401', new DenError({ code: 'unauthorized', message: 'u' }), true, false],
    ];
    for (const [title, err, idempotent, retries] of table) {
      it(`${retries ? 'retries' : 'does not retry'} after ${title}`, () => {
        assert.equal(retryDelay(err, 0, policy, idempotent, () => 0.5) !== undefined, retries);
      });
    }

    it('waits the 429 retry-after exactly and stops after the last retry', () => {
      assert.equal(retryDelay(limited(2), 0, policy, true), 2000);
      assert.equal(retryDelay(server, 3, policy, true), undefined);
    });

    it('backs off exponentially with full jitter under a cap', () => {
      const p = { retries: 10, baseDelayMs: 100, maxDelayMs: 1000 };
      assert.deepEqual(
        [0, 1, 2, 3, 4, 10].map((a) => retryBackoff(a, p, () => 0.999999)),
        [99, 199, 399, 799, 999, 999],
      );
      assert.equal(
        retryBackoff(5, p, () => 0),
        0,
      );
    });
  });
});
