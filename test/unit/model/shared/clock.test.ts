import assert from 'node:assert/strict';
import { systemClock } from '../../../../src/model/shared/clock';

describe('systemClock', () => {
  it('defers work to the end of the synchronous work that asked, before any timer', async () => {
    const order: string[] = [];
    const timerRan = new Promise<void>((resolve) =>
      systemClock.setTimeout(() => {
        order.push('timer');
        resolve();
      }, 0),
    );
    systemClock.defer?.(() => order.push('deferred'));
    order.push('sync');
    await timerRan;
    assert.deepEqual(order, ['sync', 'deferred', 'timer']);
  });
});
