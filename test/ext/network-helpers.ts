/**
 * What goes between Den and the service: proxies that record, count and hold requests, a spy on
 * Den's API client (the requests Den asks for), and a self-signed certificate made for the test
 * with `openssl`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DenApi } from './den-api';

/** An HTTP proxy in front of a server that counts the requests passing through. */
export interface CountingProxy {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const proxy = await startRecordingProxy(target);
  return {
    url: proxy.url,
    get requests() {
      return proxy.requests.map((r) => `${r.method} ${r.url}`);
    },
    close: () => proxy.close(),
  };
}

/** A request that passed a recording proxy; `json` is the parsed body of JSON requests. */
export interface RecordedRequest {
  method: string;
  url: string;
  json?: unknown;
}

/** Requests a recording proxy keeps waiting (see `RecordingProxy.hold`). */
export interface ProxyHold {
  /** How many requests are waiting so far. */
  readonly held: number;
  /** Lets the waiting requests go on, in order; later ones pass at once. */
  release(): void;
}

/** An HTTP proxy in front of a server that records requests and the bodies of JSON ones. */
export interface RecordingProxy {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /**
   * Keeps the requests `match` picks (recorded as they arrive; WebSocket upgrades are `UPGRADE`)
   * waiting before they reach the server, until `release`: a response that is late for sure, with
   * no timing involved.
   */
  hold(match: (r: RecordedRequest) => boolean): ProxyHold;
  close(): Promise<void>;
}

const MAX_RECORDED_BODY = 1024 * 1024;

/**
 * Records every request (WebSocket upgrades as `UPGRADE`), keeps the parsed body of each JSON request (up to 1 MB; other
 * bodies, e.g. uploads, pass through unread) and passes WebSocket upgrades through, so a turn's
 * request can be checked exactly as it went over the wire.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const tunnels = new Set<net.Socket>();
  const holds = new Set<{ match: (r: RecordedRequest) => boolean; waiting: (() => void)[] }>();
  /** Runs `go` now, or when the hold that picks `entry` is released. */
  const gate = (entry: RecordedRequest, go: () => void): void => {
    for (const h of holds) {
      if (h.match(entry)) {
        h.waiting.push(go);
        return;
      }
    }
    go();
  };
  const server = http.createServer((req, res) => {
    const entry: RecordedRequest = { method: req.method ?? '', url: req.url ?? '' };
    requests.push(entry);
    // A held request is not read meanwhile: its body waits in the socket.
    gate(entry, () => {
      const fwd = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      fwd.on('error', () => res.destroy());
      if (/json/.test(String(req.headers['content-type']))) {
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_RECORDED_BODY) chunks.push(c);
        });
        req.on('end', () => {
          try {
            if (size <= MAX_RECORDED_BODY) entry.json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // not JSON after all: recorded without a body
          }
        });
      }
      req.pipe(fwd);
    });
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const entry: RecordedRequest = { method: 'UPGRADE', url: req.url ?? '' };
    requests.push(entry);
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    socket.on('error', () => socket.destroy());
    gate(entry, () => {
      if (socket.destroyed) return;
      const up = net.connect(Number(upstream.port), upstream.hostname, () => {
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        up.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) up.write(head);
        socket.pipe(up).pipe(socket);
      });
      tunnels.add(up);
      up.on('close', () => tunnels.delete(up));
      up.on('error', () => socket.destroy());
      socket.on('error', () => up.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hold: (match) => {
      const h = { match, waiting: [] as (() => void)[] };
      holds.add(h);
      return {
        get held() {
          return h.waiting.length;
        },
        release: () => {
          if (!holds.delete(h)) return;
          for (const go of h.waiting) go();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        holds.clear();
        for (const s of tunnels) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The calls Den made through its API client while spied on (`restore` stops). */
export interface ClientSpy {
  /** Method names, in call order. */
  readonly calls: string[];
  restore(): void;
}

/**
 * Records every method call on Den's API clients. Every request Den makes starts with one, made
 * synchronously by whatever wants the request (the tree's list load included), so an empty list
 * says that nothing has asked for a request yet, with no waiting. All clients Den builds share one
 * prototype, reached through `connection.clientFor` (which needs a service URL and sends nothing).
 */
export function spyOnClient(api: DenApi): ClientSpy {
  const sample = api.connection.clientFor('den-test-spy-key');
  const proto = Object.getPrototypeOf(sample) as Record<string, unknown>;
  void sample.close();
  const saved = new Map<string, unknown>();
  const calls: string[] = [];
  for (const name of Object.getOwnPropertyNames(proto)) {
    const fn = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
    if (name === 'constructor' || name === 'close' || typeof fn !== 'function') continue;
    saved.set(name, fn);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      calls.push(name);
      return (fn as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  return {
    calls,
    restore: () => {
      for (const [name, fn] of saved) proto[name] = fn;
    },
  };
}

/**
 * A fresh self-signed certificate for 127.0.0.1 and localhost (EC P-256, one day), made by the
 * `openssl` command line (node:crypto cannot write X.509); the files are removed at once.
 */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-cert-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore', timeout: 20_000 },
    );
    return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
