import type { FileInfo } from './types';

/** Where generated files are fetched from when the service gives no URL (service-behaviour.md). */
export const DEFAULT_MEDIA_URL_TEMPLATE = '{base_url}/media/{key}';

/**
 * Expands a media URL template. Placeholders: `{base_url}` (no trailing slash), `{key}` (each
 * path segment percent-encoded, slashes kept), `{key_encoded}` (wholly encoded), `{name}`.
 */
export function expandMediaUrl(template: string, baseUrl: string, file: FileInfo): string {
  const values: Record<string, string> = {
    base_url: baseUrl.replace(/\/+$/, ''),
    key: file.key.split('/').map(encodeURIComponent).join('/'),
    key_encoded: encodeURIComponent(file.key),
    name: encodeURIComponent(file.name),
  };
  return template.replace(/\{(base_url|key_encoded|key|name)\}/g, (_m, k: string) => values[k]);
}

/** Whether `url` is served by the same origin as `baseUrl`, so the API key may be sent to it. */
export function sameOrigin(url: string, baseUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
