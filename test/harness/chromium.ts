import { chromium, type Browser } from 'playwright-core';

/** Flags that keep Debian Chromium quiet and offline in a container (docs/vscode-in-tests.md §5). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Options for {@link launchChromium}. */
export interface ChromiumOptions {
  /** Default true; `DEN_HEADFUL=1` also turns it off (needs a display). */
  headless?: boolean;
}

/** Launches Debian's Chromium (`DEN_CHROMIUM` overrides /usr/bin/chromium) through playwright-core. */
export function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.DEN_CHROMIUM || '/usr/bin/chromium',
    headless: options.headless ?? process.env.DEN_HEADFUL !== '1',
    args: [...CHROMIUM_ARGS],
  });
}
