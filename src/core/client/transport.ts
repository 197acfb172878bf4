import { l10n } from '../shared/l10n';
import type { Dispatcher } from 'undici';
import { DenError, MISSING_KEY } from './errors';
import { errorFromException, errorFromResponse, quoteBody, type FailureFacts } from './http-errors';
import { proxyFor, type ProxyConfig } from './proxy';
import { retryDelay, sleep, type RetryPolicy } from './retry';
import type { Logger } from '../shared/log';

/** Which credential header a request carries. */
export type Auth = 'bearer' | 'service-secret' | 'none';

/** Response headers as undici gives them (lower-case names). */
export type Headers = Record<string, string | string[] | undefined>;

/** One logical request; the transport may make several attempts. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path under the base URL (starting with `/`), or an absolute http(s) URL. */
  url: string;
  query?: Record<string, string>;
  auth: Auth;
  json?: unknown;
  /** A streamed body, produced afresh for each attempt. */
  body?: () => { chunks: AsyncIterable<Uint8Array>; length?: number; contentType: string };
  accept?: string;
  /** Safe to repeat after the request may have reached the service. */
  idempotent: boolean;
  /** False: never retry, not even on a refused connection. */
  retry?: boolean;
  /** The action in words, for error messages ("list sessions"). */
  operation: string;
  notFound?: string;
  /** Per-attempt budget; with `idle`, the longest silence in either direction. */
  timeoutMs?: number;
  idle?: boolean;
  signal?: AbortSignal;
  maxBodyBytes?: number;
}

/** A response whose body is read by the caller; iterate `chunks` to the end or call `cancel`. */
export interface StreamedResponse {
  status: number;
  headers: Headers;
  chunks: AsyncIterable<Uint8Array>;
  cancel(): void;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: () => string | undefined;
  timeoutMs: number;
  dispatcher?: Dispatcher;
  proxy?: ProxyConfig;
  logger: Logger;
  userAgent: string;
  retry: RetryPolicy;
  onHeaders?: (headers: Headers) => void;
  /** Timers of the per-attempt deadlines (default: the system's; tests pass a fake clock). */
  deadlineTimers?: DeadlineTimers;
}

/** Where request deadlines (timeouts and idle timeouts) get their timers. */
export interface DeadlineTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTimers: DeadlineTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
};

const MAX_ERROR_BODY = 64 * 1024;
const DEFAULT_MAX_BODY = 64 * 1024 * 1024;

