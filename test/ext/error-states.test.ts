import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../support/wait';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { captureMessages } from './message-helpers';
import { startCountingProxy } from './network-helpers';
import { resetDen, signIn } from './sign-in-helpers';
import { labelOf, rows, sessionIds, sessionsView, treeRetryPending } from './tree-helpers';

/** How long the tree may take to recover by itself after the service is back (first retry ≈ 2 s). */
const RECOVERY_BUDGET_MS = 15_000;

describe('Error states', () => {
  const den = useDen({ signIn: false, trackContext: true });

  /** The view shows its welcome content for this error: no message above it, and the right keys. */
  function assertWelcome(keys: { authError: boolean; offline: boolean }): void {
    assert.equal(sessionsView(den.api).message, undefined, 'a view message hides the welcome content');
    assert.equal(den.context.get('den.signedIn'), true);
    assert.equal(den.context.get('den.authError'), keys.authError);
    assert.equal(den.context.get('den.offline'), keys.offline);
  }

  it('401 for an unknown key: state unauthorized, empty tree, the "key rejected" welcome, no retry', async () => {
    const proxy = await startCountingProxy(den.emu.url);
    try {
      await signIn(den.api, proxy.url, 'sk_live_revokedKeyNoLongerValid0001');
      assert.deepEqual(await den.api.sessions.getChildren(), []);
      const state = den.api.connection.state;
      assert.equal(state.kind, 'error');
      assert.equal(state.kind === 'error' && state.error.code, 'unauthorized');
      assertWelcome({ authError: true, offline: false });
      assert.equal(den.api.status.text, '$(warning) Den: Key Rejected');
      // A rejected key is not retried: the one request was the load, and no retry is scheduled.
      assert.deepEqual(
        proxy.requests.map((r) => r.replace(/\?.*/, '')),
        ['GET /sessions'],
      );
      assert.equal(treeRetryPending(den.api), false, 'a retry of the rejected key is scheduled');
    } finally {
      await resetDen(den.api);
      await proxy.close();
    }
  });

  it('401 for a key the service stops accepting turns a loaded tree into the unauthorized state on refresh', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    assert.ok((await rows(den.api)).length > 0);
    assert.equal(den.context.get('den.authError'), false);
    den.emu.failNext({
      path: '^/sessions$',
      status: 401,
      body: { error: 'unauthorized', message: 'Key revoked' },
    });
    await vscode.commands.executeCommand('den.refreshSessions');
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.equal(den.api.sessions.lastError?.code, 'unauthorized');
    assertWelcome({ authError: true, offline: false });
  });

  it("403 for a read-only key on rename: quotes the service's reason and changes nothing", async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.readOnly);
    const s = (await rows(den.api)).find((r) => labelOf(r.item) === 'Fix flaky upload test');
    assert.ok(s && s.node.kind === 'session');
    const id = s.node.sessionId;
    await vscode.commands.executeCommand('den.renameSession', id, 'Renamed with a read-only key');
    // The service's own reason, not a guess.
    assert.match(
      den.messages.texts().join('\n'),
      /could not rename the session: the service refused \(403\): This key is read-only\./,
    );
    const { body } = await emuFetch(den.emu, `/sessions/${id}`);
    assert.equal((body.session as { title: string }).title, 'Fix flaky upload test');
    assert.equal(den.api.sessions.get(id)?.title, 'Fix flaky upload test');
  });

  it('a failing command returns without waiting for its error notification to be dismissed', async () => {
    // The real notifications this time, watched on their way: each is open until it is dismissed.
    den.messages.restore();
    const w = vscode.window as unknown as Record<string, (...args: unknown[]) => Thenable<unknown>>;
    const names = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage'];
    const saved = new Map(names.map((n) => [n, w[n]]));
    const shown: { text: string; dismissed: boolean }[] = [];
    for (const [name, real] of saved) {
      w[name] = (...args) => {
        const note = { text: String(args[0]), dismissed: false };
        shown.push(note);
        const answer = real.apply(vscode.window, args);
        answer.then(
          () => (note.dismissed = true),
          () => (note.dismissed = true),
        );
        return answer;
      };
    }
    try {
      await signIn(den.api, den.emu.url, den.emu.keys.readOnly);
      const id = sessionIds(await rows(den.api))[0];
      let returned = false;
      const done = vscode.commands.executeCommand('den.deleteSession', id, true).then(() => {
        returned = true;
      });
      // Nothing dismisses the notification: a command waiting for that would never return.
      await waitFor('the command to return', () => returned, 10_000);
      await done;
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(shown[0].text, /could not delete the session/);
      assert.equal(shown[0].dismissed, false, 'the notification was dismissed before the command returned');
      assert.equal((await emuFetch(den.emu, `/sessions/${id}`)).status, 200);
    } finally {
      for (const [name, real] of saved) w[name] = real;
      await vscode.commands.executeCommand('notifications.clearAll');
      den.messages = captureMessages();
    }
  });

  it('404 for a session deleted behind Den’s back: expanding it removes it from the tree', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    const root = await rows(den.api);
    const s = root.find((r) => labelOf(r.item) === 'Write release notes for v2.3');
    assert.ok(s && s.node.kind === 'session');
    const id = s.node.sessionId;
    assert.equal((await emuFetch(den.emu, `/sessions/${id}`, { method: 'DELETE' })).status, 200);

    const [turns] = await rows(den.api, s.node);
    const children = await rows(den.api, turns.node);
    assert.equal(children.length, 1);
    assert.match(labelOf(children[0].item), /no longer exists/);
    assert.equal(den.api.sessions.get(id), undefined);
    const after = sessionIds(await rows(den.api));
    assert.equal(after.length, sessionIds(root).length - 1);
    assert.ok(!after.includes(id));
    assert.match(den.messages.texts('warning').join('\n'), /no longer exists/);
    // A 404 is about one session, not the connection.
    assert.notEqual(den.api.connection.state.kind, 'error');
  });

  it('429 with X-Rate-Limit-Retry-After: the tree says when it will retry', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    // Longer than the client waits out by itself, so the 429 reaches the tree.
    den.emu.failNext({
      path: '^/sessions$',
      status: 429,
      times: 5,
      headers: { 'X-Rate-Limit-Retry-After': '45' },
      body: { error: 'rate_limited', message: 'Slow down' },
    });
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.equal(den.api.sessions.lastError?.code, 'rate_limited');
    const message = sessionsView(den.api).message ?? '';
    assert.match(message, /rate limiting/);
    assert.equal(message.match(/45 s/g)?.length, 1, `says when to retry not exactly once: ${message}`);
    assert.equal(treeRetryPending(den.api), true, 'no retry is scheduled');
    assert.equal(den.api.status.text, '$(warning) Den: Error');
  });

  it('500: the tree says the service had an error, in its words (not "cannot reach"), then recovers on its own retry', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    // The client retries a GET three times itself: four failures reach the tree.
    den.emu.failNext({
      path: '^/sessions$',
      status: 500,
      times: 4,
      body: { error: 'internal', message: 'Database connection lost' },
    });
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.equal(den.api.sessions.lastError?.code, 'server');
    assert.match(den.api.sessions.lastError?.message ?? '', /Database connection lost/);
    // The service answered: no "cannot reach" welcome, but its own words and when the tree retries.
    assert.equal(den.context.get('den.offline'), false);
    assert.match(
      sessionsView(den.api).message ?? '',
      /^Den could not load sessions: the service had an error \(500\): Database connection lost\. Retrying in \d+ s\.$/,
    );
    assert.equal(den.api.status.text, '$(warning) Den: Error');
    assert.equal(treeRetryPending(den.api), true, 'no retry is scheduled');
    assert.doesNotMatch(den.api.status.tooltip, /reach/);
    assert.match(den.api.status.tooltip, /the service had an error \(500\)/);

    await waitFor(
      'the tree to reload by itself',
      () => den.api.connection.state.kind === 'connected' && den.api.sessions.sessions.length > 0,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    assert.equal(sessionsView(den.api).message, undefined);
    assert.equal(den.context.get('den.sessionsEmpty'), false);
  });

  it('a response Den cannot read: the tree says so and when it retries, and a failed Retry Now retries as soon', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    const garbage = () =>
      den.emu.failNext({ path: '^/sessions$', status: 200, body: '<html>proxy login</html>' });
    garbage();
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.equal(den.api.sessions.lastError?.code, 'protocol');
    assert.match(sessionsView(den.api).message ?? '', /cannot read.*Retrying in 2 s\.$/s);

    // Retry Now (a refresh) fails too: the backoff starts over instead of doubling.
    garbage();
    await vscode.commands.executeCommand('den.refreshSessions');
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.match(sessionsView(den.api).message ?? '', /Retrying in 2 s\.$/);

    await waitFor('the tree to reload by itself', () => den.api.connection.state.kind === 'connected', {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    assert.equal(sessionsView(den.api).message, undefined);
  });

  it('network down: the tree goes offline, then recovers by itself when the service is back on the same port', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    const before = sessionIds(await rows(den.api));
    assert.ok(before.length > 0);
    const port = Number(new URL(den.emu.url).port);
    await den.emu.close();

    await vscode.commands.executeCommand('den.refreshSessions');
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.equal(den.api.sessions.lastError?.code, 'network');
    const state = den.api.connection.state;
    assert.equal(state.kind === 'error' && state.error.code, 'network');
    assertWelcome({ authError: false, offline: true });

    let changes = 0;
    const sub = den.api.sessions.onDidChangeTreeData(() => changes++);
    const started = Date.now();
    try {
      await den.replaceEmulator({ port });
      // No refresh and no getChildren from the test: the tree's own retry must bring it back.
      await waitFor(
        'the tree to recover by itself',
        () =>
          den.api.connection.state.kind === 'connected' &&
          den.api.sessions.sessions.length > 0 &&
          changes > 0,
        { timeoutMs: RECOVERY_BUDGET_MS, intervalMs: 100 },
      );
    } finally {
      sub.dispose();
    }
    console.log(`tree recovered ${Date.now() - started} ms after the service came back`);
    assert.equal(den.context.get('den.offline'), false);
    // A new emulator has new session ids; the tree shows the new service's sessions.
    assert.equal(den.api.sessions.sessions.length, before.length);
  });
});
