import assert from 'node:assert/strict';
import type { SessionDetail } from '../../../../src/core/client/types';
import { silentLogger } from '../../../../src/core/shared/log';
import { Reconciler, type ReconcileOutcome } from '../../../../src/model/session/reconciler';
import { FakeClock } from '../shared/fake-clock';

const DETAIL = { session: {}, messages: [] } as unknown as SessionDetail;

/** A reconciler on a fake clock whose fetches resolve when `answer` is called. */
function rig(outcomes: ReconcileOutcome[] = []) {
  const clock = new FakeClock();
  const fetches: ((d: SessionDetail | Error) => void)[] = [];
  const applied: string[] = [];
  const r = new Reconciler(
    {
      fetchStored: () =>
        new Promise<SessionDetail>((resolve, reject) =>
          fetches.push((d) => (d instanceof Error ? reject(d) : resolve(d))),
        ),
      reconcileWith: (_d, id) => {
        applied.push(id);
        return outcomes.shift() ?? 'applied';
      },
    },
    { clock, logger: silentLogger, delayMs: 100, maxTries: 3 },
  );
  const answer = async (d: SessionDetail | Error = DETAIL): Promise<void> => {
    const f = fetches.shift();
    assert.ok(f, 'no fetch is waiting');
    f(d);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { r, clock, fetches, applied, answer };
}

describe('Reconciler', () => {
  it('fetches at once for a turn that ended', async () => {
    const { r, clock, fetches, applied, answer } = rig();
    r.request('m1', 'end');
    clock.advance(0);
    assert.equal(fetches.length, 1);
    await answer();
    assert.deepEqual(applied, ['m1']);
    await r.settled();
    assert.equal(r.stats.applied, 1);
  });

  it('coalesces requests during a turn into one fetch after a short delay', async () => {
    const { r, clock, fetches, applied, answer } = rig();
    r.request('m1', 'snapshot');
    r.request('m1', 'malformed');
    r.request('m2', 'gap');
    clock.advance(99);
    assert.equal(fetches.length, 0);
    clock.advance(1);
    assert.equal(fetches.length, 1);
    await answer();
    assert.deepEqual(applied.sort(), ['m1', 'm2']);
    assert.deepEqual(r.stats.requested, { end: 0, snapshot: 1, gap: 1, malformed: 1 });
  });

  it('runs one fetch at a time; requests meanwhile get the next one', async () => {
    const { r, clock, fetches, applied, answer } = rig();
    r.request('m1', 'end');
    clock.advance(0);
    r.request('m1', 'end');
    clock.advance(1000);
    assert.equal(fetches.length, 1);
    await answer();
    clock.advance(0);
    assert.equal(fetches.length, 1, 'the request made during the fetch');
    await answer();
    assert.deepEqual(applied, ['m1', 'm1']);
  });

  it('tries an ended turn again while the stored copy lags, a bounded number of times', async () => {
    const { r, clock, fetches, answer } = rig(['behind', 'behind', 'behind', 'behind']);
    let settled = false;
    r.request('m1', 'end');
    void r.settled().then(() => (settled = true));
    clock.advance(0);
    await answer();
    clock.advance(200);
    await answer();
    clock.advance(400);
    await answer();
    clock.advance(10_000);
    assert.equal(fetches.length, 0, 'tried more than maxTries');
    await Promise.resolve();
    assert.equal(settled, true);
    assert.equal(r.stats.fetches, 3);
  });

  it('does not try a running turn again, and survives a failed fetch', async () => {
    const { r, clock, fetches, answer } = rig(['behind']);
    r.request('m1', 'snapshot');
    clock.advance(100);
    await answer();
    clock.advance(10_000);
    assert.equal(fetches.length, 0);
    r.request('m2', 'end');
    clock.advance(0);
    await answer(new Error('offline'));
    clock.advance(200);
    assert.equal(fetches.length, 1, 'an ended turn is tried again after a failed fetch');
    await answer();
    await r.settled();
  });

  it('does nothing after dispose and releases whoever waits', async () => {
    const { r, clock, fetches } = rig();
    r.request('m1', 'gap');
    const waiting = r.settled();
    r.dispose();
    await waiting;
    r.request('m2', 'end');
    clock.advance(1000);
    assert.equal(fetches.length, 0);
  });
});
