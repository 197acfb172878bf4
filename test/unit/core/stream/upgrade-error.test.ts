import assert from 'node:assert/strict';
import { parseRetryAfter } from '../../../../src/core/client/http-errors';
import { upgradeError } from '../../../../src/core/stream/upgrade-error';

const KEY = 'sk_test_secretvalue123';

describe('upgradeError', () => {
  const cases: { status: number; code: string; retryable: boolean }[] = [
    { status: 401, code: 'unauthorized', retryable: false },
    { status: 403, code: 'forbidden', retryable: false },
    { status: 404, code: 'not_found', retryable: false },
    { status: 400, code: 'bad_request', retryable: false },
    { status: 429, code: 'rate_limited', retryable: true },
    { status: 500, code: 'server', retryable: true },
    { status: 503, code: 'server', retryable: true },
  ];
  for (const c of cases) {
    it(`maps HTTP ${c.status} to ${c.code} (${c.retryable ? 'retry' : 'give up'})`, () => {
      const e = upgradeError(c.status, {}, '', KEY);
      assert.equal(e.code, c.code);
      assert.equal(e.status, c.status);
      assert.equal(e.retryable, c.retryable);
      assert.match(e.message, new RegExp(`HTTP ${c.status}`));
    });
  }

  it("keeps the server's error and message from an Error-object body", () => {
    const e = upgradeError(401, {}, '{"error":"unauthorized","message":"Invalid API key"}', KEY);
    assert.equal(e.serverError, 'unauthorized');
    assert.match(e.message, /Invalid API key/);
  });

  it('quotes a plain-text body without the key', () => {
    const e = upgradeError(502, {}, `bad gateway for token=${KEY} and ${KEY}`, KEY);
    assert.ok(!e.message.includes(KEY));
    assert.ok(!JSON.stringify(e.details).includes(KEY));
    assert.match(e.message, /bad gateway/);
  });

  it('carries the retry hint of a 429', () => {
    assert.equal(upgradeError(429, { 'x-rate-limit-retry-after': '3' }, '', KEY).retryAfter, 3);
  });
});

describe('parseRetryAfter (shared by HTTP and socket upgrades)', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const cases: { name: string; headers: Record<string, string>; expected: number | undefined }[] = [
    { name: 'reads X-Rate-Limit-Retry-After', headers: { 'x-rate-limit-retry-after': '7' }, expected: 7 },
    { name: 'reads Retry-After seconds', headers: { 'retry-after': '2' }, expected: 2 },
    {
      name: 'prefers the service header',
      headers: { 'x-rate-limit-retry-after': '4', 'retry-after': '9' },
      expected: 4,
    },
    { name: 'reads an HTTP date', headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, expected: 5 },
    { name: 'says nothing without a header', headers: {}, expected: undefined },
    { name: 'ignores garbage', headers: { 'retry-after': 'soon' }, expected: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(parseRetryAfter(c.headers, now), c.expected));
  }
});
