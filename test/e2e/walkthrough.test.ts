/**
 * The walkthrough, as a new person meets it: "Den: Get Started" from the Command Palette (and the
 * link in the Sessions view's welcome when there are no sessions) opens "Get Started with Den"; its
 * steps are listed, and New Session from the third step checks it off. Screenshot looked at:
 * `shots/walkthrough.png`.
 */
import assert from 'node:assert/strict';
import { runCommand } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { UI_WAIT, shot } from './sessions-view';
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
  const t = useSignedInWorkbench('walkthrough', { emulator: {} });

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
    assert.equal(await checked(STEPS[2]), false, 'a task was started already');
    await step(STEPS[2]).locator('.step-title').click();
    await step(STEPS[2])
      .locator('.monaco-button, a.button-link, button', { hasText: 'New Session' })
      .first()
      .click();
    await waitFor('the third step checked off', () => checked(STEPS[2]), { ...UI_WAIT, until: (c) => c });
    assert.equal(await checked(STEPS[3]), false, 'nothing was attached');
    // (New Session asks for the task: not now)
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await shot(t.wb, 'walkthrough');
  });
});
