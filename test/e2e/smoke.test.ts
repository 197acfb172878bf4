import assert from 'node:assert/strict';
import {
  activityBarItem,
  clickActivityBar,
  openWorkbench,
  waitForIdle,
  type Workbench,
} from '../harness/workbench';

describe('Den in the VS Code workbench (packaged .vsix, no service configured)', () => {
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench();
  });

  after(async () => {
    await wb?.close();
  });

  it('shows the Den icon in the activity bar', async () => {
    assert.equal(await activityBarItem(wb.page, 'Den').isVisible(), true);
  });

  it('opens the Sessions view with the "Configure Service URL" welcome when clicked', async () => {
    await clickActivityBar(wb.page, 'Den');
    const sidebar = wb.page.locator('.part.sidebar');
    assert.equal(await sidebar.locator('.composite.title h2').textContent(), 'Den: Sessions');
    const button = sidebar.locator('.welcome-view-content a.monaco-button', {
      hasText: 'Configure Service URL',
    });
    await button.waitFor({ state: 'visible' });
    assert.match(
      await sidebar.locator('.welcome-view-content').innerText(),
      /Den needs the address of your Agent Session Service/,
    );
    await waitForIdle(wb.page);
    await wb.screenshot('e2e-smoke-sessions-welcome');
  });
});
