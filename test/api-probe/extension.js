// TEST ONLY (docs/testing.md, "The API probe"): an extension other than Den, as a person could
// install, that uses Den's public API (docs/api.md) and looks through everything it reaches from
// Den's `exports` for what it must never get: the API key, the web task passcode, the key or
// passcode stores, the connection, an authenticated client. It judges nothing itself: its command
// returns (and, with a report file, writes) what it did and what it reached, and the test that ran
// it decides. Installed beside Den by the test harnesses (`extraExtensions`), never shipped
// (.vscodeignore leaves test/ out of the .vsix).
const fs = require('node:fs');
const vscode = require('vscode');

const DEN = 'den-dev.den';
/** Where Den puts its internals for its own tests (src/extension.ts); in Production, nothing. */
const TEST_INTERNALS = Symbol.for('den-dev.den.testInternals');
const LIMITS = { objects: 20000, strings: 20000, stringLength: 1000000, followMs: 60000 };

exports.activate = function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('denApiProbe.run', async (options = {}) => {
      const report = await probe(context, options);
      const file = options.reportFile ?? process.env.DEN_API_PROBE_REPORT;
      if (file) {
        fs.writeFileSync(file, JSON.stringify(report));
        // For the end-to-end test's screenshot: what the probe saw, in words.
        void vscode.window.showInformationMessage(
          `Den API probe: ${report.exportKeys?.length ?? 0} exports, turn ${report.turn?.status ?? 'failed'}, ` +
            `test slot ${report.testChannel ? 'present' : 'absent'}, ${report.walk?.objects.length ?? 0} objects.`,
        );
      }
      return report;
    }),
  );
};

exports.deactivate = function deactivate() {};

async function probe(context, options) {
  const report = { probeMode: context.extensionMode, errors: [] };
  const ext = vscode.extensions.getExtension(DEN);
  if (!ext) return { ...report, denFound: false };
  const api = ext.isActive ? ext.exports : await ext.activate();
  report.denFound = true;
  report.exportKeys = Reflect.ownKeys(api).map(keyText);
  report.exportsFrozen = Object.isFrozen(api);
  report.testChannel = Object.prototype.hasOwnProperty.call(globalThis, TEST_INTERNALS);

  // Everything the API hands out, walked below with the exports.
  const roots = [['exports', api]];
  const events = [];
  const eventSub = api.onDidChangeSession((e) => events.push(e));
  roots.push(['onDidChangeSession()', eventSub]);
  try {
    const ref = await api.startTurn({ task: options.task ?? 'Add a slugify helper', mode: 'code' });
    roots.push(['startTurn()', ref]);
    const snapshots = [];
    const follow = await followToEnd(api, ref, snapshots);
    roots.push(['followTurn()', follow], ['followTurn snapshots', snapshots]);
    const session = await api.getSession(ref.sessionId);
    roots.push(['getSession()', session]);
    const last = snapshots.at(-1);
    report.turn = {
      sessionId: ref.sessionId,
      statuses: snapshots.map((s) => s.status),
      status: last?.status,
      answerLength: last?.answer.length ?? 0,
      sessionTurns: session.turns.length,
    };
  } catch (err) {
    report.turn = { error: String(err?.message ?? err) };
    roots.push(['turn error', err]);
  }
  if (options.webTask) {
    try {
      const result = await api.runWebTask(options.webTask);
      roots.push(['runWebTask()', result]);
      report.webTask = { status: result.status, records: result.records.length };
    } catch (err) {
      report.webTask = { error: String(err?.message ?? err) };
      roots.push(['runWebTask error', err]);
    }
  }
  // Errors the API throws at a caller: they must not carry what the walk looks for either.
  const provoke = {
    'startTurn(empty task)': () => api.startTurn({ task: ' ' }),
    'getSession(unknown)': () => api.getSession('00000000-0000-4000-8000-000000000000'),
    'stopTurn(unknown)': () => api.stopTurn('00000000-0000-4000-8000-000000000000'),
    'answerTurn(unknown)': () =>
      api.answerTurn(
        { sessionId: '00000000-0000-4000-8000-000000000000', agentMessageId: 'nope' },
        { kind: 'approve' },
      ),
    'runWebTask(invalid)': () => api.runWebTask({ appUrl: 'not a url', query: '', schema: {} }),
  };
  for (const [name, call] of Object.entries(provoke)) {
    try {
      roots.push([`${name} result`, await call()]);
    } catch (err) {
      report.errors.push(`${name}: ${String(err?.message ?? err)}`);
      roots.push([`${name} error`, err]);
    }
  }
  report.events = events.map((e) => e.kind);
  roots.push(['onDidChangeSession events', events]);
  eventSub.dispose();
  report.walk = walk(roots);
  return report;
}

