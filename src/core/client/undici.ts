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
/** undici's `request` (lib/api/api-request), called on a dispatcher without the rest of `lib/api`. */
const apiRequest: (
  this: Undici.Dispatcher,
  opts: Record<string, unknown>,
) => Promise<Undici.Dispatcher.ResponseData> = require('undici/lib/api/api-request');
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
