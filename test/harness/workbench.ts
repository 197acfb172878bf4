import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { addCleanup } from './cleanup';
import { STILL_SETTINGS, startCodeServer, type CodeServer } from './code-server';
import { repoRoot } from './paths';

/** Options for {@link openWorkbench}. */
export interface WorkbenchOptions {
  /** User settings merged over the offline defaults (e.g. `{ 'den.baseUrl': emulator.url }`). */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and the extension host. */
  env?: Record<string, string>;
  /** Default dist/den.vsix (built by `npm run package`). */
  vsix?: string;
  /** Default: a fresh temp folder, removed by `close()`. */
  workspaceDir?: string;
  /** Default 1400×900. */
  viewport?: { width: number; height: number };
  /** Unpacked test-only extensions installed beside Den (e.g. test/stub-model). */
  extraExtensions?: string[];
}

/** A real VS Code workbench in Chromium with Den installed from its .vsix into a fresh profile. */
export interface Workbench {
  page: Page;
  context: BrowserContext;
  browser: Browser;
  codeServer: CodeServer;
  workspaceDir: string;
  /** Closes the browser, stops code-server (whole process tree), removes temp folders. Idempotent. */
  close(): Promise<void>;
  /** Saves `<name>.png` into `$SHOTS` (default `<repo>/shots`); returns the file's path. */
  screenshot(name: string): Promise<string>;
}

const READY_TIMEOUT_MS = 30_000;

/** The folder screenshots go to. */
export function shotsDir(): string {
  return path.resolve(process.env.SHOTS || path.join(repoRoot(), 'shots'));
}

/**
 * Starts code-server with the packaged extension installed, opens the workbench in Chromium and waits
 * until the activity bar shows Den's icon (the extension's contributions are registered).
 */
export async function openWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const vsix = options.vsix ?? path.join(repoRoot(), 'dist', 'den.vsix');
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing (\`npm run package\` builds dist/den.vsix)`);
  const ownWorkspace = !options.workspaceDir;
  const workspaceDir = options.workspaceDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'den-ws-'));
  let codeServer: CodeServer | undefined;
  let browser: Browser | undefined;
  const removeWorkspace = (): void => {
    if (ownWorkspace) fs.rmSync(workspaceDir, { recursive: true, force: true });
  };
  const unregister = addCleanup(removeWorkspace);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      unregister();
      await browser?.close().catch(() => undefined);
      await codeServer?.stop();
      removeWorkspace();
    })());
  try {
    // Chromium starts while code-server does (each takes a moment); both settle before either's
    // failure is thrown, so that `close` stops whichever started.
    const starting = launchChromium().then((b) => (browser = b));
    const serving = startCodeServer({
      workspaceDir,
      installVsix: vsix,
      ...(options.extraExtensions ? { extraExtensions: options.extraExtensions } : {}),
      settings: { ...STILL_SETTINGS, ...options.settings },
      ...(options.env ? { env: options.env } : {}),
    }).then((c) => (codeServer = c));
    await Promise.allSettled([starting, serving]);
    const [server, started] = await Promise.all([serving, starting]);
    const context = await started.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspaceDir)}`);
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: READY_TIMEOUT_MS });
    await activityBarItem(page, 'Den').waitFor({ state: 'visible', timeout: READY_TIMEOUT_MS });
    const screenshot = async (name: string): Promise<string> => {
      const file = path.join(shotsDir(), `${name}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      return file;
    };
    return { page, context, browser: started, codeServer: server, workspaceDir, close, screenshot };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The activity-bar entry (`li.action-item`) whose icon's label starts with `label` (e.g. 'Den', 'Explorer'). */
/**
 * A view's pane in the side bar, by its title ("Sessions"): the Den container holds more than one
 * view (Sessions, Web Tasks), so what a test reads of one view is looked up inside its pane.
 */
