import assert from 'node:assert/strict';
import { clickActivityBar } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { sessionTitles, shot, showAllSessions, UI_WAIT } from './sessions-view';

describe("Search in Sessions: the view in Den's container (emulator, packaged .vsix)", function () {
  this.timeout(180_000);
  const t = useSignedInWorkbench('session-search', {});

  it('fetches and indexes the listed sessions, finds a word across them grouped by session, and opens one at its match', async () => {
    const { page } = t;
    await clickActivityBar(page, 'Den');
    await showAllSessions(page);
    await waitFor('the seeded sessions listed', async () => (await sessionTitles(page)).length >= 8, UI_WAIT);
    // The view starts collapsed under Sessions: expand it.
    const header = page.locator('.part.sidebar .pane-header', { hasText: 'Search in Sessions' });
    await header.waitFor();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const view = page
      .locator('iframe.webview')
      .first()
      .contentFrame()
      .locator('#active-frame')
      .contentFrame();
    const input = view.locator('.ss-input');
    await input.waitFor();
    // Nothing is stored on this machine yet: fetch the sessions the Sessions view lists.
    const fetch = view.locator('.ss-fetch');
    await fetch.waitFor({ state: 'visible' });
    await fetch.click();
    await waitFor('the fetch to end', async () => !(await fetch.isVisible()), UI_WAIT);
    await input.fill('migration');
    const groups = view.locator('.ss-group');
    await waitFor('results in two sessions or more', async () => (await groups.count()) >= 1, UI_WAIT);
    const summary = (await view.locator('.ss-summary').innerText()).trim();
    assert.match(summary, /^\d+ match(es)? in \d+ sessions?$/);
    const titles = await view.locator('.ss-session-title').allInnerTexts();
    assert.ok(titles.includes('Plan the Postgres 16 migration'), titles.join(' | '));
    await shot(t.wb, 'session-search-view-results');

    // Down from the input goes into the list; Enter on a hit opens its session at the match.
    await input.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const active = view.locator('.ss-row.ss-active');
    assert.ok(await active.evaluate((el) => el.classList.contains('ss-hit')));
    await page.keyboard.press('Enter');
    const panel = page
      .locator('iframe.webview')
      .last()
      .contentFrame()
      .locator('#active-frame')
      .contentFrame();
    const count = panel.locator('.find-count');
    await waitFor(
      'the find bar at the match',
      async () => /^\d+ of \d+$/.test((await count.innerText().catch(() => '')).trim()),
      UI_WAIT,
    );
    assert.equal(await panel.locator('.find-input').inputValue(), 'migration');
    await shot(t.wb, 'session-search-panel-at-match');
  });
});
