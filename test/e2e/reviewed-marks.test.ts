/**
 * Reviewed marks as a person meets them in the Session panel: a code turn, a file marked reviewed
 * with its toggle ("1 of 2 reviewed"), then a second turn that changes the same files: the new
 * turn's files are not reviewed (the mark cleared). A screenshot at each step.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { clickActivityBar, treeItem, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { panelShot, scrollRowToTop, sendTask, turnEnds } from './panel-view';
import { UI_WAIT, showAllSessions } from './sessions-view';
import { useSignedInWorkbench } from './signed-in';

const SESSION = 'Refactor auth middleware';
const TASK = 'Add review parser';

describe('Reviewed marks in the Session panel', function () {
  this.timeout(240_000);
  const t = useSignedInWorkbench('reviewed-marks', { emulator: { eventDelayMs: 10 } });
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  beforeEach(() => {
    ({ wb, page, frame } = t);
  });

  /** The "Files changed" row of the newest turn, once it lists `path`. */
  async function newestFiles(path: string): Promise<Locator> {
    const files = frame.locator('.rows > .row.files', { hasText: path }).last();
    await files.waitFor();
    return files;
  }

  const toggle = (files: Locator, path: string): Locator =>
    files.getByRole('button', { name: `Reviewed: ${path}` });

  async function pressed(button: Locator, want: 'true' | 'false'): Promise<void> {
    await waitFor(`the toggle pressed=${want}`, () => button.getAttribute('aria-pressed'), {
      ...UI_WAIT,
      until: (v) => v === want,
    });
  }

  it('marks a file reviewed with its toggle, counts it, and a later turn that changes the file is not reviewed', async () => {
    const src = 'src/add-review-parser.ts';
    // A click on the session's row opens it (a right-click menu can be lost while the list redraws).
    await clickActivityBar(page, 'Den');
    await showAllSessions(page);
    await treeItem(page, SESSION).click();
    await frame.locator('#session-title', { hasText: SESSION }).waitFor();
    await frame.locator('#composer-input').waitFor({ state: 'visible' });
    await sendTask(frame, TASK, 'code');
    await turnEnds(frame, TASK, /^completed$/);

    // 1. The toggle, from the keyboard: pressed, and the turn counts it.
    const first = await newestFiles(src);
    const count = first.locator('.files-reviewed');
    assert.equal(await count.innerText(), '0 of 2 reviewed');
    await toggle(first, src).focus();
    await page.keyboard.press('Enter');
    await pressed(toggle(first, src), 'true');
    await waitFor('the count', () => count.innerText(), {
      ...UI_WAIT,
      until: (c) => c === '1 of 2 reviewed',
    });
    assert.equal(await toggle(first, src).getAttribute('title'), `Mark ${src} as not reviewed`);
    await scrollRowToTop(first);
    await panelShot(wb, frame, 'reviewed-1-marked');

    // 2. The agent changes the same files again: the new turn's versions are not reviewed.
    await sendTask(frame, `${TASK} again`, 'code');
    await turnEnds(frame, `${TASK} again`, /^completed$/);
    const second = await newestFiles(src);
    assert.equal(await second.locator('.files-reviewed').innerText(), '0 of 2 reviewed');
    assert.equal(await toggle(second, src).getAttribute('aria-pressed'), 'false');
    await scrollRowToTop(second);
    await panelShot(wb, frame, 'reviewed-2-changed-again');
  });
});
