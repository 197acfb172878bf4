import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator } from '../emulator';

describe('Den inside the real VS Code extension host', () => {
  it('runs in VS Code 1.139', () => {
    assert.match(vscode.version, /^1\.139\.\d+$/);
  });

  it('finds the extension den-dev.den and activates it', async () => {
    const ext = vscode.extensions.getExtension('den-dev.den');
    assert.ok(ext, 'extension den-dev.den is not loaded');
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('starts the emulator inside the extension host and it answers on 127.0.0.1', async () => {
    const emu = await startEmulator();
    try {
      assert.match(emu.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${emu.url}/sessions?limit=1`, {
        headers: { authorization: `Bearer ${emu.keys.primary}` },
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { sessions?: unknown };
      assert.ok(Array.isArray(body.sessions), 'GET /sessions has no sessions array');
    } finally {
      await emu.close();
    }
  });
});
