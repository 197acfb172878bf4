/**
 * Reaching Den as the extension under test: its public API with its live pieces (`denApi`), its
 * manifest as VS Code reads it, and what its output channel holds.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DenExtensionApi, DenTurnRef, DenTurnSnapshot } from '../../src/editor/api/types';
import type { DenTestInternals } from '../../src/editor/api/test-internals';
import { waitFor } from '../support/wait';

/**
 * Den's public API and its live pieces, as the tests reach them (not through `exports`: that is the
 * public API only, docs/api.md).
 */
export type DenApi = DenTestInternals;

export const EXTENSION_ID = 'den-dev.den';

/**
 * Where Den puts its internals when VS Code runs it as the extension under test (`ExtensionMode.Test`;
 * `TEST_INTERNALS_KEY` in src/editor/api/test-internals.ts, docs/decisions/2026-11-26-exports-are-the-public-api.md).
 */
const TEST_INTERNALS = Symbol.for('den-dev.den.testInternals');

/**
 * Activates Den (once) and returns its public API with its live pieces. Not `exports` (the public
 * API only, what any extension reads): the object Den publishes for its own tests in Test mode.
 */
export async function denApi(): Promise<DenApi> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
  const internals = (globalThis as Record<symbol, unknown>)[TEST_INTERNALS] as DenApi | undefined;
  if (!internals) throw new Error(`${EXTENSION_ID} published no test internals: is it running in Test mode?`);
  return internals;
}

/**
 * Den's package.json with its `%key%` strings resolved from package.nls.json, as VS Code shows them
 * in English.
 */
export function denManifest<T>(): T {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const nls = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.nls.json'), 'utf8')) as Record<
    string,
    string
  >;
  return JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8'), (_key, value) => {
    const m = typeof value === 'string' ? /^%([^%]+)%$/.exec(value) : null;
    return m ? nls[m[1]] : value;
  }) as T;
}

/** Reads what the Den output channel holds, through the document VS Code opens for it. */
export async function denLogText(mustContain: string): Promise<string> {
  await vscode.commands.executeCommand('den.showLog');
  try {
    return await waitFor(
      `the Den log to contain "${mustContain}"`,
      () => {
        const doc = vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'output' && /Den/.test(d.uri.path),
        );
        const text = doc?.getText();
        return text?.includes(mustContain) ? text : undefined;
      },
      { timeoutMs: 8_000, intervalMs: 100 },
    );
  } finally {
    await vscode.commands.executeCommand('workbench.action.closePanel');
  }
}

/**
 * Starts a turn through Den's public API (as `@den` and the tools do, no panel) and resolves with
 * its last snapshot once it ended.
 */
export async function turnThroughApi(
  options: Parameters<DenExtensionApi['startTurn']>[0],
): Promise<{ ref: DenTurnRef; ended: DenTurnSnapshot }> {
  const ext = vscode.extensions.getExtension<DenExtensionApi>(EXTENSION_ID);
  assert.ok(ext?.isActive, 'Den is active');
  const api = ext.exports;
  const ref = await api.startTurn(options);
  let sub: vscode.Disposable | undefined;
  const ended = await new Promise<DenTurnSnapshot>((resolve) => {
    // (the listener stops being called once the turn ended)
    sub = api.followTurn(ref, (snap) => {
      if (snap.status !== 'running' && snap.status !== 'queued') resolve(snap);
    });
  });
  sub?.dispose();
  return { ref, ended };
}
