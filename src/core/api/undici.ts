/**
 * The parts of undici Den uses, imported from their own modules rather than undici's index, which
 * pulls in fetch, WebSocket, caches and mocks (about 220 KB of the bundle), and `request` from
 * `lib/api/api-request` rather than `lib/api` (which adds stream, pipeline, upgrade and connect).
 * The bundle also stubs modules these still require but Den never reaches (scripts/esbuild-plugins.js).
 * Types still come from the package's declarations. See docs/decisions/2026-11-22-bundle-size.md.
 */
import type * as Undici from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
export const Agent: typeof Undici.Agent = require('undici/lib/dispatcher/agent');
export const ProxyAgent: typeof Undici.ProxyAgent = require('undici/lib/dispatcher/proxy-agent');
/** undici's `Dispatcher.prototype.request` (lib/api/api-request), without the rest of `lib/api`. */
const apiRequest: (
  this: Undici.Dispatcher,
  opts: Record<string, unknown>,
) => Promise<Undici.Dispatcher.ResponseData> = require('undici/lib/api/api-request');
/**
 * undici's index adds its API methods to `Dispatcher.prototype`, and `ProxyAgent` relies on one of
 * them: it opens each tunnel with `client.connect()`. Without the index, Den adds that one itself
 * (and `request`, for symmetry); without it every proxied request fails with "connect is not a
 * function" in the bundle (test/unit/bundle checks this on a production build).
 */
const dispatcherProto = (require('undici/lib/dispatcher/dispatcher') as { prototype: object }).prototype;
const apiConnect: unknown = require('undici/lib/api/api-connect');
for (const [name, fn] of [
  ['request', apiRequest],
  ['connect', apiConnect],
] as const) {
  if (!(name in dispatcherProto))
    Object.defineProperty(dispatcherProto, name, { value: fn, writable: true, configurable: true });
}
/* eslint-enable @typescript-eslint/no-require-imports */

export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & {
  dispatcher: Undici.Dispatcher;
};

/** `undici.request(url, options)` with a required dispatcher (as undici's own wrapper does). */
export function request(url: URL, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
    method: rest.method ?? 'GET',
  });
}
