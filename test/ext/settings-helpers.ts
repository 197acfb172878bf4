/**
 * Changing the settings Den reads, Den's own `den.*` and VS Code's `http.*`, and waiting until Den
 * has read the change.
 */
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { DenSettings } from '../../src/editor/platform/settings';
import { waitFor } from '../support/wait';
import type { DenApi } from './den-api';

/**
 * Sets `section.name` in the user's settings (undefined removes it) and waits until Den has read it:
 * Den reads every setting again on each change (a new `connection.settings` object), and then
 * refreshes, so no late reaction to this change lands in the next step. `reached` says whether
 * Den's settings hold the value.
 */
async function setSetting(
  api: DenApi,
  section: string,
  name: string,
  value: unknown,
  reached: (s: DenSettings) => boolean,
): Promise<void> {
  const config = vscode.workspace.getConfiguration(section);
  const changes = !isDeepStrictEqual(config.inspect(name)?.globalValue, value);
  const before = api.connection.settings;
  // A write of the value it already has changes nothing Den reads, and costs a settings file write.
  if (changes) await config.update(name, value, vscode.ConfigurationTarget.Global);
  await waitFor(`${section}.${name} to reach Den`, () => {
    const s = api.connection.settings;
    return (!changes || s !== before) && reached(s);
  });
}

/**
 * Sets one `den.*` setting (undefined removes it) and waits until Den has read it, and refreshed
 * the tree after it.
 */
export async function setDenSetting(api: DenApi, name: string, value: unknown): Promise<void> {
  await setSetting(api, 'den', name, value, (s) => {
    if (name === 'baseUrl') return value ? s.baseUrl === String(value).replace(/\/+$/, '') : !s.baseUrl;
    if (name === 'sessionsPageSize') return s.pageSize === (value ?? 50);
    return true;
  });
}

/** The `http.*` settings Den honours, and where each lands in Den's settings. */
const HTTP_SETTINGS = {
  proxy: (s: DenSettings, v: unknown) =>
    s.proxyUrl === (typeof v === 'string' && v.trim() ? v.trim() : undefined),
  noProxy: (s: DenSettings, v: unknown) => isDeepStrictEqual(s.noProxy, v ?? []),
  proxyStrictSSL: (s: DenSettings, v: unknown) => s.strictSSL === (v !== false),
} as const;

/**
 * Sets one of VS Code's `http.*` settings (undefined removes it) and waits until Den has read it
 * (a new settings object with the value in it), so the refresh it starts is under way.
 */
export async function setHttpSetting(
  api: DenApi,
  name: keyof typeof HTTP_SETTINGS,
  value: unknown,
): Promise<void> {
  await setSetting(api, 'http', name, value, (s) => HTTP_SETTINGS[name](s, value));
}

/** Removes every `http.*` setting a test set. */
export async function resetHttpSettings(api: DenApi): Promise<void> {
  for (const name of Object.keys(HTTP_SETTINGS) as (keyof typeof HTTP_SETTINGS)[])
    await setHttpSetting(api, name, undefined);
}

/**
 * Runs `body` with `files.autoSave` set to `value` in the user settings, then puts back what the
 * user settings held (the ext tier's workbench starts with `off`, test/harness/ext-runner.ts).
 */
export async function withAutoSave<T>(value: string, body: () => Promise<T>): Promise<T> {
  const files = vscode.workspace.getConfiguration('files');
  const before = files.inspect<string>('autoSave')?.globalValue;
  await files.update('autoSave', value, vscode.ConfigurationTarget.Global);
  try {
    return await body();
  } finally {
    await vscode.workspace
      .getConfiguration('files')
      .update('autoSave', before, vscode.ConfigurationTarget.Global);
  }
}
