/**
 * The README's first command, as a person runs it: `npm run demo` (through npm, with whatever
 * environment npm hands it), then the printed URL in a browser: signed in already (the demo key in
 * SecretStorage), the seeded sessions in the tree, the README's web task from the sample schema file,
 * Sign Out and the printed key back into "Den: Set API Key"; Ctrl+C stops everything it started. Uses the CS_HOME of
 * this run (under CI a first install made moments before by the same scripts).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { freePort } from '../harness/code-server';
import { repoRoot } from '../harness/paths';
import { descendants, isAlive, killTree } from '../harness/process-tree';
import { WEB_TASK_SAMPLE } from '../emulator/web-task-sample';
import {
  answerInputBox,
  clickActivityBar,
  contextMenuAction,
  runCommand,
  treeItem,
  webviewFrame,
} from '../harness/workbench';
import { waitFor } from '../support/wait';
import { UI_WAIT, sessionTitles, welcomeText } from './sessions-view';

const START_TIMEOUT_MS = 240_000;

/** Resolves with the first match of `re` in the process's output, or rejects when it exits first. */
function waitForOutput(child: ChildProcess, out: { text: string }, re: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`no ${re} within ${START_TIMEOUT_MS} ms:\n${out.text.slice(-3000)}`)),
      START_TIMEOUT_MS,
    );
    const check = (): void => {
      const m = out.text.match(re);
      if (m) finish(undefined, m);
    };
    const exited = (code: number | null): void =>
      finish(new Error(`npm run demo exited (${code}) before ${re}:\n${out.text.slice(-3000)}`));
    const finish = (err?: Error, m?: RegExpMatchArray): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', exited);
      if (err) reject(err);
      else resolve(m as RegExpMatchArray);
    };
    child.stdout?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

describe('npm run demo: a person starts Den against the embedded emulator', function () {
  this.timeout(START_TIMEOUT_MS + 120_000);
  let demo: ChildProcess | undefined;
  let browser: Browser | undefined;
  const out = { text: '' };

  after(async () => {
    await browser?.close().catch(() => undefined);
    if (demo?.pid && isAlive(demo.pid)) await killTree(demo.pid);
  });

  it('prints a URL and a key that give a working, signed-in workbench, and stops everything on Ctrl+C', async () => {
    const [editorPort, emulatorPort] = [await freePort(), await freePort()];
    demo = spawn('npm', ['run', 'demo'], {
      cwd: repoRoot(),
      env: {
        ...process.env,
        DEN_DEMO_PORT: String(editorPort),
        DEN_DEMO_EMULATOR_PORT: String(emulatorPort),
      },
      detached: true, // its own process group, as a terminal gives it: Ctrl+C goes to the whole group
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    demo.stdout?.on('data', (d: Buffer) => (out.text += d.toString()));
    demo.stderr?.on('data', (d: Buffer) => (out.text += d.toString()));
    const [, url] = await waitForOutput(demo, out, /Open in a browser:\s+(\S+)/);
    const [, key] = await waitForOutput(demo, out, /Demo API key:\s+(\S+)/);
    assert.ok(url.startsWith(`http://127.0.0.1:${editorPort}/`), url);

    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(url);
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    // Signed in from the start: the demo key went into SecretStorage (DEN_DEMO_API_KEY), no pasting.
    await clickActivityBar(page, 'Den');
    // A new person's first minutes: Den, activated, shows its walkthrough in the empty editor area.
    await page
      .locator('.gettingStartedContainer h2', { hasText: 'Get Started with Den' })
      .first()
      .waitFor({ timeout: 60_000 });
    const titles = await waitFor('the emulator’s seeded sessions', () => sessionTitles(page), {
      ...UI_WAIT,
      until: (t) => t.length > 0,
    });
    assert.ok(titles.includes('Refactor auth middleware'), titles.join(', '));

    // The README's web task: the demo workspace's schema file, run from its Explorer menu.
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'schemas').click();
    await contextMenuAction(page, 'laptops.denschema.json', 'Run Web Task with This Schema');
    const frame = webviewFrame(page);
    await waitFor('the schema in the form', () => frame.locator('#wt-schemaText').inputValue(), {
      ...UI_WAIT,
      until: (t) => t.includes('"seller"'),
    });
    await frame.locator('#wt-appUrl').fill(WEB_TASK_SAMPLE.appUrl);
    await frame.locator('#wt-query').fill(WEB_TASK_SAMPLE.query);
    await frame.locator('#wt-run').click();
    await waitFor('the web task to finish', () => frame.locator('#wt-phase').getAttribute('data-phase'), {
      ...UI_WAIT,
      timeoutMs: 60_000,
      until: (p) => p === 'done',
    });
    const rows = await waitFor('its rows', () => frame.locator('#wt-table tbody tr[data-row]').count(), {
      ...UI_WAIT,
      until: (n) => n > 0,
    });
    assert.ok((await frame.locator('td.wt-issue').count()) > 0, `no gap highlighted in ${rows} rows`);

    // The key was stored as a person's would be: Sign Out signs out; the printed key signs in again.
    await clickActivityBar(page, 'Den');
    await runCommand(page, 'Den: Sign Out');
    await waitFor('the "Set API Key" welcome after signing out', () => welcomeText(page), {
      ...UI_WAIT,
      until: (t) => /Sign in to see your sessions/.test(t),
    });
    await runCommand(page, 'Den: Set API Key');
    await answerInputBox(page, 'Den: Set API Key', key);
    await waitFor('the sessions again', () => sessionTitles(page), {
      ...UI_WAIT,
      until: (t) => t.length > 0,
    });
    await browser.close();
    browser = undefined;

    const pid = demo.pid;
    assert.ok(pid);
    const started = [pid, ...descendants(pid)];
    const exited = new Promise<string>((resolve) =>
      demo?.once('exit', (code, sig) => resolve(sig ?? `code ${code}`)),
    );
    process.kill(-pid, 'SIGINT'); // Ctrl+C
    // npm itself ends on the signal, as in a terminal; the demo stops what it started, then says so
    assert.match(await exited, /^(SIGINT|code 0)$/);
    await waitFor('the demo to say it stopped', async () => out.text, {
      ...UI_WAIT,
      until: (t) => /Stopping the demo/.test(t),
    });
    await waitFor('every process the demo started to end', async () => started.filter(isAlive), {
      ...UI_WAIT,
      until: (alive) => alive.length === 0,
    });
  });
});
