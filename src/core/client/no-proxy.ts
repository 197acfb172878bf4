import { isIPv4 } from 'node:net';

/*
 * Which proxy, if any, a URL goes through. Pure functions over a config and an environment, so
 * they are testable without sockets; `proxy.ts` turns the answer into dispatchers and agents.
 */

/** Proxy settings as the extension reads them (VS Code `http.proxy`, `http.proxyStrictSSL`, …). */
export interface ProxyConfig {
  /** An explicit proxy (`http://[user:pass@]host:port`); wins over the environment. */
  proxyUrl?: string;
  /** Verify TLS certificates (of the service and of an https proxy). Default true. */
  strictSSL?: boolean;
  /** The environment to read `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Hosts that bypass the proxy (VS Code's `http.noProxy`), in `NO_PROXY` syntax, a list or one
   * comma-separated string; they are added to the environment's `NO_PROXY`, which applies as well.
   */
  noProxy?: string | readonly string[];
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' || protocol === 'wss:' ? '443' : '80';
}

function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
}

/** Whether `host` is this machine (`localhost`, 127.0.0.0/8, `::1`). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inCidr(host: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (!isIPv4(host) || !isIPv4(net) || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(ipv4ToInt(host) / size) === Math.floor(ipv4ToInt(net) / size);
}

/** Splits one NO_PROXY entry into host and optional port (`host:port`, `[v6]:port`, bare v6). */
function splitEntry(entry: string): { host: string; port?: string } {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracket) return { host: bracket[1], port: bracket[2] };
  const colons = entry.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = entry.split(':');
    return { host, port };
  }
  return { host: entry };
}

/**
 * Whether `NO_PROXY`-style `list` exempts `target`: entries separated by commas or spaces; `*`
 * matches everything; `example.com`, `.example.com` and `*.example.com` match that domain and its
 * subdomains; `host:port` matches only that port; IPv4 CIDR ranges such as `10.0.0.0/8` work.
 */
export function matchesNoProxy(target: URL, list: string | undefined): boolean {
  if (!list) return false;
  const host = hostOf(target);
  const port = target.port || defaultPort(target.protocol);
  for (const raw of list.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      if (inCidr(host, entry)) return true;
      continue;
    }
    const parts = splitEntry(entry);
    if (parts.port !== undefined && parts.port !== port) continue;
    const domain = parts.host.replace(/^\*?\./, '').replace(/\.$/, '');
    if (domain !== '' && (host === domain || host.endsWith(`.${domain}`))) return true;
  }
  return false;
}

function envValue(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** Adds `http://` to a scheme-less proxy (`proxy:3128`, as people often write it). */
export function normalizeProxyUrl(proxy: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/**
 * The proxy URL `target` should go through, or undefined for a direct connection.
 * An explicit `proxyUrl` is used first; otherwise `https_proxy`/`HTTPS_PROXY` for https and wss
 * targets (falling back to the http ones, as curl and undici do) and `http_proxy`/`HTTP_PROXY` for
 * http and ws. `noProxy` and `NO_PROXY`/`no_proxy` exempt hosts (either list is enough). Proxies from the environment
 * never apply to loopback targets (as in Go's `ProxyFromEnvironment`): a local emulator or tunnel
 * is not reachable through a remote proxy; an explicit proxy is taken at its word.
 */
export function proxyUrlFor(targetUrl: string | URL, cfg: ProxyConfig = {}): string | undefined {
  const target = typeof targetUrl === 'string' ? new URL(targetUrl) : targetUrl;
  const env = cfg.env ?? process.env;
  const own = typeof cfg.noProxy === 'string' ? cfg.noProxy : cfg.noProxy?.join(',');
  const bypass = [own, envValue(env, 'no_proxy', 'NO_PROXY')].filter(Boolean).join(',');
  if (matchesNoProxy(target, bypass)) return undefined;
  if (cfg.proxyUrl?.trim()) return normalizeProxyUrl(cfg.proxyUrl.trim());
  if (isLoopback(hostOf(target))) return undefined;
  const secure = target.protocol === 'https:' || target.protocol === 'wss:';
  const found = secure
    ? envValue(env, 'https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY')
    : envValue(env, 'http_proxy', 'HTTP_PROXY');
  return found === undefined ? undefined : normalizeProxyUrl(found);
}
