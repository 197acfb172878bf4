/**
 * The Web Task page's run status, results table and comparison in real (headless) Chromium with a
 * fake VS Code API: phases and their buttons, 10,000 rows windowed, sorted and filtered, issues
 * highlighted and counted, empty extractions, the toolbar's posts, and untrusted data kept inert.
 * Needs Debian's Chromium (see browser-harness.ts).
 */
import assert from 'node:assert/strict';
import { rowFilter, sortedIndexes, toTable } from '../../../../src/core/webtasks/flatten';
import { checkResult } from '../../../../src/core/webtasks/result-check';
import { waitFor } from '../../../support/wait';
import { recordDialogs } from '../session-panel/browser-harness';
import {
  FORM,
  PRODUCT_SCHEMA,
  products,
  T0,
  webTaskInit,
  webTaskResults,
  webTaskStatus,
} from './webtask-factories';
import { closeBrowser, openWebTask, type WebTaskHarness } from './webtask-harness';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);
import { XSS_CORPUS } from '../session-panel/xss-corpus';

const ROWS = 10_000;

describe('web task page: status, results and comparison (Chromium)', function () {
  this.timeout(60_000);
  let h: WebTaskHarness;

  afterEach(async () => {
    await h?.close();
  });

  const postedOf = async (type: string) => (await h.posted()).filter((m) => m.type === type);
  /** Whether the rendered rows reach the bottom of the table's viewport. */
  const rowsFillView = () =>
    h.page.locator('#wt-table-scroll').evaluate((e) => {
      const rows = e.querySelectorAll('tr[data-row]');
      const last = rows[rows.length - 1];
      return !!last && last.getBoundingClientRect().bottom >= e.getBoundingClientRect().bottom;
    });
  /** Data rows in the DOM (spacers and the header are not). */
  const domRows = () => h.page.locator('#wt-table tbody tr[data-row]').count();

  it('shows a running run with Cancel, and Waiting for you (live) with Watch Live, Open in Browser and Cancel', async () => {
    h = await openWebTask({ now: T0 + 45_000 });
    await h.send(webTaskInit({ form: FORM }), { type: 'status', status: webTaskStatus() });
    const page = h.page;
    await waitFor('the status shown', () => page.locator('#wt-status').isVisible());
    assert.equal(await page.locator('#wt-phase').innerText(), 'Running');
    assert.equal(await page.locator('#wt-task-status').innerText(), 'PROCESSING');
    assert.equal(await page.locator('#wt-message').innerText(), 'Opening the catalog');
    assert.match(await page.locator('#wt-time').innerText(), /^Started .+ · 45 s$/);
    assert.equal(await page.getByRole('button', { name: 'Watch Live' }).count(), 0, 'no live stream yet');
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await postedOf('cancel'), [{ type: 'cancel' }]);

    await h.send({
      type: 'status',
      status: webTaskStatus({
        phase: 'needs-you',
        taskStatus: 'HUMAN_INTERACTION',
        message: 'Log in to continue',
        livestreamUrl: 'https://live.example/s/1',
      }),
    });
    await waitFor(
      'Waiting for you',
      async () => (await page.locator('#wt-phase').innerText()) === 'Waiting for you',
    );
    assert.equal(await page.locator('#wt-phase').getAttribute('data-phase'), 'needs-you');
    assert.equal(await page.locator('#wt-needs-you').isVisible(), true);
    await page.getByRole('button', { name: 'Watch Live' }).click();
    await page.getByRole('button', { name: 'Open in Browser' }).press('Enter');
    await page.getByRole('button', { name: 'Cancel' }).press('Space');
    assert.deepEqual(await postedOf('watchLive'), [
      { type: 'watchLive', external: false },
      { type: 'watchLive', external: true },
    ]);
    assert.equal((await postedOf('cancel')).length, 2);
    await waitFor('the phase announced', async () =>
      /Waiting for you/.test(await page.locator('#live-region').innerText()),
    );
  });

  it('a final HUMAN_INTERACTION: Needs a person, finished, what to do, Watch Live, and no Cancel', async () => {
    h = await openWebTask({ now: T0 + 60_000 });
    const page = h.page;
    // as the host sends it once the request is over (finishedAt set)
    const over = {
      taskStatus: 'HUMAN_INTERACTION',
      message: 'The site asks for a login.',
      hint: 'The task is over and the app needs a person (a login, a CAPTCHA): Watch Live or Open in Browser, do what it asks, then run the task again.',
      livestreamUrl: 'https://live.example/s/1',
      startedAt: T0,
      finishedAt: T0 + 2_000,
    };
    await h.send(webTaskInit({ form: FORM }), {
      type: 'status',
      status: webTaskStatus({ ...over, phase: 'needs-person' }),
    });
    await waitFor('the status shown', () => page.locator('#wt-status').isVisible());
    assert.equal(await page.locator('#wt-phase').innerText(), 'Needs a person');
    assert.match(await page.locator('#wt-time').innerText(), /^Finished .+ · took 2 s$/);
    assert.match(await page.locator('#wt-hint').innerText(), /^What to try: The task is over.*Watch Live/);
    assert.equal(await page.locator('#wt-needs-you').isVisible(), false, 'no "is waiting" callout');
    assert.equal(await page.locator('#wt-cancel').isVisible(), false, 'a finished request offers Cancel');
    assert.equal(await page.getByRole('button', { name: 'Watch Live' }).isVisible(), true);
    await waitFor('the state announced by its name', async () =>
      /Needs a person/.test(await page.locator('#live-region').innerText()),
    );
    // Even a status whose phase says "live" offers no Cancel once it has finished.
    await h.send({ type: 'status', status: webTaskStatus({ ...over, phase: 'needs-you' }) });
    await waitFor(
      'the older phase shown',
      async () => (await page.locator('#wt-phase').innerText()) === 'Waiting for you',
    );
    assert.equal(await page.locator('#wt-cancel').isVisible(), false);
  });

  it('an interrupted run is "Interrupted" in the badge and the message, with the advice of its mode', async () => {
    h = await openWebTask();
    const page = h.page;
    await h.send(
      webTaskInit({
        status: webTaskStatus({
          phase: 'interrupted',
          taskStatus: 'INTERRUPTED',
          message: "Interrupted: the service's answer was cut off before it ended.",
          hint: 'Run it again; if it keeps happening, check your connection or proxy (Den: Show Log says more).',
          finishedAt: T0 + 1_500,
        }),
      }),
    );
    await waitFor('the status shown', () => page.locator('#wt-status').isVisible());
    assert.equal(await page.locator('#wt-phase').innerText(), 'Interrupted');
    assert.match(await page.locator('#wt-message').innerText(), /^Interrupted: /);
    assert.doesNotMatch(await page.locator('#wt-status').innerText(), /\bError\b/);
    assert.equal(await page.locator('#wt-cancel').isVisible(), false);
  });

  it('shows how an ended run went and what to try, without Cancel', async () => {
    h = await openWebTask();
    const failed = webTaskStatus({
      phase: 'error',
      taskStatus: 'ERROR',
      message: 'The service refused the passcode (401).',
      hint: 'Set Passcode… and run again.',
      startedAt: T0,
      finishedAt: T0 + 3_000,
    });
    await h.send(webTaskInit({ status: failed }));
    const page = h.page;
    await waitFor('the status shown', () => page.locator('#wt-status').isVisible());
    assert.equal(await page.locator('#wt-phase').innerText(), 'Error');
    assert.equal(await page.locator('#wt-hint').innerText(), 'What to try: Set Passcode… and run again.');
    assert.match(await page.locator('#wt-time').innerText(), /^Finished .+ · took 3 s$/);
    assert.equal(await page.locator('#wt-cancel').isVisible(), false);
    for (const phase of ['done', 'failed', 'cancelled', 'interrupted', 'needs-person'] as const) {
      await h.send({ type: 'status', status: { ...failed, phase } });
      await waitFor(
        phase,
        async () => (await page.locator('#wt-phase').getAttribute('data-phase')) === phase,
      );
      assert.equal(await page.locator('#wt-cancel').isVisible(), false);
    }
  });

  it('windows 10,000 rows, sorts by a numeric column, filters, and counts and marks the issues', async () => {
    h = await openWebTask({ height: 800 });
    const data = products(ROWS);
    await h.send(webTaskInit({ form: FORM, status: webTaskStatus({ phase: 'done', sessionId: 'sess-1' }) }), {
      type: 'results',
      results: webTaskResults(data),
    });
    const page = h.page;
    await waitFor('the table', async () => (await domRows()) > 0);
    const check = checkResult(data, PRODUCT_SCHEMA);
    assert.equal(await page.locator('#wt-rows').innerText(), '10,000 rows');
    const t = check.totals;
    assert.equal(
      await page.locator('#wt-issues').innerText(),
      `Issues: ${t.missing.toLocaleString('en-US')} missing, ${t.null} null, ${t.wrongShape} wrong shape`,
    );
    assert.equal(
      await page.locator('#wt-rows-with-issues').innerText(),
      `${check.rowsWithIssues.toLocaleString('en-US')} rows with issues`,
    );
    assert.equal(await page.locator('#wt-row-count').innerText(), 'Showing all 10,000 rows');
    assert.ok((await domRows()) < 120, `rows in the DOM: ${await domRows()}`);
    await waitFor('rows down to the bottom of the table', () => rowsFillView());

    // Row 3 lacks its price, row 5 has a null name, row 6 a seller that is not an object.
    const cell = (row: number, col: number) => page.locator(`#wt-table tr[data-row="${row}"] td`).nth(col);
    assert.equal(await cell(3, 1).getAttribute('class'), 'wt-issue wt-issue-missing');
    assert.equal(await cell(3, 1).innerText(), 'missing');
    assert.equal(await cell(3, 1).getAttribute('title'), 'missing');
    assert.equal(await cell(5, 0).getAttribute('class'), 'wt-issue wt-issue-null');
    assert.equal(await cell(6, 2).getAttribute('class'), 'wt-issue wt-issue-wrong-shape');
    assert.equal(await cell(0, 0).getAttribute('class'), null);
    assert.equal(await page.locator('#wt-table td.wt-issue-missing').first().textContent(), 'missing');

    // Sort by price: numbers compare as numbers (1, 2, … not 1, 10, 100), missing prices last.
    const table = toTable(data, PRODUCT_SCHEMA);
    const header = page.getByRole('button', { name: 'price', exact: true });
    await header.click();
    const asc = sortedIndexes(table.rows, 'price', 'asc');
    const firstRow = () => page.locator('#wt-table tbody tr[data-row]').first().getAttribute('data-row');
    await waitFor('sorted ascending', async () => (await firstRow()) === String(asc[0]));
    assert.equal(
      await page.locator('th:has(button[data-column="price"])').getAttribute('aria-sort'),
      'ascending',
    );
    const prices = await page.locator('#wt-table tbody tr[data-row] td:nth-of-type(2)').allInnerTexts();
    assert.deepEqual(prices.slice(0, 3), ['2', '3', '4'], 'as numbers; the price 1 (row 9999) is missing');
    await header.press('Enter');
    const desc = sortedIndexes(table.rows, 'price', 'desc');
    await waitFor('sorted descending', async () => (await firstRow()) === String(desc[0]));
    assert.equal(
      await page.locator('th:has(button[data-column="price"])').getAttribute('aria-sort'),
      'descending',
    );
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-column')), 'price');

    // The end of the table: still only a window of rows.
    await page.locator('#wt-table-scroll').focus();
    await page.keyboard.press('End');
    const last = String(desc[desc.length - 1]);
    await waitFor(
      'the last row',
      async () => (await page.locator(`#wt-table tr[data-row="${last}"]`).count()) === 1,
    );
    assert.ok((await domRows()) < 120, `rows in the DOM at the end: ${await domRows()}`);

    await page.getByLabel('Filter rows').fill('product 123');
    const matched = rowFilter(table.rows, table.columns)('product 123');
    await waitFor('filtered', async () => (await domRows()) === matched.length);
    assert.equal(await page.locator('#wt-row-count').innerText(), `Showing ${matched.length} of 10,000 rows`);
    await page.getByLabel('Filter rows').fill('no such product');
    await waitFor(
      'nothing matched',
      async () => (await page.locator('#wt-row-count').innerText()) === 'Showing 0 of 10,000 rows',
    );
    assert.equal(await page.locator('#wt-table tbody').innerText(), 'No rows match the filter.');
  });

  it('warns prominently when no rows came back, or every field came back empty', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ results: webTaskResults([]) }));
    const warning = h.page.locator('#wt-empty-warning');
    await waitFor('no rows', async () => (await warning.getAttribute('data-empty')) === 'no-rows');
    assert.equal(await warning.innerText(), 'No rows came back.');
    assert.equal(await warning.getAttribute('role'), 'alert');
    await h.send({
      type: 'results',
      results: webTaskResults([{ name: '', price: null, seller: { city: '' }, note: 'x' }, { name: ' ' }]),
    });
    await waitFor('all empty', async () => (await warning.getAttribute('data-empty')) === 'all-empty');
    assert.equal(
      await warning.innerText(),
      'Every field came back empty — check the schema’s descriptions and the query.',
    );
    assert.equal(await h.page.locator('#wt-extra-fields').innerText(), 'Fields not in the schema: note');
    await waitFor('the results announced', async () =>
      (await h.page.locator('#live-region').innerText()).startsWith(
        'Results: 2 rows. Every field came back empty',
      ),
    );
    await h.send({ type: 'results', results: webTaskResults(products(3), { dropped: true }) });
    await waitFor('fine', () => warning.isHidden());
    assert.match(await h.page.locator('#wt-dropped').innerText(), /^Too big to keep in history/);
  });

  it('posts each toolbar action, and Open Session only when the host can open it', async () => {
    h = await openWebTask();
    await h.send(webTaskInit({ status: webTaskStatus({ phase: 'done', sessionId: 'sess-42' }) }), {
      type: 'results',
      results: webTaskResults(products(5)),
    });
    const page = h.page;
    await waitFor('the results', () => page.locator('#wt-results').isVisible());
    assert.equal(await page.locator('#wt-session code').innerText(), 'sess-42');
    await page.getByRole('button', { name: 'Open as JSON', exact: true }).click();
    // the rest behind Save or Copy, a menu
    for (const name of ['Save as JSON', 'Save as JSONL', 'Save as CSV', 'Copy JSON', 'Copy CSV']) {
      await page.getByRole('button', { name: 'Save or Copy' }).click();
      await page.getByRole('menuitem', { name, exact: true }).click();
    }
    await page.getByRole('button', { name: 'Compare with Previous Run' }).click();
    await page.getByLabel('Key field').fill('name');
    await page.getByLabel('Key field').press('Enter');
    await page.getByRole('button', { name: 'Open Session' }).click();
    assert.deepEqual((await h.posted()).slice(1), [
      { type: 'openJson' },
      { type: 'save', format: 'json' },
      { type: 'save', format: 'jsonl' },
      { type: 'save', format: 'csv' },
      { type: 'copy', format: 'json' },
      { type: 'copy', format: 'csv' },
      { type: 'compare' },
      { type: 'compare', keyField: 'name' },
      { type: 'openSession' },
    ]);
    await h.send({ type: 'results', results: webTaskResults(products(5), { sessionOpenable: false }) });
    await waitFor('no Open Session', async () => (await page.locator('#wt-open-session').count()) === 0);
    assert.equal(await page.locator('#wt-session code').innerText(), 'sess-42');
  });

  it('shows the comparison with bounded lists, and clears results and comparison for a new run', async () => {
    h = await openWebTask();
    const changed = Array.from({ length: 205 }, (_, i) => ({
      key: String(i),
      before: { id: i, price: 1, seller: null, note: '' },
      after: { id: i, price: 2, note: '' },
      fields: ['price', 'seller', 'note'],
    }));
    await h.send(
      webTaskInit({
        status: webTaskStatus({ phase: 'done' }),
        results: webTaskResults(products(3)),
        comparison: {
          runId: 'run-1',
          previous: { runId: 'run-0', startedAt: T0 - 86_400_000, rowCount: 208 },
          keyField: 'id',
          keySource: 'given',
          added: [{ id: 'new', name: 'Lamp' }],
          removed: [{ id: 'old' }, { id: 'older' }],
          changed,
          unchanged: 7,
        },
      }),
    );
    const page = h.page;
    await waitFor('the comparison', () => page.locator('#wt-comparison').isVisible());
    assert.match(
      await page.locator('#wt-comparison-headline').innerText(),
      /^vs run of .+: 1 added, 2 removed, 205 changed, 7 unchanged \(matched by key `id`\)$/,
    );
    assert.equal(await page.locator('#wt-added > li').count(), 1);
    assert.match(await page.locator('#wt-added > li').innerText(), /^new \{"id":"new","name":"Lamp"\}$/);
    assert.equal(await page.locator('#wt-removed > li').count(), 2);
    assert.equal(await page.locator('#wt-changed > li').count(), 201, '200 and a line for the rest');
    assert.equal(await page.locator('#wt-changed > li').last().innerText(), 'and 5 more');
    assert.match(
      await page.locator('#wt-changed > li').first().innerText(),
      /^0 changed price, seller, note\s+price: 1 → 2\s+seller: null → \(missing\)\s+note: \(empty\) → \(empty\)$/,
    );

    await h.send({
      type: 'comparison',
      comparison: {
        runId: 'run-1',
        previous: null,
        keySource: 'record',
        added: [],
        removed: [],
        changed: [],
        unchanged: 0,
        message: 'No earlier run of this query.',
      },
    });
    await waitFor(
      'no previous',
      async () =>
        (await page.locator('#wt-comparison-headline').innerText()) === 'No earlier run of this query.',
    );
    assert.equal(await page.locator('#wt-changed').count(), 0);

    await h.send({ type: 'status', status: webTaskStatus({ runId: 'run-2' }) });
    await waitFor('cleared', async () => !(await page.locator('#wt-results').isVisible()));
    assert.equal(await page.locator('#wt-comparison').isVisible(), false);
  });

  it('keeps untrusted text inert: no script runs, no element is made from it', async () => {
    h = await openWebTask({ height: 1600 });
    const dialogs = recordDialogs(h.page);
    const evil = XSS_CORPUS.map((c) => c.md);
    const data = evil.map((md, i) => ({ name: md, price: md, [md]: `extra ${i}`, seller: { city: md } }));
    await h.send(
      webTaskInit({
        form: { ...FORM, query: evil[0], schemaSource: evil[1] },
        status: webTaskStatus({
          phase: 'needs-you',
          message: evil[2],
          hint: evil[3],
          taskStatus: evil[4],
          sessionId: evil[5],
          livestreamUrl: 'javascript:alert(1)',
        }),
        results: webTaskResults(data),
        comparison: {
          runId: 'run-1',
          previous: { runId: 'run-0', startedAt: T0, rowCount: 1 },
          keyField: evil[6],
          keySource: 'given',
          added: data,
          removed: data,
          changed: data.map((d) => ({
            key: d.name,
            before: d,
            after: { ...d, name: 'x' },
            fields: ['name', evil[7]],
          })),
          unchanged: 0,
        },
      }),
      { type: 'formErrors', errors: { appUrl: evil[8], [evil[9]]: evil[10] } },
    );
    const page = h.page;
    await waitFor('the table', async () => (await domRows()) > 0);
    // Scroll through the table so that every row has been in the DOM once.
    const names = new Map<string, string>();
    for (let step = 0; step < data.length && names.size < data.length; step++) {
      const seen = await page
        .locator('#wt-table tr[data-row]')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.getAttribute('data-row') ?? '', tr.querySelector('td')?.textContent ?? '']),
        );
      for (const [row, text] of seen) names.set(row, text);
      await page.locator('#wt-table-scroll').evaluate((e) => (e.scrollTop += e.clientHeight));
      await h.frames(2);
    }
    const made = await page.evaluate(
      () =>
        document.querySelectorAll(
          '#app :is(script, img, svg, iframe, object, embed, style, a, math, template, base, meta)',
        ).length,
    );
    assert.equal(made, 0);
    assert.deepEqual(dialogs, []);
    assert.equal(await page.locator('#wt-message').innerText(), evil[2], 'shown as text');
    assert.deepEqual(
      [...names].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, text]) => text),
      evil.map((md) => (md.length > 300 ? `${md.slice(0, 300)}…` : md)),
    );
  });
});
