import assert from 'node:assert/strict';
import { useDen } from './fixtures';

/** The context keys the Sessions view sets for its welcome content and title actions. */
const VIEW_KEYS = new Set([
  'den.sessionsEmpty',
  'den.sessionsShowAll',
  'den.sessionsScopeEmpty',
  'den.authError',
  'den.offline',
]);

describe('Sessions view: context keys', () => {
  const den = useDen({ trackContext: true });

  const viewKeysSince = (n: number): string[] =>
    den.context
      .history()
      .slice(n)
      .map(([key]) => key)
      .filter((key) => VIEW_KEYS.has(key));

  /** A refresh, loaded as the view would load it (the view may be hidden in the test window). */
  const refresh = async (): Promise<void> => {
    await den.api.sessions.refresh();
    await den.api.sessions.getChildren();
  };

  it('sets a key only when its value changes: a refresh that changes nothing sets none', async () => {
    await refresh();
    const loaded = den.context.history().length;
    await refresh();
    assert.deepEqual(viewKeysSince(loaded), [], 'an unchanged refresh sets no key');

    const filtered = den.context.history().length;
    await den.api.sessions.setFilter('no session has this title 7f3a');
    await refresh();
    assert.equal(den.context.get('den.sessionsEmpty'), true);
    assert.deepEqual(viewKeysSince(filtered), ['den.sessionsEmpty'], 'only the key that changed');

    await den.api.sessions.setFilter(undefined);
    await refresh();
    assert.equal(den.context.get('den.sessionsEmpty'), false);
  });
});