export function sideBarPane(page: Page, title: string): Locator {
  return page.locator('.part.sidebar .pane').filter({
    has: page.locator('.pane-header h3.title', {
      hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`, 'i'),
    }),
  });
}

export function activityBarItem(page: Page, label: string): Locator {
  return page
    .locator('.part.activitybar li.action-item')
    .filter({ has: page.locator(`a.action-label[aria-label^="${label}"]`) })
    .first();
}

/**
 * Opens a view container from the activity bar; resolves once the side bar's title starts with
 * `label` (e.g. "Den: Sessions"). Does not click an already open container: that would close it.
 */
export async function clickActivityBar(page: Page, label: string): Promise<void> {
  const item = activityBarItem(page, label);
  const title = page.locator('.part.sidebar .composite.title .title-label h2');
  const open =
    (await item.getAttribute('aria-selected')) === 'true' &&
    (await title.isVisible()) &&
    (await title.innerText()).toLowerCase().startsWith(label.toLowerCase());
  if (!open) await item.click();
  await page
    .locator('.part.sidebar .composite.title .title-label h2', {
      hasText: new RegExp(`^${escapeRegExp(label)}`, 'i'),
    })
    .waitFor({ state: 'visible' });
  // The pointer left on the icon shows its hover ("Explorer (Ctrl+Shift+E)"), which lies over the
  // side bar's first rows and takes the next click meant for them: move it to the title bar's corner.
  await page.mouse.move(1, 1);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Runs a command through F1 and the quick input, by its palette title (e.g. 'Den: Configure Service URL').
 * Presses Enter only once the focused row is that command (moving down to it when the fuzzy match ranks
 * another one first); clicking rows is flaky because the list re-renders while it filters.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await typeInPalette(page, `>${title}`);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  try {
    await rows.filter({ hasText: title }).first().waitFor({ timeout: 10_000 });
  } catch {
    const shown = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    await page.keyboard.press('Escape');
    throw new Error(`command "${title}" is not in the command palette; it shows: ${JSON.stringify(shown)}`);
  }
  for (let i = 0; i < 20; i++) {
    const label = await rows
      .and(page.locator('.focused'))
      .first()
      .getAttribute('aria-label', { timeout: 5000 });
    if (label?.startsWith(title)) {
      await page.keyboard.press('Enter');
      // The palette closes, or the command reuses the widget for its own input: either way the
      // command's text leaves it. Until then the next step could land in the closing palette.
      await page.waitForFunction((text) => {
        const w = document.querySelector<HTMLElement>('.quick-input-widget');
        const i = w?.querySelector('input');
        return !w || w.style.display === 'none' || !i || i.value !== text;
      }, `>${title}`);
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`command "${title}" not found in the command palette`);
}

/**
 * F1 until the palette's input has the focus, then types `text` into it. F1 while an earlier palette,
 * menu or box is still closing lands in that one (it turns inert, then hides), and something that
 * takes the focus as it renders (a Getting Started page, a notification) closes the palette before
 * the typing: close it and try again, at most 3 times.
 */
async function typeInPalette(page: Page, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    await widget.waitFor({ state: 'hidden' });
    await page.keyboard.press('F1');
    try {
      await page.waitForFunction(
        () => {
          const box = document.querySelector('.quick-input-widget .quick-input-box input');
          const w = box?.closest<HTMLElement>('.quick-input-widget');
          return (
            !!box && document.activeElement === box && !w?.closest('[inert]') && w?.style.display !== 'none'
          );
        },
        undefined,
        { timeout: 5_000, polling: 100 },
      );
      await widget.locator('input').fill(text, { timeout: 5_000 });
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
      await dismissQuickInput(page);
    }
  }
}

/**
 * Closes the quick input (a palette, or an extension's input box or pick) with Escape, again while it
 * stays open (an Escape can land before the box has the focus); with `title`, first waits for that box.
 */
export async function dismissQuickInput(page: Page, title?: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  if (title) await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible' });
  if (!(await widget.isVisible())) return;
  await retryUntilHidden(widget, () => page.keyboard.press('Escape'));
}

/** The labels of the tree items in the side bar, top to bottom (visible rows only: trees are virtual). */
export async function treeItems(page: Page): Promise<string[]> {
  const rows = page.locator('.part.sidebar [role="treeitem"]');
  const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  return labels;
}

/** One side-bar tree item by (the start of) its label, for clicking or context menus. */
export function treeItem(page: Page, label: string): Locator {
  return page.locator(`.part.sidebar [role="treeitem"][aria-label^="${label.replace(/"/g, '\\"')}"]`).first();
}

/** The texts of the notification toasts currently shown (innerText: textContent includes CSS). */
export async function notifications(page: Page): Promise<string[]> {
  return page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
}

/** The content frame of the most recently created webview (`iframe.webview` → `#active-frame`). */
export function webviewFrame(page: Page): FrameLocator {
  return page.locator('iframe.webview').last().contentFrame().locator('#active-frame').contentFrame();
}

/**
 * Waits until the side bar and the activity bar show no progress (e.g. the extension activating or a
 * view loading), so screenshots and assertions see a settled state.
 */
export async function waitForIdle(page: Page, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('.part.activitybar .badge.progress-badge') &&
      !document.querySelector('.part.sidebar .monaco-progress-container.active'),
    undefined,
    { timeout: timeoutMs, polling: 100 },
  );
}

/**
 * Answers the input box the extension opened (`showInputBox`): waits for the box whose title contains
 * `title`, replaces its text with `text` and presses Enter. Works for password boxes too.
 */
export async function answerInputBox(page: Page, title: string, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible' });
  const input = widget.locator('.quick-input-box input');
  await input.fill(text);
  // VS Code validates the value asynchronously (the extension's `validateInput`) and may drop an
  // Enter that races it: press again while the box stays open and shows no validation error.
  await retryUntilHidden(
    widget,
    () => input.press('Enter'),
    async () => {
      const error = widget.locator('.quick-input-message.error, .monaco-inputbox-message.error');
      if (await error.isVisible())
        throw new Error(`"${title}" refused the value: ${await error.innerText()}`);
    },
  );
}

/**
 * Does `act` until `target` is hidden: at most 5 times, each followed by a bounded wait for it to
 * hide; `check` runs between tries and may throw to stop with a reason.
 */
async function retryUntilHidden(
  target: Locator,
  act: () => Promise<void>,
  check: () => Promise<void> = async () => undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await act();
    try {
      await target.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch (err) {
      await check();
      if (attempt >= 5) throw err;
    }
  }
}

/**
 * Right-clicks a side-bar tree item (by the start of its label, or the row itself when two views
 * show the same label) and runs `action` from its context menu.
 */
export async function contextMenuAction(page: Page, item: string | Locator, action: string): Promise<void> {
  const menu = page.locator('.context-view .monaco-menu');
  const entry = menu.locator('.action-item', {
    has: page.locator('.action-label', { hasText: new RegExp(`^${escapeRegExp(action)}$`) }),
  });
  if (typeof item === 'string') await rightClickTreeItem(page, item, menu);
  else await item.click({ button: 'right' });
  await entry.waitFor({ state: 'visible' });
  // A context menu ignores mouse-ups for a moment after it opens (VS Code's `runOnceToEnableMouseUp`),
  // so a click that comes too soon leaves it open: click again until it closes.
  await retryUntilHidden(menu, () => entry.click());
}

/**
 * Right-clicks the tree row labelled `label` and checks the menu opened for that row: a tree's rows are
 * reused as it re-renders (a refresh, a group loading), so the element found may show another item by
 * the time the click lands (seen: the menu opened on a "Today" group row), or be replaced under it so
 * that no menu opens at all (seen once in CI: 30 s without a menu), or a menu opens with no row
 * focused (seen once in CI). The row a right-click focuses is the one the menu acts on; on any other,
 * or none, the menu is closed and the click tried again; a click that opened no menu within a few
 * seconds is tried again too.
 */
async function rightClickTreeItem(page: Page, label: string, menu: Locator): Promise<void> {
  const focused = page.locator('.part.sidebar [role="treeitem"].focused');
  let got = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    await treeItem(page, label).click({ button: 'right' });
    try {
      await menu.waitFor({ state: 'visible', timeout: 5_000 });
    } catch {
      got = '(no menu opened)';
      continue;
    }
    // a menu can open with no row focused (seen once in CI: the Explorer redrawn under the click)
    got =
      (await focused
        .first()
        .getAttribute('aria-label', { timeout: 2_000 })
        .catch(() => '(no row focused)')) ?? '';
    if (got.startsWith(label)) return;
    await retryUntilHidden(menu, () => page.keyboard.press('Escape'));
  }
  throw new Error(`a right-click on "${label}" kept opening the menu of another row ("${got}")`);
}

/** The modal dialog (`showWarningMessage(..., { modal: true })`) currently shown. */
export function dialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box');
}

/** The status bar entry whose id is `<publisher>.<name>.<id>` (e.g. `den-dev.den.den.status`). */
export function statusBarEntry(page: Page, id: string): Locator {
  return page.locator(`.part.statusbar .statusbar-item[id="${id.replace(/"/g, '\\"')}"]`);
}

/** Expands the notification toasts whose message is cut to one line, so their whole text shows. */
export async function expandNotifications(page: Page): Promise<void> {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  for (let i = 0, n = await toasts.count(); i < n; i++) {
    const toast = toasts.nth(i);
    const toggle = toast.locator('.codicon-notifications-expand');
    if (!(await toggle.count())) continue;
    // the toggle only shows while the pointer is over the toast
    await toast.hover();
    await toggle.click();
  }
}

/** Drags the side bar's edge so the side bar is about `width` pixels wide. */
export async function resizeSideBar(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  if (!box) throw new Error('the side bar is not shown');
  const edge = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(edge, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  const after = await sidebar.boundingBox();
  if (!after || Math.abs(after.width - width) > 8) {
    throw new Error(`the side bar is ${after?.width} px wide after dragging its edge, not ${width}`);
  }
}