/** Stops one attempt on the caller's signal or on Den's own (total or idle) timer. */
class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  aborted = false;
  #timer: unknown;
  #disposed = false;
  readonly #expire = (): void => {
    this.timedOut = true;
    this.controller.abort(new Error('timed out'));
  };
  readonly #onAbort = (): void => {
    this.aborted = true;
    this.controller.abort(new Error('aborted by caller'));
  };

  readonly #signal: AbortSignal | undefined;
  readonly #timers: DeadlineTimers;
  constructor(
    readonly ms: number,
    readonly idle: boolean,
    signal: AbortSignal | undefined,
    timers: DeadlineTimers,
  ) {
    this.#signal = signal;
    this.#timers = timers;
    this.#timer = timers.setTimeout(this.#expire, ms);
    if (signal?.aborted) this.#onAbort();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Activity: an idle deadline starts its full budget again (as `Timeout.refresh()` would). */
  touch(): void {
    if (!this.idle || this.#disposed) return;
    this.#timers.clearTimeout(this.#timer);
    this.#timer = this.#timers.setTimeout(this.#expire, this.ms);
  }

  dispose(): void {
    this.#disposed = true;
    this.#timers.clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }
}

/** Reads a 2xx response; `handOff` keeps the deadline alive past the attempt (streamed bodies). */
type Consume<T> = (
  res: Dispatcher.ResponseData,
  dl: Deadline,
  facts: FailureFacts,
  handOff: () => void,
) => Promise<T>;

/** Low-level HTTP for `ApiClient`: auth headers, timeouts, abort, retries, error mapping, logging. */
export class HttpTransport {
  readonly #base: string;
  readonly #dispatchers = new Map<string, Dispatcher>();

  readonly #opts: TransportOptions;
  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#base = opts.baseUrl.replace(/\/+$/, '');
  }

  get baseUrl(): string {
    return this.#base;
  }

  /** Sends `spec` and returns the parsed JSON body (undefined for an empty body). */
  json(spec: RequestSpec): Promise<unknown> {
    return this.#run(spec, async (res, dl, facts) => {
      const buf = await readAll(res.body, spec.maxBodyBytes ?? DEFAULT_MAX_BODY, dl, facts);
      const text = buf.toString('utf8');
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new DenError({
          code: 'protocol',
          message: l10n.t(
            'The service\'s answer to {0} is not JSON: "{1}"',
            spec.operation,
            quoteBody(text, 120),
          ),
          status: res.statusCode,
        });
      }
    });
  }

  /** Sends `spec` and returns the whole body as bytes. */
  bytes(spec: RequestSpec): Promise<{ body: Buffer; headers: Headers }> {
    return this.#run(spec, async (res, dl, facts) => ({
      body: await readAll(res.body, spec.maxBodyBytes ?? DEFAULT_MAX_BODY, dl, facts),
      headers: res.headers,
    }));
  }

  /** Sends `spec` and hands the body over unread; retries stop once headers have arrived. */
  stream(spec: RequestSpec): Promise<StreamedResponse> {
    return this.#run(spec, async (res, dl, facts, handOff) => {
      handOff();
      const body = res.body;
      const mapErr = (e: unknown): DenError => readError(e, dl, facts);
      async function* chunks(): AsyncGenerator<Uint8Array> {
        try {
          for await (const c of body) {
            dl.touch();
            yield c as Uint8Array;
          }
        } catch (e) {
          throw mapErr(e);
        } finally {
          dl.dispose();
          body.destroy();
        }
      }
      return {
        status: res.statusCode,
        headers: res.headers,
        chunks: chunks(),
        cancel: () => {
          dl.dispose();
          body.destroy();
        },
      };
    });
  }

  /** Closes the dispatchers this transport created (not one passed in). */
  async close(): Promise<void> {
    const all = [...this.#dispatchers.values()];
    this.#dispatchers.clear();
    await Promise.all(all.map((d) => d.close().catch(() => undefined)));
  }

  #dispatcherFor(url: URL): Dispatcher {
    if (this.#opts.dispatcher) return this.#opts.dispatcher;
    let d = this.#dispatchers.get(url.origin);
    if (!d) {
      d = proxyFor(url, this.#opts.proxy ?? {});
      this.#dispatchers.set(url.origin, d);
    }
    return d;
  }

  #resolve(spec: RequestSpec): URL {
    const raw = /^https?:\/\//i.test(spec.url) ? spec.url : `${this.#base}${spec.url}`;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DenError({
        code: 'config',
        message: l10n.t('The service URL "{0}" is not a valid URL', this.#base),
      });
    }
    for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.set(k, v);
    return url;
  }

  #key(spec: RequestSpec): string | undefined {
    if (spec.auth === 'none') return undefined;
    const key = this.#opts.apiKey()?.trim();
    if (!key) {
      throw new DenError({
        code: 'config',
        message: l10n.t('No API key is set, so Den cannot {0}: add your key first', spec.operation),
        details: MISSING_KEY,
      });
    }
    return key;
  }

  async #run<T>(spec: RequestSpec, consume: Consume<T>): Promise<T> {
    const key = this.#key(spec);
    const url = this.#resolve(spec);
    const log = this.#opts.logger;
    const label = `${spec.method} ${url.href.startsWith(this.#base) ? url.pathname + url.search : url.origin + url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      const facts: FailureFacts = {
        operation: spec.operation,
        notFound: spec.notFound,
        secrets: [key],
        origin: url.origin,
        timeoutMs: spec.timeoutMs ?? this.#opts.timeoutMs,
        idle: spec.idle,
      };
      if (spec.signal?.aborted) throw errorFromException(spec.signal.reason, { ...facts, aborted: true });
      try {
        return await this.#attempt(spec, url, key, label, facts, consume);
      } catch (e) {
        const err = errorFromException(e, facts);
        const wait =
          spec.retry === false ? undefined : retryDelay(err, attempt, this.#opts.retry, spec.idempotent);
        if (wait === undefined || err.code === 'aborted') {
          log.debug(`${label} failed: ${err.message}`);
          throw err;
        }
        log.warn(
          `${label} failed (${err.message}); retry ${attempt + 1}/${this.#opts.retry.retries} in ${wait} ms`,
        );
        await sleep(wait, spec.signal, () =>
          errorFromException(spec.signal?.reason, { ...facts, aborted: true }),
        );
      }
    }
  }

  async #attempt<T>(
    spec: RequestSpec,
    url: URL,
    key: string | undefined,
    label: string,
    facts: FailureFacts,
    consume: Consume<T>,
  ): Promise<T> {
    const dl = new Deadline(
      facts.timeoutMs ?? this.#opts.timeoutMs,
      spec.idle ?? false,
      spec.signal,
      this.#opts.deadlineTimers ?? systemTimers,
    );
    let handedOff = false;
    const started = Date.now();
    try {
      const headers: Record<string, string> = {
        'user-agent': this.#opts.userAgent,
        accept: spec.accept ?? 'application/json',
      };
      if (spec.auth === 'bearer' && key) headers.authorization = `Bearer ${key}`;
      if (spec.auth === 'service-secret' && key) headers['service-secret-key'] = key;
      let body: string | AsyncIterable<Uint8Array> | undefined;
      if (spec.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(spec.json);
      } else if (spec.body) {
        const b = spec.body();
        headers['content-type'] = b.contentType;
        if (b.length !== undefined) headers['content-length'] = String(b.length);
        body = touching(b.chunks, dl);
      }
      this.#opts.logger.debug(`→ ${label}`);
      let res: Dispatcher.ResponseData;
      try {
        // undici's own `request(url, options)` does the same with `options.dispatcher`.
        res = await this.#dispatcherFor(url).request({
          origin: url.origin,
          path: url.search ? `${url.pathname}${url.search}` : url.pathname,
          method: spec.method,
          headers,
          // undici streams async iterables (documented for dispatch) but its types omit them.
          body: body as string | undefined,
          signal: dl.controller.signal,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      } catch (e) {
        throw errorFromException(e, { ...facts, aborted: dl.aborted, timedOut: dl.timedOut });
      }
      dl.touch();
      this.#opts.onHeaders?.(res.headers);
      this.#opts.logger.debug(`← ${label} ${res.statusCode} (${Date.now() - started} ms)`);
      if (res.statusCode < 200 || res.statusCode >= 300) {
        const text = await readAll(res.body, MAX_ERROR_BODY, dl, facts, true);
        throw errorFromResponse(
          { status: res.statusCode, headers: res.headers, body: text.toString('utf8') },
          facts,
        );
      }
      return await consume(res, dl, facts, () => {
        handedOff = true;
      });
    } finally {
      if (!handedOff) dl.dispose();
    }
  }
}

