import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyResult } from '../../src/editor/apply/apply-command';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply } from './apply-helpers';

/** Adds a second workspace folder (the window is a `.code-workspace`: no restart) until `remove`. */
async function addFolder(dir: string): Promise<{ folder: vscode.WorkspaceFolder; remove(): Promise<void> }> {
  const at = vscode.workspace.workspaceFolders?.length ?? 0;
  const changed = (): Promise<void> =>
    new Promise((resolve) => {
      const sub = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        sub.dispose();
        resolve();
      });
    });
  const added = changed();
  assert.ok(vscode.workspace.updateWorkspaceFolders(at, 0, { uri: vscode.Uri.file(dir), name: 'second' }));
  await added;
  const folder = vscode.workspace.workspaceFolders?.[at];
  assert.equal(folder?.name, 'second');
  return {
    folder,
    remove: async () => {
      const removed = changed();
      vscode.workspace.updateWorkspaceFolders(at, 1);
      await removed;
    },
  };
}

/** Replaces `showQuickPick`: records the items and options, picks the item `choose` names. */
function pickWith(choose: (labels: string[]) => string | undefined) {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = w.showQuickPick;
  const shown: { labels: string[]; title?: string }[] = [];
  w.showQuickPick = async (
    given: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
    options?: vscode.QuickPickOptions,
  ) => {
    const items = await given;
    const labels = items.map((i) => i.label);
    shown.push({ labels, title: options?.title });
    const label = choose(labels);
    return items.find((i) => i.label === label);
  };
  return { shown, restore: () => (w.showQuickPick = saved) };
}

describe('Apply in a multi-root workspace', function () {
  this.timeout(30_000);
  const fx = useApply();
  let second: Awaited<ReturnType<typeof addFolder>> | undefined;
  let secondDir: string;
  let picks: ReturnType<typeof pickWith> | undefined;

  beforeEach(async () => {
    secondDir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-second-'));
    second = await addFolder(secondDir);
  });

  afterEach(async () => {
    picks?.restore();
    picks = undefined;
    await second?.remove();
    second = undefined;
    fs.rmSync(secondDir, { recursive: true, force: true });
  });

  it('asks which folder, and writes only into the one picked', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add sigma parser', 'add-sigma-parser');
    picks = pickWith(() => 'second');
    fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(picks.shown.length, 1);
    assert.equal(picks.shown[0].title, 'Den: Apply to Which Folder?');
    assert.deepEqual(picks.shown[0].labels, [path.basename(root()), 'second']);
    assert.equal(result?.written.length, 2, fx.den.messages.texts().join(' | '));
    for (const p of turnPaths('add-sigma-parser')) {
      await waitFor(`${p} on disk`, () => fs.existsSync(path.join(secondDir, p)));
      assert.ok(!fs.existsSync(path.join(root(), p)), `${p} was written into the first folder`);
    }
    assert.match(fs.readFileSync(path.join(secondDir, 'src/add-sigma-parser.ts'), 'utf8'), /sigma/i);
  });

  it('writes nothing when the folder question is dismissed', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add tau parser', 'add-tau-parser');
    picks = pickWith(() => undefined);
    const answers = fx.answer(() => 'Apply');

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(picks.shown.length, 1);
    assert.deepEqual(result?.written, []);
    assert.equal(answers.asked.length, 0, 'no summary after the pick was dismissed');
    for (const p of turnPaths('add-tau-parser')) {
      assert.ok(!fs.existsSync(path.join(root(), p)));
      assert.ok(!fs.existsSync(path.join(secondDir, p)));
    }
  });
});
