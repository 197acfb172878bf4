import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as diagnostics from 'node:diagnostics_channel';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import * as esbuild from 'esbuild';
import type { ApiClient as ApiClientType, ApiClientOptions } from '../../../src/core/api/client';
import type { DenError } from '../../../src/core/api/errors';
import type { wsAgentFor as WsAgentFor } from '../../../src/core/api/proxy';
import type { SessionStream as SessionStreamType } from '../../../src/core/stream/session-stream';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket as WsWebSocket } from 'ws';
import { startEmulator, type Emulator } from '../../emulator';
import { startConnectProxy, type ConnectProxy } from '../../support/connect-proxy';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../api/tls-fixture';

/**
 * The unit suite loads src/ file by file, with all of undici and ws. These tests build the core the
 * way `npm run package` builds dist/extension.js (minified, with the plugins that stub modules Den
 * never reaches) and drive that build against the emulator: JSON requests, a streamed multipart
 * upload, a download, SSE, the session WebSocket, CONNECT tunnels, TLS through a proxy, and a
 * refused SOCKS proxy. See docs/decisions/2026-11-22-bundle-size.md.
 */
interface Bundle {
  WebSocket: typeof WsWebSocket;
  ApiClient: typeof ApiClientType;
  SessionStream: typeof SessionStreamType;
  wsAgentFor: typeof WsAgentFor;
}

const ENTRY = `
export { default as WebSocket } from 'ws';
export { ApiClient } from './src/core/api/client';
export { SessionStream } from './src/core/stream/session-stream';
export { wsAgentFor } from './src/core/api/proxy';
`;

/** Modules the shipped bundle must not contain (stubbed or never imported). */
const LEFT_OUT = [
  /undici\/lib\/web\//,
  /undici\/lib\/core\/socks5/,
  /undici\/lib\/dispatcher\/socks5/,
  /undici\/lib\/dispatcher\/client-h2/,
  /undici\/lib\/api\/(index|api-(stream|pipeline|upgrade))\.js/,
  /undici\/lib\/llhttp\/llhttp(_simd)?-wasm\.js/,
  /undici\/lib\/llhttp\/(constants|utils)\.js/,
  /undici\/lib\/core\/diagnostics\.js/,
  /ws\/lib\/(websocket-server|stream|subprotocol|permessage-deflate|extension)\.js/,
  /ws\/index\.js/,
];

