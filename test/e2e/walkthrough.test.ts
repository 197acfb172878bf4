/**
 * The walkthrough, as a new person meets it: "Den: Get Started" from the Command Palette (and the
 * link in the Sessions view's welcome when there are no sessions) opens "Get Started with Den"; its
 * steps are listed, and New Session from the third step checks it off, as does a task sent from the
 * Session panel's composer (where no command runs; opening a session does not); a person who starts
 * with no service sees the first two steps check themselves off as they set the URL and the key.
 * Screenshots looked at: `shots/walkthrough.png`, `shots/walkthrough-task-from-panel.png`.
 *
 * VS Code does not tick a step whose context key already held when it registered the walkthrough (a
 * window that starts signed in): Get Started sets `den.walkthroughOpen` once the walkthrough is open,
 * and the first two steps also complete on `… && den.walkthroughOpen`, which changes then.
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import {
  answerInputBox,
  clickActivityBar,
  dismissQuickInput,
  openWorkbench,
  runCommand,
  treeItem,
  type Workbench,
} from '../harness/workbench';
import { waitFor } from '../support/wait';
import { sendTask } from './panel-view';
import { UI_WAIT, sessionTitles, shot } from './sessions-view';
import { useSignedInWorkbench } from './signed-in';

const STEPS = [
  'Point Den at your service',
  'Sign in with an API key',
  'Start a first task',
  'Give the agent your files',
  "Review and apply the agent's files",
];

describe('A new person opens the walkthrough', function () {
  this.timeout(120_000);
  const t = useSignedInWorkbench('walkthrough', {
    emulator: {},
    files: () => ({ 'notes.ts': 'export {};\n' }),
  });

  it('Den: Get Started shows the steps; a step checks itself off when its work is done', async () => {
    const { page } = t;
    await runCommand(page, 'Den: Get Started');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.locator('h2', { hasText: 'Get Started with Den' }).first().waitFor();
    const titles = walkthrough.locator('.getting-started-step .step-title');
    const shown = await waitFor('the steps', () => titles.allInnerTexts(), {
      ...UI_WAIT,
      until: (x) => x.length === STEPS.length,
    });
    assert.deepEqual(
      shown.map((x) => x.trim()),
      STEPS,
    );
    // A step checks itself off when its work is done: New Session from the third step.
    const step = (title: string) => walkthrough.locator('.getting-started-step', { hasText: title });
    const checked = async (title: string) => (await step(title).getAttribute('aria-checked')) === 'true';
    // Den is configured and signed in (this window starts so): the first two steps are done.
    await waitFor(
      'the first two steps checked off',
      async () => [await checked(STEPS[0]), await checked(STEPS[1])],
      {
        ...UI_WAIT,
        until: (c) => c[0] && c[1],
      },
    );
    assert.equal(await checked(STEPS[2]), false, 'a task was started already');
    await step(STEPS[2]).locator('.step-title').click();
    await step(STEPS[2])
      .locator('.monaco-button, a.button-link, button', { hasText: 'New Session' })
      .first()
      .click();
    await waitFor('the third step checked off', () => checked(STEPS[2]), { ...UI_WAIT, until: (c) => c });
    assert.equal(await checked(STEPS[3]), false, 'nothing was attached');
    // (New Session asks for the task: not now)
    await dismissQuickInput(page, 'Den: New Session');
    await shot(t.wb, 'walkthrough');
  });

  it('a task sent from the Session panel’s composer checks off "Start a first task"; opening a session does not', async () => {
    const { page, frame } = t;
    await runCommand(page, 'Den: Get Started');
    const walkthrough = page.locator('.gettingStartedContainer');
    const step = (title: string) => walkthrough.locator('.getting-started-step', { hasText: title });
    const checked = async (title: string) => (await step(title).getAttribute('aria-checked')) === 'true';
    await step(STEPS[2]).waitFor({ timeout: UI_WAIT.timeoutMs });
    assert.equal(await checked(STEPS[2]), false);
    // A session opened from the Sessions view (a click: Open Session): no task was started yet.
    await clickActivityBar(page, 'Den');
    const [title] = await waitFor('the sessions', () => sessionTitles(page), {
      ...UI_WAIT,
      until: (x) => x.length > 0,
    });
    await treeItem(page, title).click();
    await frame.locator('#composer-input').waitFor({ state: 'visible', timeout: UI_WAIT.timeoutMs });
    // The task, typed in the panel's composer and sent with Enter: no command runs in the workbench.
    await sendTask(frame, 'Say hello to the walkthrough', 'code');
    await runCommand(page, 'Den: Get Started');
    await waitFor('the third step checked off', () => checked(STEPS[2]), { ...UI_WAIT, until: (c) => c });
    assert.equal(await checked(STEPS[3]), false, 'nothing was attached');
    await shot(t.wb, 'walkthrough-task-from-panel');
  });

  it('the keyboard shortcuts start work: Ctrl+Alt+N a new session, Ctrl+Alt+A the file in the editor', async () => {
    const { page } = t;
    const title = page.locator('.quick-input-widget .quick-input-title');
    // Den is active (signed in) once its view has loaded: its keybindings' "den.signedIn" holds.
    await clickActivityBar(page, 'Den');
    await waitFor('the sessions', () => sessionTitles(page), { ...UI_WAIT, until: (x) => x.length > 0 });
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
    await page.keyboard.press('Control+Alt+N');
    await waitFor('the New Session box', () => title.allInnerTexts(), {
      ...UI_WAIT,
      until: (x) => x.some((s) => s.includes('Den: New Session')),
    });
    await dismissQuickInput(page);
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'notes.ts').click();
    await page.locator('.tab', { hasText: 'notes.ts' }).first().waitFor({ timeout: UI_WAIT.timeoutMs });
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Alt+A');
    await waitFor('the Ask About File box', () => title.allInnerTexts(), {
      ...UI_WAIT,
      until: (x) => x.some((s) => s.includes('Den: Ask About notes.ts')),
    });
    await dismissQuickInput(page);
  });
});

describe('A new person with no service yet follows the walkthrough', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let wb: Workbench;
  beforeEach(async () => {
    emu = await startEmulator({});
    wb = await openWorkbench({ settings: { 'den.showWalkthroughOnFirstRun': false } });
  });
  afterEach(async () => {
    await wb?.close();
    await emu?.close();
  });

  it('setting the URL checks off the first step, setting the key the second', async () => {
    const { page } = wb;
    await runCommand(page, 'Den: Get Started');
    const walkthrough = page.locator('.gettingStartedContainer');
    const step = (title: string): Locator => walkthrough.locator('.getting-started-step', { hasText: title });
    const checked = async (title: string) => (await step(title).getAttribute('aria-checked')) === 'true';
    await step(STEPS[0]).waitFor({ timeout: UI_WAIT.timeoutMs });
    assert.deepEqual([await checked(STEPS[0]), await checked(STEPS[1])], [false, false]);

    await runCommand(page, 'Den: Configure Service URL');
    await answerInputBox(page, 'Den: Service URL', emu.url);
    await waitFor('the first step checked off', () => checked(STEPS[0]), { ...UI_WAIT, until: (c) => c });
    assert.equal(await checked(STEPS[1]), false, 'signed in without a key');

    await runCommand(page, 'Den: Set API Key');
    await answerInputBox(page, 'Den: Set API Key', emu.keys.primary);
    await waitFor('the second step checked off', () => checked(STEPS[1]), { ...UI_WAIT, until: (c) => c });
    await wb.screenshot('walkthrough-first-steps');
  });
});
