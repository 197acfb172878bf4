import { l10n } from '../shared/l10n';
import type { IncomingHttpHeaders } from 'node:http';
import { DenError, redact, type DenErrorCode } from '../client/errors';
import { beyondStatus, codeForStatus, parseRetryAfter, quoteBody } from '../client/http-errors';
import { isRecord, isString } from '../shared/schema';

/**
 * The `DenError` for a socket upgrade the server answered with an HTTP status instead of 101.
 * Keeps the server's `error`/`message` (from an Error-object body) and the retry hint from
 * `X-Rate-Limit-Retry-After` or `Retry-After`. `secret` is removed from anything quoted.
 */
export function upgradeError(
  status: number,
  headers: IncomingHttpHeaders,
  body: string,
  secret: string | undefined,
): DenError {
  const clean = redact(body, secret).trim();
  let serverError: string | undefined;
  let serverMessage: string | undefined;
  try {
    const parsed: unknown = JSON.parse(clean);
    if (isRecord(parsed)) {
      if (isString(parsed.error)) serverError = parsed.error;
      if (isString(parsed.message)) serverMessage = parsed.message;
    }
  } catch {
    // An HTML page (a proxy's) is quoted by its title, not its markup.
    if (clean) serverMessage = quoteBody(clean, 200);
  }
  // What the server said beyond its status, which the message says anyway.
  serverMessage = beyondStatus(serverMessage, status);
  const code = codeForStatus(status);
  return new DenError({
    code,
    status,
    serverError,
    serverMessage,
    message: serverMessage
      ? l10n.t('{0} (HTTP {1}): {2}', lead(code), status, serverMessage)
      : l10n.t('{0} (HTTP {1})', lead(code), status),
    retryAfter: parseRetryAfter(headers),
    details: serverMessage === undefined ? undefined : { message: serverMessage },
  });
}

function lead(code: DenErrorCode): string {
  switch (code) {
    case 'unauthorized':
      return l10n.t('The service rejected the API key for the live stream; set a new key');
    case 'forbidden':
      return l10n.t('This API key may not follow this session');
    case 'not_found':
      return l10n.t('The service does not know this session or message');
    case 'rate_limited':
      return l10n.t('The service is rate limiting live streams');
    case 'server':
      return l10n.t('The service failed to open the live stream');
    default:
      return l10n.t('The service refused the live stream');
  }
}
