import { l10n } from '../shared/l10n';
import { isRecord } from '../shared/schema';
import { DenError, isDenError, redact, type DenErrorCode } from './errors';
import { PROXY_CLOSED } from './tunnel-agent';

/** What a failed call was doing, for messages a person can act on. */
export interface ErrorContext {
  /** The action in words, e.g. "list sessions", "open session 1234". */
  operation: string;
  /** What a 404 means for this call, e.g. "Session 1234 does not exist or was deleted". */
  notFound?: string;
  /** Secrets to strip from every message and detail (the API key). */
  secrets?: readonly (string | undefined)[];
}

/** A received HTTP response, reduced to what error mapping needs. */
export interface ResponseFacts {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (already capped by the reader). */
  body: string;
}

/** Longest server text quoted in a message. */
const MAX_QUOTE = 300;

function header(headers: ResponseFacts['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Seconds to wait from `X-Rate-Limit-Retry-After` (seconds) or `Retry-After` (seconds or an HTTP
 * date); undefined when neither is readable.
 */
export function parseRetryAfter(headers: ResponseFacts['headers'], now = Date.now()): number | undefined {
  for (const name of ['x-rate-limit-retry-after', 'retry-after']) {
    const v = header(headers, name)?.trim();
    if (!v) continue;
    if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
    const at = Date.parse(v);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  return undefined;
}

/** Body text fit for a message: tags of an HTML page dropped, whitespace collapsed, capped. */
export function quoteBody(text: string, max = MAX_QUOTE): string {
  let t = text.trim();
  if (/^<(!doctype|html|head|body|\?xml)/i.test(t)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1];
    t = title ?? t.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  t = t.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The standard reason phrases of the statuses a service commonly answers with. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Words that say nothing a status does not (`Error`, `Server Error`, `HTTP Error`…). */
const ONLY_GENERIC =
  /^(?:(?:an?|the|internal|server|service|http|status|code|error|errors|occurred|has|unknown)\b[\s.,:;!()\-–—|]*)*$/i;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A service's words without the status line Den says anyway (`500`, `500 Internal Server Error`,
 * `Error 500:`, `HTTP/1.1 502 Bad Gateway -`, `Service Unavailable (503)`): undefined when nothing is
 * left but the status and generic words, so a message never says the status twice.
 */
export function beyondStatus(words: string | undefined, status: number | undefined): string | undefined {
  let t = words?.trim();
  if (!t) return undefined;
  if (status !== undefined) {
    const s = String(status);
    const reason = REASONS[status] ? `(?:\\s*${escapeRe(REASONS[status])})?` : '';
    const lead = `(?:HTTP(?:\\/\\d(?:\\.\\d)?)?\\s*)?(?:(?:error|status(?:\\s*code)?)\\s*)?${s}\\b${reason}`;
    const sep = '[\\s:;,.|\\-–—]*';
    t = t.replace(new RegExp(`^${lead}${sep}`, 'i'), '');
    if (REASONS[status]) {
      // Only a reason that ends there or is followed by punctuation: "Bad gateway upstream …" stays.
      const named = `^${escapeRe(REASONS[status])}\\s*(?:\\(\\s*${s}\\s*\\)|[:\\-–—|]?\\s*${s}\\b)?(?=$|\\s*[:;,.|\\-–—(])${sep}`;
      t = t.replace(new RegExp(named, 'i'), '');
    }
    // "… (500)" or "… - 500" at the end.
    t = t.replace(new RegExp(`[\\s:\\-–—|]*\\(?\\s*\\b${s}\\b\\s*\\)?\\.?$`), '').trim();
  }
  return t && !ONLY_GENERIC.test(t) ? t : undefined;
}

interface ServerBody {
  error?: string;
  message?: string;
  details?: Record<string, unknown>;
}

function readServerBody(text: string): ServerBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const quoted = quoteBody(text);
    return quoted ? { message: quoted } : {};
  }
  if (typeof parsed === 'string') return { message: quoteBody(parsed) };
  if (!isRecord(parsed)) return { message: quoteBody(text) };
  const o = parsed;
  const out: ServerBody = {};
  if (typeof o.error === 'string') out.error = o.error;
  const msg = [o.message, o.error_description, o.detail, o.msg].find((v) => v !== undefined && v !== null);
  if (typeof msg === 'string') out.message = quoteBody(msg);
  else if (msg !== undefined) out.message = quoteBody(JSON.stringify(msg));
  else if (typeof o.error === 'object' && o.error !== null) out.message = quoteBody(JSON.stringify(o.error));
  if (isRecord(o.details)) out.details = o.details;
  return out;
}

/** Redacts every string inside a JSON-like value. */
export function redactDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  if (typeof value === 'string') return redact(value, ...secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k, ...secrets)] = redactDeep(v, secrets);
    return out as T;
  }
  return value;
}

