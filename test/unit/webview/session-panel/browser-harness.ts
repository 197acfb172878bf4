/**
 * The webview bundle in headless Chromium without VS Code: a page with `#app`, the panel's stylesheet,
 * a set of theme variables and a fake `acquireVsCodeApi` that records what the webview posts and
 * saves. Messages from the "host" are posted with `window.postMessage`, as VS Code delivers them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../harness/chromium';
import type { Block } from '../../../../src/core/transcript/model';
import type { HostMessage, WebviewDigest } from '../../../../src/protocol/session-panel/messages';
import { liveTranscript } from '../../core/transcript/helpers';
import { initMessage } from './helpers';

// Compiled to dist/test/unit/webview: the bundle is dist/webview.js, the stylesheet stays in media/.
const BUNDLE = join(__dirname, '../../../../webview.js');
const STYLESHEET = join(__dirname, '../../../../../media/panel.css');

export type Theme = 'light' | 'dark' | 'high-contrast';

const THEMES: Record<Theme, Record<string, string>> = {
  light: {
    'sideBar-background': '#f8f8f8',
    'list-hoverBackground': '#f2f2f2',
    'list-activeSelectionBackground': '#e8e8e8',
    'list-activeSelectionForeground': '#000000',
    'list-inactiveSelectionBackground': '#e4e6f1',
    'list-focusOutline': '#005fb8',
    'editor-findMatchHighlightBackground': '#ea5c0055',
    'inputOption-activeBackground': '#bed6ed',
    'inputOption-activeForeground': '#000000',
    'inputOption-activeBorder': '#005fb8',
    'editor-background': '#ffffff',
    foreground: '#3b3b3b',
    descriptionForeground: '#717171',
    focusBorder: '#005fb8',
    'textLink-foreground': '#005fb8',
    'button-background': '#005fb8',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#0258a8',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#3b3b3b',
    'input-background': '#ffffff',
    'input-foreground': '#3b3b3b',
    'input-border': '#cecece',
    'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b',
    errorForeground: '#a1260d',
    'editorWarning-foreground': '#bf8803',
    'textCodeBlock-background': '#f2f2f2',
    'widget-border': '#e5e5e5',
    'panel-border': '#e5e5e5',
    'menu-background': '#ffffff',
    'menu-foreground': '#3b3b3b',
    'menu-border': '#cecece',
    'menu-selectionBackground': '#005fb8',
    'menu-selectionForeground': '#ffffff',
    'menu-separatorBackground': '#e5e5e5',
    'widget-shadow': '#00000029',
    'terminal-ansiRed': '#cd3131',
    'terminal-ansiGreen': '#107c10',
    'terminal-ansiYellow': '#949800',
    'terminal-ansiBlue': '#0451a5',
  },
  dark: {
    'sideBar-background': '#181818',
    'list-hoverBackground': '#2a2d2e',
    'list-activeSelectionBackground': '#04395e',
    'list-activeSelectionForeground': '#ffffff',
    'list-inactiveSelectionBackground': '#37373d',
    'list-focusOutline': '#0078d4',
    'editor-findMatchHighlightBackground': '#ea5c0055',
    'inputOption-activeBackground': '#2489db82',
    'inputOption-activeForeground': '#ffffff',
    'inputOption-activeBorder': '#2488db',
    'editor-background': '#1f1f1f',
    foreground: '#cccccc',
    descriptionForeground: '#9d9d9d',
    focusBorder: '#0078d4',
    'textLink-foreground': '#4daafc',
    'button-background': '#0078d4',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#026ec1',
    'button-secondaryBackground': '#313131',
    'button-secondaryForeground': '#cccccc',
    'input-background': '#313131',
    'input-foreground': '#cccccc',
    'input-border': '#3c3c3c',
    'badge-background': '#616161',
    'badge-foreground': '#f8f8f8',
    errorForeground: '#f85149',
    'editorWarning-foreground': '#cca700',
    'textCodeBlock-background': '#2b2b2b',
    'widget-border': '#313131',
    'panel-border': '#2b2b2b',
    'menu-background': '#1f1f1f',
    'menu-foreground': '#cccccc',
    'menu-border': '#454545',
    'menu-selectionBackground': '#0078d4',
    'menu-selectionForeground': '#ffffff',
    'menu-separatorBackground': '#454545',
    'widget-shadow': '#0000005c',
    'terminal-ansiRed': '#f14c4c',
    'terminal-ansiGreen': '#23d18b',
    'terminal-ansiYellow': '#f5f543',
    'terminal-ansiBlue': '#3b8eea',
  },
  // Dark High Contrast: black, white text, cyan borders, orange focus; no tinted backgrounds.
  'high-contrast': {
    'sideBar-background': '#000000',
    'list-activeSelectionBackground': '#000000',
    'list-activeSelectionForeground': '#ffffff',
    'list-focusOutline': '#f38518',
    'editor-findMatchHighlightBorder': '#f38518',
    'inputOption-activeBorder': '#6fc3df',
    'editor-background': '#000000',
    foreground: '#ffffff',
    descriptionForeground: '#ffffffb3',
    focusBorder: '#f38518',
    contrastBorder: '#6fc3df',
    'textLink-foreground': '#21a6ff',
    'button-background': '#000000',
    'button-foreground': '#ffffff',
    'button-border': '#6fc3df',
    'button-secondaryBackground': '#000000',
    'button-secondaryForeground': '#ffffff',
    'input-background': '#000000',
    'input-foreground': '#ffffff',
    'input-border': '#6fc3df',
    'badge-background': '#000000',
    'badge-foreground': '#ffffff',
    errorForeground: '#f48771',
    'editorWarning-foreground': '#ffd370',
    'textCodeBlock-background': '#000000',
    'widget-border': '#6fc3df',
    'panel-border': '#6fc3df',
    'menu-background': '#000000',
    'menu-foreground': '#ffffff',
    'menu-border': '#6fc3df',
    'menu-selectionBorder': '#f38518',
    'menu-separatorBackground': '#6fc3df',
    'terminal-ansiRed': '#f14c4c',
    'terminal-ansiGreen': '#23d18b',
    'terminal-ansiYellow': '#f5f543',
    'terminal-ansiBlue': '#3b8eea',
  },
};

export interface HarnessOptions {
  theme?: Theme;
  /** What `getState()` returns (a restored panel). */
  state?: unknown;
  width?: number;
  height?: number;
  /** Stops the page's clock at this time (`Date.now()`, `new Date()`); its timers still run. */
  now?: number;
}

