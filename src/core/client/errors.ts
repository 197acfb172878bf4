/**
 * The one error type of the core. `code` is stable and drives what the UI offers; the server's
 * own `error`, `message` and `details` are kept intact. Messages never contain the API key.
 */
export type DenErrorCode =
  | 'unauthorized' // 401: key missing or rejected
  | 'forbidden' // 403: key lacks permission
  | 'not_found' // 404
  | 'rate_limited' // 429
  | 'bad_request' // other 4xx
  | 'server' // 5xx
  | 'network' // connection refused, reset, DNS, TLS
  | 'timeout' // request or idle timeout
  | 'aborted' // cancelled by the caller
  | 'protocol' // a response Den cannot read (garbage, truncated, wrong shape)
  | 'unsupported' // the service does not offer this (e.g. a file's content)
  | 'config'; // Den is not configured (no base URL, no key)

/** Who can fix it: the user (key, input), the service, or the network. */
export type DenErrorFault = 'user' | 'service' | 'network';

export interface DenErrorInit {
  code: DenErrorCode;
  message: string;
  status?: number;
  serverError?: string;
  /** The service's own message (the Error object's `message`, or the body's text), capped. */
  serverMessage?: string;
  details?: Record<string, unknown>;
  /** Seconds to wait before retrying (from `X-Rate-Limit-Retry-After`). */
  retryAfter?: number;
  cause?: unknown;
}

/** The `details` of a `config` error for a missing API key: the error's action is "Set API Key". */
export const MISSING_KEY: Readonly<Record<string, unknown>> = { missing: 'key' };

export class DenError extends Error {
  readonly code: DenErrorCode;
  readonly status?: number;
  /** The service's `error` field, verbatim. */
  readonly serverError?: string;
  /** The service's own words about the failure, when it said any (no credentials in it). */
  readonly serverMessage?: string;
  readonly details?: Record<string, unknown>;
  readonly retryAfter?: number;

  constructor(init: DenErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'DenError';
    this.code = init.code;
    this.status = init.status;
    this.serverError = init.serverError;
    this.serverMessage = init.serverMessage;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
  }

  get fault(): DenErrorFault {
    switch (this.code) {
      case 'unauthorized':
      case 'forbidden':
      case 'not_found':
      case 'bad_request':
      case 'config':
      case 'aborted':
        return 'user';
      case 'network':
      case 'timeout':
        return 'network';
      default:
        return 'service';
    }
  }

  /** Whether repeating the same idempotent request may succeed. */
  get retryable(): boolean {
    return (
      this.code === 'network' ||
      this.code === 'timeout' ||
      this.code === 'server' ||
      this.code === 'rate_limited'
    );
  }
}

export function isDenError(err: unknown): err is DenError {
  return err instanceof DenError;
}

/** Patterns whose first group is kept and whose secret part becomes `***`. */
const PREFIXED_SECRETS: RegExp[] = [
  /([?&]token=)[^&#\s"']*/gi,
  /(service-secret-key["':=\s]+)[^\s"',}]+/gi,
  /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g,
];
const BARE_SECRETS = /\bsk_(?:live|test)_[A-Za-z0-9]+/g;

/**
 * Removes credentials from text meant for logs or people: `token=` query values, Bearer values,
 * `sk_live_…` keys, and any extra secret given (the configured key itself).
 */
export function redact(text: string, ...secrets: (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('***');
  }
  for (const re of PREFIXED_SECRETS) out = out.replace(re, '$1***');
  return out.replace(BARE_SECRETS, '***');
}
