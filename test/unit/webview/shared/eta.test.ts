import assert from 'node:assert/strict';
import type { TurnHeader } from '../../../../src/protocol/session-panel/messages';
import { ETA_STALE_SECONDS, etaLeft, turnStatusText } from '../../../../src/webview/shared/format';

const T0 = 1_800_000_000_000;

function running(etaSeconds?: number, etaAt?: number): TurnHeader {
  return {
    id: 'a',
    userMessage: { id: 'u', text: 'x', files: [], createdAt: 0 },
    status: 'running',
    hasContinuation: false,
    createdAt: 0,
    ...(etaSeconds !== undefined ? { etaSeconds } : {}),
    ...(etaAt !== undefined ? { etaAt } : {}),
  };
}

describe('a turn’s time estimate (etaLeft, with an injected clock)', () => {
  it('counts down from when the service said it', () => {
    const t = running(42, T0);
    assert.equal(etaLeft(t, T0), 42);
    assert.equal(etaLeft(t, T0 + 2_000), 40);
    assert.equal(etaLeft(t, T0 + 41_500), 1);
    assert.equal(turnStatusText(t, T0 + 12_000), 'Running · about 30 s left');
  });

  it('is gone once it ran out (a 2-minute turn that said 4 s does not say it throughout)', () => {
    const t = running(4, T0);
    assert.equal(etaLeft(t, T0 + 4_000), undefined);
    assert.equal(turnStatusText(t, T0 + 60_000), 'Running');
  });

  it('is not shown without the time it was said (its age is unknown)', () => {
    assert.equal(etaLeft(running(42), T0), undefined);
    assert.equal(turnStatusText(running(42), T0), 'Running');
  });

  it('is not shown when stale, implausible or from a clock far ahead', () => {
    assert.equal(etaLeft(running(3600, T0), T0 + (ETA_STALE_SECONDS + 1) * 1000), undefined, 'stale');
    assert.equal(etaLeft(running(7 * 24 * 3600, T0), T0), undefined, 'a week');
    assert.equal(etaLeft(running(0, T0), T0), undefined);
    assert.equal(etaLeft(running(-5, T0), T0), undefined);
    assert.equal(etaLeft(running(Number.NaN, T0), T0), undefined);
    assert.equal(etaLeft(running(30, T0 + 5 * 60_000), T0), undefined, 'said five minutes from now');
    assert.equal(etaLeft(running(30, T0 + 10_000), T0), 30, 'a clock a little ahead counts as now');
  });
});
