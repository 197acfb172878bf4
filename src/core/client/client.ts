import { l10n } from '../shared/l10n';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { redactingLogger, silentLogger, type Logger } from '../shared/log';
import { downloadFile, type DownloadContext, type DownloadedFile } from './download';
import { DenError, isDenError } from './errors';
import { redactError } from './http-errors';
import { readLamStream } from './lam-stream';
import { encodeMultipart } from './multipart';
import { normalizeSession, normalizeSessionDetail, normalizeSessionPage } from './normalize';
import {
  normalizeAbortResult,
  normalizeLamRunResponse,
  normalizeStartTurnResult,
  normalizeUploadResult,
} from './normalize-results';
import type { ProxyConfig } from './proxy';
import { readNumber } from './readers';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import { HttpTransport, type DeadlineTimers, type Headers, type RequestSpec } from './transport';
import type {
  AbortResult,
  FileInfo,
  LamRunRequest,
  LamRunResponse,
  ListSessionsQuery,
  RateLimitInfo,
  Session,
  SessionDetail,
  SessionPage,
  StartTurnRequest,
  StartTurnResult,
  UploadResult,
} from './types';
import { lamRunBody, listSessionsParams, startTurnBody } from './wire';

export type { DownloadContext, DownloadedFile, DownloadSource } from './download';

export interface ApiClientOptions {
  /** The service's base address, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Read before every request, so a changed key applies at once. */
  apiKey: () => string | undefined;
  /** Per-attempt budget of ordinary requests. Default 30 s. */
  timeoutMs?: number;
  /** Longest silence during an upload or a download. Default `timeoutMs`. */
  transferIdleTimeoutMs?: number;
  /** Budget of `lamRun`, and longest silence of `lamRunStream`. Default 5 min (tasks browse the web). */
  lamTimeoutMs?: number;
  /** Used for every request when given (the caller owns and closes it); otherwise built from `proxy`. */
  dispatcher?: Dispatcher;
  /** Proxy and TLS settings; default: environment proxies, strict TLS. */
  proxy?: ProxyConfig;
  /** Receives request lines and retries; every line is redacted of the key. */
  logger?: Logger;
  userAgent?: string;
  /** Sent as `sdk_version` on turn starts that name none. */
  sdkVersion?: string;
  /** Retries of idempotent requests. */
  retry?: Partial<RetryPolicy>;
  /** How generated files are fetched; default `{base_url}/media/{key}`; empty = skip this source. */
  mediaUrlTemplate?: string;
  /** Timers of request timeouts and idle timeouts; default the system's (tests pass a fake clock). */
  deadlineTimers?: DeadlineTimers;
}

/** What `upload` sends. */
export interface UploadRequest {
  /** Storage key, e.g. `<session id>/<file name>`. */
  key: string;
  filename: string;
  contentType: string;
  /** Exact byte count of `body`. */
  size: number;
  body: Readable | AsyncIterable<Uint8Array> | (() => Readable);
  /** File bytes handed to the connection so far, and `size`; the count never decreases. */
  onProgress?(sentBytes: number, total: number): void;
}

/**
 * The HTTP client of the Agent Session Service: every endpoint, normalized into `types.ts`, with
 * errors as `DenError`s (never carrying the key), retries for idempotent calls, timeouts,
 * cancellation and proxies.
 */
export class ApiClient {
  readonly #transport: HttpTransport;
  readonly #logger: Logger;
  readonly #limits: RateLimitInfo = {};

