/**
 * The two webview bundles in Chromium, translated by the bundle the host sends with `init`
 * (`vscode.l10n.bundle`), and in English when it sends none.
 */
import assert from 'node:assert/strict';
import { closeBrowser, openHarness, started, type Harness } from './browser-harness';
import { composer } from './helpers';
import { openWebTask, type WebTaskHarness } from '../webtask-panel/webtask-harness';
import { webTaskInit, webTaskStatus } from '../webtask-panel/webtask-factories';

after(closeBrowser);

const PANEL_BUNDLE = {
  Send: 'Senden',
  'Message to the agent': 'Nachricht an den Agenten',
  '{0} queued': '{0} in der Warteschlange',
  Live: 'Verbunden',
};

const WEB_TASK_BUNDLE = {
  Run: 'Ausführen',
  'Waiting for you': 'Wartet auf dich',
  'What to try: {0}': 'Versuche: {0}',
};

describe('webview texts in Chromium: the l10n bundle of init', function () {
  this.timeout(60_000);
  let h: Harness | WebTaskHarness | undefined;

  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('the Session panel shows the translated texts, parameterized ones with their args', async () => {
    const panel = await openHarness();
    h = panel;
    await started(panel, { l10n: PANEL_BUNDLE, composer: composer({ queued: 2 }) });
    await panel.frames();
    const send = panel.page.locator('#send');
    assert.equal(await send.textContent(), 'Senden');
    assert.equal(
      await panel.page.locator('#composer-input').getAttribute('aria-label'),
      'Nachricht an den Agenten',
    );
    assert.equal(await panel.page.locator('#queued').textContent(), '2 in der Warteschlange');
    assert.equal(await panel.page.locator('.connection-text').textContent(), 'Verbunden');
    // A text the bundle lacks stays English.
    assert.equal(await panel.page.locator('#stop').textContent(), 'Stop');
  });

  it('the Session panel is English with l10n: null', async () => {
    const panel = await openHarness();
    h = panel;
    await started(panel, { l10n: null, composer: composer({ queued: 2 }) });
    await panel.frames();
    assert.equal(await panel.page.locator('#send').textContent(), 'Send');
    assert.equal(await panel.page.locator('#queued').textContent(), '2 queued');
    assert.equal(await panel.page.locator('.connection-text').textContent(), 'Live');
  });

  // The page as the host leaves it after each init: the texts of these elements, by selector.
  const WEB_TASK_SELECTORS = ['#wt-run', '#wt-phase', '#wt-hint', '#wt-cancel'];
  const webTaskTexts = async (bundle: Record<string, string> | null): Promise<(string | null)[]> => {
    const page = await openWebTask();
    h = page;
    await page.send(
      webTaskInit({
        l10n: bundle,
        status: webTaskStatus({ phase: 'needs-you', hint: 'open the live view' }),
      }),
    );
    return Promise.all(WEB_TASK_SELECTORS.map((sel) => page.page.locator(sel).textContent()));
  };

  it('the Web Task page shows the translated texts, parameterized ones with their args', async () => {
    assert.deepEqual(await webTaskTexts(WEB_TASK_BUNDLE), [
      'Ausführen',
      'Wartet auf dich',
      'Versuche: open the live view',
      'Cancel',
    ]);
  });

  it('the Web Task page is English with l10n: null', async () => {
    assert.deepEqual(await webTaskTexts(null), [
      'Run',
      'Waiting for you',
      'What to try: open the live view',
      'Cancel',
    ]);
  });
});