/**
 * The error with every secret removed from its message, server error and details (the same
 * instance when there was nothing to remove). The last line of defence for errors leaving the core.
 */
export function redactError(err: DenError, secrets: readonly (string | undefined)[]): DenError {
  const message = redact(err.message, ...secrets);
  const serverError = err.serverError === undefined ? undefined : redact(err.serverError, ...secrets);
  const serverMessage = err.serverMessage === undefined ? undefined : redact(err.serverMessage, ...secrets);
  const details = err.details === undefined ? undefined : redactDeep(err.details, secrets);
  const same =
    message === err.message &&
    serverError === err.serverError &&
    serverMessage === err.serverMessage &&
    JSON.stringify(details) === JSON.stringify(err.details);
  if (same) return err;
  return new DenError({
    code: err.code,
    message,
    status: err.status,
    serverError,
    serverMessage,
    details,
    retryAfter: err.retryAfter,
    cause: err.cause,
  });
}

/** The error code for a non-2xx HTTP status (also used for refused socket upgrades). */
export function codeForStatus(status: number): DenErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (status >= 400) return 'bad_request';
  return 'protocol';
}

function leadFor(res: ResponseFacts, ctx: ErrorContext, retryAfter: number | undefined): string {
  const s = res.status;
  switch (codeForStatus(s)) {
    case 'unauthorized':
      return l10n.t('API key rejected ({0}): set a new key', s);
    case 'forbidden':
      return l10n.t('Not allowed ({0}): this API key may not {1}', s, ctx.operation);
    case 'not_found':
      return ctx.notFound
        ? `${ctx.notFound} (${s})`
        : l10n.t('Not found ({0}) while trying to {1}', s, ctx.operation);
    case 'rate_limited':
      return retryAfter !== undefined
        ? l10n.t('Rate limited: retry in {0} s', Math.ceil(retryAfter))
        : l10n.t('Rate limited ({0}): too many requests, try again shortly', s);
    case 'server':
      return l10n.t('Service error {0}', s);
    case 'bad_request':
      return l10n.t('Request rejected ({0}) while trying to {1}', s, ctx.operation);
    default: {
      const where = header(res.headers, 'location');
      if (s < 300 || s >= 400) return l10n.t('Unexpected status {0} while trying to {1}', s, ctx.operation);
      return where
        ? l10n.t(
            'Unexpected redirect ({0}) to {1} while trying to {2}: check the service URL',
            s,
            where,
            ctx.operation,
          )
        : l10n.t('Unexpected redirect ({0}) while trying to {1}: check the service URL', s, ctx.operation);
    }
  }
}

/** A DenError for a non-2xx response: Error object or plain-text body, status mapped to a code. */
export function errorFromResponse(res: ResponseFacts, ctx: ErrorContext): DenError {
  const secrets = ctx.secrets ?? [];
  const read = readServerBody(res.body);
  // What the service said beyond its status, which the message says anyway.
  const body = { ...read, message: beyondStatus(read.message, res.status) };
  const code = codeForStatus(res.status);
  const retryAfter = code === 'rate_limited' ? parseRetryAfter(res.headers) : undefined;
  const lead = leadFor(res, ctx, retryAfter);
  const said = body.message ?? (code === 'server' ? undefined : beyondStatus(body.error, res.status));
  let message: string;
  if (code === 'server')
    message = said
      ? `${lead}: ${said}`
      : l10n.t('Service error {0} while trying to {1}', res.status, ctx.operation);
  else message = said && said !== lead ? `${lead} — ${said}` : lead;
  return new DenError({
    code,
    message: redact(message, ...secrets),
    status: res.status,
    serverError: body.error === undefined ? undefined : redact(body.error, ...secrets),
    serverMessage: body.message === undefined ? undefined : redact(body.message, ...secrets),
    details: body.details === undefined ? undefined : redactDeep(body.details, secrets),
    retryAfter,
  });
}

/** Network error codes in words (looked up at use time: the bundle is set at activation). */
const NETWORK_WORDS: Record<string, (() => string) | undefined> = {
  ECONNREFUSED: () => l10n.t('connection refused'),
  ECONNRESET: () => l10n.t('connection reset'),
  EPIPE: () => l10n.t('connection closed while sending'),
  ENOTFOUND: () => l10n.t('host not found'),
  EAI_AGAIN: () => l10n.t('name lookup failed (temporary)'),
  EHOSTUNREACH: () => l10n.t('host unreachable'),
  ENETUNREACH: () => l10n.t('network unreachable'),
  UND_ERR_SOCKET: () => l10n.t('connection closed by the other side'),
  UND_ERR_CLOSED: () => l10n.t('connection closed'),
};

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The first `code` found on an error, its cause, or its aggregated errors. */
export function errorCodeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const o = e as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof o.code === 'string') return o.code;
    if (Array.isArray(o.errors) && o.errors.length > 0) e = o.errors[0];
    else e = o.cause;
  }
  return undefined;
}

