/**
 * Shared helpers of the extension-host integration tests: reaching Den's API, settings and sign-in,
 * capturing notifications, reading the Sessions tree, and a request-counting proxy.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { DenTestInternals } from '../../src/extension';
import type { PanelTurnRequest } from '../../src/editor/session-panel/session-panels';
import type { SessionNode } from '../../src/editor/sessions-view/tree-nodes';
import type { Emulator } from '../emulator';
import { waitFor } from '../support/wait';

/**
 * Den's public API and its live pieces, as the tests reach them (not through `exports`: that is the
 * public API only, docs/api.md).
 */
export type DenApi = DenTestInternals;
export type { SessionNode } from '../../src/editor/sessions-view/tree-nodes';

export const EXTENSION_ID = 'den-dev.den';

/**
 * Where Den puts its internals when VS Code runs it as the extension under test (`ExtensionMode.Test`;
 * `TEST_INTERNALS_KEY` in src/extension.ts, docs/decisions/2026-11-26-exports-are-the-public-api.md).
 */
const TEST_INTERNALS = Symbol.for('den-dev.den.testInternals');

/**
 * Activates Den (once) and returns its public API with its live pieces. Not `exports` (the public
 * API only, what any extension reads): the object Den publishes for its own tests in Test mode.
 */
export async function denApi(): Promise<DenApi> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
  const internals = (globalThis as Record<symbol, unknown>)[TEST_INTERNALS] as DenApi | undefined;
  if (!internals) throw new Error(`${EXTENSION_ID} published no test internals: is it running in Test mode?`);
  return internals;
}

/**
 * Sets one `den.*` setting (undefined removes it) and waits until Den has read it: Den reads every
 * setting again on each change (a new `connection.settings` object), and then refreshes the tree,
 * so no late reaction to this change lands in the next step.
 */
export async function setDenSetting(api: DenApi, name: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration('den');
  const changes = !isDeepStrictEqual(config.inspect(name)?.globalValue, value);
  const before = api.connection.settings;
  await config.update(name, value, vscode.ConfigurationTarget.Global);
  await waitFor(`den.${name} to reach Den`, () => {
    const s = api.connection.settings;
    if (changes && s === before) return false;
    if (name === 'baseUrl') return value ? s.baseUrl === String(value).replace(/\/+$/, '') : !s.baseUrl;
    if (name === 'sessionsPageSize') return s.pageSize === (value ?? 50);
    return true;
  });
}

/** Den's key in SecretStorage (src/editor/platform/key-store.ts). */
const SECRET_ID = 'den.apiKey';

/**
 * Runs a change that writes or deletes Den's key in SecretStorage (Set API Key, Sign Out, `clear`)
 * and waits until Den has read back its own write: SecretStorage reports it to every listener a
 * little later, and Den's key store then reloads the key (and refreshes the tree when the key in use
 * changed meanwhile). Waiting for that report, and for the reload it starts, keeps that late
 * refresh out of the next step. Only for changes that do reach SecretStorage: others get no report.
 */
export async function settleKeyChange<T>(api: DenApi, change: () => PromiseLike<T>): Promise<T> {
  const keys = api.keys as unknown as { secrets?: vscode.SecretStorage; load: () => Promise<void> };
  const secrets = keys.secrets;
  if (!secrets) throw new Error('the key store keeps no SecretStorage in `secrets`: update settleKeyChange');
  let reported = false;
  const reloads: Promise<void>[] = [];
  const load = keys.load;
  // Den's listener was added at activation, so it runs before this one and has called `load` by then.
  keys.load = function (this: unknown) {
    const p = load.call(this);
    reloads.push(p);
    return p;
  };
  const sub = secrets.onDidChange((e) => {
    if (e.key === SECRET_ID) reported = true;
  });
  try {
    const result = await change();
    await waitFor('SecretStorage to report the change of the key back to Den', () => reported);
    // Den's own continuation was queued on the reload first: it has run when this one resumes.
    await Promise.allSettled(reloads);
    return result;
  } finally {
    sub.dispose();
    delete (keys as { load?: unknown }).load;
  }
}

/** Points Den at `url` and signs in with `key` for this window only (no SecretStorage, no request). */
export async function signIn(api: DenApi, url: string, key: string, pageSize?: number): Promise<void> {
  if (pageSize !== undefined) await setDenSetting(api, 'sessionsPageSize', pageSize);
  await setDenSetting(api, 'baseUrl', url);
  api.keys.useForWindow(key);
  await waitFor('state ready', () => api.connection.state.kind === 'ready');
}

/**
 * Back to a clean, unconfigured Den: no panel and no turn followed, no filter, no key, default
 * settings, no retry pending.
 */
