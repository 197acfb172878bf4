import assert from 'node:assert/strict';
import { backoffDelay, delayWithRetryAfter } from '../../../../src/core/shared/backoff';
import { STREAM_BACKOFF as DEFAULT_BACKOFF } from '../../../../src/core/stream/stream-types';

const noJitter = { ...DEFAULT_BACKOFF, jitter: 0 };

describe('backoffDelay', () => {
  const cases: { attempt: number; expected: number }[] = [
    { attempt: 1, expected: 250 },
    { attempt: 2, expected: 500 },
    { attempt: 3, expected: 1000 },
    { attempt: 6, expected: 8000 },
    { attempt: 7, expected: 10_000 },
    { attempt: 50, expected: 10_000 },
    { attempt: 1e9, expected: 10_000 },
  ];
  for (const c of cases) {
    it(`grows exponentially and is capped: attempt ${c.attempt} waits ${c.expected} ms without jitter`, () => {
      assert.equal(
        backoffDelay(c.attempt, noJitter, () => 0.99),
        c.expected,
      );
    });
  }

  it('treats attempts below 1 as the first attempt', () => {
    assert.equal(backoffDelay(0, noJitter), 250);
    assert.equal(backoffDelay(-3, noJitter), 250);
  });

  it('removes at most the jitter fraction of the delay', () => {
    assert.equal(
      backoffDelay(3, DEFAULT_BACKOFF, () => 0),
      1000,
    );
    assert.equal(
      backoffDelay(3, DEFAULT_BACKOFF, () => 0.5),
      750,
    );
    assert.equal(
      backoffDelay(3, DEFAULT_BACKOFF, () => 0.999999),
      500,
    );
  });

  it('stays within [base * (1 - jitter), min(base, max)] for any random value', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let attempt = 1; attempt <= 20; attempt++) {
      const base = Math.min(10_000, 250 * 2 ** (attempt - 1));
      for (let i = 0; i < 200; i++) {
        const d = backoffDelay(attempt, DEFAULT_BACKOFF, random);
        assert.ok(
          d >= Math.floor(base * 0.5) && d <= base,
          `attempt ${attempt}: ${d} outside [${base / 2}, ${base}]`,
        );
      }
    }
  });

  it('clamps a random source that leaves [0, 1) and a jitter above 1', () => {
    assert.equal(
      backoffDelay(1, { ...DEFAULT_BACKOFF, jitter: 5 }, () => 2),
      0,
    );
    assert.equal(
      backoffDelay(1, DEFAULT_BACKOFF, () => -1),
      250,
    );
    assert.equal(
      backoffDelay(1, DEFAULT_BACKOFF, () => Number.NaN),
      250,
    );
  });

  it('uses the options given over the defaults', () => {
    const small = { initialMs: 5, maxMs: 40, factor: 3, jitter: 0 };
    assert.deepEqual(
      [1, 2, 3, 4].map((a) => backoffDelay(a, small)),
      [5, 15, 40, 40],
    );
  });
});

describe('delayWithRetryAfter', () => {
  const cases: { backoff: number; retryAfter: number | undefined; expected: number }[] = [
    { backoff: 300, retryAfter: undefined, expected: 300 },
    { backoff: 300, retryAfter: 2, expected: 2000 },
    { backoff: 3000, retryAfter: 1, expected: 3000 },
    { backoff: 300, retryAfter: 0, expected: 300 },
    { backoff: 300, retryAfter: Number.NaN, expected: 300 },
  ];
  for (const c of cases) {
    it(`waits ${c.expected} ms for backoff ${c.backoff} ms and Retry-After ${String(c.retryAfter)} s`, () => {
      assert.equal(delayWithRetryAfter(c.backoff, c.retryAfter), c.expected);
    });
  }
});
