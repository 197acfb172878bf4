import { l10n } from '../l10n';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Dispatcher } from 'undici';
import { Agent, ProxyAgent } from './undici';
import { DenError } from './errors';
import { proxyUrlFor, type ProxyConfig } from './no-proxy';
import { TunnelAgent } from './tunnel-agent';

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
 * The undici dispatcher for requests to `targetUrl`: a `ProxyAgent` (CONNECT tunnel) when a proxy
 * applies (see `proxyUrlFor`), else an `Agent`; both verify certificates unless `strictSSL` is
 * false. The caller owns the dispatcher and closes it.
 */
export function proxyFor(targetUrl: string | URL, cfg: ProxyConfig = {}): Dispatcher {
  const rejectUnauthorized = cfg.strictSSL ?? true;
  const proxy = proxyUrlFor(targetUrl, cfg);
  if (proxy === undefined) return new Agent({ connect: { rejectUnauthorized } });
  parseProxy(proxy);
  return new ProxyAgent({
    uri: proxy,
    requestTls: { rejectUnauthorized },
    proxyTls: { rejectUnauthorized },
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