/** Passes chunks through, counting each as activity for an idle deadline. */
async function* touching(chunks: AsyncIterable<Uint8Array>, dl: Deadline): AsyncGenerator<Uint8Array> {
  for await (const c of chunks) {
    dl.touch();
    yield c;
  }
}

function readError(e: unknown, dl: Deadline, facts: FailureFacts, received?: number): DenError {
  if (e instanceof DenError) return e;
  if (dl.aborted || dl.timedOut)
    return errorFromException(e, { ...facts, aborted: dl.aborted, timedOut: dl.timedOut });
  return new DenError({
    code: 'protocol',
    message:
      received === undefined
        ? l10n.t("The service's answer to {0} was cut off: the connection closed early", facts.operation)
        : l10n.t(
            "The service's answer to {0} was cut off after {1} bytes: the connection closed early",
            facts.operation,
            received,
          ),
    details: { truncated: true },
    cause: e,
  });
}

/**
 * Reads a body up to `max` bytes. Past `max` it is a `protocol` error, or with `truncate` the
 * first `max` bytes; a body cut off mid-way is a `protocol` error marked `truncated`
 * (with `lenient`, what arrived is returned: used for error bodies).
 */
async function readAll(
  body: Dispatcher.ResponseData['body'],
  max: number,
  dl: Deadline,
  facts: FailureFacts,
  lenient = false,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      dl.touch();
      const c = chunk as Buffer;
      if (size + c.length > max) {
        if (lenient) {
          parts.push(c.subarray(0, max - size));
          size = max;
          break;
        }
        throw new DenError({
          code: 'protocol',
          message: l10n.t(
            "The service's answer to {0} is larger than {1} MB",
            facts.operation,
            Math.round(max / 1048576),
          ),
        });
      }
      parts.push(c);
      size += c.length;
    }
  } catch (e) {
    if (!lenient || dl.aborted || dl.timedOut) throw readError(e, dl, facts, size);
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts, size);
}
