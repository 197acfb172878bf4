/**
 * Web tasks, as a person runs them in the browser: a schema file's Explorer menu opens the Web Task
 * panel, the form refuses an address without a scheme until it is fixed, Run streams the status
 * live, the results table (brought into view as it arrives) highlights what the extraction left
 * out, Save as CSV (from the Save or Copy menu) writes the file the save dialog proposes in the
 * workspace, the run's own session sits under Web Tasks in the Sessions view, Re-run from the Web
 * Tasks view and Compare with Previous Run show what changed (brought into view too). A second test cancels a run that would not end; a third shows a run that
 * ends needing a person and one whose stream is cut. A screenshot at every step.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { WEB_TASK_SAMPLE, webTaskSampleFiles } from '../emulator/web-task-sample';
import {
  clickActivityBar,
  contextMenuAction,
  sideBarPane,
  treeItem,
  type Workbench,
} from '../harness/workbench';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { UI_WAIT, shot } from './sessions-view';

const ROWS = 5;

describe('A person runs a web task from a schema file, saves the results, reruns and compares', function () {
  this.timeout(300_000);
  const t = useSignedInWorkbench('web-task', {
    files: webTaskSampleFiles,
    emulator: { eventDelayMs: 40, lamSessions: true },
  });
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  let workspace: string;
  beforeEach(() => ({ wb, page, frame, workspace } = t));

  /** The phase the panel shows, once it is `phase`. */
  const phase = (phase: string, timeoutMs = UI_WAIT.timeoutMs) =>
    waitFor(`the run to be ${phase}`, () => frame.locator('#wt-phase').getAttribute('data-phase'), {
      ...UI_WAIT,
      timeoutMs,
      until: (p) => p === phase,
    });

  /**
   * Records, inside the page, every phase `#wt-phase` shows from now on (a run's states can pass
   * faster than a poll), for `phasesSeen`.
   */
  async function recordPhases(): Promise<void> {
    await frame.locator('body').evaluate(() => {
      const w = window as unknown as { denPhases?: string[] };
      w.denPhases = [];
      const note = (): void => {
        const p = document.querySelector('#wt-phase')?.getAttribute('data-phase');
        const seen = w.denPhases!;
        if (p && seen.at(-1) !== p) seen.push(p);
      };
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-phase', 'hidden'],
      });
    });
  }
  /**
   * Whether the section was brought into view: its top at the top of the page, or lower with the page
   * scrolled to its end.
   */
  const revealed = (id: string) =>
    waitFor(
      `${id} brought into view`,
      () =>
        frame.locator(id).evaluate((e) => {
          // (a hidden section has no box: its top would read 0, "in view")
          if (e.getClientRects().length === 0) return false;
          const app = document.getElementById('app')!;
          const t = e.getBoundingClientRect().top;
          const end = app.scrollTop + app.clientHeight >= app.scrollHeight - 1;
          return t >= -1 && t < app.clientHeight && (t <= 1 || end);
        }),
      { ...UI_WAIT, until: (r) => r },
    );
  const focusedId = () => frame.locator('body').evaluate(() => document.activeElement?.id ?? '');

  const phasesSeen = () =>
    frame.locator('body').evaluate(() => (window as unknown as { denPhases?: string[] }).denPhases ?? []);

  /**
   * Waits for the new run shown to end, and returns the phases it went through (from `running`:
   * the page may show the previous run's `done` until the new run's first status arrives).
   */
  async function newRunPhases(timeoutMs = 60_000): Promise<string[]> {
    const seen = await waitFor('the new run to end', phasesSeen, {
      ...UI_WAIT,
      timeoutMs,
      until: (p) => p.includes('running') && p.at(-1) !== 'running',
    });
    return seen.slice(seen.indexOf('running'));
  }

  it('schema file → form with an inline error fixed → live status → results with gaps → CSV → re-run → compare', async () => {
    // 1. The schema file's Explorer menu: Run Web Task with This Schema.
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'schemas').click();
    await treeItem(page, 'laptops.denschema.json').waitFor();
    await contextMenuAction(page, 'laptops.denschema.json', 'Run Web Task with This Schema');
    const schemaBox = frame.locator('#wt-schemaText');
    await waitFor('the schema in the form', () => schemaBox.inputValue(), {
      ...UI_WAIT,
      until: (t) => t.includes('"seller"'),
    });
    assert.deepEqual(JSON.parse(await schemaBox.inputValue()), WEB_TASK_SAMPLE.schema);
    assert.match(await frame.locator('#wt-schema-source').innerText(), /schemas\/laptops\.denschema\.json/);
    await shot(wb, 'web-task-1-form-from-schema-file');

    // 2. An address without its scheme is refused inline; Run posts nothing until it is fixed.
    await frame.locator('#wt-appUrl').fill('shop.example.com/laptops');
    await frame.locator('#wt-query').fill(WEB_TASK_SAMPLE.query);
    await frame.locator('#wt-maxCount').fill(String(ROWS));
    await frame.locator('#wt-run').click();
    await frame.locator('#wt-appUrl[aria-invalid="true"]').waitFor();
    assert.match(await frame.locator('#wt-appUrl-error').innerText(), /absolute address/);
    assert.equal(await frame.locator('#wt-status').isVisible(), false, 'a run started from a bad form');
    await shot(wb, 'web-task-2-inline-error');

    // 3. Fixed; Run: the status goes from running to done, live.
    await frame.locator('#wt-appUrl').fill(WEB_TASK_SAMPLE.appUrl);
    await frame.locator('#wt-appUrl:not([aria-invalid="true"])').waitFor();
    await recordPhases();
    await frame.locator('#wt-run').click();
    assert.deepEqual(await newRunPhases(), ['running', 'done']);
    assert.equal((await frame.locator('#wt-task-status').innerText()).trim(), 'DONE');
    assert.match(await frame.locator('#wt-message').innerText(), new RegExp(`Found ${ROWS} results`));

    // 4. The table: every record, the gaps highlighted and counted; brought into view as it arrived,
    // the focus on its heading (the person had not scrolled since Run).
    const rows = frame.locator('#wt-table tbody tr[data-row]');
    await waitFor('the table rows', () => rows.count(), { ...UI_WAIT, until: (n) => n === ROWS });
    await revealed('#wt-results');
    assert.equal(await focusedId(), 'wt-results-title');
    await shot(wb, 'web-task-3a-results-in-view');
    assert.match(await frame.locator('#wt-rows').innerText(), new RegExp(`${ROWS} rows`));
    const missing = await frame.locator('td.wt-issue-missing').count();
    const nulls = await frame.locator('td.wt-issue-null').count();
    assert.ok(missing >= 1 && nulls >= 1, `missing ${missing}, null ${nulls}`);
    const issues = await frame.locator('#wt-issues').innerText();
    assert.match(issues, new RegExp(`${missing} missing`), issues);
    assert.match(issues, new RegExp(`${nulls} null`), issues);
    // sort by price, highest first (a second click)
    const priceHeader = frame.locator('button.wt-sort[data-column="price"]');
    await priceHeader.click();
    await priceHeader.click();
    await frame.locator('th[aria-sort="descending"] button.wt-sort[data-column="price"]').waitFor();
    await shot(wb, 'web-task-3-results');

    // 5. Save as CSV, from the toolbar's menu (Open as JSON beside it): the save dialog proposes a
    // file in the workspace; the file is written.
    const more = frame.getByRole('button', { name: 'Save or Copy' });
    await more.click();
    await frame.getByRole('menu').waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.equal(await focusedId(), 'wt-save-json', 'the menu opens on its first item');
    await shot(wb, 'web-task-4a-save-or-copy-menu');
    await frame.getByRole('menuitem', { name: 'Save as CSV' }).click();
    const saveBox = page.locator('.quick-input-widget .quick-input-box input');
    await saveBox.waitFor({ state: 'visible' });
    // (the simple dialog fills its box in steps: the folder first, then the file name)
    const proposed = await waitFor('the proposed file', () => saveBox.inputValue(), {
      ...UI_WAIT,
      until: (v) => v.endsWith('.csv'),
    });
    assert.ok(proposed.includes(path.basename(workspace)), `${proposed} is not in the workspace`);
    await shot(wb, 'web-task-4-save-dialog');
    await saveBox.press('Enter');
    const csvFile = await waitFor(
      'the CSV file',
      () => fs.readdirSync(workspace).find((f) => f.endsWith('.csv')),
      { ...UI_WAIT, until: (f) => f !== undefined },
    );
    const csv = fs.readFileSync(path.join(workspace, csvFile!), 'utf8').split('\r\n');
    assert.equal(csv[0], 'url,name,price,seller.name,seller.rating');
    assert.equal(csv.filter((l) => l !== '').length, ROWS + 1);
    await page.locator('.notifications-toasts', { hasText: `Saved ${ROWS} records` }).waitFor();
    await shot(wb, 'web-task-5-saved-csv');

    // 6. Re-run from the Web Tasks view: a second run of the same query (the service drifts).
    await clickActivityBar(page, 'Den');
    // The run's own session is in the Sessions view under Web Tasks (collapsed), not among the day's.
    const sessionsPane = sideBarPane(page, 'Sessions');
    const webTaskGroup = sessionsPane.locator('[role="treeitem"]', { hasText: /^Web Tasks/ });
    await webTaskGroup.waitFor({ timeout: UI_WAIT.timeoutMs });
    assert.equal(await webTaskGroup.getAttribute('aria-expanded'), 'false');
    await webTaskGroup.click();
    const webTaskSession = sessionsPane.locator('[role="treeitem"][aria-level="2"]', {
      hasText: /web task · /,
    });
    await webTaskSession.first().waitFor({ timeout: UI_WAIT.timeoutMs });
    await shot(wb, 'web-task-6a-sessions-web-tasks-group');
    // Re-run is in the Web Tasks view.
    const runRows = sideBarPane(page, 'Web Tasks').locator('[role="treeitem"]', {
      hasText: WEB_TASK_SAMPLE.query,
    });
    const runRow = runRows.first();
    await runRow.waitFor();
    await waitFor('the run row to say done', () => runRow.innerText(), {
      ...UI_WAIT,
      until: (t) => t.includes(`${ROWS} rows`),
    });
    await shot(wb, 'web-task-6-web-tasks-view');
    await recordPhases();
    await contextMenuAction(page, runRow, 'Re-run');
    assert.deepEqual(await newRunPhases(), ['running', 'done']);
    await waitFor('two runs in the view', () => runRows.count(), { ...UI_WAIT, until: (n) => n === 2 });

    // 7. Compare with Previous Run: one record gone, one new, the others' prices changed.
    await frame.locator('#wt-compare').click();
    const headline = frame.locator('#wt-comparison-headline');
    await headline.waitFor();
    const text = await headline.innerText();
    assert.match(text, /1 added/, text);
    assert.match(text, /1 removed/, text);
    assert.match(text, new RegExp(`${ROWS - 1} changed`), text);
    assert.equal(await frame.locator('#wt-added li').count(), 1);
    assert.match(await frame.locator('#wt-changed').innerText(), /price/);
    // brought into view by itself, the focus on its heading
    await revealed('#wt-comparison');
    assert.equal(await focusedId(), 'wt-comparison-title');
    await shot(wb, 'web-task-7-compared');

    // 8. Open Results of the first run from the view (a click), then Open as JSON.
    await runRows.nth(1).click();
    await waitFor(
      'the first run shown',
      () => frame.locator('#wt-table tbody tr[data-row="0"]').innerText(),
      {
        ...UI_WAIT,
        until: (t) => t.includes('https://example.com/items/1'),
      },
    );
    assert.equal(
      await frame.locator('#wt-comparison').isVisible(),
      false,
      'the comparison was of the other run',
    );
    await frame.locator('#wt-open-json').click();
    const jsonTab = page.locator('.part.editor .tab.active', { hasText: 'Untitled' });
    await jsonTab.waitFor();
    const firstLines = await page
      .locator('.part.editor .editor-instance .monaco-editor .view-lines')
      .first()
      .innerText();
    assert.match(firstLines.replace(/\u00a0/g, ' '), /"url": "https:\/\/example\.com\/items\/1"/);
    await shot(wb, 'web-task-8-opened-as-json');
  });

  it('a run that does not end is watched live and cancelled', async () => {
    await clickActivityBar(page, 'Den');
    await page.locator('.part.sidebar .welcome-view-content', { hasText: 'No web tasks yet' }).waitFor();
    await page.locator('.part.sidebar .welcome-view-content a', { hasText: 'Run Web Task…' }).click();
    await frame.locator('#wt-appUrl').fill(WEB_TASK_SAMPLE.appUrl);
    await frame.locator('#wt-query').fill('Watch the prices (hold)');
    await frame.locator('#wt-run').click();
    await phase('running');
    await waitFor('the latest message', () => frame.locator('#wt-message').innerText(), {
      ...UI_WAIT,
      until: (m) => /Still working \(\d+\)/.test(m),
    });
    await frame.locator('#wt-watch-live').waitFor();
    await shot(wb, 'web-task-9-running');
    await frame.locator('#wt-cancel').click();
    await phase('cancelled');
    assert.equal(await frame.locator('#wt-cancel').isVisible(), false);
    const row = sideBarPane(page, 'Web Tasks').locator('[role="treeitem"]', { hasText: 'Watch the prices' });
    await waitFor('the run row to say cancelled', () => row.innerText(), {
      ...UI_WAIT,
      until: (t) => /cancel/i.test(t),
    });
    await shot(wb, 'web-task-10-cancelled');
  });

  it('a run that ends needing a person, and a run whose stream is cut: one name in the badge, the message and the row', async () => {
    await clickActivityBar(page, 'Den');
    await page.locator('.part.sidebar .welcome-view-content', { hasText: 'No web tasks yet' }).waitFor();
    await page.locator('.part.sidebar .welcome-view-content a', { hasText: 'Run Web Task…' }).click();
    const rows = sideBarPane(page, 'Web Tasks').locator('[role="treeitem"]');

    // 1. HUMAN_INTERACTION as the final answer: over, needing a person, no Cancel.
    await frame.locator('#wt-appUrl').fill(WEB_TASK_SAMPLE.appUrl);
    await frame.locator('#wt-query').fill('Log in as a human, then list the prices');
    await frame.locator('#wt-run').click();
    await phase('needs-person');
    assert.equal(await frame.locator('#wt-phase').innerText(), 'Needs a person');
    assert.match(await frame.locator('#wt-time').innerText(), /^Finished .+ · took /);
    assert.match(await frame.locator('#wt-hint').innerText(), /over.*Watch Live/);
    assert.equal(await frame.locator('#wt-cancel').isVisible(), false, 'Cancel for a request that is over');
    assert.equal(await frame.locator('#wt-watch-live').isVisible(), true);
    const human = rows.filter({ hasText: 'Log in as a human' });
    await waitFor('the row to say Needs a person', () => human.innerText(), {
      ...UI_WAIT,
      until: (t) => /Needs a person/.test(t),
    });
    await human.hover();
    assert.equal(
      await human.locator('.action-label[aria-label^="Cancel"]').count(),
      0,
      'the row offers Cancel',
    );
    // the person looks at the panel: no notification
    assert.equal(
      await page
        .locator('.notifications-toasts .notification-list-item', { hasText: 'needs a person' })
        .count(),
      0,
    );
    await shot(wb, 'web-task-11-needs-a-person');

    // 2. A stream cut before its final status: Interrupted, with the advice of a streamed run.
    await frame.locator('#wt-query').fill('List the prices (no final)');
    await frame.locator('#wt-run').click();
    await phase('interrupted');
    assert.equal(await frame.locator('#wt-phase').innerText(), 'Interrupted');
    assert.match(await frame.locator('#wt-message').innerText(), /^Interrupted: the status stream ended/);
    assert.match(await frame.locator('#wt-hint').innerText(), /turn Streaming off/);
    assert.doesNotMatch(await frame.locator('#wt-status').innerText(), /\bError\b/);
    assert.equal(await frame.locator('#wt-cancel').isVisible(), false);
    const cut = rows.filter({ hasText: 'List the prices (no final)' });
    await waitFor('the row to say Interrupted', () => cut.innerText(), {
      ...UI_WAIT,
      until: (t) => /Interrupted/.test(t) && !/Error/.test(t),
    });
    await shot(wb, 'web-task-12-interrupted');
  });
});
