import type { IncomingHttpHeaders } from 'node:http';
import { DenError, redact, type DenErrorCode } from '../api/errors';
import { codeForStatus, parseRetryAfter } from '../api/http-errors';
import { isRecord, isString } from '../schema';

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
    if (clean) serverMessage = clean.slice(0, 200);
  }
  const code = codeForStatus(status);
  const said = serverMessage ? `: ${serverMessage}` : '';
  return new DenError({
    code,
    status,
    serverError,
    serverMessage,
    message: `${lead(code)} (HTTP ${status})${said}`,
    retryAfter: parseRetryAfter(headers),
    details: serverMessage === undefined ? undefined : { message: serverMessage },
  });
}

function lead(code: DenErrorCode): string {
  switch (code) {
    case 'unauthorized':
      return 'The service rejected the API key for the live stream; set a new key';
    case 'forbidden':
      return 'This API key may not follow this session';
    case 'not_found':
      return 'The service does not know this session or message';
    case 'rate_limited':
      return 'The service is rate limiting live streams';
    case 'server':
      return 'The service failed to open the live stream';
    default:
      return 'The service refused the live stream';
  }
}
