/**
 * The Web Task webview bundle (dist/webtask.js) in headless Chromium, on the shared webview page of
 * `browser-harness.ts`: media/webtask.css with its `@import` of panel.css inlined, as the webview
 * resolves it, and host messages typed as the Web Task protocol's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WebTaskHostMessage } from '../../../../src/protocol/webtask-panel/webtask-messages';
import { openWebviewPage, type HarnessOptions, type WebviewPage } from '../session-panel/browser-harness';

/** The browser every harness shares: each test file closes it in a root `after`, so a file run alone exits. */
export { closeBrowser } from '../session-panel/browser-harness';

// Compiled to dist/test/unit/webview: the bundle is dist/webtask.js, the stylesheets stay in media/.
const BUNDLE = join(__dirname, '../../../../webtask.js');
const MEDIA = join(__dirname, '../../../../../media');
/** Where the tests save their screenshots (untracked). */
export const SHOTS = join(__dirname, '../../../../../shots');

function stylesheet(): string {
  const css = readFileSync(join(MEDIA, 'webtask.css'), 'utf8');
  const IMPORT = "@import url('panel.css');";
  if (!css.includes(IMPORT)) throw new Error(`media/webtask.css no longer starts with ${IMPORT}`);
  return css.replace(IMPORT, readFileSync(join(MEDIA, 'panel.css'), 'utf8'));
}

export interface WebTaskHarness extends WebviewPage {
  /** Delivers host messages (in order, each in its own event). */
  send(...msgs: WebTaskHostMessage[]): Promise<void>;
}

export async function openWebTask(options: HarnessOptions = {}): Promise<WebTaskHarness> {
  const base = await openWebviewPage(BUNDLE, stylesheet(), options);
  return { ...base, send: (...msgs) => base.deliver(msgs) };
}
