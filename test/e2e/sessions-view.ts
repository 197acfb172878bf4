/**
 * What a person sees in the workbench, read for the e2e tests: the Sessions view's rows, welcome and
 * message, toasts, and settled screenshots. Plain Playwright over the DOM of VS Code 1.139.
 */
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import { waitFor, type WaitBounds } from '../support/wait';
import { runCommand, sideBarPane, statusBarEntry, waitForIdle, type Workbench } from '../harness/workbench';

/**
 * How the e2e tests wait on what the workbench shows: every read is a round trip to the browser, so
 * a slower cadence, and a wider safety net for a loaded machine.
 */
export const UI_WAIT: WaitBounds = { timeoutMs: 15_000, intervalMs: 100 };

/**
 * The titles of the session rows in the Sessions view (labels without the ", updated …" part): the
 * rows of its groups (Pinned, Today, …), one level below the root.
 */
export async function sessionTitles(page: Page): Promise<string[]> {
  const rows = sideBarPane(page, 'Sessions').locator('[role="treeitem"][aria-level="2"] .label-name');
  return rows.allInnerTexts();
}

/** The group rows of the Sessions view (Pinned, Today, Yesterday, Last 7 Days, Older, Archived). */
export async function groupTitles(page: Page): Promise<string[]> {
  const rows = sideBarPane(page, 'Sessions').locator('[role="treeitem"][aria-level="1"] .label-name');
  // (not the rows "Load more…" and "8 more sessions in All Sessions")
  return (await rows.allInnerTexts()).filter((t) => t !== 'Load more…' && !/ in All Sessions$/.test(t));
}

/** The groups of the Sessions view with the titles of the session rows shown under each. */
export async function groupedTitles(page: Page): Promise<[string, string[]][]> {
  const rows = await sideBarPane(page, 'Sessions')
    .locator('[role="treeitem"]')
    .evaluateAll((els) =>
      els.map((e) => [e.getAttribute('aria-level') ?? '', e.querySelector('.label-name')?.textContent ?? '']),
    );
  const out: [string, string[]][] = [];
  for (const [level, label] of rows) {
    if (level === '1' && label !== 'Load more…') out.push([label, []]);
    else if (level === '2') out[out.length - 1]?.[1].push(label);
  }
  return out;
}

/**
 * Switches the Sessions view to All Sessions (the emulator's sessions were not started from the
 * test's workspace, so This Workspace shows only the pinned one).
 */
export async function showAllSessions(page: Page): Promise<void> {
  await runCommand(page, 'Den: Show All Sessions');
}

/** Clicks one of the Sessions view's title actions (shown while the header is hovered). */
export async function clickViewAction(page: Page, label: string): Promise<void> {
  const pane = sideBarPane(page, 'Sessions');
  await pane.locator('.pane-header').hover();
  await pane.locator(`.pane-header .actions .action-label[aria-label^="${label}"]`).click();
}

/** The Sessions view's description (beside its title): the scope shown, and the search. */
export async function viewDescription(page: Page): Promise<string> {
  return (await sideBarPane(page, 'Sessions').locator('.pane-header .description').innerText()).trim();
}

/** The text of the view's welcome content (viewsWelcome), '' when the view shows none. */
export async function welcomeText(page: Page): Promise<string> {
  const welcome = sideBarPane(page, 'Sessions').locator('.welcome-view-content');
  return (await welcome.isVisible()) ? welcome.innerText() : '';
}

/** The text of Den's status bar item, trimmed. */
export async function statusText(page: Page): Promise<string> {
  return (await statusBarEntry(page, 'den-dev.den.den.status').innerText()).trim();
}

/** The message the extension shows above the tree (`TreeView.message`), '' when none. */
export async function viewMessage(page: Page): Promise<string> {
  const message = sideBarPane(page, 'Sessions').locator('.tree-explorer-viewlet-tree-view > .message');
  return (await message.isVisible()) ? (await message.innerText()).trim() : '';
}

