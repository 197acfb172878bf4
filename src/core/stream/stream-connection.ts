import { l10n } from '../shared/l10n';
import type { Agent, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { DenError, redact } from '../client/errors';
import { net } from '../client/lazy-net';
import { errorFromException, isProxyOrCertificateError } from '../client/http-errors';
import { upgradeError } from './upgrade-error';

/** What one connection reports. Nothing is reported after `close()` or after `lost`. */
export interface ConnectionHandlers {
  open(): void;
  /** `now`: `performance.now()` when the frame arrived. */
  frame(data: WebSocket.RawData, isBinary: boolean, now: number): void;
  /**
   * The connection is over without being asked to: refused with an HTTP status (see `status` and
   * `retryable` on the error), closed, errored, or silent for longer than the idle timeout.
   */
  lost(error: DenError): void;
}

export interface ConnectionOptions {
  agent?: Agent;
  /** No frame (or ping) for this long, the handshake included, counts as a dead socket. */
  idleMs: number;
  /** The key, removed from anything quoted in errors. */
  secret: string | undefined;
}

const MAX_ERROR_BODY = 4096;
/** How long a graceful close may wait for the server's close frame before ws destroys the socket. */
const CLOSE_TIMEOUT_MS = 1000;

/**
 * One WebSocket attempt: the upgrade (with the server's refusal read into a `DenError`), frames,
 * and silence detection. Reconnect policy lives in `SessionStream`.
 */
export class StreamConnection {
  #ws: WebSocket | undefined;
  #lastFrameAt = performance.now();
  #idleTimer: NodeJS.Timeout | undefined;

  /** `url` carries the key; it is never logged or quoted from here. */
  readonly #options: ConnectionOptions;
  readonly #handlers: ConnectionHandlers;
  constructor(url: string, options: ConnectionOptions, handlers: ConnectionHandlers) {
    this.#options = options;
    this.#handlers = handlers;
    const clientOptions: WebSocket.ClientOptions & { closeTimeout: number } = {
      agent: options.agent,
      followRedirects: false,
      perMessageDeflate: false,
      closeTimeout: CLOSE_TIMEOUT_MS,
    };
    let ws: WebSocket;
    try {
      ws = new (net().WebSocket)(url, clientOptions);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const error = new DenError({
        code: 'network',
        message: l10n.t('Could not open the live stream: {0}', redact(msg, options.secret)),
      });
      queueMicrotask(() => this.#handlers.lost(error));
      return;
    }
    this.#ws = ws;
    this.#armIdle();
    ws.on('unexpected-response', (_req, res) => this.#onRefused(ws, res));
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      this.#lastFrameAt = performance.now();
      this.#handlers.open();
    });
    ws.on('message', (data, isBinary) => {
      if (this.#ws !== ws) return;
      const now = performance.now();
      this.#lastFrameAt = now;
      this.#handlers.frame(data, isBinary, now);
    });
    ws.on('ping', () => {
      this.#lastFrameAt = performance.now();
    });
    ws.on('error', (err) => {
      // A proxy or a certificate in the way says which setting to change, as for HTTP requests.
      const known = errorFromException(err, {
        operation: l10n.t('follow the live stream'),
        secrets: [options.secret],
      });
      this.#fail(
        ws,
        isProxyOrCertificateError(known)
          ? known
          : new DenError({
              code: 'network',
              message: l10n.t('The live stream failed: {0}', redact(err.message, options.secret)),
            }),
      );
    });
    ws.on('close', (code) => {
      this.#fail(
        ws,
        new DenError({
          code: 'network',
          message: l10n.t('The live stream closed (code {0}) before the turn ended', code),
          details: { closeCode: code },
        }),
      );
    });
  }

  get isOpen(): boolean {
    return this.#ws !== undefined && this.#ws.readyState === this.#ws.OPEN;
  }

  /** Sends a text frame if the socket is open; returns whether it did. */
  send(text: string): boolean {
    if (!this.#ws || this.#ws.readyState !== this.#ws.OPEN) return false;
    this.#ws.send(text);
    return true;
  }

  /**
   * Ends the connection with no more callbacks. `graceful` sends a close frame when the socket is
   * open (ws gives the server `CLOSE_TIMEOUT_MS` to answer); otherwise the socket is destroyed.
   */
  close(graceful = false): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    if (!ws) return;
    ws.removeAllListeners();
    ws.on('error', () => {});
    if (graceful && ws.readyState === ws.OPEN) ws.close(1000);
    else ws.terminate();
  }

  #fail(ws: WebSocket, error: DenError): void {
    if (this.#ws !== ws) return;
    this.close();
    this.#handlers.lost(error);
  }

  #onRefused(ws: WebSocket, res: IncomingMessage): void {
    if (this.#ws !== ws) return;
    let body = '';
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      this.#fail(ws, upgradeError(res.statusCode ?? 0, res.headers, body, this.#options.secret));
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (body.length < MAX_ERROR_BODY) body += chunk;
    });
    res.on('end', settle);
    res.on('close', settle);
    res.on('error', settle);
  }

  /** One timer re-armed for whatever silence is left, rather than one timer per frame. */
  #armIdle(): void {
    const left = Math.max(0, this.#lastFrameAt + this.#options.idleMs - performance.now());
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      const ws = this.#ws;
      if (!ws) return;
      if (performance.now() - this.#lastFrameAt < this.#options.idleMs) {
        this.#armIdle();
        return;
      }
      this.#fail(
        ws,
        new DenError({
          code: 'timeout',
          message: l10n.t('The live stream was silent for {0} ms', this.#options.idleMs),
        }),
      );
    }, left);
  }
}
