/**
 * The one boundary to the network code (`./net`: undici and ws). Nothing is loaded until the first
 * call of `net()`, which a request or a live stream makes, never activation. In the extension
 * bundle `./net.js` stays a `require` of dist/net.js, built beside dist/extension.js
 * (scripts/esbuild-plugins.js); in the file-by-file test build it is dist/src/core/client/net.js.
 * Import `./net`'s types only, anywhere else (docs/decisions/2026-11-27-activation-not-bytes.md).
 */
import type * as Net from './net';

let loaded: typeof Net | undefined;

/** undici's `Agent` and ws's `WebSocket`, loaded on the first call. */
export function net(): typeof Net {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./net.js') as typeof Net);
}

/** Whether the network code has been loaded (for tests: activation must not load it). */
export function netLoaded(): boolean {
  return loaded !== undefined;
}

/**
 * Starts loading the network code on the next turn of the event loop, for a view about to make its
 * first request that is still waiting for the key (a SecretStorage round trip): the load then overlaps
 * that wait instead of following it. Requests nothing; a failure to load is left to the first request.
 */
export function preloadNet(): void {
  if (loaded) return;
  setImmediate(() => {
    try {
      net();
    } catch {
      // The first request reports it.
    }
  });
}
