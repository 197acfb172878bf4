import assert from 'node:assert/strict';
import { DEMO_KEY_SEEDED, seedDemoKey, type SeedMemo } from '../../../../src/editor/platform/demo-key';
import type { KeySource } from '../../../../src/editor/platform/key-store';
import { silentLogger } from '../../../../src/core/shared/log';

function memo(): SeedMemo & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(k: string) => values.get(k) as T | undefined,
    update: async (k: string, v: unknown) => void values.set(k, v),
  };
}

function keys(source?: KeySource, storeFails = false) {
  const k = {
    source,
    stored: [] as string[],
    window: [] as string[],
    async store(key: string) {
      if (storeFails) throw new Error('no keyring');
      k.stored.push(key);
      k.source = 'secret-storage' as KeySource;
    },
    useForWindow(key: string) {
      k.window.push(key);
    },
  };
  return k;
}

describe('auth: the demo key (DEN_DEMO_API_KEY) seeds SecretStorage once', () => {
  it('stores it when nothing is stored, once: not again after a Sign Out', async () => {
    const m = memo();
    const k = keys();
    assert.equal(await seedDemoKey(k, m, ' sk_live_demo ', silentLogger), 'stored');
    assert.deepEqual(k.stored, ['sk_live_demo']);
    assert.equal(m.values.get(DEMO_KEY_SEEDED), true);
    // the person signs out: the next activation finds no stored key, and leaves it so
    const after = keys();
    assert.equal(await seedDemoKey(after, m, 'sk_live_demo', silentLogger), 'skipped');
    assert.deepEqual(after.stored, []);
  });

  it('never replaces a key the person set, and does nothing without the variable', async () => {
    for (const source of ['secret-storage', 'window'] as const) {
      const k = keys(source);
      assert.equal(await seedDemoKey(k, memo(), 'sk_live_demo', silentLogger), 'skipped');
      assert.deepEqual(k.stored, []);
    }
    const m = memo();
    assert.equal(await seedDemoKey(keys(), m, '  ', silentLogger), 'skipped');
    assert.equal(await seedDemoKey(keys(), m, undefined, silentLogger), 'skipped');
    assert.equal(m.values.size, 0);
    // an environment key (DEN_API_KEY) is not stored: the demo key still is
    const env = keys('environment');
    assert.equal(await seedDemoKey(env, m, 'sk_live_demo', silentLogger), 'stored');
  });

  it('uses it for this window only where SecretStorage cannot keep it', async () => {
    const k = keys(undefined, true);
    assert.equal(await seedDemoKey(k, memo(), 'sk_live_demo', silentLogger), 'window');
    assert.deepEqual(k.window, ['sk_live_demo']);
  });
});
