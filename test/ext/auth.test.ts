import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { startEmulator } from '../emulator';
import { waitFor } from '../support/wait';
import { trackContext } from './context-helpers';
import { denLogText } from './den-api';
import { useDen } from './fixtures';
import { setDenSetting } from './settings-helpers';
import { resetDen, settleKeyChange } from './sign-in-helpers';
import { rows, sessionsView } from './tree-helpers';

describe('Sign-in and configuration', () => {
  const den = useDen({ signIn: false });

  it('without a service URL is unconfigured, shows an empty tree and a status item that offers to configure', async () => {
    const context = trackContext();
    try {
      await setDenSetting(den.api, 'baseUrl', den.emu.url);
      await setDenSetting(den.api, 'baseUrl', undefined);
      assert.equal(den.api.connection.settings.baseUrl, undefined);
      assert.equal(den.api.connection.state.kind, 'unconfigured');
      assert.deepEqual(await den.api.sessions.getChildren(), []);
      assert.equal(den.api.status.text, '$(circle-slash) Den');
      // The keys that show the "needs the address of your service" welcome.
      assert.equal(context.get('den.configured'), false);
      assert.equal(context.get('den.signedIn'), false);
    } finally {
      context.restore();
    }
  });

  it('with a URL but no key is signed out, shows an empty tree and a status item that offers to sign in', async () => {
    const context = trackContext();
    try {
      await setDenSetting(den.api, 'baseUrl', den.emu.url);
      assert.equal(den.api.connection.state.kind, 'signed-out');
      assert.deepEqual(await den.api.sessions.getChildren(), []);
      assert.equal(den.api.status.text, '$(account) Den: Sign In');
      // The keys that show the "Sign in to see your sessions" welcome.
      assert.equal(context.get('den.configured'), true);
      assert.equal(context.get('den.signedIn'), false);
    } finally {
      context.restore();
    }
  });

  it('Configure Service URL stores a valid URL without its trailing slash and rejects a non-HTTP one', async () => {
    const stored = await vscode.commands.executeCommand('den.configure', `${den.emu.url}/`);
    assert.equal(stored, den.emu.url);
    await waitFor('the new URL', () => den.api.connection.settings.baseUrl === den.emu.url);
    assert.equal(vscode.workspace.getConfiguration('den').get('baseUrl'), den.emu.url);

    const rejected = await vscode.commands.executeCommand('den.configure', 'ftp://agents.example.com');
    assert.equal(rejected, undefined);
    assert.equal(vscode.workspace.getConfiguration('den').get('baseUrl'), den.emu.url);
    assert.match(den.messages.texts('error').join('\n'), /must start with http:\/\/ or https:\/\//);
  });

  it('a workspace cannot point Den, and so the key, at another service: den.baseUrl comes from user settings only', async () => {
    await setDenSetting(den.api, 'baseUrl', den.emu.url);
    const config = () => vscode.workspace.getConfiguration('den');
    // A shared workspace file that sets it: its window-scoped setting applies, its address does not.
    const file = vscode.workspace.workspaceFile;
    assert.ok(file, 'the test window opens a .code-workspace file');
    const original = await vscode.workspace.fs.readFile(file);
    const workspace = JSON.parse(Buffer.from(original).toString('utf8')) as Record<string, unknown>;
    workspace.settings = { 'den.baseUrl': 'https://elsewhere.invalid', 'den.defaultMode': 'plan' };
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(workspace)));
    try {
      // Den has read the workspace's settings (its mode), and kept the user's address.
      await waitFor(
        'Den to read the workspace settings',
        () => den.api.connection.settings.defaultMode === 'plan',
      );
      assert.equal(config().inspect('baseUrl')?.globalValue, den.emu.url);
      assert.equal(config().inspect('baseUrl')?.workspaceValue, 'https://elsewhere.invalid');
      assert.equal(den.api.connection.settings.baseUrl, den.emu.url);
    } finally {
      await vscode.workspace.fs.writeFile(file, original);
      await waitFor('the workspace settings gone', () => den.api.connection.settings.defaultMode !== 'plan');
    }
  });

  it('Set API Key with a good key stores it in secret storage and the tree loads with it', async () => {
    await setDenSetting(den.api, 'baseUrl', den.emu.url);
    const outcome = await settleKeyChange(den.api, () =>
      vscode.commands.executeCommand('den.setApiKey', `  ${den.emu.keys.primary}  `),
    );
    assert.equal(outcome, 'stored');
    assert.equal(den.api.keys.key, den.emu.keys.primary);
    assert.equal(den.api.keys.source, 'secret-storage');
    await den.api.keys.load(); // read back from SecretStorage
    assert.equal(den.api.keys.key, den.emu.keys.primary);
    assert.equal(den.api.connection.state.kind, 'ready');

    const sessions = await rows(den.api);
    assert.ok(sessions.length >= 8, `only ${sessions.length} rows`);
    assert.equal(den.api.connection.state.kind, 'connected');
    assert.equal(den.api.status.text, '$(check) Den');
    assert.match(den.messages.texts('info').join('\n'), /signed in/i);
  });

  it('Set API Key with a key the service rejects stores nothing and says so', async () => {
    await setDenSetting(den.api, 'baseUrl', den.emu.url);
    const bad = 'sk_live_notAKeyTheServiceKnows0000';
    const outcome = await vscode.commands.executeCommand('den.setApiKey', bad);
    assert.equal(outcome, 'rejected');
    assert.equal(den.api.keys.key, undefined);
    await den.api.keys.load();
    assert.equal(den.api.keys.key, undefined);
    assert.equal(den.api.connection.state.kind, 'signed-out');
    const errors = den.messages.texts('error');
    assert.equal(errors.length, 1);
    assert.match(errors[0], /rejected this API key/);
    assert.ok(!errors[0].includes(bad));
  });

  it('Set API Key with a rejected key keeps the key already in use', async () => {
    await setDenSetting(den.api, 'baseUrl', den.emu.url);
    await settleKeyChange(den.api, () =>
      vscode.commands.executeCommand('den.setApiKey', den.emu.keys.primary),
    );
    const outcome = await vscode.commands.executeCommand('den.setApiKey', 'sk_live_wrongWrongWrong1234');
    assert.equal(outcome, 'rejected');
    assert.equal(den.api.keys.key, den.emu.keys.primary);
    assert.ok((await rows(den.api)).length >= 8);
  });

  it('Set API Key while the service is unreachable asks before saving and saves nothing when declined', async () => {
    const down = await startEmulator({ seed: false });
    const url = down.url;
    await down.close();
    await setDenSetting(den.api, 'baseUrl', url);
    const outcome = await vscode.commands.executeCommand('den.setApiKey', den.emu.keys.primary);
    assert.equal(outcome, 'cancelled');
    assert.equal(den.api.keys.key, undefined);
    assert.match(den.messages.texts('warning').join('\n'), /could not check the key.*Save it anyway\?/s);
  });

  it('Sign Out removes the key from secret storage and empties the tree', async () => {
    await setDenSetting(den.api, 'baseUrl', den.emu.url);
    await settleKeyChange(den.api, () =>
      vscode.commands.executeCommand('den.setApiKey', den.emu.keys.primary),
    );
    assert.ok((await rows(den.api)).length > 0);

    await settleKeyChange(den.api, () => vscode.commands.executeCommand('den.signOut'));
    assert.equal(den.api.keys.key, undefined);
    await den.api.keys.load();
    assert.equal(den.api.keys.key, undefined);
    assert.equal(den.api.connection.state.kind, 'signed-out');
    assert.deepEqual(await den.api.sessions.getChildren(), []);
    assert.equal(den.api.status.text, '$(account) Den: Sign In');
    assert.match(den.messages.texts('info').join('\n'), /signed out/i);
  });

  it('never shows or logs the API key, even when the service echoes it back', async () => {
    // Not of the sk_live_ form, so only redaction of the configured key itself can hide it.
    const key = `den-secret-${randomBytes(12).toString('hex')}`;
    const wrong = `den-wrong-${randomBytes(12).toString('hex')}`;
    const echo = await startEmulator({ keys: { primary: key } });
    try {
      await setDenSetting(den.api, 'baseUrl', echo.url);
      assert.equal(await vscode.commands.executeCommand('den.setApiKey', wrong), 'rejected');
      await settleKeyChange(den.api, () => vscode.commands.executeCommand('den.setApiKey', key));
      assert.equal(den.api.keys.key, key);

      echo.failNext({
        path: '^/sessions$',
        status: 500,
        times: 4,
        body: { error: 'internal', message: `token ${key} failed; header was Bearer ${key}` },
      });
      await den.api.sessions.getChildren();
      const error = den.api.sessions.lastError;
      assert.equal(error?.code, 'server');
      const shown = [
        error?.message ?? '',
        sessionsView(den.api).message ?? '',
        den.api.status.text,
        JSON.stringify(den.api.connection.state),
        ...den.messages.texts(),
      ];
      assert.match(shown.join('\n'), /failed/);
      for (const text of shown) {
        assert.ok(!text.includes(key), `the key appears in: ${text}`);
        assert.ok(!text.includes(wrong), `the wrong key appears in: ${text}`);
      }

      const log = await denLogText('Loading sessions failed');
      assert.ok(!log.includes(key), 'the key appears in the Den log');
      assert.ok(!log.includes(wrong), 'the rejected key appears in the Den log');
    } finally {
      await resetDen(den.api);
      await echo.close();
    }
  });
});
