import { l10n } from '../shared/l10n';
import * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';

export interface TunnelAgentOptions {
  /** The proxy (`http:` or `https:` scheme, optional `user:pass@`). */
  proxy: URL;
  /** The target speaks TLS (`wss:`/`https:`): wrap the tunnel in TLS. */
  secure: boolean;
  /** Verify certificates of the target and of an https proxy. */
  rejectUnauthorized: boolean;
  /** Give up when the tunnel is not up after this long. Default 30 s. */
  connectTimeoutMs?: number;
}

/** Largest proxy response head accepted before the tunnel is considered broken. */
const MAX_HEAD = 16 * 1024;

/** `code` of the error when the proxy closes the connection instead of answering the CONNECT. */
export const PROXY_CLOSED = 'DEN_PROXY_CLOSED';
/** `code` of the error when the proxy answers the CONNECT with a status other than 2xx. */
export const PROXY_REFUSED = 'DEN_PROXY_REFUSED';

/**
 * A node `http.Agent` whose connections are HTTP CONNECT tunnels through a proxy, for clients that
 * take an agent (the `ws` WebSocket). Each connection gets its own tunnel; nothing is kept alive.
 */
export class TunnelAgent extends http.Agent {
  readonly #opts: TunnelAgentOptions;

  constructor(opts: TunnelAgentOptions) {
    super({ keepAlive: false });
    this.#opts = opts;
    // https.request insists that its agent's protocol is https: (the TLS is done here instead).
    Object.assign(this, { protocol: opts.secure ? 'https:' : 'http:', defaultPort: opts.secure ? 443 : 80 });
  }

  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = String(options.hostname ?? options.host ?? 'localhost').replace(/^\[|\]$/g, '');
    const port = Number(options.port) || (this.#opts.secure ? 443 : 80);
    const servername = (options as tls.ConnectionOptions).servername || (net.isIP(host) ? undefined : host);
    openTunnel(this.#opts, host, port, servername).then(
      (socket) => callback?.(null, socket),
      (err: Error) => callback?.(err, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

function connectProxy(opts: TunnelAgentOptions): net.Socket {
  const host = opts.proxy.hostname.replace(/^\[|\]$/g, '');
  const secure = opts.proxy.protocol === 'https:';
  const port = Number(opts.proxy.port) || (secure ? 443 : 80);
  return secure
    ? tls.connect({
        host,
        port,
        servername: net.isIP(host) ? undefined : host,
        rejectUnauthorized: opts.rejectUnauthorized,
      })
    : net.connect({ host, port });
}

/** Opens a CONNECT tunnel to `host:port` and, for a secure target, starts TLS inside it. */
export function openTunnel(
  opts: TunnelAgentOptions,
  host: string,
  port: number,
  servername?: string,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectProxy(opts);
    const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
    let head = Buffer.alloc(0);
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new Error(l10n.t('Proxy tunnel to {0} not established in time', authority))),
      opts.connectTimeoutMs ?? 30_000,
    );
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD) fail(new Error(l10n.t('Proxy sent an oversized response to CONNECT')));
        return;
      }
      socket.off('data', onData);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(statusLine)?.[1]);
      if (!(status >= 200 && status < 300)) {
        fail(
          Object.assign(new Error(`Proxy refused the tunnel to ${authority}: ${statusLine}`), {
            status,
            code: PROXY_REFUSED,
          }),
        );
        return;
      }
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      settled = true;
      clearTimeout(timer);
      socket.off('error', fail);
      if (!opts.secure) {
        resolve(socket);
        return;
      }
      const secured = tls.connect({ socket, servername, rejectUnauthorized: opts.rejectUnauthorized });
      // An error of the tunnel's own socket ends the TLS socket on it (its user listens there).
      socket.on('error', (err) => secured.destroy(err));
      const onTlsError = (err: Error): void => {
        secured.destroy();
        reject(err);
      };
      secured.once('error', onTlsError);
      secured.once('secureConnect', () => {
        secured.off('error', onTlsError);
        resolve(secured);
      });
    };
    socket.on('error', fail);
    // Closed before its answer (a proxy that drops CONNECTs): fails now, not at the timeout.
    socket.once('close', () =>
      fail(
        Object.assign(new Error(`Proxy closed the connection instead of opening a tunnel to ${authority}`), {
          code: PROXY_CLOSED,
        }),
      ),
    );
    socket.once(opts.proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      const auth = proxyAuthorization(opts.proxy);
      socket.write(
        `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
          (auth ? `Proxy-Authorization: ${auth}\r\n` : '') +
          '\r\n',
      );
    });
    socket.on('data', onData);
  });
}
