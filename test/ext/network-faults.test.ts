import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator';
import { startConnectProxy, type ConnectProxy } from '../support/connect-proxy';
import { waitFor } from '../support/wait';
import { denApi, denLogText } from './den-api';
import { useDen } from './fixtures';
import { selfSignedCertificate } from './network-helpers';
import { lastTurn, openPanel, turnEnded, waitShows, withStoredTurn, recordConnection } from './panel-helpers';
import { resetHttpSettings, setHttpSetting } from './settings-helpers';
import { signIn } from './sign-in-helpers';
import { sessionsView } from './tree-helpers';

/** The turn's stream reconnects with a backoff capped at 10 s: room for it after the outage. */
const RECONNECT_BUDGET_MS = 30_000;

describe('Network faults', () => {
  const den = useDen({ trackContext: true });
  /** Servers a test started besides its emulator, stopped after it. */
  const closers: (() => Promise<void>)[] = [];
  let savedNoProxy: { NO_PROXY?: string; no_proxy?: string } | undefined;

  afterEach(async () => {
    if (savedNoProxy) {
      for (const [name, value] of Object.entries(savedNoProxy)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      savedNoProxy = undefined;
    }
    // useDen's own afterEach has run already: Den is reset, and read here through the extension.
    await resetHttpSettings(await denApi());
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function proxy(opts: Parameters<typeof startConnectProxy>[0] = {}): Promise<ConnectProxy> {
    const p = await startConnectProxy(opts);
    closers.push(() => p.close());
    return p;
  }

  async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
    const emu = await startEmulator(options);
    closers.push(() => emu.close());
    return emu;
  }

  /** The Sessions view after a fresh load: its rows, the message above it, and the welcome keys. */
  async function loadTree(): Promise<{ count: number; message: string; offline: unknown }> {
    await vscode.commands.executeCommand('den.refreshSessions');
    const count = ((await den.api.sessions.getChildren()) ?? []).length;
    return {
      count,
      message: sessionsView(den.api).message ?? '',
      offline: den.context.get('den.offline'),
    };
  }

  /** Waits until the tree shows the service's sessions again (its own retry, or a refresh). */
  async function treeRecovers(what: string): Promise<void> {
    try {
      await waitFor(
        what,
        () => den.api.connection.state.kind === 'connected' && den.api.sessions.sessions.length > 0,
        { timeoutMs: 15_000, intervalMs: 100 },
      );
    } catch (err) {
      const state = den.api.connection.state;
      const why = state.kind === 'error' ? state.error.message : state.kind;
      throw new Error(
        `${(err as Error).message}; the connection: ${why}; the view: ${sessionsView(den.api).message}`,
      );
    }
    assert.equal(sessionsView(den.api).message, undefined);
  }

  it('the service restarted mid-turn (connections refused for 10 s, back with the turn finished): the panel said it was reconnecting and shows the finished turn exactly once', async function () {
    this.timeout(90_000);
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'slow answer in 20 events', mode: 'auto' } });
    const { told, stop: untap } = recordConnection(panel);
    try {
      const turn = lastTurn(panel);
      await waitFor('the turn to stream', () => turn.status === 'running' && turn.blocks.length > 0);
      const agentId = turn.agentMessageId;
      // The emulator's own timer keeps the port closed for 10 s and until its turns have ended.
      const back = den.emu.outage(10_000);
      await waitFor(
        'the panel to say it is reconnecting while the service refuses',
        () => den.emu.refusing && told.some((c) => c.state === 'reconnecting' || c.state === 'offline'),
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      assert.equal(turn.status, 'running', 'the turn ended in the panel while the service was down');
      await back;
      assert.equal(den.emu.storedEvents(id, agentId).at(-1)?.kind, 'task.completed');
      await turnEnded(den.api, turn, RECONNECT_BUDGET_MS);
      assert.equal(turn.status, 'completed');
      // Exactly the stored events, once each: a duplicate would double a block's text, a gap lose it.
      await waitShows(panel, () => withStoredTurn(den.emu, panel.transcript, agentId), 'the finished turn');
      assert.equal(panel.transcript.turns.filter((t) => t.agentMessageId === agentId).length, 1);
      const said = told.filter((c) => c.state === 'reconnecting' || c.state === 'offline');
      assert.match(said[0].message ?? '', /reconnecting|cannot reach the service/i);
      assert.ok(!['reconnecting', 'offline'].includes(told.at(-1)?.state ?? ''), JSON.stringify(told.at(-1)));
    } finally {
      untap();
    }
  });

  it('an HTTP proxy that wants credentials: says so and what to set, works with them in http.proxy, and never shows them', async () => {
    const guarded = await proxy({ auth: 'den:pr0xy-s3cret' });
    const port = new URL(guarded.url).port;
    await setHttpSetting(den.api, 'proxy', guarded.url);
    let tree = await loadTree();
    assert.equal(tree.count, 0);
    assert.match(
      tree.message,
      /^Den could not load sessions: The proxy wants credentials \(407 Proxy Authentication Required\): put them in the http\.proxy setting, as http:\/\/user:password@host:port\. Retrying in \d+ s\.$/,
    );
    assert.equal(tree.offline, false, 'the "cannot reach the service" welcome hides what to set');

    await setHttpSetting(den.api, 'proxy', `http://den:wr0ng-pass@127.0.0.1:${port}`);
    tree = await loadTree();
    assert.match(tree.message, /The proxy wants credentials \(407/);

    // The setting's change reloads the tree (a hidden view, as here, when VS Code next asks for it).
    await setHttpSetting(den.api, 'proxy', `http://den:pr0xy-s3cret@127.0.0.1:${port}`);
    assert.ok((await loadTree()).count > 0);
    await treeRecovers('the tree to load through the proxy with its credentials');
    assert.ok(guarded.tunnels.includes(new URL(den.emu.url).host), guarded.tunnels.join(', '));

    const seen = [
      ...den.messages.texts(),
      sessionsView(den.api).message ?? '',
      den.api.status.tooltip,
      await denLogText('The proxy wants credentials'),
    ].join('\n');
    for (const secret of ['pr0xy-s3cret', 'wr0ng-pass', Buffer.from('den:pr0xy-s3cret').toString('base64')])
      assert.ok(!seen.includes(secret), `"${secret}" was shown or logged`);
  });

  it('a proxy that drops CONNECTs: a clear error at once, nothing breaks, and the tree recovers by itself once the proxy lets them through', async () => {
    const dropper = await proxy({ drop: true });
    await setHttpSetting(den.api, 'proxy', dropper.url);
    const tree = await loadTree();
    assert.equal(tree.count, 0);
    assert.match(
      tree.message,
      /^Den could not load sessions: The proxy closed the connection instead of connecting to the service: check the http\.proxy setting, and that the proxy lets HTTPS tunnels \(CONNECT\) through to the service\. Retrying in \d+ s\.$/,
    );
    assert.equal(tree.offline, false);
    const state = den.api.connection.state;
    assert.equal(state.kind === 'error' && state.error.code, 'network');
    // One CONNECT per try of the load (the client's own retries included), not a storm of them.
    assert.ok(dropper.connects <= 4, `${dropper.connects} CONNECTs for one load`);

    dropper.dropping = false;
    await treeRecovers('the tree to recover by its own retry');
    assert.ok(dropper.tunnels.length > 0);
  });

  it('NO_PROXY and http.noProxy: a listed host is reached directly, another through the proxy', async () => {
    const p = await proxy();
    const other = await emulator();
    const direct = new URL(den.emu.url).host;
    await setHttpSetting(den.api, 'proxy', p.url);
    savedNoProxy = { NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
    delete process.env.no_proxy;
    process.env.NO_PROXY = direct;
    // The client is built anew (and reads NO_PROXY) when the service changes.
    await signIn(den.api, other.url, other.keys.primary);
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    assert.ok((await loadTree()).count > 0);
    assert.equal(p.tunnels.length, 0, 'the host in NO_PROXY went through the proxy');

    await signIn(den.api, other.url, other.keys.primary);
    assert.ok((await loadTree()).count > 0);
    assert.deepEqual([...new Set(p.tunnels)], [new URL(other.url).host]);

    // VS Code's http.noProxy, with nothing in the environment.
    delete process.env.NO_PROXY;
    await setHttpSetting(den.api, 'noProxy', [new URL(other.url).host]);
    const before = p.tunnels.length;
    assert.ok((await loadTree()).count > 0);
    assert.equal(p.tunnels.length, before, 'the host in http.noProxy went through the proxy');
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    assert.ok((await loadTree()).count > 0);
    assert.ok(p.tunnels.includes(direct), 'a host in neither list did not go through the proxy');
  });

  it('a TLS service with a self-signed certificate: says it is not trusted and what to do, and connects with http.proxyStrictSSL off', async function () {
    this.timeout(90_000);
    const tls = await emulator({ tls: selfSignedCertificate() });
    await signIn(den.api, tls.url, tls.keys.primary);
    const tree = await loadTree();
    assert.equal(tree.count, 0);
    assert.match(
      tree.message,
      /^Den could not load sessions: The service's certificate is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\): add the certificate of the service \(or of your network's TLS inspection\) to the system's trusted certificates, or set http\.proxyStrictSSL to false to skip the check\. Retrying in \d+ s\.$/,
    );
    assert.equal(tree.offline, false);

    await setHttpSetting(den.api, 'proxyStrictSSL', false);
    assert.ok((await loadTree()).count > 0);
    await treeRecovers('the tree to load with strict SSL off');
    // The turn's socket (wss) honours the setting too.
    const panel = await openPanel(den.api, randomUUID(), {
      turn: { task: 'answer in 5 events', mode: 'auto' },
    });
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn, 20_000);
    assert.equal(turn.status, 'completed');
    await waitShows(
      panel,
      () => withStoredTurn(tls, panel.transcript, turn.agentMessageId),
      'the turn over wss',
    );
  });
});
