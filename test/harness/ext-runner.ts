/**
 * Runs test/ext (bundled into dist/test/ext) inside code-server's real extension host.
 * Chromium opens the workbench with `extensionDevelopmentPath`/`extensionTestsPath` in the `payload`
 * query parameter; the workbench reports the result through `window.codeAutomationExit`.
 * Prints `N passed, N failed`; exit status 0 only when tests ran and all passed.
 *   DEN_EXT_TIMEOUT_MS  overall timeout (default 900000: a guard against a hung run; the tier takes 300–450 s on
 *                      2 cores, beside an e2e runner in `npm test`)
 *   DEN_EXT_VERBOSE=1   also print the workbench's own log lines
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { STILL_SETTINGS, startCodeServer, type CodeServer } from './code-server';
import { addCleanup } from './cleanup';
import { repoRoot } from './paths';
import { settleSuite } from './suite-result';

const SUITE = 'ext';
/** Must match OUTPUT_MARK in test/ext/index.ts: marks the extension host's test output in the workbench log. */
const OUTPUT_MARK = '[den-ext] ';

/**
 * Builds the workbench URL that makes the extension host load Den from source and run the tests.
 * The window opens a `.code-workspace` holding the one folder: tests can then add a second folder
 * (multi-root) without the extension host restarting, as it would for a folder window.
 */
function testUrl(url: string, port: number, root: string, workspaceFile: string): string {
  const remote = (p: string): string => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(root)],
    ['extensionTestsPath', remote(path.join(root, 'dist', 'test', 'ext', 'index'))],
  ];
  return `${url}/?workspace=${encodeURIComponent(workspaceFile)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

async function main(): Promise<number> {
  const started = Date.now();
  const root = repoRoot();
  const timeoutMs = Number(process.env.DEN_EXT_TIMEOUT_MS) || 900_000;
  const verbose = process.env.DEN_EXT_VERBOSE === '1';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'den-ext-'));
  addCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const workspaceDir = path.join(tmp, 'workspace');
  const reporterFile = path.join(tmp, 'results.jsonl');
  fs.mkdirSync(workspaceDir);
  const workspaceFile = path.join(tmp, 'den-tests.code-workspace');
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'workspace' }] }));
  fs.writeFileSync(reporterFile, '');

  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let harnessError: string | undefined;
  try {
    if (!fs.existsSync(path.join(root, 'dist', 'test', 'ext', 'index.js'))) {
      throw new Error('dist/test/ext/index.js is missing: run `node esbuild.js --tests` first');
    }
    server = await startCodeServer({
      workspaceDir,
      smokeTestDriver: true,
      // The Chat view (for @den) exists only with AI features on; the stub model serves it offline.
      // No auto save (the desktop's default; VS Code for the web saves after 1 s): an edit a test
      // leaves unsaved stays unsaved however loaded the machine is. Tests of auto save set it.
      settings: { ...STILL_SETTINGS, 'chat.disableAIFeatures': false, 'files.autoSave': 'off' },
      // The test-only language model: VS Code calls chat participants only when a model is there.
      // (A second extensionDevelopmentPath is ignored by code-server: only one is loaded.)
      // The API probe: another installed extension, reading Den's exports (test/ext/api-probe.test.ts).
      // The empty extension: the floor of Den's activation (test/ext/activation.test.ts).
      extraExtensions: ['stub-model', 'api-probe', 'empty-extension'].map((e) => path.join(root, 'test', e)),
      env: { DEN_RESULT_FILE: reporterFile, DEN_SUITE: SUITE },
    });
    browser = await launchChromium();
    const page = await browser.newPage();
    let exit!: (code: number) => void;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number) => exit(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = Array.isArray(args) ? format(...(args as unknown[])) : String(args);
      if (text.startsWith(OUTPUT_MARK)) console.log(text.slice(OUTPUT_MARK.length));
      else if (verbose) console.log(`[workbench ${type}] ${text}`);
    });
    page.on('pageerror', (err) => verbose && console.log(`[page error] ${err.message}`));
    await page.goto(testUrl(server.url, server.port, root, workspaceFile));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)),
    );
    const code = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (code === 'timeout') harnessError = `no result within ${timeoutMs} ms`;
    else {
      console.log(`extension-host test exit code: ${code} after ${Date.now() - started} ms`);
      if (code !== 0 && !fs.readFileSync(reporterFile, 'utf8').includes('"failed":')) {
        harnessError = `the extension host exited with ${code} before mocha finished`;
      } else if (code !== 0) {
        const last = fs.readFileSync(reporterFile, 'utf8').trim().split('\n').pop() ?? '{}';
        if ((JSON.parse(last) as { failed?: number }).failed === 0)
          harnessError = `exit code ${code} with no failed test`;
      }
    }
  } catch (err) {
    harnessError = err instanceof Error ? err.message : String(err);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
  const rc = settleSuite(SUITE, reporterFile, harnessError);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`ext-host test wall time: ${Date.now() - started} ms (rc=${rc})`);
  return rc;
}

main().then(
  (rc) => process.exit(rc),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
