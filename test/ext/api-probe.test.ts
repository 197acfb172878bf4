/**
 * Den's `exports` as another installed extension gets them: the test-only probe extension
 * (test/api-probe, installed beside Den by the harness) starts and follows a turn and runs a web
 * task through the public API, then walks everything it reached from the exports. Nothing it
 * reached may be or hold the key, the passcode, or an object shaped like the key or passcode store,
 * the connection, the client or the panels (issue 22, point 1).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { denApi } from './den-api';
import { useDen } from './fixtures';

const PROBE_ID = 'den-test.api-probe';

/** What test/api-probe/extension.js reports. */
interface ProbeReport {
  probeMode: vscode.ExtensionMode;
  denFound: boolean;
  exportKeys: string[];
  exportsFrozen: boolean;
  testChannel: boolean;
  turn: {
    statuses?: string[];
    status?: string;
    answerLength?: number;
    sessionTurns?: number;
    error?: string;
  };
  webTask?: { status?: string; records?: number; error?: string };
  errors: string[];
  events: string[];
  walk: {
    objects: { path: string; type: string; ctor: string; members: string[] }[];
    strings: string[];
    sharedReached: string[];
    truncated: boolean;
  };
}

/** The public API's members (src/editor/api/types.ts, docs/api.md), and nothing else. */
const PUBLIC_MEMBERS = [
  'answerTurn',
  'apiVersion',
  'followTurn',
  'getSession',
  'onDidChangeSession',
  'openSession',
  'reviewChanges',
  'runWebTask',
  'startTurn',
  'stopTurn',
];

/** An object's member names as the probe lists them: its own and its prototypes', but Object's. */
function membersOf(value: object): string[] {
  const names = new Set<string>();
  for (
    let o: object | null = value;
    o && o !== Object.prototype;
    o = Object.getPrototypeOf(o) as object | null
  )
    for (const key of Reflect.ownKeys(o))
      if (key !== 'constructor') names.add(typeof key === 'symbol' ? `[${String(key)}]` : key);
  return [...names];
}

async function runProbe(options: Record<string, unknown>): Promise<ProbeReport> {
  const probe = vscode.extensions.getExtension(PROBE_ID);
  assert.ok(probe, `the test harness did not install ${PROBE_ID} (test/api-probe)`);
  await probe.activate();
  const report = await vscode.commands.executeCommand<ProbeReport>('denApiProbe.run', options);
  assert.ok(report?.denFound, 'the probe did not find Den');
  return report;
}

describe("Another extension and Den's exports", () => {
  const den = useDen();

  afterEach(async () => {
    // Den itself, not `den.api`: the fixture's own teardown has run first.
    await (await denApi()).webTasks.passcode.set('');
    await vscode.commands.executeCommand('den.clearWebTaskHistory', true);
  });

  it('starts and follows a turn and runs a web task through the public API, and reaches neither the key, the passcode, nor a store, the connection, a client or the panels', async () => {
    const key = den.emu.keys.primary;
    const passcode = `probe-passcode-${randomUUID()}`;
    await den.api.webTasks.passcode.set(passcode);
    // Den holds both, so they are there to be found.
    assert.equal(den.api.keys.key, key);
    assert.equal(den.api.webTasks.passcode.value, passcode);
    const holders: Record<string, object | undefined> = {
      'the key store': den.api.keys,
      'the passcode store': den.api.webTasks.passcode,
      'the connection': den.api.connection,
      'the authenticated client': den.api.connection.client,
      'the panels': den.api.panels,
      'the session registry': den.api.registry,
      'the web task runner': den.api.webTasks.runner,
    };

    const report = await runProbe({
      task: 'Add a slugify helper',
      webTask: {
        appUrl: 'https://shop.example.com',
        query: 'list products',
        schema: { name: 'the product name', price: 'the price in USD' },
        maxCount: 2,
      },
    });

    // An installed extension, not the one under test.
    assert.equal(report.probeMode, vscode.ExtensionMode.Production);
    // Den runs here as the extension under test, so its test slot is filled and the probe sees it:
    // the end-to-end test's "absent in Production" is a real check (test/e2e/api-probe.test.ts).
    assert.equal(report.testChannel, true);
    // It can use the API: a turn followed to its end, a web task run with the person's passcode.
    assert.equal(report.turn.status, 'completed', JSON.stringify(report.turn));
    assert.ok((report.turn.answerLength ?? 0) > 0, 'the probe saw the answer');
    assert.equal(report.turn.sessionTurns, 1);
    assert.ok(report.events.includes('completed'), JSON.stringify(report.events));
    assert.equal(report.webTask?.status, 'DONE', JSON.stringify(report.webTask));
    assert.equal(den.emu.lamRequests().at(-1)?.service_passcode, passcode);
    assert.equal(report.errors.length, 3, report.errors.join('\n'));

    // Nothing reached is, or contains, the key or the passcode.
    assert.ok(report.walk.objects.length > PUBLIC_MEMBERS.length, 'the walk went through the exports');
    const leaked = report.walk.strings.filter((s) => s.includes(key) || s.includes(passcode));
    assert.equal(leaked.length, 0, `the probe read the key or the passcode (${leaked.length} strings)`);
    assert.equal(report.walk.truncated, false, 'the walk hit its bounds');

    // Nothing reached has the shape of what holds them or uses them.
    for (const [name, holder] of Object.entries(holders)) {
      assert.ok(holder, `${name} is there to look for`);
      const shape = membersOf(holder);
      assert.ok(shape.length >= 4, `${name} has a shape to look for: ${shape.join(', ')}`);
      const found = report.walk.objects.filter((o) => shape.every((m) => o.members.includes(m)));
      assert.deepEqual(
        found.map((o) => o.path),
        [],
        `the probe reached ${name}`,
      );
    }

    // The exports are the public API, nothing else, and cannot be changed under Den's own chat.
    assert.deepEqual([...report.exportKeys].sort(), PUBLIC_MEMBERS);
    assert.equal(report.exportsFrozen, true);
  });
});
