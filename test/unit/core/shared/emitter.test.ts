import assert from 'node:assert/strict';
import { Emitter } from '../../../../src/core/shared/emitter';

describe('Emitter', () => {
  it('calls listeners in the order they subscribed, until each is disposed', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    const a = e.event((n) => seen.push(`a${n}`));
    e.event((n) => seen.push(`b${n}`));
    e.fire(1);
    a.dispose();
    e.fire(2);
    assert.deepEqual(seen, ['a1', 'b1', 'b2']);
    e.dispose();
    e.fire(3);
    assert.deepEqual(seen, ['a1', 'b1', 'b2']);
  });

  it('runs every listener when one throws, then rethrows the first error', () => {
    const e = new Emitter<string>();
    const seen: string[] = [];
    e.event(() => {
      throw new Error('first');
    });
    e.event(() => {
      throw new Error('second');
    });
    e.event((s) => seen.push(s));
    assert.throws(() => e.fire('x'), /first/);
    assert.deepEqual(seen, ['x']);
  });

  it('lets a listener unsubscribe itself while the event is fired', () => {
    const e = new Emitter<void>();
    let calls = 0;
    const sub = e.event(() => {
      calls++;
      sub.dispose();
    });
    e.fire();
    e.fire();
    assert.equal(calls, 1);
  });
});
