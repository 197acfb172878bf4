/**
 * Signing Den in and out: its key in SecretStorage, signing in for the window, and back to a clean,
 * unconfigured Den.
 */
import type * as vscode from 'vscode';
import { waitFor } from '../support/wait';
import type { DenApi } from './den-api';
import { setDenSetting } from './settings-helpers';

/** Den's key in SecretStorage (src/editor/platform/key-store.ts). */
const SECRET_ID = 'den.apiKey';

/**
 * Runs a change that writes or deletes Den's key in SecretStorage (Set API Key, Sign Out, `clear`)
 * and waits until Den has read back its own write: SecretStorage reports it to every listener a
 * little later, and Den's key store then reloads the key (and refreshes the tree when the key in use
 * changed meanwhile). Waiting for that report, and for the reload it starts, keeps that late
 * refresh out of the next step. Only for changes that do reach SecretStorage: others get no report.
 */
export async function settleKeyChange<T>(api: DenApi, change: () => PromiseLike<T>): Promise<T> {
  const keys = api.keys as unknown as { secrets?: vscode.SecretStorage; load: () => Promise<void> };
  const secrets = keys.secrets;
  if (!secrets) throw new Error('the key store keeps no SecretStorage in `secrets`: update settleKeyChange');
  let reported = false;
  const reloads: Promise<void>[] = [];
  const load = keys.load;
  // Den's listener was added at activation, so it runs before this one and has called `load` by then.
  keys.load = function (this: unknown) {
    const p = load.call(this);
    reloads.push(p);
    return p;
  };
  const sub = secrets.onDidChange((e) => {
    if (e.key === SECRET_ID) reported = true;
  });
  try {
    const result = await change();
    await waitFor('SecretStorage to report the change of the key back to Den', () => reported);
    // Den's own continuation was queued on the reload first: it has run when this one resumes.
    await Promise.allSettled(reloads);
    return result;
  } finally {
    sub.dispose();
    delete (keys as { load?: unknown }).load;
  }
}

/** Points Den at `url` and signs in with `key` for this window only (no SecretStorage, no request). */
export async function signIn(api: DenApi, url: string, key: string, pageSize?: number): Promise<void> {
  if (pageSize !== undefined) await setDenSetting(api, 'sessionsPageSize', pageSize);
  await setDenSetting(api, 'baseUrl', url);
  api.keys.useForWindow(key);
  await waitFor('state ready', () => api.connection.state.kind === 'ready');
}

/**
 * Back to a clean, unconfigured Den: no panel and no turn followed, no filter, no key, default
 * settings, no retry pending. With `keepAddress`, `den.baseUrl` may stay as it is (Den is then
 * signed out: no key, no request), for a sign-in that replaces it or a later reset that clears it.
 */
export async function resetDen(api: DenApi, options: { keepAddress?: boolean } = {}): Promise<void> {
  api.panels.closeAll();
  await api.comments.forget();
  await api.keptOutHunks.forget();
  if (api.sessions.filter) await api.sessions.setFilter(undefined);
  if (api.keys.source === 'secret-storage') await settleKeyChange(api, () => api.keys.clear());
  else if (api.keys.key) await api.keys.clear();
  await setDenSetting(api, 'sessionsPageSize', undefined);
  if (!options.keepAddress) await setDenSetting(api, 'baseUrl', undefined);
  // The tests list the emulator's sessions, started elsewhere: All Sessions, unless a test says.
  await api.sessions.setShowAll(true);
  await api.sessions.refresh();
  const clean = options.keepAddress ? ['unconfigured', 'signed-out'] : ['unconfigured'];
  await waitFor(`state ${clean.join(' or ')}`, () => clean.includes(api.connection.state.kind));
  // Turns earlier tests ran (headless ones too) leave nothing unseen on the badge.
  api.attention.seen();
}
