import { l10n } from '../shared/l10n';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { net } from './lazy-net';
import { DenError } from './errors';
import { proxyUrlFor, type ProxyConfig } from './no-proxy';
import { openTunnel, TunnelAgent } from './tunnel-agent';

export type { ProxyConfig } from './no-proxy';
export { matchesNoProxy, proxyUrlFor } from './no-proxy';

function parseProxy(proxyUrl: string): URL {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new DenError({
      code: 'config',
      message: l10n.t('The proxy setting is not a valid URL: check http.proxy'),
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DenError({
      code: 'config',
      message: l10n.t('Proxy scheme {0} is not supported: use an http:// or https:// proxy', url.protocol),
    });
  }
  return url;
}

/**
 * The undici dispatcher for requests to `targetUrl`: an `Agent` whose connections are CONNECT
 * tunnels (`openTunnel`, the same as the WebSocket's) when a proxy applies (see `proxyUrlFor`),
 * else a plain `Agent`; both verify certificates unless `strictSSL` is false. Not undici's
 * `ProxyAgent`: when a proxy closes the socket instead of answering the CONNECT, it opens the
 * tunnel again at once, forever (thousands of connections a second, the request never settles);
 * a tunnel that fails here fails the request. The caller owns the dispatcher and closes it.
 */
export function proxyFor(targetUrl: string | URL, cfg: ProxyConfig = {}): Dispatcher {
  const rejectUnauthorized = cfg.strictSSL ?? true;
  const proxy = proxyUrlFor(targetUrl, cfg);
  const { Agent } = net();
  if (proxy === undefined) return new Agent({ connect: { rejectUnauthorized } });
  const proxyUrl = parseProxy(proxy);
  return new Agent({
    connect: (opts, callback) => {
      const secure = opts.protocol === 'https:';
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      const port = Number(opts.port) || (secure ? 443 : 80);
      const servername = opts.servername || (isIP(host) ? undefined : host);
      openTunnel({ proxy: proxyUrl, secure, rejectUnauthorized }, host, port, servername).then(
        (socket) => callback(null, socket),
        (err: Error) => callback(err, null),
      );
    },
  });
}

/**
 * The node agent a WebSocket to `targetUrl` (ws:/wss:) should use: a CONNECT-tunnelling agent when
 * a proxy applies; for a direct wss connection with `strictSSL` false, an https agent that accepts
 * any certificate; otherwise undefined (the default agent).
 */
export function wsAgentFor(targetUrl: string | URL, cfg: ProxyConfig = {}): http.Agent | undefined {
  const target = typeof targetUrl === 'string' ? new URL(targetUrl) : targetUrl;
  const secure = target.protocol === 'wss:' || target.protocol === 'https:';
  const rejectUnauthorized = cfg.strictSSL ?? true;
  const proxy = proxyUrlFor(target, cfg);
  if (proxy !== undefined) return new TunnelAgent({ proxy: parseProxy(proxy), secure, rejectUnauthorized });
  if (secure && !rejectUnauthorized) return new https.Agent({ rejectUnauthorized: false });
  return undefined;
}