/** Follows the turn through the API until a snapshot has a terminal status (bounded). */
function followToEnd(api, ref, snapshots) {
  return new Promise((resolve, reject) => {
    let sub;
    const timer = setTimeout(() => {
      sub?.dispose();
      reject(new Error(`the turn did not end within ${LIMITS.followMs} ms`));
    }, LIMITS.followMs);
    sub = api.followTurn(ref, (s) => {
      snapshots.push(s);
      if (s.status !== 'queued' && s.status !== 'running') {
        clearTimeout(timer);
        resolve(sub);
      }
    });
  });
}

function keyText(key) {
  return typeof key === 'symbol' ? `[${String(key)}]` : String(key);
}

/**
 * The realm's shared built-ins (and `globalThis`, `process`): any extension reaches them without
 * Den, so the walk notes reaching one and does not go through it.
 */
function sharedObjects() {
  const shared = new Map([[globalThis, 'globalThis']]);
  const names = Object.getOwnPropertyNames(globalThis).filter((n) => /^[A-Z]/.test(n) || n === 'process');
  const add = (value, name) => {
    if (value !== null && (typeof value === 'object' || typeof value === 'function') && !shared.has(value))
      shared.set(value, name);
  };
  for (const name of names) {
    let value;
    try {
      value = globalThis[name];
    } catch {
      continue;
    }
    add(value, name);
    if (typeof value === 'function') {
      add(value.prototype, `${name}.prototype`);
      add(Object.getPrototypeOf(value), `${name}.__proto__`);
    }
  }
  for (const fn of [function* () {}, async function () {}, async function* () {}]) {
    add(Object.getPrototypeOf(fn), 'function prototype');
    add(Object.getPrototypeOf(fn.prototype ?? {}), 'generator prototype');
  }
  add(Object.getPrototypeOf([][Symbol.iterator]()), 'iterator prototype');
  add(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())), 'iterator prototype');
  return shared;
}

/**
 * Breadth first from the roots, bounded: every own property (string and symbol keys, enumerable
 * or not, getters called), every prototype, the contents of Maps, Sets and byte buffers. Returns
 * each object reached with its constructor and member names, and every string reached.
 */
function walk(roots) {
  const shared = sharedObjects();
  const seen = new Set();
  const strings = new Set();
  const objects = [];
  const sharedReached = new Set();
  const queue = roots.map(([path, value]) => ({ path, value }));
  let truncated = false;
  const addString = (s) => {
    if (strings.size < LIMITS.strings) strings.add(s.slice(0, LIMITS.stringLength));
    else truncated = true;
  };
  for (let i = 0; i < queue.length; i++) {
    const { path, value } = queue[i];
    if (typeof value === 'string') {
      addString(value);
      continue;
    }
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) continue;
    if (seen.has(value)) continue;
    if (shared.has(value)) {
      sharedReached.add(shared.get(value));
      continue;
    }
    if (seen.size >= LIMITS.objects) {
      truncated = true;
      break;
    }
    seen.add(value);
    const push = (key, child) => queue.push({ path: `${path}.${key}`, value: child });
    const members = new Set();
    // The object and its prototypes up to a shared one: names, values, getters (called on it).
    for (
      let o = value, depth = 0;
      o && !shared.has(o) && depth < 50;
      o = safe(() => Object.getPrototypeOf(o)), depth++
    ) {
      for (const key of safe(() => Reflect.ownKeys(o)) ?? []) {
        if (typeof key === 'string') addString(key);
        else if (key.description) addString(key.description);
        if (key !== 'constructor') members.add(keyText(key));
        const desc = safe(() => Object.getOwnPropertyDescriptor(o, key));
        if (!desc) continue;
        if (o === value && 'value' in desc) push(keyText(key), desc.value);
        if (desc.get)
          push(
            `${keyText(key)}(get)`,
            safe(() => desc.get.call(value)),
          );
        if (o === value && desc.get) push(`${keyText(key)}.get`, desc.get);
        if (o === value && desc.set) push(`${keyText(key)}.set`, desc.set);
      }
    }
    push(
      '__proto__',
      safe(() => Object.getPrototypeOf(value)),
    );
    if (value instanceof Map) for (const [k, v] of value) (push('<entry>', k), push('<entry>', v));
    if (value instanceof Set) for (const v of value) push('<item>', v);
    if (value instanceof ArrayBuffer) addString(Buffer.from(value).toString('latin1'));
    if (ArrayBuffer.isView(value))
      addString(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1'));
    objects.push({
      path,
      type: typeof value,
      ctor: safe(() => String(value.constructor?.name ?? '')) ?? '?',
      members: [...members],
    });
  }
  return { objects, strings: [...strings], sharedReached: [...sharedReached], truncated };
}

function safe(read) {
  try {
    return read();
  } catch {
    return undefined;
  }
}
