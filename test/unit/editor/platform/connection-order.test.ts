import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import { RequestOrder } from '../../../../src/editor/platform/request-order';
import { welcomeExplains, welcomeKeys } from '../../../../src/model/sessions-list/welcome-state';

/**
 * The race behind the e2e flake "shows the 'rejected your API key' welcome when the service answers
 * 401 to the list" (last seen: an empty view): a session's turns, fetched for an expanded row before
 * the refresh, succeeded *after* the list's 401 and cleared the "key rejected" state, leaving an
 * empty view with no welcome. Replayed here in both orders, without timers.
 */
describe('which request outcome describes the connection', () => {
  it('ignores the success of a request that started before a failure that already settled', () => {
    const order = new RequestOrder();
    const turns = order.begin(); // the expanded row's turns, asked for first
    const list = order.begin(); // the refresh's list
    assert.equal(order.accept(list), true, 'the 401 of the list');
    assert.equal(order.accept(turns), false, 'the older success must not clear the 401');
  });

  it('accepts outcomes that settle in the order their requests started', () => {
    const order = new RequestOrder();
    const a = order.begin();
    const b = order.begin();
    assert.equal(order.accept(a), true);
    assert.equal(order.accept(b), true);
  });

  it('accepts a later request after an earlier failure (the service recovered)', () => {
    const order = new RequestOrder();
    const failed = order.begin();
    assert.equal(order.accept(failed), true);
    const retry = order.begin();
    assert.equal(order.accept(retry), true);
  });

  it('treats an untracked outcome as starting now: it replaces everything before it', () => {
    const order = new RequestOrder();
    const old = order.begin();
    assert.equal(order.accept(undefined), true);
    assert.equal(order.accept(old), false);
  });
});

describe('the Sessions view welcome keys follow the view’s own last list load', () => {
  const err = (code: ConstructorParameters<typeof DenError>[0]['code'], status?: number) =>
    new DenError({ code, message: 'x', ...(status ? { status } : {}) });

  it('a 401 shows "key rejected" and not "offline"', () => {
    assert.deepEqual(welcomeKeys(err('unauthorized', 401)), { 'den.authError': true, 'den.offline': false });
  });

  it('a network failure shows "offline"; a 5xx does not (the service answered: its words are shown)', () => {
    assert.deepEqual(welcomeKeys(err('network')), { 'den.authError': false, 'den.offline': true });
    assert.deepEqual(welcomeKeys(err('server', 503)), { 'den.authError': false, 'den.offline': false });
    assert.equal(welcomeExplains(err('server', 503)), false);
  });

  it('a successful load (no error) shows neither', () => {
    assert.deepEqual(welcomeKeys(undefined), { 'den.authError': false, 'den.offline': false });
  });

  it('errors without a welcome of their own are shown as the view message instead', () => {
    assert.equal(welcomeExplains(err('forbidden', 403)), false);
    assert.equal(welcomeExplains(err('rate_limited', 429)), false);
    assert.equal(welcomeExplains(err('unauthorized', 401)), true);
    assert.equal(welcomeExplains(err('bad_request', 400)), false);
    assert.equal(welcomeExplains(err('timeout')), true, 'a timeout is shown as offline');
  });
});