describe('the production bundle (stubbed undici and ws) @build', function () {
  this.timeout(60_000);
  let dir: string;
  let bundle: Bundle;
  let inputs: string[];
  let emu: Emulator;
  let proxy: ConnectProxy;
  const clients: ApiClientType[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-bundle-'));
    const outfile = path.join(dir, 'core.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { dropSimdParser, slimUndici, compactBundle } = require(
      path.resolve('scripts/esbuild-plugins.js'),
    ) as {
      dropSimdParser: esbuild.Plugin;
      slimUndici: esbuild.Plugin;
      compactBundle: (file: string) => Promise<void>;
    };
    const result = await esbuild.build({
      stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      outfile,
      plugins: [dropSimdParser, slimUndici],
      metafile: true,
      logLevel: 'silent',
    });
    inputs = Object.keys(result.metafile.inputs);
    // Driven as shipped: with the second minifying pass.
    await compactBundle(outfile);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    bundle = require(outfile) as Bundle;
    emu = await startEmulator({ seed: false, eventDelayMs: 0 });
  });
  after(async () => {
    await emu?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    proxy = await startConnectProxy();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await proxy.close();
  });

  function client(over: Partial<ApiClientOptions> = {}): ApiClientType {
    const c = new bundle.ApiClient({
      baseUrl: emu.url,
      apiKey: () => emu.keys.primary,
      retry: { retries: 0 },
      ...over,
    });
    clients.push(c);
    return c;
  }

  it('the shipped extension bundle (built as `npm run package` builds it) is at most 450 KB', async () => {
    // esbuild.js --production's options (KB = 1,000 bytes). A ceiling against an accidental large
    // import, not a budget to cut dependencies for: what users feel is activation time
    // (docs/decisions/2026-11-22-bundle-size.md, update 2026-11-26).
    const outfile = path.join(dir, 'extension.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { extensionBuildOptions, compactBundle } = require(path.resolve('scripts/esbuild-plugins.js')) as {
      extensionBuildOptions: (o: { production: boolean; outfile: string }) => esbuild.BuildOptions;
      compactBundle: (file: string) => Promise<void>;
    };
    await esbuild.build({ ...extensionBuildOptions({ production: true, outfile }), logLevel: 'silent' });
    await compactBundle(outfile);
    const size = fs.statSync(outfile).size;
    assert.ok(size <= 450_000, `dist/extension.js would be ${size.toLocaleString('en-US')} bytes`);
  });

  it('leaves out the stubbed modules and keeps the ones Den uses', () => {
    for (const re of LEFT_OUT) {
      assert.deepEqual(
        inputs.filter((f) => re.test(f)),
        [],
        `${re} is in the bundle`,
      );
    }
    for (const kept of ['undici/lib/api/api-request.js', 'ws/lib/websocket.js']) {
      assert.ok(
        inputs.some((f) => f.endsWith(kept)),
        `${kept} is missing`,
      );
    }
  });

  for (const via of ['direct', 'proxy'] as const) {
    it(`sends JSON requests, uploads a stream, downloads, reads SSE and follows a turn (${via})`, async () => {
      const proxyCfg = via === 'proxy' ? { proxyUrl: proxy.url, env: {} } : { env: {} };
      const c = client({ proxy: proxyCfg });
      assert.ok(Array.isArray((await c.listSessions()).sessions));

      const sessionId = `bundle-${via}-${Date.now()}`;
      const content = Buffer.alloc(300_000, 7);
      const up = await c.upload({
        key: `${sessionId}/blob.bin`,
        filename: 'blob.bin',
        contentType: 'application/octet-stream',
        size: content.length,
        body: Readable.from([content.subarray(0, 1000), content.subarray(1000)]),
      });
      assert.equal(up.size, content.length);
      const back = await c.downloadFile({ key: up.key, name: up.filename, size: up.size });
      assert.deepEqual(back.content, content);

      const states: string[] = [];
      for await (const s of c.lamRunStream({
        query: 'find shoes',
        appUrl: 'https://shop.example.com',
        schema: { title: 'product title' },
        maxCount: 2,
      }))
        states.push(s.taskStatus);
      assert.equal(states.at(-1), 'DONE');

      const turn = await c.startTurn({ sessionId, task: 'write a short answer' });
      const kinds: string[] = [];
      const stream = new bundle.SessionStream(
        {
          baseUrl: emu.url,
          apiKey: () => emu.keys.primary,
          sessionId,
          messageId: turn.agentMessageId,
          agent: bundle.wsAgentFor(emu.url.replace('http', 'ws'), proxyCfg),
          backoff: { initialMs: 5, maxMs: 40, factor: 2, jitter: 0.5 },
        },
        { onEvent: (ev) => kinds.push(ev.kind) },
      );
      stream.start();
      const done = await stream.done;
      assert.equal(done.error, undefined);
      assert.ok(kinds.length > 0);
      if (via === 'proxy') {
        // upload, download, listing, startTurn, lam and the socket all went through tunnels
        assert.ok(proxy.tunnels.length >= 2, `tunnels: ${proxy.tunnels.join(', ')}`);
      } else assert.equal(proxy.tunnels.length, 0);
    });
  }

  it('talks to a server that offers compression without it, and refuses a handshake that forces it', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: true });
    wss.on('connection', (ws, req) =>
      ws.send(`extensions: ${req.headers['sec-websocket-extensions'] ?? 'none'}`),
    );
    await new Promise((r) => wss.once('listening', r));
    const forcing = createServer();
    forcing.on('upgrade', (req, socket) => {
      const accept = createHash('sha1')
        .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.end(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n`,
      );
    });
    await new Promise<void>((r) => forcing.listen(0, '127.0.0.1', r));
    try {
      const plain = new bundle.WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, {
        perMessageDeflate: false,
      });
      const first = await new Promise<string>((resolve, reject) => {
        plain.once('message', (d: Buffer) => resolve(d.toString()));
        plain.once('error', reject);
      });
      plain.close();
      assert.equal(first, 'extensions: none');
      const forced = new bundle.WebSocket(`ws://127.0.0.1:${(forcing.address() as AddressInfo).port}`, {
        perMessageDeflate: false,
      });
      const err = await new Promise<Error>((resolve) => forced.once('error', resolve));
      assert.match(err.message, /Sec-WebSocket-Extensions header but no extension was requested/);
    } finally {
      wss.close();
      forcing.closeAllConnections();
      await new Promise((r) => forcing.close(r));
    }
  });

  it('sends https requests through a proxy with TLS options', async () => {
    const server = https.createServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sessions: [], meta: { total_count: 0, total_pages: 0, current_page: 1 } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const lax = client({ baseUrl: url, proxy: { proxyUrl: proxy.url, strictSSL: false, env: {} } });
      assert.deepEqual((await lax.listSessions()).sessions, []);
      const strict = client({ baseUrl: url, proxy: { proxyUrl: proxy.url, env: {} } });
      await assert.rejects(strict.listSessions(), (e: DenError) => e.code === 'network');
      assert.ok(proxy.tunnels.length >= 2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("publishes undici's diagnostics channels (only the NODE_DEBUG tracing is left out)", async () => {
    const seen: string[] = [];
    const onCreate = (m: unknown): void => {
      seen.push(String((m as { request: { path: string } }).request.path));
    };
    diagnostics.subscribe('undici:request:create', onCreate);
    try {
      await client().listSessions();
    } finally {
      diagnostics.unsubscribe('undici:request:create', onCreate);
    }
    assert.ok(
      seen.some((p) => p.startsWith('/sessions')),
      JSON.stringify(seen),
    );
  });

  it('answers a response that is not HTTP with a network error (the parser codes are kept)', async () => {
    const server = net.createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 2x0 Nonsense\r\nContent-Length: zz\r\n\r\n{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const c = client({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      await assert.rejects(c.listSessions(), (e: DenError) => {
        assert.equal(e.code, 'network', `${e.code}: ${e.message}`);
        return true;
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  for (const scheme of ['socks5', 'socks', 'socks5h', 'socks4']) {
    it(`refuses a ${scheme}:// proxy with a config error naming the supported schemes`, async () => {
      const c = client({ proxy: { proxyUrl: `${scheme}://127.0.0.1:1080`, env: {} } });
      await assert.rejects(c.listSessions(), (e: DenError) => {
        assert.equal(e.code, 'config');
        assert.match(e.message, /not supported: use an http:\/\/ or https:\/\/ proxy/);
        return true;
      });
      assert.throws(
        () => bundle.wsAgentFor('wss://api.example.com', { proxyUrl: `${scheme}://p:1080`, env: {} }),
        /not supported/,
      );
    });
  }
});
