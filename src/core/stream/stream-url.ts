import { l10n } from '../shared/l10n';
import { DenError } from '../client/errors';

/** What goes into the socket address of one agent message's stream. */
export interface StreamUrlParts {
  baseUrl: string;
  path?: 'sessions' | 'chat';
  sessionId: string;
  token: string;
  messageId: string;
  cursor: string;
}

/**
 * `{base}/ws/{sessions|chat}/{id}?token=…&message_id=…&last_stream_entry_id=…`, with the base's
 * scheme switched to `ws`/`wss` and any path prefix of the base kept. The result carries the key:
 * never log it without `redact`.
 */
export function streamUrl(parts: StreamUrlParts): string {
  let url: URL;
  try {
    url = new URL(parts.baseUrl);
  } catch {
    throw new DenError({
      code: 'config',
      message: l10n.t('The service URL is not a valid URL: {0}', parts.baseUrl),
    });
  }
  const schemes: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' };
  const scheme = schemes[url.protocol];
  if (!scheme) {
    throw new DenError({
      code: 'config',
      message: l10n.t('The service URL must start with http:// or https:// (got {0})', url.protocol),
    });
  }
  url.protocol = scheme;
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}/ws/${parts.path ?? 'sessions'}/${encodeURIComponent(parts.sessionId)}`;
  url.search = new URLSearchParams({
    token: parts.token,
    message_id: parts.messageId,
    last_stream_entry_id: parts.cursor,
  }).toString();
  url.hash = '';
  return url.toString();
}
