import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { WALKTHROUGH_STEP_KEYS } from '../../src/editor/platform/walkthrough-steps';
import { startEmulator } from '../emulator';
import { waitFor } from '../support/wait';
import { sessionsWelcomes, trackContext, whenHolds } from './context-helpers';
import { denApi, type DenApi, denManifest, EXTENSION_ID } from './den-api';
import { type ClientSpy, spyOnClient, startCountingProxy } from './network-helpers';
import { resetDen } from './sign-in-helpers';

/** test/empty-extension, installed beside Den by test/harness/ext-runner.ts. */
const EMPTY_EXTENSION_ID = 'den-test.empty-extension';

// test/ext/index.ts runs this file first: the extension is still inactive when it starts.
describe('Activation', () => {
  it('is lazy: inactive at start-up, activating and signing in make no request to a configured service and load no network code, the first request comes from the tree', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
    assert.equal(ext.isActive, false, 'Den was active before the first test');

    const emu = await startEmulator();
    const proxy = await startCountingProxy(emu.url);
    let api: DenApi | undefined;
    let client: ClientSpy | undefined;
    try {
      // Configured before activation, as on a machine where Den was set up earlier.
      await vscode.workspace
        .getConfiguration('den')
        .update('baseUrl', proxy.url, vscode.ConfigurationTarget.Global);

      const context = trackContext();
      const started = performance.now();
      api = await denApi();
      const ms = performance.now() - started;
      // The floor: an extension that does nothing (test/empty-extension), loaded and activated the
      // same way, in the same run, after Den (any first-activation cost of the host falls on Den).
      const empty = vscode.extensions.getExtension(EMPTY_EXTENSION_ID);
      assert.ok(empty, `the test harness did not install ${EMPTY_EXTENSION_ID} (test/empty-extension)`);
      assert.equal(empty.isActive, false);
      const floorStarted = performance.now();
      await empty.activate();
      const floorMs = performance.now() - floorStarted;
      // Measured, not asserted: scripts/run-ext-tests.sh prints it; docs/benchmarks.md records it.
      const metrics = process.env.DEN_METRICS_FILE;
      if (metrics) {
        fs.appendFileSync(
          metrics,
          `activate(): ${api.activationMs.toFixed(1)} ms; with loading the bundle: ${ms.toFixed(1)} ms\n` +
            `floor, an empty extension's load + activate(): ${floorMs.toFixed(1)} ms\n` +
            `Den's load + activate() over the floor: ${(ms / floorMs).toFixed(1)}x (+${(ms - floorMs).toFixed(1)} ms)\n`,
        );
      }

      assert.equal(api.connection.settings.baseUrl, proxy.url);
      await api.connection.ready;
      assert.equal(api.connection.state.kind, 'signed-out');

      // The Sessions view's welcome at every moment of start-up, as VS Code would pick it: before Den
      // set any context key (the view shows while Den activates), then after each key Den set.
      const welcomes = sessionsWelcomes();
      const needsAddress = welcomes.find((w) => /needs the address/.test(w.contents));
      const signIn = welcomes.find((w) => /^Sign in to see your sessions/.test(w.contents));
      assert.ok(needsAddress && signIn);
      const keys = new Map<string, unknown>();
      const moments = [{ after: 'nothing set yet', shown: whenHolds(needsAddress.when, keys) }];
      for (const [key, value] of context.history()) {
        keys.set(key, value);
        moments.push({ after: `${key}=${String(value)}`, shown: whenHolds(needsAddress.when, keys) });
      }
      assert.deepEqual(
        moments.filter((m) => m.shown),
        [],
        'the "needs the address of your service" welcome flashed while den.baseUrl was set',
      );
      // Once settled: signed out, so the sign-in welcome.
      assert.equal(whenHolds(signIn.when, keys), true);

      // Without a key Den has no client, so activation cannot have asked for anything.
      assert.equal(api.connection.client, undefined);
      assert.deepEqual(proxy.requests, [], 'activation made a request by itself');
      // Nor loaded the network code (undici, ws): dist/net.js comes with the first request.
      const netFile = path.join(ext.extensionPath, 'dist', 'net.js');
      assert.ok(fs.existsSync(netFile), `${netFile} was not built`);
      assert.equal(require.cache[netFile], undefined, 'activation loaded dist/net.js');

      client = spyOnClient(api);
      api.keys.useForWindow(emu.keys.primary);
      await waitFor('state ready', () => api?.connection.state.kind === 'ready');
      // The key's change event (and the tree's refresh with it) ran before the state read ready: a
      // request asked for then would be in `client.calls` already.
      assert.deepEqual(client.calls, [], 'signing in asked for a request by itself');
      assert.deepEqual(proxy.requests, [], 'signing in made a request by itself');
      assert.equal(require.cache[netFile], undefined, 'signing in loaded dist/net.js');

      const childrenStarted = performance.now();
      const children = await api.sessions.getChildren();
      if (metrics) {
        // The first request of the window: it loads the network code too (measured, not asserted).
        const first = (performance.now() - childrenStarted).toFixed(1);
        fs.appendFileSync(metrics, `the tree's first children (the window's first request): ${first} ms\n`);
      }
      assert.ok(children && children.length > 0, 'the tree shows no sessions');
      assert.equal(client.calls[0], 'listSessions');
      assert.ok(proxy.requests.length >= 1);
      assert.match(proxy.requests[0], /^GET \/sessions\?/);
      assert.ok(require.cache[netFile], 'the first request did not load dist/net.js');
      assert.equal(api.connection.state.kind, 'connected');

      // And without a URL the welcome does show.
      await vscode.workspace
        .getConfiguration('den')
        .update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await waitFor('state unconfigured', () => api?.connection.state.kind === 'unconfigured');
      context.restore();
      for (const [key, value] of context.history()) keys.set(key, value);
      assert.equal(whenHolds(needsAddress.when, keys), true, 'no "needs the address" welcome without a URL');
    } finally {
      client?.restore();
      if (api) await resetDen(api);
      else {
        await vscode.workspace
          .getConfiguration('den')
          .update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      }
      await proxy.close();
      await emu.close();
    }
  });

  it('registers every command contributed in package.json', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const manifest = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 12, `only ${contributed.length} commands contributed`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('contributes a walkthrough whose steps finish on things Den does, opened by Den: Get Started', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    type Step = { id: string; description: string; media: { markdown: string }; completionEvents: string[] };
    const manifest = denManifest<{
      contributes: {
        walkthroughs: { id: string; steps: Step[] }[];
        configuration: { properties: Record<string, unknown> };
      };
    }>();
    const [walkthrough] = manifest.contributes.walkthroughs;
    assert.equal(walkthrough.id, 'gettingStarted');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['service', 'key', 'task', 'attach', 'apply'],
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    // the contexts Den sets (src/editor/platform/connection.ts; den.walkthroughOpen: Get Started;
    // a step's work done anywhere: src/editor/platform/walkthrough-steps.ts)
    const contexts = new Set<string>([
      'den.configured',
      'den.signedIn',
      'den.walkthroughOpen',
      ...Object.values(WALKTHROUGH_STEP_KEYS),
    ]);
    for (const step of walkthrough.steps) {
      assert.ok(fs.existsSync(path.join(ext.extensionPath, step.media.markdown)), step.media.markdown);
      for (const link of step.description.matchAll(/\(command:([\w.]+)\)/g))
        assert.ok(registered.has(link[1]), `${step.id} links to ${link[1]}, which is not a command`);
      assert.ok(step.completionEvents.length > 0, step.id);
      for (const event of step.completionEvents) {
        const [kind, what] = event.split(':');
        if (kind === 'onCommand') assert.ok(registered.has(what), `${step.id}: ${event}`);
        else if (kind === 'onContext')
          for (const key of what.split(' && ')) assert.ok(contexts.has(key), `${step.id}: ${event}`);
        else if (kind === 'onSettingChanged')
          assert.ok(what in manifest.contributes.configuration.properties, `${step.id}: ${event}`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('den.getStarted');
    const label = await waitFor(
      'the walkthrough tab',
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.label,
      { until: (l) => l !== undefined },
    );
    assert.match(label ?? '', /Get Started with Den|Walkthrough|Welcome/, label);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
