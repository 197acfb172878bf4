import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import {
  clickActivityBar,
  openWorkbench,
  runCommand,
  treeItem,
  webviewFrame,
  type Workbench,
} from '../harness/workbench';
import { waitFor } from '../support/wait';
import { currentFindMatch as currentMatch, openSessionFromTree, panelSettled, panelShot } from './panel-view';
import { shot, showAllSessions, UI_WAIT } from './sessions-view';

/** A long session: 20,000 events, 2,000 tool calls; every 100th answer chunk says "migration". */
const TASK = '20000 events with 2000 tools: find in a long session';
const SESSION_ID = '5e5510a0-0000-4000-8000-00000000f1d0';

/** A long session (scrolled in), two short ones, and one whose turn another client starts. */
const LONG = '600 events with 60 tools: the preview, first';
const SECOND = '30 events: the preview, second';
const THIRD = '20 events: the preview, third';
const RUNNING = '10 events: the preview, running';
const IDS = {
  long: '5e5510a0-0000-4000-8000-00000000b001',
  second: '5e5510a0-0000-4000-8000-00000000b002',
  third: '5e5510a0-0000-4000-8000-00000000b003',
  running: '5e5510a0-0000-4000-8000-00000000b004',
};

/** The editor tabs' labels, in order. */
function tabs(page: Page): Promise<string[]> {
  return page.locator('.part.editor .tabs-container .tab .label-name').allInnerTexts();
}

/** The Session panel shown: the webview in the visible editor (others linger, hidden). */
function shownPanel(page: Page): FrameLocator {
  return page.locator('iframe.webview:visible').last().contentFrame().locator('#active-frame').contentFrame();
}

/** The row at the top of the transcript's viewport (what the person reads first), by its block and part. */
function firstRead(frame: FrameLocator): Promise<string | undefined> {
  return frame.locator('main#transcript').evaluate((t) => {
    const top = t.getBoundingClientRect().top + 4;
    const row = [...t.querySelectorAll('.rows > .row')].find((r) => r.getBoundingClientRect().bottom > top);
    const d = (row as HTMLElement | undefined)?.dataset;
    return d ? `${d.blockId ?? d.turnId ?? ''}|${d.part ?? ''}|${row?.textContent?.slice(0, 40)}` : undefined;
  });
}

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

// One workbench for the two ways of browsing a session's history: find in it, and the preview panel.
describe('Browsing history: find in a long session, the preview panel (emulator, packaged .vsix)', function () {
  this.timeout(240_000);
  let emu: Emulator;
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  let agentMessageId: string;

  before(async () => {
    emu = await startEmulator({ seed: false });
    agentMessageId = emu.seedTurn(SESSION_ID, TASK).agentMessageId;
    emu.seedTurn(IDS.long, LONG);
    emu.seedTurn(IDS.second, SECOND);
    emu.seedTurn(IDS.third, THIRD);
    emu.seedTurn(IDS.running, RUNNING);
    wb = await openWorkbench({
      settings: { 'den.baseUrl': emu.url, 'den.showWalkthroughOnFirstRun': false },
      env: { DEN_API_KEY: emu.keys.primary },
    });
    page = wb.page;
    frame = webviewFrame(page);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await wb
        ?.screenshot(`panel-browse-failure-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}`)
        .catch(() => undefined);
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

  /** Waits until the shown panel is `title`'s, and says whether it is the preview. */
  const shows = async (title: string): Promise<{ frame: FrameLocator; preview: boolean }> => {
    const frame = shownPanel(page);
    await frame.locator('#session-title', { hasText: title }).waitFor({ timeout: UI_WAIT.timeoutMs });
    await frame.locator('.rows > .row[data-block-type="markdown"]').last().waitFor();
    await panelSettled(frame);
    return { frame, preview: await frame.locator('.preview-mark').isVisible() };
  };

  it('a single click replaces the preview, going back lands where the person was, a double-click and a running turn keep a session open', async () => {
    // what the find test opened is closed: the tabs are the preview's
    await runCommand(page, 'View: Close All Editors');
    await clickActivityBar(page, 'Den');
    await showAllSessions(page);
    await waitFor('the seeded sessions', () => treeItem(page, RUNNING).isVisible(), {
      ...UI_WAIT,
      until: (v) => v,
    });

    // a single click: the preview, its title in italics, Keep Open beside it
    await treeItem(page, LONG).click();
    let shown = await shows(LONG);
    assert.equal(shown.preview, true);
    assert.equal(
      await shown.frame.locator('#session-title').evaluate((e) => getComputedStyle(e).fontStyle),
      'italic',
    );
    assert.deepEqual(await tabs(page), [LONG]);
    // the person scrolls up into the long session
    await shown.frame
      .locator('main#transcript')
      .evaluate((t) => (t.scrollTop = Math.round(t.scrollHeight * 0.45)));
    await panelSettled(shown.frame);
    const readInLong = await firstRead(shown.frame);
    assert.ok(readInLong, 'no answer in view');
    await shot(wb, 'panel-preview-single-click');

    // the next single click: the same tab shows the second session, at its end
    await treeItem(page, SECOND).click();
    shown = await shows(SECOND);
    assert.equal(shown.preview, true);
    assert.deepEqual(await tabs(page), [SECOND], 'the preview was not replaced');
    await shot(wb, 'panel-preview-replaced');

    // back to the long session: where the person was
    await treeItem(page, LONG).click();
    shown = await shows(LONG);
    await waitFor('the long session where the person left it', () => firstRead(shown.frame), {
      ...UI_WAIT,
      until: (r) => r === readInLong,
    });
    assert.deepEqual(await tabs(page), [LONG]);

    // a double-click keeps the second session open; the next click opens a new preview beside it
    await treeItem(page, SECOND).dblclick();
    shown = await shows(SECOND);
    await waitFor('the preview mark to go', () => shown.frame.locator('.preview-mark').isVisible(), {
      ...UI_WAIT,
      until: (v) => !v,
    });
    await treeItem(page, THIRD).click();
    shown = await shows(THIRD);
    assert.equal(shown.preview, true);
    assert.deepEqual(await tabs(page), [SECOND, THIRD]);
    await shot(wb, 'panel-preview-double-click');

    // another client starts a turn in a session; a single click shows it running: it stays open
    const res = await fetch(`${emu.url}/sessions/new`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.primary}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: IDS.running, task: '600 events rate 20', mode: 'auto' }),
    });
    assert.equal(res.status, 200);
    await treeItem(page, RUNNING).click();
    shown = await shows(RUNNING);
    await waitFor(
      'the running turn to keep the session open',
      () => shown.frame.locator('.preview-mark').isVisible(),
      {
        ...UI_WAIT,
        until: (v) => !v,
      },
    );
    assert.deepEqual(await tabs(page), [SECOND, RUNNING]);
    await treeItem(page, THIRD).click();
    await shows(THIRD);
    assert.deepEqual(await tabs(page), [SECOND, RUNNING, THIRD]);
    await shot(wb, 'panel-preview-running-turn');
  });
});
