import assert from 'node:assert/strict';
import {
  activityBarItem,
  sideBarPane,
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
    const title = await wb.page.locator('.part.sidebar .composite.title h2').textContent();
    assert.match(title ?? '', /^Den/i);
    // The Den container holds the Sessions and Web Tasks views: the welcome is the Sessions pane's.
    const sidebar = sideBarPane(wb.page, 'Sessions');
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
