import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { EMPTY_WEB_TASK_FORM } from '../../src/protocol/webtask-panel/webtask-messages';
import { useDen } from './fixtures';

/**
 * Save as CSV onto a full disk, for real: the chosen file is in a 64 KB tmpfs mounted in the
 * workspace and filled to the last byte. Mounting needs root (the test machines run as root); where
 * `mount` is refused this test fails with that reason, it is never skipped.
 */
describe('Web task results saved onto a full disk', function () {
  this.timeout(60_000);
  const den = useDen();
  let mounted: string | undefined;
  const w = vscode.window as unknown as { showSaveDialog: typeof vscode.window.showSaveDialog };
  const original = w.showSaveDialog;

  afterEach(() => {
    w.showSaveDialog = original;
    if (mounted) {
      execFileSync('umount', [mounted]);
      fs.rmSync(mounted, { recursive: true, force: true });
    }
    mounted = undefined;
  });

  it('leaves no part of the file and says which file, that the disk is full and what to do', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the tests run with a workspace folder');
    const dir = path.join(folder, 'full-disk');
    fs.mkdirSync(dir, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      assert.fail(`this test needs to mount a tmpfs (run as root): ${String(err)}`);
    }
    mounted = dir;
    const fd = fs.openSync(path.join(dir, '.filler'), 'w');
    try {
      for (let i = 0; i < 64; i++) fs.writeSync(fd, Buffer.alloc(4096, 0x61));
      assert.fail('the 64 KB tmpfs took 256 KB');
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC', String(err));
    } finally {
      fs.closeSync(fd);
    }

    await vscode.commands.executeCommand('den.runWebTask');
    const panel = den.api.webTasks.panel;
    await panel.handleMessage({
      type: 'run',
      form: {
        ...EMPTY_WEB_TASK_FORM,
        appUrl: 'https://shop.example.com',
        query: 'Top products',
        schemaText: JSON.stringify({ name: 'the product name', price: 'the price in USD' }),
      },
    });
    const id = panel.shownRunId;
    assert.ok(id, 'no run is shown');
    await den.api.webTasks.runner.settled(id);
    w.showSaveDialog = async () => vscode.Uri.file(path.join(dir, 'results.csv'));

    await panel.handleMessage({ type: 'save', format: 'csv' });

    assert.deepEqual(fs.readdirSync(dir), ['.filler'], 'a part of the file was left');
    const said = den.messages.texts().join(' | ');
    assert.match(
      said,
      /Den could not do that: Could not write full-disk\/results\.csv: the disk is full \(ENOSPC\)\. Free some space on that disk, then try again\./,
    );
  });
});
