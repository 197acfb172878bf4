/**
 * A first run that orients, on the Web Task page in real (headless) Chromium: results and a
 * comparison that arrive below the fold are scrolled into view, focused and announced, unless the
 * person scrolled or is typing (then "Go to Results" offers them); the results toolbar is one main
 * action and a Save or Copy menu, reachable by keyboard, that fits a 300 px wide panel. Screenshots
 * (shots/webtask-toolbar-*.png, untracked) to look at. Needs Debian's Chromium (see browser-harness.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { WebTaskHostMessage } from '../../../../src/protocol/webtask-panel/webtask-messages';
import { waitFor } from '../../../support/wait';
import { FORM, products, T0, webTaskInit, webTaskResults, webTaskStatus } from './webtask-factories';
import { closeBrowser, openWebTask, SHOTS, type WebTaskHarness } from './webtask-harness';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

const COMPARISON: WebTaskHostMessage = {
  type: 'comparison',
  comparison: {
    runId: 'run-1',
    previous: { runId: 'run-0', startedAt: T0 - 86_400_000, rowCount: 3 },
    keyField: 'name',
    keySource: 'given',
    added: [{ name: 'Lamp' }],
    removed: [],
    changed: [],
    unchanged: 2,
  },
};

describe('web task page: results brought into view, the Save or Copy menu (Chromium)', function () {
  this.timeout(60_000);
  let h: WebTaskHarness;

  afterEach(async () => {
    await h?.close();
  });

  /** Where a section's top is, in the page's viewport (0: at the top). */
  const top = (id: string) => h.page.locator(id).evaluate((e) => Math.round(e.getBoundingClientRect().top));
  /**
   * The section is shown and its top is in view: at the top of the page, or lower with the page
   * scrolled to its end. (A hidden section has no box: its top reads 0, "in view", before it arrives.)
   */
  const revealed = (id: string) =>
    h.page.locator(id).evaluate((e) => {
      if (e.getClientRects().length === 0) return false;
      const app = document.getElementById('app')!;
      const t = e.getBoundingClientRect().top;
      const end = app.scrollTop + app.clientHeight >= app.scrollHeight - 1;
      return t >= -1 && t < app.clientHeight && (t <= 1 || end);
    });
  const isRevealed = { until: (r: boolean) => r };
  const scrollTop = () => h.page.locator('#app').evaluate((e) => e.scrollTop);
  const focused = () => h.page.evaluate(() => document.activeElement?.id ?? '');
  const announced = () => h.page.locator('#live-region').innerText();
  const done = webTaskStatus({ phase: 'done', taskStatus: 'DONE', finishedAt: T0 + 5_000 });

  /** A page with the form filled, a run just started from it (the Run button has the focus). */
  async function runStarted(height = 500): Promise<void> {
    h = await openWebTask({ height, now: T0 + 5_000 });
    await h.send(webTaskInit({ form: FORM }));
    await h.page.locator('#wt-run').focus();
    await h.send({ type: 'status', status: webTaskStatus() });
    await waitFor('the status', () => h.page.locator('#wt-status').isVisible());
  }

  it('scrolls arriving results to the top, focuses their heading and announces them; then the comparison', async () => {
    await runStarted();
    const before = await scrollTop();
    await h.send(
      { type: 'status', status: done },
      { type: 'results', results: webTaskResults(products(30)) },
    );
    await waitFor('the results in view', () => revealed('#wt-results'), isRevealed);
    assert.ok((await scrollTop()) > before, 'scrolled down to them');
    assert.equal(await focused(), 'wt-results-title');
    assert.equal(await h.page.locator('#wt-jump').isVisible(), false);
    await waitFor('announced', announced, { until: (t) => t.includes('Results: 30 rows.') });

    // Compare: the comparison, further down, comes to the top in its turn.
    await h.page.getByRole('button', { name: 'Compare with Previous Run' }).click();
    await h.send(COMPARISON);
    await waitFor('the comparison in view', () => revealed('#wt-comparison'), isRevealed);
    assert.equal(await focused(), 'wt-comparison-title');
    await waitFor('announced', announced, { until: (t) => /^vs run of .+: 1 added/.test(t) });
  });

  it('does not yank a person who scrolled: "Go to Results" offers them, and goes there', async () => {
    await runStarted();
    const status = await top('#wt-status');
    await h.page.mouse.move(200, 200);
    await h.page.mouse.wheel(0, -150);
    await waitFor('scrolled by the person', () => top('#wt-status'), { until: (t) => t > status });
    const before = await scrollTop();
    await h.send(
      { type: 'status', status: done },
      { type: 'results', results: webTaskResults(products(30)) },
    );
    const jump = h.page.getByRole('button', { name: 'Go to Results' });
    await jump.waitFor();
    assert.equal(await scrollTop(), before, 'the page stayed where the person put it');
    assert.equal(await focused(), 'wt-run', 'the focus stayed');
    await jump.click();
    await waitFor('the results in view', () => revealed('#wt-results'), isRevealed);
    assert.equal(await focused(), 'wt-results-title');
    assert.equal(await jump.isVisible(), false);

    // A new run: the person's earlier scrolling no longer counts.
    await h.send({ type: 'status', status: webTaskStatus({ runId: 'run-2' }) });
    await h.send(
      { type: 'status', status: { ...done, runId: 'run-2' } },
      { type: 'results', results: webTaskResults(products(3), { runId: 'run-2' }) },
    );
    await waitFor('the results in view', () => revealed('#wt-results'), isRevealed);
  });

  it('does not yank a person typing in the form, nor take the focus from the field', async () => {
    await runStarted();
    const query = h.page.locator('#wt-query');
    await query.focus();
    await h.page.keyboard.type(' and its seller');
    const before = await scrollTop();
    await h.send(
      { type: 'status', status: done },
      { type: 'results', results: webTaskResults(products(30)) },
    );
    await h.page.getByRole('button', { name: 'Go to Results' }).waitFor();
    assert.equal(await scrollTop(), before);
    assert.equal(await focused(), 'wt-query');
    await waitFor('announced all the same', announced, { until: (t) => t.includes('Results: 30 rows.') });
    // once the person brings the results into view themselves, the offer goes
    await h.page.locator('#wt-results').evaluate((e) => e.scrollIntoView());
    await waitFor('no offer', () => h.page.locator('#wt-jump').isHidden());
  });

  it('Save or Copy is a menu button: Enter, arrows, Home/End, a letter, Escape, Tab, and a click elsewhere', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ status: done, results: webTaskResults(products(3)) }));
    const page = h.page;
    const more = page.getByRole('button', { name: 'Save or Copy' });
    await more.waitFor();
    assert.equal(await more.getAttribute('aria-haspopup'), 'menu');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    const menu = page.getByRole('menu');
    assert.equal(await menu.count(), 0, 'closed: not in the accessibility tree');

    await more.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await page.getByRole('menuitem').allInnerTexts(), [
      'Save as JSON',
      'Save as JSONL',
      'Save as CSV',
      'Copy JSON',
      'Copy CSV',
    ]);
    assert.equal(await focused(), 'wt-save-json');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'wt-save-jsonl');
    await page.keyboard.press('End');
    assert.equal(await focused(), 'wt-copy-csv');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'wt-save-json', 'wraps');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'wt-copy-csv', 'wraps back');
    await page.keyboard.press('Home');
    await page.keyboard.press('c');
    assert.equal(await focused(), 'wt-copy-json', 'the next item starting with the letter');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await focused(), 'wt-more');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');

    // ↑ opens on the last item; Enter runs it, closes, and gives the focus back
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'wt-copy-csv');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await focused(), 'wt-more');
    // Space on the button opens it; ↓ then Space runs the second item
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    assert.deepEqual((await h.posted()).slice(1), [
      { type: 'copy', format: 'csv' },
      { type: 'save', format: 'jsonl' },
    ]);

    // Tab closes it and goes on past the button
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await menu.waitFor({ state: 'hidden' });
    assert.notEqual(await focused(), 'wt-more');
    // a click elsewhere closes it
    await more.click();
    await menu.waitFor();
    await page.locator('#wt-rows').click();
    await menu.waitFor({ state: 'hidden' });
    assert.equal((await h.posted()).length, 3, 'closing runs nothing');
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`fits a 300 px wide panel (${theme}): screenshots of the toolbar and its open menu`, async () => {
      h = await openWebTask({ theme, width: 300, height: 700, now: T0 + 5_000 });
      await h.send(webTaskInit({ form: FORM }), { type: 'status', status: webTaskStatus() });
      await h.send(
        { type: 'status', status: done },
        { type: 'results', results: webTaskResults(products(12)) },
      );
      const page = h.page;
      await waitFor('the results in view', () => revealed('#wt-results'), isRevealed);
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      const inside = async (sel: string) => {
        const b = await page.locator(sel).boundingBox();
        assert.ok(
          b && b.x >= 0 && b.x + b.width <= width + 0.5,
          `${sel} fits in ${width} px: ${JSON.stringify(b)}`,
        );
      };
      await inside('#wt-open-json');
      await inside('#wt-more');
      const y = async (sel: string) => (await page.locator(sel).boundingBox())!.y;
      assert.equal(await y('#wt-open-json'), await y('#wt-more'), 'one row');
      await page.screenshot({ path: join(SHOTS, `webtask-toolbar-${theme}.png`) });
      await page.getByRole('button', { name: 'Save or Copy' }).click();
      await page.getByRole('menu').waitFor();
      await inside('#wt-more-menu');
      await page.screenshot({ path: join(SHOTS, `webtask-toolbar-menu-${theme}.png`) });
    });
  }
});