  readonly #opts: ApiClientOptions;
  constructor(opts: ApiClientOptions) {
    this.#opts = opts;
    this.#logger = redactingLogger(opts.logger ?? silentLogger, () => [opts.apiKey()]);
    if (!opts.baseUrl?.trim()) {
      throw new DenError({
        code: 'config',
        message: l10n.t('No service URL is set: configure the base URL'),
      });
    }
    this.#transport = new HttpTransport({
      baseUrl: opts.baseUrl.trim(),
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs ?? 30_000,
      dispatcher: opts.dispatcher,
      proxy: opts.proxy,
      logger: this.#logger,
      userAgent: opts.userAgent ?? 'den-vscode',
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      onHeaders: (h) => this.#noteLimits(h),
      deadlineTimers: opts.deadlineTimers,
    });
  }

  /** Limits last reported by the service (`X-Rate-Limit-Max-Concurrent`). */
  get rateLimit(): RateLimitInfo {
    return { ...this.#limits };
  }

  /** Starts a turn (creating the session when new). Never repeated once it may have reached the service. */
  startTurn(req: StartTurnRequest, signal?: AbortSignal): Promise<StartTurnResult> {
    return this.#guard(async () => {
      if (!req.sessionId?.trim() || !req.task?.trim()) {
        throw new DenError({
          code: 'bad_request',
          message: l10n.t('A turn needs a session id and a non-empty task'),
        });
      }
      const body = await this.#json({
        method: 'POST',
        url: '/sessions/new',
        json: startTurnBody(req, this.#opts.sdkVersion),
        idempotent: false,
        operation: l10n.t('start a turn'),
        signal,
      });
      return normalizeStartTurnResult(body, req.sessionId);
    });
  }

  /** One page of the user's sessions, deleted ones included (see `visibleSessions`). */
  listSessions(query: ListSessionsQuery = {}, signal?: AbortSignal): Promise<SessionPage> {
    return this.#guard(async () => {
      const body = await this.#json({
        method: 'GET',
        url: '/sessions',
        query: listSessionsParams(query),
        idempotent: true,
        operation: l10n.t('list sessions'),
        signal,
      });
      return normalizeSessionPage(body, query);
    });
  }

  /** A session with all its messages. */
  getSession(sessionId: string, signal?: AbortSignal): Promise<SessionDetail> {
    return this.#guard(async () => {
      const body = await this.#json({
        method: 'GET',
        url: `/sessions/${encodeURIComponent(sessionId)}`,
        idempotent: true,
        operation: l10n.t('open session {0}', sessionId),
        notFound: l10n.t('Session {0} does not exist or was deleted', sessionId),
        signal,
      });
      return normalizeSessionDetail(body);
    });
  }

  /** Renames a session. Any 2xx is success; the session is returned when the service sends it. */
  renameSession(sessionId: string, title: string, signal?: AbortSignal): Promise<Session | undefined> {
    return this.#guard(async () => {
      const body = (await this.#json({
        method: 'PUT',
        url: `/sessions/${encodeURIComponent(sessionId)}/title`,
        json: { title },
        idempotent: true,
        operation: l10n.t('rename session {0}', sessionId),
        notFound: l10n.t('Session {0} does not exist or was deleted', sessionId),
        signal,
      })) as { session?: unknown; chat?: unknown } | undefined;
      const inner = body?.session ?? body?.chat;
      try {
        return inner === undefined ? undefined : normalizeSession(inner);
      } catch {
        // Any 2xx is success; an unreadable echo just means the caller refetches.
        return undefined;
      }
    });
  }

  deleteSession(sessionId: string, signal?: AbortSignal): Promise<void> {
    return this.#guard(async () => {
      await this.#json({
        method: 'DELETE',
        url: `/sessions/${encodeURIComponent(sessionId)}`,
        idempotent: true,
        operation: l10n.t('delete session {0}', sessionId),
        notFound: l10n.t('Session {0} does not exist or was already deleted', sessionId),
        signal,
      });
    });
  }

  /**
   * Streams a file to `PUT /media/upload` as multipart/form-data (`key`, then `file`); memory
   * stays flat whatever the size. Times out only after a silence of `transferIdleTimeoutMs`.
   */
  upload(req: UploadRequest, signal?: AbortSignal): Promise<UploadResult> {
    return this.#guard(async () => {
      let sent = 0;
      let reported = 0;
      const onFileBytes = (n: number): void => {
        sent += n;
        // A retried attempt starts again from 0: report only progress beyond what was shown.
        if (sent > reported) {
          reported = sent;
          req.onProgress?.(sent, req.size);
        }
      };
      const body = await this.#json({
        method: 'PUT',
        url: '/media/upload',
        body: () => {
          sent = 0;
          const file = { name: 'file', filename: req.filename, contentType: req.contentType, size: req.size };
          const encoded = encodeMultipart(
            [
              { name: 'key', value: req.key },
              { ...file, body: req.body },
            ],
            {
              onFileBytes,
            },
          );
          return { chunks: encoded.chunks, length: encoded.contentLength, contentType: encoded.contentType };
        },
        idempotent: false,
        operation: l10n.t('upload {0}', req.filename),
        timeoutMs: this.#idleTimeoutMs(),
        idle: true,
        signal,
      });
      const sentFacts = {
        key: req.key,
        size: req.size,
        contentType: req.contentType,
        filename: req.filename,
      };
      return normalizeUploadResult(body, sentFacts);
    });
  }

  /** Stops a running turn (`DELETE /message/{id}/abort`). */
  abortMessage(agentMessageId: string, signal?: AbortSignal): Promise<AbortResult> {
    return this.#guard(async () => {
      const body = await this.#json({
        method: 'DELETE',
        url: `/message/${encodeURIComponent(agentMessageId)}/abort`,
        idempotent: true,
        operation: l10n.t('stop the turn'),
        notFound: l10n.t('Message {0} is unknown to the service, so it cannot be stopped', agentMessageId),
        signal,
      });
      return normalizeAbortResult(body);
    });
  }

  /** A generated file's bytes through the fetch chain (see `download.ts`). */
  downloadFile(file: FileInfo, ctx: DownloadContext = {}, signal?: AbortSignal): Promise<DownloadedFile> {
    return this.#guard(() =>
      downloadFile(
        this.#transport,
        {
          mediaUrlTemplate: this.#opts.mediaUrlTemplate,
          idleTimeoutMs: this.#idleTimeoutMs(),
          logger: this.#logger,
        },
        file,
        ctx,
        signal,
      ),
    );
  }

  /** Runs a task against an application (`POST /lam/run`) and waits for its single answer. */
  lamRun(req: LamRunRequest, signal?: AbortSignal): Promise<LamRunResponse> {
    return this.#guard(async () => {
      const body = await this.#json({
        method: 'POST',
        url: '/lam/run',
        auth: 'service-secret',
        json: lamRunBody(req, false),
        idempotent: false,
        operation: l10n.t('run the task'),
        timeoutMs: this.#opts.lamTimeoutMs ?? 300_000,
        signal,
      });
      return normalizeLamRunResponse(body);
    });
  }

  /** Runs a task with `stream: true`: each server-sent event is the task's latest state. */
  async *lamRunStream(req: LamRunRequest, signal?: AbortSignal): AsyncGenerator<LamRunResponse> {
    try {
      const res = await this.#transport.stream({
        method: 'POST',
        url: '/lam/run',
        auth: 'service-secret',
        json: lamRunBody(req, true),
        accept: 'text/event-stream, application/json',
        idempotent: false,
        operation: l10n.t('run the task'),
        timeoutMs: this.#opts.lamTimeoutMs ?? 300_000,
        idle: true,
        signal,
      });
      yield* readLamStream(res);
    } catch (e) {
      throw this.#clean(e);
    }
  }

  /** Closes connections this client opened. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  #json(spec: Omit<RequestSpec, 'auth'> & { auth?: RequestSpec['auth'] }): Promise<unknown> {
    return this.#transport.json({ auth: 'bearer', ...spec });
  }

  #idleTimeoutMs(): number {
    return this.#opts.transferIdleTimeoutMs ?? this.#opts.timeoutMs ?? 30_000;
  }

  /** Runs `work`, removing the key from any DenError it throws (file names, echoed input…). */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw this.#clean(e);
    }
  }

  #clean(e: unknown): unknown {
    return isDenError(e) ? redactError(e, [this.#opts.apiKey()]) : e;
  }

  #noteLimits(h: Headers): void {
    const raw = h['x-rate-limit-max-concurrent'];
    const n = readNumber(Array.isArray(raw) ? raw[0] : raw);
    if (n !== undefined) this.#limits.maxConcurrent = n;
  }
}
