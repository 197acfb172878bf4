/**
 * Helpers of the network-fault tests: VS Code's own `http.*` settings as Den reads them, and a
 * self-signed certificate made for the test with `openssl`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { DenSettings } from '../../src/editor/platform/settings';
import { waitFor } from '../support/wait';
import type { DenApi } from './helpers';

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
  const config = vscode.workspace.getConfiguration('http');
  const changes = !isDeepStrictEqual(config.inspect(name)?.globalValue, value);
  const before = api.connection.settings;
  await config.update(name, value, vscode.ConfigurationTarget.Global);
  await waitFor(`http.${name} to reach Den`, () => {
    const s = api.connection.settings;
    return (!changes || s !== before) && HTTP_SETTINGS[name](s, value);
  });
}

/** Removes every `http.*` setting a test set. */
export async function resetHttpSettings(api: DenApi): Promise<void> {
  for (const name of Object.keys(HTTP_SETTINGS) as (keyof typeof HTTP_SETTINGS)[])
    await setHttpSetting(api, name, undefined);
}

/**
 * A fresh self-signed certificate for 127.0.0.1 and localhost (EC P-256, one day), made by the
 * `openssl` command line (node:crypto cannot write X.509); the files are removed at once.
 */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-cert-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore', timeout: 20_000 },
    );
    return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