/**
 * Whether a network error is a proxy that refused or dropped the tunnel, or a certificate that is
 * not trusted: the service may be up, and the error's own words say which setting to change.
 */
export function isProxyOrCertificateError(e: DenError): boolean {
  const d = e.details;
  return e.code === 'network' && (d?.proxyStatus !== undefined || d?.proxy !== undefined || d?.tls === true);
}

/** Whether the connection was refused, so the request cannot have reached the service. */
export function isConnectRefused(err: unknown): boolean {
  return errorCodeOf(err) === 'ECONNREFUSED';
}

/** How a request that threw ended: why it was stopped, if Den stopped it. */
export interface FailureFacts extends ErrorContext {
  /** The caller's signal fired. */
  aborted?: boolean;
  /** Den's own timer fired after `timeoutMs` (of silence, when `idle`). */
  timedOut?: boolean;
  timeoutMs?: number;
  idle?: boolean;
  /** The service's origin, for "cannot reach …". */
  origin?: string;
}

/** A DenError for a request that failed without a response (or whose body could not be read). */
export function errorFromException(err: unknown, facts: FailureFacts): DenError {
  if (isDenError(err)) return err;
  const secrets = facts.secrets ?? [];
  const make = (code: DenErrorCode, message: string, details?: Record<string, unknown>): DenError =>
    new DenError({ code, message: redact(message, ...secrets), details, cause: err });
  const errCode = errorCodeOf(err);
  const name = (err as { name?: unknown } | undefined)?.name;
  if (facts.aborted) return make('aborted', l10n.t('Cancelled: {0}', facts.operation));
  if (facts.timedOut || (errCode !== undefined && TIMEOUT_CODES.has(errCode))) {
    const s = Math.round((facts.timeoutMs ?? 0) / 100) / 10;
    const op = facts.operation;
    const message =
      facts.timeoutMs === undefined
        ? facts.idle
          ? l10n.t('The service went silent while trying to {0}: check the network, then retry', op)
          : l10n.t('No answer from the service while trying to {0}: check the network, then retry', op)
        : facts.idle
          ? l10n.t(
              'The service went silent for {0} s while trying to {1}: check the network, then retry',
              s,
              op,
            )
          : l10n.t(
              'No answer from the service within {0} s while trying to {1}: check the network, then retry',
              s,
              op,
            );
    return make('timeout', message, {
      ...(errCode ? { errno: errCode } : {}),
    });
  }
  const raw = err instanceof Error ? err.message : String(err);
  // undici reports a proxy's refusal of the CONNECT tunnel as an "aborted" request.
  const proxyStatus = /Proxy response \((\d{3})\)|Proxy refused the tunnel.*?: HTTP\/[\d.]+ (\d{3})/.exec(
    raw,
  );
  if (proxyStatus) {
    const status = proxyStatus[1] ?? proxyStatus[2];
    const message =
      status === '407'
        ? l10n.t(
            'The proxy wants credentials ({0} Proxy Authentication Required): put them in the http.proxy setting, as http://user:password@host:port',
            status,
          )
        : l10n.t('The proxy refused to connect to the service ({0}): check the http.proxy setting', status);
    return make('network', message, {
      proxyStatus: Number(status),
    });
  }
  if (errCode === PROXY_CLOSED) {
    return make(
      'network',
      l10n.t(
        'The proxy closed the connection instead of connecting to the service: check the http.proxy setting, and that the proxy lets HTTPS tunnels (CONNECT) through to the service',
      ),
      { proxy: 'closed' },
    );
  }
  if (errCode && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(errCode)) {
    return make(
      'network',
      l10n.t(
        "The service's certificate is not trusted ({0}): add the certificate of the service (or of your network's TLS inspection) to the system's trusted certificates, or set http.proxyStrictSSL to false to skip the check",
        errCode,
      ),
      { errno: errCode, tls: true },
    );
  }
  if (name === 'AbortError' || errCode === 'UND_ERR_ABORTED' || errCode === 'ABORT_ERR') {
    return make('aborted', l10n.t('Cancelled: {0}', facts.operation));
  }
  const words = (errCode && NETWORK_WORDS[errCode]?.()) ?? raw;
  const message = facts.origin
    ? l10n.t('Cannot reach the service at {0} to {1}: {2}', facts.origin, facts.operation, words)
    : l10n.t('Cannot reach the service to {0}: {1}', facts.operation, words);
  return make('network', message, {
    ...(errCode ? { errno: errCode } : {}),
  });
}
