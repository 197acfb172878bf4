/**
 * The Session panel 300 px wide, in the workbench (emulator, packaged .vsix): a turn's file rows stay
 * one line each, the composer does not move when "1 queued" appears, the header shows no raw address,
 * and a stopped turn offers Continue as a completed one does.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import { openWorkbench, resizeSideBar, webviewFrame, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { openSessionFromTree, panelShot, scrollRowToTop, sendTask } from './panel-view';
import { UI_WAIT } from './sessions-view';

const SESSION = 'Refactor auth middleware';
const STOPPED = 'Add dark mode to settings page';
const WIDTH = 300;

type Box = { x: number; y: number; width: number; height: number };

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  assert.ok(b, 'not laid out');
  return b;
}

/** Makes the editor area (and so the panel) about `width` px wide by widening the side bar. */
async function narrowEditor(page: Page, width: number): Promise<void> {
  const editor = await box(page.locator('.part.editor'));
  const sidebar = await box(page.locator('.part.sidebar'));
  await resizeSideBar(page, sidebar.width + editor.width - width);
}

describe('The Session panel 300 px wide (emulator, packaged .vsix)', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 10 });
    wb = await openWorkbench({
      settings: { 'den.baseUrl': emu.url },
      env: { DEN_API_KEY: emu.keys.primary },
    });
    page = wb.page;
    frame = webviewFrame(page);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot('narrow-failure').catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
    await emu?.close();
  });

  it('keeps each file on one line and the composer still when a message is queued', async () => {
    await openSessionFromTree(page, frame, SESSION);
    await narrowEditor(page, WIDTH);
    const width = await waitFor(
      'the panel to be narrow',
      () => frame.locator('body').evaluate((b) => b.clientWidth),
      {
        ...UI_WAIT,
        until: (w) => Math.abs(w - WIDTH) <= 24,
      },
    );
    // The header: the session's title and the connection's state, the service's address only in
    // the state's tooltip.
    const header = frame.locator('.panel-header');
    assert.doesNotMatch(await frame.locator('.title-line').innerText(), /127\.0\.0\.1|localhost/);
    assert.match(
      (await frame.locator('#connection').getAttribute('title')) ?? '',
      /^Agent Session Service at /,
    );

    // A slow turn runs; a second message waits behind it.
    await sendTask(frame, 'slow marked answer in 60 events', 'auto');
    await waitFor('the running turn to stream', () => frame.locator('.rows').innerText(), {
      ...UI_WAIT,
      until: (t) => t.includes('⟦3⟧'),
    });
    const parts = ['#composer', '#composer-input', '#send', '#stop', '#attach', '#mode'];
    const before = await Promise.all(parts.map((p) => box(frame.locator(p))));
    await sendTask(frame, 'answer in 5 events', 'auto');
    const queued = frame.locator('#queued');
    await waitFor('the queued badge', () => queued.textContent(), {
      ...UI_WAIT,
      until: (t) => t === '1 queued',
    });
    assert.equal(await queued.getAttribute('role'), 'status');
    const after = await Promise.all(parts.map((p) => box(frame.locator(p))));
    assert.deepEqual(after, before, 'the composer moved when the badge appeared');

    // The first turn's files: one line each, nothing past the panel's edge.
    const files = frame.locator('.rows > .block-files').first();
    await files.waitFor();
    await scrollRowToTop(files);
    const items = files.locator('li.file-item');
    assert.ok((await items.count()) >= 2, 'the turn shows its files');
    for (const item of await items.all()) {
      const row = await box(item);
      const change = await box(item.locator('button.file-change'));
      assert.ok(row.height < 2 * change.height + 4, `a file row wraps (${row.height} px high)`);
      for (const part of await item.locator(':scope > *').all()) {
        const b = await box(part);
        assert.ok(b.x + b.width <= row.x + row.width + 0.5, 'a part of a file row is past its edge');
      }
    }
    const compare = files.locator('button[data-command="den.compareWithWorkspace"]').first();
    assert.equal(await compare.innerText(), '⇄');
    assert.match((await compare.getAttribute('aria-label')) ?? '', /^Compare .+ with the workspace file$/);
    const review = await box(files.locator('button[data-command="den.reviewTurn"]'));
    const apply = await box(files.locator('button[data-command="den.applyTurn"]'));
    assert.equal(Math.round(review.y), Math.round(apply.y), 'Review Changes and Apply are apart');
    assert.ok(width <= WIDTH + 24);
    await panelShot(wb, frame, 'narrow-1-files-and-queued');
    assert.ok(await header.isVisible());
  });

  it('offers Continue after a stopped turn', async () => {
    await openSessionFromTree(page, frame, STOPPED);
    // the pointer off the tree, whose hover card would stay over the workbench
    const editor = await box(page.locator('.part.editor'));
    await page.mouse.move(editor.x + editor.width / 2, editor.y + 8);
    const status = frame.locator('.rows > .turn-status').last();
    await waitFor('the stopped turn', () => status.getAttribute('data-status'), {
      ...UI_WAIT,
      until: (s) => s === 'aborted',
    });
    const cont = frame.locator('#continue');
    await cont.waitFor({ state: 'visible' });
    assert.match((await cont.getAttribute('title')) ?? '', /go on from where the last turn ended/);
    await panelShot(wb, frame, 'narrow-2-continue-after-stop');
  });
});
