/**
 * Attempts (issue 24), as a person runs them in the browser: a task as three attempts from the
 * palette, compared in the Attempts view, one applied (it becomes the chosen one), the others
 * archived. A screenshot at every step.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { clickActivityBar, dialog, runCommand, sideBarPane, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { TURN_TIMEOUT_MS } from './panel-view';
import { UI_WAIT, shot } from './sessions-view';

const TASK = 'Write a varied parser';

describe('A person runs a task as three attempts and keeps one', function () {
  this.timeout(300_000);
  const t = useSignedInWorkbench('attempts', { files: () => ({ 'README.md': '# project\n' }) });
  let wb: Workbench;
  let page: Page;
  beforeEach(() => {
    ({ wb, page } = t);
  });

  /** The rows of the Attempts view, as text. */
  const attemptRows = (): Promise<string[]> =>
    sideBarPane(page, 'Attempts').locator('.monaco-list-row').allInnerTexts();

  /** Picks the row with `text` in the open quick pick. */
  async function pick(title: string, text: string): Promise<void> {
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible' });
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().click();
  }

  it('compares three attempts, applies one and archives the others', async () => {
    // 1. The task, then how many attempts.
    await runCommand(page, 'Den: New Session as Attempts');
    const widget = page.locator('.quick-input-widget');
    const taskBox = widget.locator('.quick-input-title', { hasText: 'Den: New Session as Attempts' });
    await taskBox.waitFor({ state: 'visible' });
    await widget.locator('.quick-input-box input').fill(TASK);
    const three = widget.locator('.quick-input-list .monaco-list-row', { hasText: '3 attempts' });
    for (let attempt = 1; ; attempt++) {
      if (await taskBox.isVisible()) await page.keyboard.press('Enter');
      try {
        await three.first().waitFor({ state: 'visible', timeout: 3_000 });
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
      }
    }
    await three.first().click();

    // 2. The Attempts view (in Den's side bar) compares them once the three turns ended.
    await clickActivityBar(page, 'Den');
    await waitFor('three completed attempts with their files', attemptRows, {
      ...UI_WAIT,
      timeoutMs: TURN_TIMEOUT_MS,
      until: (rows) =>
        rows.filter((r) => /Attempt \d of 3\s*completed · .* · 2 files \+\d+/.test(r)).length === 3,
    });
    await shot(wb, 'attempts-1-compared');

    // 3. Apply This Attempt (from the palette): the summary, Apply, and the attempt is the chosen one.
    await runCommand(page, 'Den: Apply This Attempt');
    await pick('Den: Apply This Attempt', 'Attempt 2 of 3');
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await modal.waitFor({ state: 'hidden' });
    await waitFor('the chosen attempt first', attemptRows, {
      ...UI_WAIT,
      until: (rows) => /Attempt 2 of 3 \(chosen\)/.test(rows[1] ?? ''),
    });
    const written = fs.readFileSync(path.join(t.workspace, 'src/write-varied-parser.ts'), 'utf8');
    assert.match(written, /export function writeVariedParser/);
    await shot(wb, 'attempts-2-applied-chosen');

    // 4. Archive the Other Attempts: the Sessions view's Archived group holds the two others.
    await runCommand(page, 'Den: Archive the Other Attempts');
    await pick('Den: Archive the Other Attempts', 'Attempt 2 of 3 (chosen)');
    const sessions = sideBarPane(page, 'Sessions');
    await sessions
      .locator('.monaco-list-row', { hasText: 'Archived' })
      .first()
      .waitFor({ timeout: UI_WAIT.timeoutMs });
    await sessions
      .locator('.monaco-list-row', { hasText: 'chosen attempt' })
      .first()
      .waitFor({ timeout: UI_WAIT.timeoutMs });
    await shot(wb, 'attempts-3-others-archived');
  });
});
