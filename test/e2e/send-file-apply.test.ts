/**
 * Issue 22, point 3, as a person meets it: Ask Agent About File… from the Explorer, the agent rewrites
 * the file, the person saves an edit of their own, and Apply merges both (the base Den recorded at
 * the send) with Apply as the modal's default button; without a base the default is Review… and the
 * summary says how many saved lines replacing would lose. A screenshot at every step.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { ROUND_TRIP_SAMPLE } from '../emulator/write-back';
import { clickActivityBar, contextMenuAction, dialog, treeItem, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { panelShot, scrollRowToTop, TURN_TIMEOUT_MS } from './panel-view';
import { UI_WAIT, sessionTitles, shot, showAllSessions } from './sessions-view';

const TASK = 'Implement the total';
const MINE = ROUND_TRIP_SAMPLE.content;
/** The person's edit of line 8, saved after the send (the agent changes lines 1 and 3). */
const MY_LINE = '  return `Sum for ${name}`;';
const EDITED = MINE.replace('  return `Total for ${name}`;', MY_LINE);
/** The agent's version (a header, the TODO done) with the person's edit merged in. */
const MERGED = ['// Reviewed by the agent', ...EDITED.split('\n')]
  .join('\n')
  .replace('  // TODO: add up the items', '  // Done: add up the items');

describe('A person asks about a file with Ask Agent About File…, edits it, and Apply keeps the edit', function () {
  this.timeout(300_000);
  const t = useSignedInWorkbench('send-file', {
    files: () => ({ 'src/total.ts': MINE }),
    emulator: { eventDelayMs: 25 },
  });
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  let file: string;
  beforeEach(() => {
    ({ wb, page, frame } = t);
    file = path.join(t.workspace, 'src', 'total.ts');
  });

  const disk = (what: string, until: (text: string) => boolean): Promise<string> =>
    waitFor(what, () => fs.readFileSync(file, 'utf8'), { ...UI_WAIT, until });

  /** Sends src/total.ts to a new session from the Explorer's context menu; waits for the turn's end. */
  async function sendFromExplorer(): Promise<void> {
    // Den signed in (its menu entries need it): the Sessions view lists the seeded sessions.
    await clickActivityBar(page, 'Den');
    await showAllSessions(page);
    await waitFor('the seeded sessions', () => sessionTitles(page), {
      ...UI_WAIT,
      until: (titles) => titles.length > 0,
    });
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'src').click();
    await treeItem(page, 'total.ts').click();
    await page.locator('.part.editor .tab.active', { hasText: 'total.ts' }).waitFor();
    await shot(wb, 'send-file-1-file');

    await contextMenuAction(page, 'total.ts', 'Ask Agent About File…');
    // The task's input box, then the session's quick pick in the same widget (which so never hides:
    // answerInputBox's retried Enter would pick the first session, so Enter is pressed again only
    // while the input box still shows, as VS Code may drop an Enter racing its validation).
    const widget = page.locator('.quick-input-widget');
    const taskBox = widget.locator('.quick-input-title', { hasText: 'Den: Ask About total.ts' });
    await taskBox.waitFor({ state: 'visible' });
    await widget.locator('.quick-input-box input').fill(TASK);
    const newSession = widget.locator('.quick-input-list .monaco-list-row', { hasText: 'New session' });
    for (let attempt = 1; ; attempt++) {
      if (await taskBox.isVisible()) await page.keyboard.press('Enter');
      try {
        await newSession.first().waitFor({ state: 'visible', timeout: 3_000 });
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
      }
    }
    await shot(wb, 'send-file-2-which-session');
    await newSession.first().click();

    const status = frame.locator('.rows > .turn-status').last();
    await waitFor('the turn to complete', () => status.getAttribute('data-status'), {
      ...UI_WAIT,
      timeoutMs: TURN_TIMEOUT_MS,
      until: (s) => s === 'completed',
    });
    await frame.locator('.rows > .row', { hasText: 'src/total.ts.notes.md' }).first().waitFor();
    await panelShot(wb, frame, 'send-file-3-turn-completed');
  }

  it('Ask Agent About File…, a saved edit, then Apply (the default button) merges and keeps the edit', async () => {
    await sendFromExplorer();

    // The person edits line 8 and saves.
    await page.locator('.part.editor .tab', { hasText: 'total.ts' }).first().click();
    await page.locator('.part.editor .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < 8; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+End');
    await page.keyboard.insertText(MY_LINE);
    await page.keyboard.press('Control+S');
    await disk('the edit to be saved', (text) => text === EDITED);
    await shot(wb, 'send-file-4-edited');

    // Apply from the panel: a merge, no question, and Apply is the default (focused) button.
    await page.locator('.part.editor .tab', { hasText: TASK }).first().click();
    const files = frame.locator('.rows > .row.files', { hasText: 'total.ts.notes.md' }).last();
    await files.waitFor();
    const state = files
      .locator('li.file-item:has(> button.file-change[data-path$="src/total.ts"])')
      .locator('.file-state');
    await waitFor('the panel to show the merge', () => state.getAttribute('data-state'), {
      ...UI_WAIT,
      until: (s) => s === 'modified',
    });
    await scrollRowToTop(files);
    await files.locator('button[data-command="den.applyTurn"]').click();
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible' });
    const summary = await modal.innerText();
    assert.doesNotMatch(summary, /Needs your confirmation|will be lost/, summary);
    const focused = modal.locator('.dialog-buttons .monaco-button:focus');
    assert.equal((await focused.innerText()).trim(), 'Apply', summary);
    await shot(wb, 'send-file-5-summary');

    await page.keyboard.press('Enter');
    await modal.waitFor({ state: 'hidden' });
    assert.equal(await disk('the merge to be written', (text) => text === MERGED), MERGED);
    await page.locator('.part.editor .tab', { hasText: 'total.ts' }).first().click();
    await page
      .locator('.part.editor .editor-instance .view-line', { hasText: /Sum\s+for/ })
      .first()
      .waitFor();
    await shot(wb, 'send-file-6-merged');
  });

  it('a file the agent wrote over one of the person’s that Den never sent: Review… is the default, the lines lost are counted', async () => {
    await sendFromExplorer();
    // The turn also writes src/implement-total.ts; the person has such a file, never sent: no base.
    const theirs = path.join(t.workspace, 'src', 'implement-total.ts');
    const own = Array.from({ length: 12 }, (_, i) => `export const mine${i + 1} = ${i + 1};\n`).join('');
    fs.writeFileSync(theirs, own);

    await page.locator('.part.editor .tab', { hasText: TASK }).first().click();
    const files = frame.locator('.rows > .row.files', { hasText: 'total.ts.notes.md' }).last();
    await files.waitFor();
    await scrollRowToTop(files);
    await files.locator('button[data-command="den.applyTurn"]').click();
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible' });
    const summary = await modal.innerText();
    assert.match(
      summary,
      /Replace src\/implement-total\.ts: 12 saved lines not in the agent's version will be lost \(Den does not know what the agent saw of it, so it cannot merge\)\./,
      summary,
    );
    const focused = modal.locator('.dialog-buttons .monaco-button:focus');
    assert.equal((await focused.innerText()).trim(), 'Review…', summary);
    await shot(wb, 'send-file-7-no-base-summary');

    // Escape is Cancel: nothing is written.
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    assert.equal(fs.readFileSync(theirs, 'utf8'), own);
    assert.equal(fs.readFileSync(file, 'utf8'), MINE);
  });
});
