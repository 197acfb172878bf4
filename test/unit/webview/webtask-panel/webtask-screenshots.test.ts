/**
 * Screenshots of the Web Task page in light, dark and high-contrast themes (shots/webtask-*.png,
 * untracked), to look at: a run that needs the person, results with issues, a comparison.
 * Needs Debian's Chromium (see browser-harness.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { waitFor } from '../../../support/wait';
import type { Theme } from '../session-panel/browser-harness';
import { FORM, products, T0, webTaskInit, webTaskResults, webTaskStatus } from './webtask-factories';
import { closeBrowser, openWebTask, SHOTS, type WebTaskHarness } from './webtask-harness';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

describe('web task page: screenshots (Chromium)', function () {
  this.timeout(60_000);
  let h: WebTaskHarness;

  afterEach(async () => {
    await h?.close();
  });

  const domRows = () => h.page.locator('#wt-table tbody tr[data-row]').count();

  for (const theme of ['light', 'dark', 'high-contrast'] as Theme[]) {
    it(`looks like VS Code (${theme}): screenshots of a run that needs you and of results with issues`, async () => {
      h = await openWebTask({ theme, height: 1000, now: T0 + 83_000 });
      await h.send(
        webTaskInit({
          form: FORM,
          passcodeSet: true,
          status: webTaskStatus({
            phase: 'needs-you',
            taskStatus: 'HUMAN_INTERACTION',
            message: 'The site asks for a login before it shows prices.',
            livestreamUrl: 'https://live.example/s/1',
            sessionId: 'sess-42',
          }),
        }),
      );
      await waitFor('the status', () => h.page.locator('#wt-status').isVisible());
      await h.page.locator('#wt-status').screenshot({ path: join(SHOTS, `webtask-status-${theme}.png`) });
      await h.send(
        {
          type: 'status',
          status: webTaskStatus({
            phase: 'done',
            taskStatus: 'DONE',
            message: 'Found 40 products',
            finishedAt: T0 + 83_000,
            sessionId: 'sess-42',
          }),
        },
        { type: 'results', results: webTaskResults(products(40)) },
      );
      await waitFor('the table', async () => (await domRows()) > 0);
      await h.page.locator('#wt-results').scrollIntoViewIfNeeded();
      await h.page.locator('#wt-results').screenshot({ path: join(SHOTS, `webtask-results-${theme}.png`) });
      assert.ok((await h.page.locator('#wt-table td.wt-issue').count()) > 0);
      const [a, b] = products(2);
      await h.send({
        type: 'comparison',
        comparison: {
          runId: 'run-1',
          previous: { runId: 'run-0', startedAt: T0 - 86_400_000, rowCount: 40 },
          keyField: 'name',
          keySource: 'inferred',
          added: [a],
          removed: [b],
          changed: [{ key: 'Product 7', before: { price: 33 }, after: { price: 31 }, fields: ['price'] }],
          unchanged: 38,
        },
      });
      await waitFor('the comparison', () => h.page.locator('#wt-comparison').isVisible());
      await h.page
        .locator('#wt-comparison')
        .screenshot({ path: join(SHOTS, `webtask-comparison-${theme}.png`) });
    });
  }
});
