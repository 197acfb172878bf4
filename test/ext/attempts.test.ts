import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyResult } from '../../src/editor/apply/apply-command';
import type { AttemptNode } from '../../src/editor/attempts/attempts-tree';
import { rowDescription } from '../../src/model/attempts/attempt-rows';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply } from './apply-helpers';
import { lastTurn, turnEnded } from './panel-helpers';
import { rows } from './tree-helpers';

describe('Attempts: a task run as several sessions, compared, one applied, the others archived', function () {
  this.timeout(60_000);
  const fx = useApply();

  /** The groups live in workspaceState, which outlives a test: each test starts and ends without any. */
  const forgetAll = async (): Promise<void> => {
    const store = fx.den.api.attempts.store;
    for (const g of [...store.groups()]) await store.remove(g.id);
  };
  beforeEach(forgetAll);

  it('starts three attempts of a varied task, compares them, diffs two, applies one and archives the others', async () => {
    const { api } = fx.den;
    const slug = 'write-varied-parser';
    fx.made.push(...turnPaths(slug));
    const started = await vscode.commands.executeCommand<{ groupId: string; sessionIds: string[] }>(
      'den.newSessionAttempts',
      { task: 'Write a varied parser', attempts: 3, mode: 'code' },
    );
    assert.ok(started, fx.den.messages.texts().join(' | '));
    assert.equal(started.sessionIds.length, 3);
    assert.equal(new Set(started.sessionIds).size, 3);

    // Grouped as one task, its attempts ending with files against the workspace.
    const tree = api.attemptsTree;
    const groups = tree.getChildren();
    assert.deepEqual(groups, [{ kind: 'group', groupId: started.groupId }]);
    assert.equal(tree.getTreeItem(groups[0]).label, 'Write a varied parser');
    await waitFor(
      'the three attempts to complete with their files known',
      () => tree.rows(started.groupId).every((r) => r.state === 'completed' && r.files?.length === 2),
      { timeoutMs: 30_000 },
    ).catch(() => assert.fail(JSON.stringify(tree.rows(started.groupId))));
    const compared = tree.rows(started.groupId);
    assert.deepEqual(
      compared.map((r) => r.number),
      [1, 2, 3],
    );
    for (const r of compared) {
      assert.match(rowDescription(r), /^completed · .+ · 2 files \+\d+ \u2212\d+$/);
      assert.match(r.answer, /^Variant [ABC]: /);
      assert.deepEqual(
        r.files?.map((f) => [f.path, f.state]),
        [
          [`src/${slug}.ts`, 'new'],
          [`test/${slug}.test.ts`, 'new'],
        ],
      );
    }
    // The attempts differ: three answers, and the source files' line counts are not all the same.
    assert.equal(new Set(compared.map((r) => r.answer.split('\n')[0])).size, 3);
    assert.ok(new Set(compared.map((r) => r.added)).size > 1, JSON.stringify(compared.map((r) => r.added)));
    const [first, second, third] = started.sessionIds;
    const attemptNodes = tree.getChildren(groups[0]);
    const item = tree.getTreeItem(attemptNodes[0]);
    assert.equal(item.label, 'Attempt 1 of 3');
    assert.equal(item.contextValue, 'attempt');
    assert.match(String((item.tooltip as vscode.MarkdownString).value), /Variant/);
    assert.match(item.accessibilityInformation?.label ?? '', /Attempt 1 of 3, completed/);
    // The Sessions tree marks them.
    await waitFor('the Sessions tree to list the attempts', async () =>
      (await rows(api)).some((r) => r.node.kind === 'session' && r.node.sessionId === second),
    );
    const sessionRow = (await rows(api)).find(
      (r) => r.node.kind === 'session' && r.node.sessionId === second,
    );
    assert.match(String(sessionRow?.item.description), /attempt 2 of 3/);

    // Two attempts' source files side by side.
    const files = tree.getChildren(attemptNodes[0]);
    const src = files.find((f) => f.kind === 'file' && f.path === `src/${slug}.ts`) as AttemptNode;
    const other = await vscode.commands.executeCommand<string>('den.attempts.compareWith', src, second);
    assert.equal(other, second);
    const diff = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(diff instanceof vscode.TabInputTextDiff, 'a diff editor');
    assert.equal(diff.original.scheme, 'den-session');
    assert.ok(diff.original.toString().includes(second), diff.original.toString());
    assert.ok(diff.modified.toString().includes(first), diff.modified.toString());
    const [left, right] = await Promise.all(
      [diff.original, diff.modified].map(async (u) => (await vscode.workspace.openTextDocument(u)).getText()),
    );
    assert.notEqual(left, right);

    // Apply this attempt: its files land in the workspace, and it is the chosen one.
    fx.answer((a) => a.buttons.find((b) => b === 'Apply'));
    const applied = await vscode.commands.executeCommand<ApplyResult>('den.attempts.apply', {
      kind: 'attempt',
      groupId: started.groupId,
      sessionId: third,
    } satisfies AttemptNode);
    assert.equal(applied?.written.length, 2, fx.den.messages.texts().join(' | '));
    const written = fs.readFileSync(path.join(root(), `src/${slug}.ts`), 'utf8');
    const thirdText = (
      await vscode.workspace.openTextDocument(
        tree.getTreeItem(
          tree
            .getChildren({ kind: 'attempt', groupId: started.groupId, sessionId: third })
            .find((f) => f.kind === 'file' && f.path === `src/${slug}.ts`)!,
        ).resourceUri!,
      )
    ).getText();
    assert.equal(written, thirdText);
    assert.equal(api.attempts.store.get(started.groupId)?.chosen, third);
    const chosenFirst = tree.getChildren(groups[0]);
    assert.equal((chosenFirst[0] as { sessionId: string }).sessionId, third);
    const chosenItem = tree.getTreeItem(chosenFirst[0]);
    assert.equal(chosenItem.label, 'Attempt 3 of 3 (chosen)');
    assert.equal(chosenItem.contextValue, 'attempt.chosen');
    assert.match(String(tree.getTreeItem(groups[0]).description), /attempt 3 chosen/);

    // Archive the others: the two other sessions, not the chosen one.
    const archived = await vscode.commands.executeCommand<string[]>('den.attempts.archiveOthers', third);
    assert.deepEqual(archived, [first, second]);
    const contextOf = async (id: string) =>
      (await rows(api)).find((r) => r.node.kind === 'session' && r.node.sessionId === id)?.item;
    for (const id of [first, second])
      assert.match(String((await contextOf(id))?.contextValue), /\.archived$/);
    const chosenRow = await contextOf(third);
    assert.doesNotMatch(String(chosenRow?.contextValue), /archived/);
    assert.match(String(chosenRow?.description), /chosen attempt/);

    // Turns after the first go to the chosen attempt: Continue the Task sends the next one there.
    const continued = await vscode.commands.executeCommand<string>(
      'den.attempts.continue',
      groups[0],
      'answer in 3 events',
    );
    assert.equal(continued, third);
    await waitFor('the chosen attempt’s panel', () => api.panels.panel(third)?.visible === true);
    const chosenPanel = api.panels.panel(third)!;
    await waitFor('the follow-up turn', () => chosenPanel.transcript.turns.length === 2);
    await turnEnded(api, lastTurn(chosenPanel));
    // Closed while its service still runs: a panel left open would follow a service the reset closes.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the attempts’ hosts to be let go', () =>
      started.sessionIds.every((id) => api.registry.host(id) === undefined),
    ).catch(() =>
      assert.fail(`hosts kept: ${started.sessionIds.filter((id) => api.registry.host(id)).join(', ')}`),
    );
    await forgetAll();
  });

  it('refuses a count outside 2–4 and a blank task, starting nothing', async () => {
    for (const bad of [
      { task: 'x', attempts: 5 },
      { task: 'x', attempts: 1 },
      { task: '  ', attempts: 2 },
    ]) {
      const r = await vscode.commands.executeCommand('den.newSessionAttempts', bad);
      assert.equal(r, undefined, JSON.stringify(bad));
    }
    assert.equal(fx.den.api.attempts.store.groups().length, 0);
    assert.ok(
      fx.den.messages.texts().some((t) => /2 to 4/.test(t)),
      fx.den.messages.texts().join(' | '),
    );
  });
});
