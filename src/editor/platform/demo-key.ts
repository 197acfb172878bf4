/**
 * The demo's way to start signed in (`npm run demo`): a key handed to the editor in
 * `DEN_DEMO_API_KEY` is stored in SecretStorage once, when no key is stored yet, as if the person
 * had set it with Den: Set API Key. It is never used from the environment directly (unlike
 * `DEN_API_KEY`), so Sign Out works as it does for a key the person set, and it is not stored
 * again after a Sign Out (a flag in the extension's global state remembers the seeding; the key
 * itself is never written anywhere but SecretStorage).
 */
import type { Logger } from '../../core/shared/log';
import type { KeyStore } from './key-store';

/** The global-state flag: the demo key was stored once. */
export const DEMO_KEY_SEEDED = 'den.demoKeySeeded';

export interface SeedMemo {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/**
 * Stores `demoKey` in SecretStorage when SecretStorage (already read) holds none and no demo key was
 * stored before. Where SecretStorage cannot keep it, it is used for this window only. Returns what it
 * did.
 */
export async function seedDemoKey(
  keys: Pick<KeyStore, 'source' | 'store' | 'useForWindow'>,
  memo: SeedMemo,
  demoKey: string | undefined,
  logger: Logger,
): Promise<'stored' | 'window' | 'skipped'> {
  const key = demoKey?.trim();
  if (
    !key ||
    memo.get<boolean>(DEMO_KEY_SEEDED) ||
    keys.source === 'secret-storage' ||
    keys.source === 'window'
  )
    return 'skipped';
  await memo.update(DEMO_KEY_SEEDED, true);
  try {
    await keys.store(key);
    logger.info('Signed in with the demo key (DEN_DEMO_API_KEY), now kept in SecretStorage.');
    return 'stored';
  } catch (err) {
    keys.useForWindow(key);
    logger.warn(
      `SecretStorage could not keep the demo key; it is used for this window only (${String(err)}).`,
    );
    return 'window';
  }
}