export async function resetDen(api: DenApi): Promise<void> {
  api.panels.closeAll();
  if (api.sessions.filter) await api.sessions.setFilter(undefined);
  if (api.keys.source === 'secret-storage') await settleKeyChange(api, () => api.keys.clear());
  else if (api.keys.key) await api.keys.clear();
  await setDenSetting(api, 'sessionsPageSize', undefined);
  await setDenSetting(api, 'baseUrl', undefined);
  // The tests list the emulator's sessions, started elsewhere: All Sessions, unless a test says.
  await api.sessions.setShowAll(true);
  await api.sessions.refresh();
  await waitFor('state unconfigured', () => api.connection.state.kind === 'unconfigured');
  // Turns earlier tests ran (headless ones too) leave nothing unseen on the badge.
  api.attention.seen();
}

/** A notification Den showed while messages were captured. */
export interface ShownMessage {
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** Captured notifications; `restore` puts VS Code's functions back. */
export interface MessageCapture {
  readonly shown: ShownMessage[];
  texts(level?: ShownMessage['level']): string[];
  restore(): void;
}

type ShowFn = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Replaces `window.show{Information,Warning,Error}Message` (one API object is shared by Den and
 * these tests) with recorders that answer at once as if dismissed, so no test waits on a
 * notification or a modal dialog. Always `restore` in `afterEach`.
 */
export function captureMessages(): MessageCapture {
  const w = vscode.window as unknown as Record<string, ShowFn>;
  const names = { info: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' };
  const saved = Object.fromEntries(Object.values(names).map((n) => [n, w[n]]));
  const shown: ShownMessage[] = [];
  for (const [level, name] of Object.entries(names)) {
    w[name] = (text: string) => {
      shown.push({ level: level as ShownMessage['level'], text });
      return Promise.resolve(undefined);
    };
  }
  return {
    shown,
    texts: (level) => shown.filter((m) => !level || m.level === level).map((m) => m.text),
    restore: () => {
      for (const [name, fn] of Object.entries(saved)) w[name] = fn;
    },
  };
}

/** The context keys Den set (`setContext`) while tracked; `restore` stops tracking. */
export interface ContextTracker {
  get(key: string): unknown;
  /** Every `setContext` call while tracked, in the order Den made them. */
  history(): [key: string, value: unknown][];
  restore(): void;
}

type ExecuteFn = (command: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Records `setContext` calls (they drive the view's welcome content, which VS Code does not let
 * an extension read back) and passes every command through unchanged.
 */
export function trackContext(): ContextTracker {
  const commands = vscode.commands as unknown as { executeCommand: ExecuteFn };
  const saved = commands.executeCommand;
  const values = new Map<string, unknown>();
  const calls: [string, unknown][] = [];
  commands.executeCommand = (command, ...rest) => {
    if (command === 'setContext') {
      values.set(String(rest[0]), rest[1]);
      calls.push([String(rest[0]), rest[1]]);
    }
    return saved.call(vscode.commands, command, ...rest);
  };
  return {
    get: (key) => values.get(key),
    history: () => [...calls],
    restore: () => {
      commands.executeCommand = saved;
    },
  };
}

/** A `viewsWelcome` entry of package.json. */
export interface WelcomeEntry {
  view: string;
  contents: string;
  when: string;
}

/**
 * Den's package.json with its `%key%` strings resolved from package.nls.json, as VS Code shows them
 * in English.
 */
export function denManifest<T>(): T {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const nls = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.nls.json'), 'utf8')) as Record<
    string,
    string
  >;
  return JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8'), (_key, value) => {
    const m = typeof value === 'string' ? /^%([^%]+)%$/.exec(value) : null;
    return m ? nls[m[1]] : value;
  }) as T;
}

/** The Sessions view's welcome entries, as package.json contributes them. */
export function sessionsWelcomes(): WelcomeEntry[] {
  const manifest = denManifest<{ contributes: { viewsWelcome: WelcomeEntry[] } }>();
  return manifest.contributes.viewsWelcome.filter((w) => w.view === 'den.sessions');
}

/**
 * Whether a `when` clause holds for these context values, as VS Code reads the forms Den uses:
 * keys, `!key`, `&&` and `||` (an unset key is false). Anything else throws, so a clause this
 * cannot read fails the test instead of passing it.
 */
export function whenHolds(when: string, context: ReadonlyMap<string, unknown>): boolean {
  return when.split('||').some((alt) =>
    alt.split('&&').every((raw) => {
      const term = raw.trim();
      const m = /^(!?)([A-Za-z][\w.]*)$/.exec(term);
      if (!m) throw new Error(`whenHolds cannot read "${term}" in "${when}"`);
      return m[1] ? !context.get(m[2]) : !!context.get(m[2]);
    }),
  );
}

/**
 * The Sessions TreeView Den created (its `message` and `description`). The provider keeps it in a
 * private field; reading it here keeps that knowledge in one place.
 */
export function sessionsView(api: DenApi): vscode.TreeView<SessionNode> {
  const view = (api.sessions as unknown as { view?: vscode.TreeView<SessionNode> }).view;
  if (!view) throw new Error('the Sessions provider has no TreeView attached');
  return view;
}

/** A node with the TreeItem Den renders for it. */
export interface Row {
  node: SessionNode;
  item: vscode.TreeItem;
}

/**
 * The children of `node` as the view would render them. Without `node`: the root with its groups
 * (Pinned, Today, …, Archived) expanded in place, so the rows read as the list of sessions they
 * group, followed by "Load more"; `groupedRows` keeps the groups.
 */
export async function rows(api: DenApi, node?: SessionNode): Promise<Row[]> {
  const out: Row[] = [];
  for (const r of await childRows(api, node)) {
    if (!node && r.node.kind === 'day') out.push(...(await childRows(api, r.node)));
    else out.push(r);
  }
  return out;
}

async function childRows(api: DenApi, node?: SessionNode): Promise<Row[]> {
  const nodes = (await api.sessions.getChildren(node)) ?? [];
  return nodes.map((n) => ({ node: n, item: api.sessions.getTreeItem(n) as vscode.TreeItem }));
}

/** The root's groups as `[label, session titles]`, in order. */
export async function groupedRows(api: DenApi): Promise<[string, string[]][]> {
  const out: [string, string[]][] = [];
  for (const g of await childRows(api)) {
    if (g.node.kind !== 'day') continue;
    out.push([labelOf(g.item), (await childRows(api, g.node)).map((r) => labelOf(r.item))]);
  }
  return out;
}

/** Label text of a TreeItem. */
export function labelOf(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Session ids of root rows, in order. */
export function sessionIds(list: Row[]): string[] {
  return list.flatMap((r) => (r.node.kind === 'session' ? [r.node.sessionId] : []));
}

/** A direct request to the emulator, bypassing Den. */
export async function emuFetch(
  emu: Emulator,
  path: string,
  init: RequestInit = {},
  key: string = emu.keys.primary,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Every session of the primary user on the emulator (deleted ones excluded). */
export async function serverSessions(
  emu: Emulator,
  search?: string,
): Promise<{ sessionId: string; title: string; isPinned: boolean }[]> {
  const out: { sessionId: string; title: string; isPinned: boolean; deleted: boolean }[] = [];
  for (let page = 1; page <= 200; page++) {
    const q = `page=${page}&limit=100${search ? `&search=${encodeURIComponent(search)}` : ''}`;
    const { body } = await emuFetch(emu, `/sessions?${q}`);
    out.push(...(body.sessions as typeof out));
    if (page >= Number((body.meta as { total_pages: number }).total_pages)) break;
  }
  return out.filter((s) => !s.deleted);
}

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
 * Whether the Sessions tree has a retry of its list load scheduled. Read from the provider's private
 * timer: what the tree will do by itself, known now rather than by waiting to see whether it does.
 */
export function treeRetryPending(api: DenApi): boolean {
  const tree = api.sessions as unknown as Record<string, unknown>;
  if (!('retryTimer' in tree)) {
    throw new Error('the Sessions provider has no `retryTimer` any more: update treeRetryPending');
  }
  return tree.retryTimer !== undefined;
}

/** One call of `panels.open`. */
export interface PanelOpenCall {
  sessionId: string;
  options: { turn?: PanelTurnRequest; title?: string };
}

/** Recorded `panels.open` calls; `restore` puts the real method back. */
export interface PanelSpy {
  readonly calls: PanelOpenCall[];
  restore(): void;
}

/**
 * Records every `api.panels.open` call and passes it on to the real method. While the panel is
 * not built yet (its `open` throws "not built yet"), the spy starts the requested turn itself
 * through Den's client, as the panel does, so tests asserting on the service's side pass before
 * and after the panel exists.
 */
export function spyOnPanels(api: DenApi): PanelSpy {
  const panels = api.panels as unknown as { open: DenApi['panels']['open'] };
  const own = Object.getOwnPropertyDescriptor(panels, 'open');
  const real = panels.open.bind(api.panels);
  const calls: PanelOpenCall[] = [];
  panels.open = async (sessionId, options = {}) => {
    calls.push({ sessionId, options });
    try {
      await real(sessionId, options);
    } catch (err) {
      if (!String(err).includes('not built yet')) throw err;
      if (options.turn) await api.connection.requireClient().startTurn({ sessionId, ...options.turn });
    }
  };
  return {
    calls,
    restore: () => {
      if (own) Object.defineProperty(panels, 'open', own);
      else delete (panels as { open?: unknown }).open;
    },
  };
}

/** Reads what the Den output channel holds, through the document VS Code opens for it. */
export async function denLogText(mustContain: string): Promise<string> {
  await vscode.commands.executeCommand('den.showLog');
  try {
    return await waitFor(
      `the Den log to contain "${mustContain}"`,
      () => {
        const doc = vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'output' && /Den/.test(d.uri.path),
        );
        const text = doc?.getText();
        return text?.includes(mustContain) ? text : undefined;
      },
      { timeoutMs: 8_000, intervalMs: 100 },
    );
  } finally {
    await vscode.commands.executeCommand('workbench.action.closePanel');
  }
}
