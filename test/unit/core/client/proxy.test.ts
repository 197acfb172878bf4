import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { ApiClient, type ApiClientOptions } from '../../../../src/core/client/client';
import { proxyFor, wsAgentFor } from '../../../../src/core/client/proxy';
import { TunnelAgent } from '../../../../src/core/client/tunnel-agent';
import { startEmulator, type Emulator } from '../../../emulator';
import { startConnectProxy, type ConnectProxy } from '../../../support/connect-proxy';
import { newSessionId, rejectsWith } from './helpers';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './tls-fixture';

/** Opens a WebSocket and resolves with its first message (or rejects with its error). */
function firstMessage(url: string, agent: http.Agent | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { agent, handshakeTimeout: 5_000 });
    ws.once('message', (data) => {
      resolve(String(data));
      ws.close();
    });
    ws.once('error', (err) => {
      reject(err);
      ws.terminate();
    });
  });
}

/** A loopback HTTPS server (self-signed) answering an empty session list, with a wss endpoint. */
async function startTlsServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = https.createServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ sessions: [], meta: { total_count: 0, total_pages: 0, current_page: 1 } }));
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.send('{"type":"ack","resume_from":"0-0"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('proxies', () => {
  let emu: Emulator;
  let proxy: ConnectProxy;
  const clients: ApiClient[] = [];

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0 });
  });
  after(() => emu.close());
  beforeEach(async () => {
    proxy = await startConnectProxy();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await proxy.close();
  });

  function client(over: Partial<ApiClientOptions>): ApiClient {
    const c = new ApiClient({
      baseUrl: emu.url,
      apiKey: () => emu.keys.primary,
      retry: { retries: 0 },
      ...over,
    });
    clients.push(c);
    return c;
  }

  it('sends HTTP requests through an explicit proxy as CONNECT tunnels', async () => {
    const c = client({ proxy: { proxyUrl: proxy.url, env: {} } });
    const page = await c.listSessions({ limit: 2 });
    assert.equal(page.sessions.length, 2);
    await c.getSession(page.sessions[0].sessionId);
    const authority = new URL(emu.url).host;
    assert.ok(proxy.tunnels.length >= 1);
    assert.ok(proxy.tunnels.every((t) => t === authority));
  });

  it('connects directly to loopback when the proxy only comes from the environment', async () => {
    const c = client({ proxy: { env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url } } });
    await c.listSessions({ limit: 1 });
    assert.equal(proxy.tunnels.length, 0);
  });

  it('connects directly when NO_PROXY exempts the service', async () => {
    const c = client({ proxy: { proxyUrl: proxy.url, env: { NO_PROXY: '127.0.0.1' } } });
    await c.listSessions({ limit: 1 });
    assert.equal(proxy.tunnels.length, 0);
  });

  it('authenticates to the proxy with credentials from its URL, and explains a 407', async () => {
    const guarded = await startConnectProxy({ auth: 'den:s3cret' });
    try {
      const withAuth = client({ proxy: { proxyUrl: guarded.url.replace('//', '//den:s3cret@'), env: {} } });
      await withAuth.listSessions({ limit: 1 });
      assert.equal(guarded.tunnels.length, 1);
      const without = client({ proxy: { proxyUrl: guarded.url, env: {} } });
      const err = await rejectsWith(without.listSessions(), 'network');
      assert.equal(
        err.message,
        'The proxy wants credentials (407 Proxy Authentication Required): put them in the http.proxy setting, as http://user:password@host:port',
      );
      assert.ok(!err.message.includes('s3cret'));
    } finally {
      await guarded.close();
    }
  });

  it('fails a request at once when the proxy drops the CONNECT, with one tunnel try, and works once it stops', async () => {
    const dropper = await startConnectProxy({ drop: true });
    try {
      const c = client({ proxy: { proxyUrl: dropper.url, env: {} } });
      const err = await rejectsWith(c.listSessions({ limit: 1 }), 'network');
      assert.match(
        err.message,
        /^The proxy closed the connection instead of connecting to the service: check the http\.proxy setting/,
      );
      // undici's ProxyAgent opened the tunnel again and again (thousands a second) and never settled.
      assert.equal(dropper.connects, 1);
      dropper.dropping = false;
      await c.listSessions({ limit: 1 });
      assert.equal(dropper.tunnels.length, 1);
    } finally {
      await dropper.close();
    }
  });

  it('rejects a WebSocket tunnel the proxy drops at once, not at the tunnel timeout', async () => {
    const dropper = await startConnectProxy({ drop: true });
    try {
      const agent = wsAgentFor('ws://127.0.0.1:9/ws', { proxyUrl: dropper.url, env: {} });
      await assert.rejects(firstMessage('ws://127.0.0.1:9/ws', agent), /Proxy closed the connection/);
    } finally {
      await dropper.close();
    }
  });

  it('reports a proxy that is down as a network error', async () => {
    const downUrl = proxy.url;
    await proxy.close();
    const c = client({ proxy: { proxyUrl: downUrl, env: {} } });
    const err = await rejectsWith(c.listSessions(), 'network');
    assert.match(err.message, /connection refused/);
  });

  it('tunnels a WebSocket to the emulator through the proxy', async () => {
    const c = client({ proxy: { proxyUrl: proxy.url, env: {} } });
    const sessionId = newSessionId();
    const { agentMessageId } = await c.startTurn({ sessionId, task: 'slow socket turn' });
    const before = proxy.tunnels.length;
    const wsUrl = `${emu.url.replace('http', 'ws')}/ws/sessions/${sessionId}?token=${emu.keys.primary}&message_id=${agentMessageId}`;
    const agent = wsAgentFor(wsUrl, { proxyUrl: proxy.url, env: {} });
    assert.ok(agent instanceof TunnelAgent);
    const first = JSON.parse(await firstMessage(wsUrl, agent)) as { type?: string };
    assert.equal(first.type, 'ack');
    assert.equal(proxy.tunnels.length, before + 1);
    await c.abortMessage(agentMessageId);
  });

  it('rejects a WebSocket tunnel the proxy refuses', async () => {
    const guarded = await startConnectProxy({ auth: 'den:s3cret' });
    try {
      const agent = wsAgentFor('ws://127.0.0.1:9/ws', { proxyUrl: guarded.url, env: {} });
      await assert.rejects(
        firstMessage('ws://127.0.0.1:9/ws', agent),
        /Proxy refused the tunnel to 127\.0\.0\.1:9: HTTP\/1\.1 407/,
      );
    } finally {
      await guarded.close();
    }
  });

  describe('TLS through the proxy', () => {
    let tlsServer: Awaited<ReturnType<typeof startTlsServer>>;
    before(async () => {
      tlsServer = await startTlsServer();
    });
    after(() => tlsServer.close());

    it('wraps a wss tunnel in TLS, accepting a self-signed certificate only when strictSSL is off', async () => {
      const wssUrl = tlsServer.url.replace('https', 'wss');
      const lax = wsAgentFor(wssUrl, { proxyUrl: proxy.url, strictSSL: false, env: {} });
      assert.match(await firstMessage(wssUrl, lax), /"ack"/);
      const strict = wsAgentFor(wssUrl, { proxyUrl: proxy.url, env: {} });
      await assert.rejects(firstMessage(wssUrl, strict), /self[- ]signed/i);
      assert.equal(proxy.tunnels.length, 2);
    });

    it('sends https requests through the proxy, verifying certificates unless strictSSL is off', async () => {
      const lax = new ApiClient({
        baseUrl: tlsServer.url,
        apiKey: () => 'k-123456',
        proxy: { proxyUrl: proxy.url, strictSSL: false, env: {} },
      });
      clients.push(lax);
      assert.deepEqual((await lax.listSessions()).sessions, []);
      const strict = new ApiClient({
        baseUrl: tlsServer.url,
        apiKey: () => 'k-123456',
        retry: { retries: 0 },
        proxy: { proxyUrl: proxy.url, env: {} },
      });
      clients.push(strict);
      const err = await rejectsWith(strict.listSessions(), 'network');
      assert.match(
        err.message,
        /^The service's certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): .*http\.proxyStrictSSL to false/,
      );
      assert.ok(proxy.tunnels.length >= 2);
    });

    it('gives a direct wss connection an agent that skips verification only when strictSSL is off', async () => {
      const wssUrl = tlsServer.url.replace('https', 'wss');
      assert.equal(wsAgentFor(wssUrl, { env: {} }), undefined);
      assert.equal(wsAgentFor(emu.url.replace('http', 'ws'), { strictSSL: false, env: {} }), undefined);
      const lax = wsAgentFor(wssUrl, { strictSSL: false, env: {} });
      assert.ok(lax instanceof https.Agent);
      assert.match(await firstMessage(wssUrl, lax), /"ack"/);
      assert.equal(proxy.tunnels.length, 0);
    });
  });

  it('refuses a proxy URL with an unsupported scheme as a config error', () => {
    assert.throws(
      () => proxyFor('https://api.example.com', { proxyUrl: 'socks5://p:1080', env: {} }),
      /not supported/,
    );
    assert.throws(
      () => wsAgentFor('wss://api.example.com', { proxyUrl: 'socks5://p:1080', env: {} }),
      /not supported/,
    );
  });
});
