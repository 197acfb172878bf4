import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import { openWorkbench, webviewFrame, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { currentFindMatch as currentMatch, openSessionFromTree, panelSettled, panelShot } from './panel-view';
import { UI_WAIT } from './sessions-view';

/** A long session: 20,000 events, 2,000 tool calls; every 100th answer chunk says "migration". */
const TASK = '20000 events with 2000 tools: find in a long session';
const SESSION_ID = '5e5510a0-0000-4000-8000-00000000f1d0';

/** How many times the session's stored answer chunks say `word`. */
function storedCount(emu: Emulator, agentMessageId: string, word: string): number {
  return emu
    .storedEvents(SESSION_ID, agentMessageId)
    .filter((e) => e.kind === 'markdown.chunk')
    .reduce(
      (n, e) =>
        n + (String((e.payload as { delta?: unknown }).delta).match(new RegExp(word, 'gi'))?.length ?? 0),
      0,
    );
}

/** Whether VS Code's own find or search opened instead of the panel's. */
async function workbenchFindShown(page: Page): Promise<boolean> {
  return page
    .locator('.monaco-workbench .find-widget.visible, .monaco-workbench .search-view .search-widget')
    .first()
    .isVisible();
}

describe('Find in a long session (emulator, packaged .vsix)', function () {
  this.timeout(180_000);
  let emu: Emulator;
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  let agentMessageId: string;

  before(async () => {
    emu = await startEmulator({ seed: false });
    agentMessageId = emu.seedTurn(SESSION_ID, TASK).agentMessageId;
    wb = await openWorkbench({
      settings: { 'den.baseUrl': emu.url, 'den.showWalkthroughOnFirstRun': false },
      env: { DEN_API_KEY: emu.keys.primary },
    });
    page = wb.page;
    frame = webviewFrame(page);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await wb?.screenshot('panel-find-failure').catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
    await emu?.close();
  });

  it('Ctrl+F in the panel finds a windowed-out match, Enter reaches the next, Escape gives the focus back', async () => {
    await openSessionFromTree(page, frame, TASK);
    // the panel opens at the session's end: the first turn's early rows are not in the DOM
    await frame.locator('.rows > .row[data-block-type="markdown"]').last().waitFor();
    await panelSettled(frame);
    const transcript = frame.locator('main#transcript');
    await transcript.focus();
    assert.equal(await frame.locator('.find-bar').isVisible(), false);

    // the real key, through the workbench: it must reach the panel's bar, not VS Code's find
    await page.keyboard.press('Control+f');
    const input = frame.locator('.find-bar input.find-input');
    await input.waitFor({ state: 'visible', timeout: UI_WAIT.timeoutMs });
    await waitFor(
      'the find input to have the focus',
      () => input.evaluate((el) => el === document.activeElement),
      {
        ...UI_WAIT,
        until: (focused) => focused,
      },
    );
    assert.equal(await workbenchFindShown(page), false, "VS Code's own find opened too");

    const total = storedCount(emu, agentMessageId, 'migration');
    assert.ok(total >= 10, `the session says "migration" only ${total} times`);
    await page.keyboard.type('migration');
    const count = frame.locator('.find-bar .find-count');
    await waitFor('the count', () => count.textContent(), {
      ...UI_WAIT,
      until: (t) => t === `1 of ${total}`,
    });
    const first = await waitFor('the first match shown', () => currentMatch(frame), {
      ...UI_WAIT,
      until: (m) => m?.visible === true,
    });
    assert.equal(first?.text.toLowerCase(), 'migration');

    // the next match is ~1,000 events further: its row is not in the DOM until Enter brings it
    const rowsBefore = await frame
      .locator('.rows > .row')
      .evaluateAll((rows) =>
        rows.map((r) => `${(r as HTMLElement).dataset.blockId}|${(r as HTMLElement).dataset.part}`),
      );
    await page.keyboard.press('Enter');
    await waitFor('the count to move on', () => count.textContent(), {
      ...UI_WAIT,
      until: (t) => t === `2 of ${total}`,
    });
    const second = await waitFor('the second match highlighted and in view', () => currentMatch(frame), {
      ...UI_WAIT,
      until: (m) => m?.visible === true && m.rowKey !== first?.rowKey,
    });
    assert.equal(second?.text.toLowerCase(), 'migration');
    assert.ok(
      second && !rowsBefore.includes(second.rowKey),
      `the second match's row ${second?.rowKey} was already in the DOM`,
    );
    assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'Enter moved the focus');
    await panelShot(wb, frame, 'panel-find');

    // Shift+Enter goes back; Escape closes and returns the focus to the transcript
    await input.focus();
    await page.keyboard.press('Shift+Enter');
    await waitFor('the count to go back', () => count.textContent(), {
      ...UI_WAIT,
      until: (t) => t === `1 of ${total}`,
    });
    await page.keyboard.press('Escape');
    await frame.locator('.find-bar').waitFor({ state: 'hidden', timeout: UI_WAIT.timeoutMs });
    assert.equal(
      await transcript.evaluate((el) => el === document.activeElement),
      true,
      'the focus did not go back to the transcript',
    );
    assert.equal(
      await frame.locator('main#transcript').evaluate(() => {
        const reg = (CSS as unknown as { highlights: Map<string, unknown> }).highlights;
        return reg.has('den-find') || reg.has('den-find-current');
      }),
      false,
      'highlights stayed after Escape',
    );
  });
});
