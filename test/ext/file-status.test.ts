import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply } from './apply-helpers';
import { openPanel } from './panel-helpers';
import { labelOf, type Row, rows } from './tree-helpers';

describe('File states against the workspace', function () {
  this.timeout(60_000);
  const fx = useApply();

  /** The Files group's rows of a session, as the view lists and draws them. */
  async function fileRows(sessionId: string): Promise<Row[]> {
    const session = (await rows(fx.den.api)).find(
      (r) => r.node.kind === 'session' && r.node.sessionId === sessionId,
    );
    assert.ok(session, 'the seeded session is not in the tree');
    const groups = await rows(fx.den.api, session.node);
    return rows(fx.den.api, groups[1].node);
  }

  /** Each file row's label and description, drawn anew, once `done` accepts them. */
  function descriptions(list: Row[], done: (d: Record<string, string>) => boolean) {
    const read = (): Record<string, string> =>
      Object.fromEntries(
        list.map((r) => {
          const item = fx.den.api.sessions.getTreeItem(r.node);
          return [labelOf(item), String(item.description ?? '')];
        }),
      );
    return waitFor('the file rows’ states', read, { until: done, timeoutMs: 20_000 });
  }

  it('shows each file as new, modified or identical against the workspace, with line counts, and follows workspace changes', async () => {
    const slug = 'add-status-parser';
    const { sessionId, bytes } = await fx.seeded('Add status parser', slug);
    const [src, test] = turnPaths(slug);
    fx.den.emu.putGeneratedFile(sessionId, `notes/${slug}.md`, 'one\ntwo\nthree\n');
    fx.made.push(`notes/${slug}.md`);
    // src: the agent's bytes (identical); test: different, no base (modified); notes: absent (new).
    for (const [p, content] of [
      [src, await bytes(src)],
      [test, Buffer.from('mine\n')],
    ] as const) {
      fs.mkdirSync(path.dirname(path.join(root(), p)), { recursive: true });
      fs.writeFileSync(path.join(root(), p), content);
    }
    const agentTest = (await bytes(test)).toString('utf8');
    const testLines = agentTest.split('\n').filter((_, k, all) => k < all.length - 1 || all[k] !== '').length;
    await fx.den.api.sessions.refresh();

    const list = await fileRows(sessionId);
    const seen = await descriptions(list, (d) =>
      Object.values(d).every((x) => /^(new|modified|identical)/.test(x)),
    );
    assert.equal(seen[`${slug}.ts`], 'identical · src');
    assert.equal(seen[`${slug}.test.ts`], `modified · +${testLines} \u22121 · test`);
    assert.equal(seen[`${slug}.md`], 'new · +3 · notes');
    const item = fx.den.api.sessions.getTreeItem(list.find((r) => labelOf(r.item) === `${slug}.md`)!.node);
    assert.match(String(item.tooltip), /Against the workspace: new, 3 lines added/);
    assert.match(item.accessibilityInformation?.label ?? '', /new, 3 lines added/);
    assert.deepEqual(
      (item.iconPath as vscode.ThemeIcon).color,
      new vscode.ThemeColor('gitDecoration.addedResourceForeground'),
    );

    // An unsaved edit counts with its text; a file written on disk is seen by the watcher.
    const doc = await vscode.workspace.openTextDocument(path.join(root(), src));
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'extra\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    fs.mkdirSync(path.join(root(), 'notes'), { recursive: true });
    fs.writeFileSync(path.join(root(), `notes/${slug}.md`), 'one\ntwo\nthree\n');
    const after = await descriptions(
      list,
      (d) => d[`${slug}.ts`].startsWith('modified') && d[`${slug}.md`].startsWith('identical'),
    );
    assert.equal(after[`${slug}.ts`], 'modified · \u22121 · src');
    assert.equal(after[`${slug}.test.ts`], seen[`${slug}.test.ts`]);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('gives the Session panel the same states, and new ones after a workspace change', async () => {
    const slug = 'add-panel-status';
    const { sessionId, bytes } = await fx.seeded('Add panel status', slug);
    const [src, test] = turnPaths(slug);
    fs.mkdirSync(path.dirname(path.join(root(), src)), { recursive: true });
    fs.writeFileSync(path.join(root(), src), await bytes(src));
    const panel = await openPanel(fx.den.api, sessionId);
    const shown = () => new Map((panel.host.view.initBody().fileStatus ?? []).map((f) => [f.path, f.state]));
    const first = await waitFor('the panel’s states', () => {
      const m = shown();
      return m.size === 2 && m;
    });
    assert.deepEqual(Object.fromEntries(first), { [src]: 'identical', [test]: 'new' });
    fs.mkdirSync(path.dirname(path.join(root(), test)), { recursive: true });
    fs.writeFileSync(path.join(root(), test), await bytes(test));
    await waitFor('the panel’s new state', () => shown().get(test) === 'identical', 20_000);
  });
});