/** Waits until no toast shows `text` (progress toasts stay a moment after their task ends). */
export async function toastGone(page: Page, text: string): Promise<void> {
  await page
    .locator('.notifications-toasts .notification-list-item-message', { hasText: text })
    .waitFor({ state: 'detached' });
}

export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached' });
}

/**
 * Moves the mouse off any hover target, waits for the workbench and the toasts' slide-in to settle,
 * then saves `<name>.png`.
 */
export async function shot(wb: Workbench, name: string): Promise<void> {
  const { page } = wb;
  await page.mouse.move(900, 300);
  const hover = page.locator('.monaco-hover, .workbench-hover').first();
  // A hover shown for keyboard focus (an activity-bar item just clicked keeps it) stays however the
  // mouse moves: it goes with the focus.
  const gone = await hover.waitFor({ state: 'hidden', timeout: 2_000 }).then(
    () => true,
    () => false,
  );
  if (!gone) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const blurred = await hover.waitFor({ state: 'hidden', timeout: 2_000 }).then(
      () => true,
      () => false,
    );
    // Seen in CI: the activity bar's "Den" hover outlived the blur (its item keeps the focus
    // elsewhere than `activeElement`); VS Code's hovers close on Escape.
    if (!blurred) await page.keyboard.press('Escape');
    await hover.waitFor({ state: 'hidden' });
  }
  await waitForIdle(page);
  await waitFor(
    'the notification toasts to stop moving',
    async () => {
      const before = await toastBoxes(page);
      await page.waitForTimeout(150);
      return before === (await toastBoxes(page));
    },
    { ...UI_WAIT, until: (still) => still },
  );
  await wb.screenshot(name);
}

async function toastBoxes(page: Page): Promise<string> {
  return page
    .locator('.notifications-toasts .notification-toast')
    .evaluateAll((els) => JSON.stringify(els.map((e) => e.getBoundingClientRect())));
}

/** The number of DOM changes in the side bar's tree during `ms` (a settled tree makes none). */
export async function treeChurn(page: Page, ms: number): Promise<number> {
  return page.evaluate(async (wait) => {
    let n = 0;
    const rows = document.querySelector('.part.sidebar .monaco-list-rows');
    if (!rows) return -1;
    const observer = new MutationObserver((records) => (n += records.length));
    observer.observe(rows, { subtree: true, childList: true, attributes: true, characterData: true });
    await new Promise((r) => setTimeout(r, wait));
    observer.disconnect();
    return n;
  }, ms);
}

/**
 * Replaces the service on `port` with a fresh one (started with `options`), so the workbench's URL
 * and key stay valid. Session ids are new at every start while the seeded titles are the same: a
 * refresh against an empty service first empties the tree, so rows that show after the next refresh
 * can only be the fresh service's. Returns the fresh service; the caller refreshes once more.
 */
export async function freshService(
  page: Page,
  old: Emulator | undefined,
  port: number,
  options: EmulatorOptions = {},
): Promise<Emulator> {
  await old?.close();
  const empty = await startEmulator({ port, seed: false });
  await runCommand(page, 'Den: Refresh Sessions');
  await waitFor('the tree to empty', () => sessionTitles(page), { ...UI_WAIT, until: (t) => t.length === 0 });
  await empty.close();
  return startEmulator({ ...options, port });
}

/** Picks a colour theme through "Preferences: Color Theme"; returns the theme that was current. */
export async function pickColorTheme(page: Page, name: string): Promise<string> {
  await runCommand(page, 'Preferences: Color Theme');
  const focused = page.locator('.quick-input-list .monaco-list-row.focused .label-name').first();
  const current = (await focused.innerText()).trim();
  await page.locator('.quick-input-widget input').fill(name);
  await page
    .locator('.quick-input-list .monaco-list-row.focused .label-name', { hasText: new RegExp(`^${name}$`) })
    .waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  return current;
}
