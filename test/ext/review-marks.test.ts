import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { UnreviewedResult } from '../../src/editor/apply/review-marks';
import { waitFor } from '../support/wait';
import { turnPaths, useApply } from './apply-helpers';
import { openPanel } from './panel-helpers';
import { labelOf, rows, type Row } from './tree-helpers';

describe('Reviewed marks', function () {
  this.timeout(60_000);
  const fx = useApply();

  /** The session's Turns and Files groups' rows, as the view lists them. */
  async function sessionRows(sessionId: string): Promise<{ turns: Row[]; files: Row[] }> {
    const session = (await rows(fx.den.api)).find(
      (r) => r.node.kind === 'session' && r.node.sessionId === sessionId,
    );
    assert.ok(session, 'the seeded session is not in the tree');
    const [turns, files] = await rows(fx.den.api, session.node);
    return { turns: await rows(fx.den.api, turns.node), files: await rows(fx.den.api, files.node) };
  }

  /** A row drawn anew: its description and context value. */
  function drawn(r: Row): { description: string; contextValue?: string; label: string } {
    const item = fx.den.api.sessions.getTreeItem(r.node) as vscode.TreeItem;
    return {
      description: String(item.description ?? ''),
      contextValue: item.contextValue,
      label: labelOf(item),
    };
  }

  function fileRow(list: Row[], name: string): Row {
    const row = list.find((r) => labelOf(r.item) === name);
    assert.ok(row, `no row ${name} among ${list.map((r) => labelOf(r.item)).join(', ')}`);
    return row;
  }

  it('marks a file reviewed from the tree, counts it on its turn, and a later turn that changes the file clears it', async () => {
    const slug = 'add-mark-parser';
    const { sessionId } = await fx.seeded('Add mark parser', slug);
    const [src, test] = turnPaths(slug);
    await fx.den.api.sessions.refresh();
    let { turns, files } = await sessionRows(sessionId);
    const panel = await openPanel(fx.den.api, sessionId);
    await waitFor('the history', () => panel.host.loaded);

    assert.equal(drawn(fileRow(files, `${slug}.ts`)).contextValue, 'file');
    assert.match(drawn(turns[0]).description, /0 of 2 reviewed/);
    await vscode.commands.executeCommand('den.markReviewed', fileRow(files, `${slug}.ts`).node);

    const marked = drawn(fileRow(files, `${slug}.ts`));
    assert.match(marked.description, /^reviewed · /);
    assert.equal(marked.contextValue, 'file.reviewed');
    assert.equal(drawn(fileRow(files, `${slug}.test.ts`)).contextValue, 'file');
    assert.match(drawn(turns[0]).description, /1 of 2 reviewed/);
    // The panel is told the marks (its toggles and count read them).
    await waitFor('the panel’s marks', () =>
      panel.host.view.initBody().reviewed?.some((v) => v.path === src && v.versions.length === 1),
    );
    assert.ok(!panel.host.view.initBody().reviewed?.some((v) => v.path === test));

    // The agent changes both files again in a new turn: the files' new versions are not reviewed.
    fx.den.emu.seedTurn(sessionId, 'Add mark parser again', 'code');
    await fx.den.api.sessions.refresh();
    ({ turns, files } = await sessionRows(sessionId));
    assert.equal(turns.length, 2);
    const cleared = drawn(fileRow(files, `${slug}.ts`));
    assert.doesNotMatch(cleared.description, /reviewed/);
    assert.equal(cleared.contextValue, 'file');
    assert.match(drawn(turns[1]).description, /0 of 2 reviewed/);
    // The first turn's version is still the one that was reviewed.
    assert.match(drawn(turns[0]).description, /1 of 2 reviewed/);

    // Both ways: the current version marked, then not.
    await vscode.commands.executeCommand('den.markReviewed', fileRow(files, `${slug}.ts`).node);
    assert.match(drawn(turns[1]).description, /1 of 2 reviewed/);
    await vscode.commands.executeCommand('den.markNotReviewed', fileRow(files, `${slug}.ts`).node);
    assert.match(drawn(turns[1]).description, /0 of 2 reviewed/);
    assert.equal(drawn(fileRow(files, `${slug}.ts`)).contextValue, 'file');
  });

  it('Review Unreviewed Changes opens only what is not reviewed, marks the active diff’s file from the palette, then says all are reviewed', async () => {
    const slug = 'add-unreviewed-parser';
    const { sessionId, agentMessageId } = await fx.seeded('Add unreviewed parser', slug);
    const [src, test] = turnPaths(slug);
    await fx.den.api.sessions.refresh();
    const { files } = await sessionRows(sessionId);
    await vscode.commands.executeCommand('den.markReviewed', fileRow(files, `${slug}.ts`).node);

    const first = await vscode.commands.executeCommand<UnreviewedResult>(
      'den.reviewUnreviewed',
      sessionId,
      agentMessageId,
    );

    assert.deepEqual(fx.den.messages.texts('error'), []);
    assert.equal(first?.opened, 'diff');
    assert.deepEqual(
      first.pairs.map((p) => p.relPath),
      [test],
    );
    assert.equal(first.reviewed, 1);
    assert.ok(!first.pairs.some((p) => p.relPath === src));
    // The diff is the active review: Mark as Reviewed without arguments (palette, title bar) takes its file.
    await waitFor(
      'the review diff active',
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff,
    );
    await vscode.commands.executeCommand('den.markReviewed');
    assert.match(drawn(fileRow(files, `${slug}.test.ts`)).description, /^reviewed · /);

    const second = await vscode.commands.executeCommand<UnreviewedResult>(
      'den.reviewUnreviewed',
      sessionId,
      agentMessageId,
    );

    assert.equal(second?.opened, 'none');
    assert.deepEqual(second.pairs, []);
    assert.equal(second.reviewed, 2);
    assert.ok(
      fx.den.messages
        .texts('info')
        .some(
          (t) =>
            t ===
            'Den: all of the files of “Add unreviewed parser” are marked reviewed (2); nothing is left to review.',
        ),
      fx.den.messages.texts().join(' | '),
    );
  });

  it('refuses bad arguments to den.setReviewed with a message, marking nothing', async () => {
    const { sessionId } = await fx.seeded('Add refused parser', 'add-refused-parser');

    const done = await vscode.commands.executeCommand('den.setReviewed', sessionId, 42, null, 'yes');

    assert.equal(done, false);
    assert.deepEqual(fx.den.api.reviewMarks.view(sessionId), []);
    assert.ok(
      fx.den.messages.texts('warning').some((t) => /nothing was marked/.test(t)),
      fx.den.messages.texts().join(' | '),
    );
  });
});
