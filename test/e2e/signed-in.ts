/**
 * The setting most end-to-end tests start from: a fresh workspace with some files, a fresh emulator,
 * and code-server with Den signed in to it (the key from the environment). Registers mocha hooks:
 * each test gets its own; a failed test leaves a screenshot and prints the notifications shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import { repoRoot } from '../harness/paths';
import { notifications, openWorkbench, webviewFrame, type Workbench } from '../harness/workbench';

export interface SignedIn {
  emu: Emulator;
  wb: Workbench;
  page: Page;
  /** The last webview's frame (the one panel these tests open). */
  frame: FrameLocator;
  workspace: string;
}

export function useSignedInWorkbench(
  name: string,
  setup: {
    files?: () => Record<string, string>;
    emulator?: EmulatorOptions;
    /** The Chat view with the test-only stub model (test/stub-model), so `@den` can be called. */
    chat?: boolean;
    /** More test-only extensions installed beside Den (e.g. test/api-probe), and their environment. */
    extensions?: string[];
    env?: Record<string, string>;
  },
): SignedIn {
  const t = {} as SignedIn;
  beforeEach(async () => {
    t.workspace = fs.mkdtempSync(path.join(os.tmpdir(), `den-${name}-ws-`));
    for (const [file, text] of Object.entries(setup.files?.() ?? {})) {
      fs.mkdirSync(path.dirname(path.join(t.workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(t.workspace, file), text);
    }
    t.emu = await startEmulator(setup.emulator);
    t.wb = await openWorkbench({
      workspaceDir: t.workspace,
      settings: { 'den.baseUrl': t.emu.url, ...(setup.chat ? { 'chat.disableAIFeatures': false } : {}) },
      env: { DEN_API_KEY: t.emu.keys.primary, ...setup.env },
      extraExtensions: [
        ...(setup.chat ? [path.join(repoRoot(), 'test', 'stub-model')] : []),
        ...(setup.extensions ?? []),
      ],
    });
    t.page = t.wb.page;
    t.frame = webviewFrame(t.page);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      await t.wb?.screenshot(`${name}-failure`).catch(() => undefined);
      const toasts = await notifications(t.page).catch(() => []);
      if (toasts.length) console.log(`notifications shown: ${JSON.stringify(toasts)}`);
    }
    await t.wb?.close();
    await t.emu?.close();
    if (t.workspace) fs.rmSync(t.workspace, { recursive: true, force: true });
  });
  return t;
}
