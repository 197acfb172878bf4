import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import * as esbuild from 'esbuild';
import type { ApiClient as ApiClientType, ApiClientOptions } from '../../../src/core/client/client';
import type { DenError } from '../../../src/core/client/errors';
import type { netLoaded as NetLoaded } from '../../../src/core/client/lazy-net';
import type { wsAgentFor as WsAgentFor } from '../../../src/core/client/proxy';
import type { SessionStream as SessionStreamType } from '../../../src/core/stream/session-stream';
import { startEmulator, type Emulator } from '../../emulator';
import { startConnectProxy, type ConnectProxy } from '../../support/connect-proxy';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../../unit/core/client/tls-fixture';

/**
 * The unit suite loads src/ file by file. These tests build the extension host's bundles the way
 * `npm run package` builds them (minified; undici and ws bundled whole, as published, into net.js
 * beside the activation bundle) and check the boundary between them: the activation bundle holds
 * no network code and loads net.js on the first request, not before. Then they drive that build
 * against the emulator: JSON requests, a streamed multipart upload, a download, SSE, the session
 * WebSocket, CONNECT tunnels and TLS through a proxy.
 * See docs/decisions/2026-11-27-activation-not-bytes.md.
 */
interface Core {
  ApiClient: typeof ApiClientType;
  SessionStream: typeof SessionStreamType;
  wsAgentFor: typeof WsAgentFor;
  netLoaded: typeof NetLoaded;
}

/** Den's core as the extension bundle holds it, with the same boundary to net.js. */
const ENTRY = `
export { ApiClient } from './src/core/client/client';
export { SessionStream } from './src/core/stream/session-stream';
export { wsAgentFor } from './src/core/client/proxy';
export { netLoaded } from './src/core/client/lazy-net';
`;

interface BuildScripts {
  lazyNet: esbuild.Plugin;
  extensionBuildOptions: (o: {
    production: boolean;
    outfile: string;
    metafile: boolean;
  }) => esbuild.BuildOptions;
  netBuildOptions: (o: { production: boolean; outfile: string; metafile: boolean }) => esbuild.BuildOptions;
}

/** A package's files among a build's inputs. */
const fromPackage = (inputs: string[], name: string): string[] =>
  inputs.filter((f) => f.includes(`node_modules/${name}/`));

describe('the production bundles (activation bundle and net.js)', function () {
  this.timeout(60_000);
  let dir: string;
  let core: Core;
  let netFile: string;
  let emu: Emulator;
  let proxy: ConnectProxy;
  const clients: ApiClientType[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const scripts = require(path.resolve('scripts/esbuild-plugins.js')) as BuildScripts;

  before(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'den-bundle-')));
    netFile = path.join(dir, 'net.js');
    await esbuild.build({
      ...scripts.netBuildOptions({ production: true, outfile: netFile, metafile: false }),
      logLevel: 'silent',
    });
    const outfile = path.join(dir, 'core.js');
    await esbuild.build({
      stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      outfile,
      plugins: [scripts.lazyNet],
      logLevel: 'silent',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    core = require(outfile) as Core;
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
    const c = new core.ApiClient({
      baseUrl: emu.url,
      apiKey: () => emu.keys.primary,
      retry: { retries: 0 },
      ...over,
    });
    clients.push(c);
    return c;
  }

  it('the activation bundle holds no undici or ws code; net.js beside it holds both', async () => {
    const ext = await esbuild.build({
      ...scripts.extensionBuildOptions({
        production: true,
        outfile: path.join(dir, 'extension.js'),
        metafile: true,
      }),
      logLevel: 'silent',
    });
    const inputs = Object.keys(ext.metafile?.inputs ?? {});
    assert.ok(inputs.includes('src/extension.ts'), inputs.slice(0, 5).join(', '));
    assert.ok(inputs.includes('src/core/client/lazy-net.ts'));
    for (const name of ['undici', 'ws']) assert.deepEqual(fromPackage(inputs, name), [], `${name} is in it`);
    assert.ok(!inputs.includes('src/core/client/net.ts'));
    assert.match(fs.readFileSync(path.join(dir, 'extension.js'), 'utf8'), /require\("\.\/net\.js"\)/);

    const net = await esbuild.build({
      ...scripts.netBuildOptions({
        production: true,
        outfile: path.join(dir, 'net-meta.js'),
        metafile: true,
      }),
      logLevel: 'silent',
    });
    const netInputs = Object.keys(net.metafile?.inputs ?? {});
    for (const name of ['undici', 'ws'])
      assert.ok(fromPackage(netInputs, name).length > 0, `${name} is not in net.js`);
    // Only the packages: none of Den's modules (no state shared twice).
    assert.deepEqual(
      netInputs.filter((f) => f.startsWith('src/')),
      ['src/core/client/net.ts'],
    );
  });

  it('loads net.js with the first request, not before', async () => {
    assert.equal(require.cache[netFile], undefined, 'net.js was loaded with the bundle');
    assert.equal(core.netLoaded(), false);
    // Clients are made at activation (and on sign-in): making one loads nothing either.
    const c = client();
    assert.equal(core.netLoaded(), false);
    assert.equal(require.cache[netFile], undefined);
    assert.ok(Array.isArray((await c.listSessions()).sessions));
    assert.equal(core.netLoaded(), true);
    assert.ok(require.cache[netFile], 'the request did not load net.js');
  });

  it('no file under src/ or scripts/ (nor esbuild.js) reaches into a private file of undici or ws', () => {
    // git grep: the tracked files, as a fresh clone has them.
    let found = '';
    try {
      found = execFileSync(
        'git',
        ['grep', '-n', '-E', '(undici|ws)/lib', '--', 'src', 'scripts', 'esbuild.js'],
        {
          encoding: 'utf8',
        },
      );
    } catch (e) {
      // exit status 1: no match
      if ((e as { status?: number }).status !== 1) throw e;
    }
    assert.equal(found, '');
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
      const stream = new core.SessionStream(
        {
          baseUrl: emu.url,
          apiKey: () => emu.keys.primary,
          sessionId,
          messageId: turn.agentMessageId,
          agent: core.wsAgentFor(emu.url.replace('http', 'ws'), proxyCfg),
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
});