export interface Harness extends WebviewPage {
  /** Delivers host messages (in order, each in its own event). */
  send(...msgs: HostMessage[]): Promise<void>;
  /** Sends a probe and returns the digest the webview answers with. */
  probe(): Promise<WebviewDigest>;
}

function pageHtml(theme: Theme, css: string): string {
  const vars = Object.entries(THEMES[theme])
    .map(([k, v]) => `--vscode-${k}: ${v};`)
    .join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<style>:root { ${vars} --vscode-font-family: sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace; }</style>
<style>${css}</style></head><body class="vscode-${theme}"><div id="app"></div></body></html>`;
}

let browser: Browser | undefined;

/** Closes the browser shared by every harness (call it in the suite's `after`). */
export async function closeBrowser(): Promise<void> {
  const b = browser;
  browser = undefined;
  await b?.close();
}

/** A page running a webview bundle, whichever panel's. */
export interface WebviewPage {
  page: Page;
  /** Delivers host messages (in order, each in its own event), unchecked. */
  deliver(msgs: unknown[]): Promise<void>;
  /** Everything the webview posted so far, without the session each message says it is about. */
  posted(): Promise<{ type: string; [k: string]: unknown }[]>;
  /** Everything the webview posted so far, as posted (with `session`). */
  postedAsIs(): Promise<{ type: string; [k: string]: unknown }[]>;
  /** The last `setState` value. */
  saved(): Promise<unknown>;
  /** Waits for the next animation frames. */
  frames(n?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a page running `bundle` (a built webview script) with `css` (the stylesheet's text) and a
 * fake `acquireVsCodeApi`, in a browser shared until {@link closeBrowser}.
 */
export async function openWebviewPage(
  bundle: string,
  css: string,
  options: HarnessOptions = {},
): Promise<WebviewPage> {
  browser ??= await launchChromium();
  const page = await browser.newPage({
    viewport: { width: options.width ?? 720, height: options.height ?? 640 },
  });
  if (options.now !== undefined) await page.clock.setFixedTime(options.now);
  await page.setContent(pageHtml(options.theme ?? 'light', css));
  await page.evaluate((state) => {
    const w = window as unknown as Record<string, unknown>;
    w.__posted = [];
    w.__saved = state;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => (w.__posted as unknown[]).push(JSON.parse(JSON.stringify(m))),
      getState: () => w.__saved,
      setState: (s: unknown) => (w.__saved = s),
    });
  }, options.state ?? null);
  await page.addScriptTag({ content: readFileSync(bundle, 'utf8') });
  return {
    page,
    // One round trip; postMessage keeps the order and delivers each message as its own event.
    deliver: (msgs) => page.evaluate((ms) => ms.forEach((m) => window.postMessage(m, '*')), msgs),
    posted: () =>
      page.evaluate(() =>
        (window as unknown as { __posted: { type: string; session?: unknown }[] }).__posted.map((m) => {
          const { session: _, ...rest } = m;
          return rest;
        }),
      ),
    postedAsIs: () => page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted),
    saved: () => page.evaluate(() => (window as unknown as { __saved: unknown }).__saved),
    frames: (n = 2) =>
      page.evaluate(
        (count) =>
          new Promise<void>((resolve) => {
            let left = count;
            const tick = (): void => {
              if (--left <= 0) resolve();
              else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }),
        n,
      ),
    close: () => page.close(),
  };
}

/** The messages of every dialog (`alert`, …) the page opens from now on, each dismissed. */
export function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dlg) => {
    dialogs.push(dlg.message());
    void dlg.dismiss();
  });
  return dialogs;
}

/** Opens a page with the Session panel's webview running. */
export async function openHarness(options: HarnessOptions = {}): Promise<Harness> {
  const base = await openWebviewPage(BUNDLE, readFileSync(STYLESHEET, 'utf8'), options);
  const page = base.page;
  let probes = 0;
  const h: Harness = {
    ...base,
    send: (...msgs) => base.deliver(msgs),
    async probe() {
      const id = `probe-${++probes}`;
      await page.evaluate((pid) => window.postMessage({ type: 'probe', seq: -1, id: pid }, '*'), id);
      const handle = await page.waitForFunction(
        (pid) =>
          (
            window as unknown as { __posted: { type: string; id?: string; digest?: unknown }[] }
          ).__posted.find((m) => m.type === 'probeResult' && m.id === pid)?.digest,
        id,
        { timeout: 20_000 },
      );
      return (await handle.jsonValue()) as WebviewDigest;
    },
  };
  return h;
}

type Batch = Extract<HostMessage, { type: 'batch' }>;

/** Sends an init (seq 1) with one empty live turn; the function returned numbers the next batches. */
export async function started(
  h: Harness,
  patch: Parameters<typeof initMessage>[2] = {},
): Promise<(deltas: Batch['deltas']) => Batch> {
  await h.send(initMessage(liveTranscript(), 1, patch));
  let seq = 1;
  return (deltas) => ({ type: 'batch', seq: ++seq, deltas });
}

/** A finished tool block with a stdout log. */
export function toolBlock(id: string, log = ''): Block {
  return {
    type: 'tool',
    id,
    name: 'run',
    parameters: { command: `run ${id}` },
    log: { segments: log ? [{ stream: 'stdout', data: log }] : [], chars: log.length, truncatedChars: 0 },
    status: 'success',
  };
}

/**
 * Opens every closed group of tool calls and every closed tool line in the DOM (the calm
 * transcript shows each call as one line): for tests that look inside the cards.
 */
export async function openToolCards(h: WebviewPage): Promise<void> {
  for (const sel of ['.group-line[aria-expanded="false"]', '.tool-line[aria-expanded="false"]']) {
    for (let left = 100; left > 0; left--) {
      const closed = h.page.locator(sel).first();
      if ((await closed.count()) === 0) break;
      await closed.click();
      await h.frames(1);
    }
  }
}
