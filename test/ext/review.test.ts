import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewResult } from '../../src/editor/apply/review-changes';
import { useApply, root } from './apply-helpers';
import { openPanel } from './panel-helpers';
import { waitFor } from '../support/wait';

function tabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

function write(rel: string, text: string): string {
  const file = path.join(root(), rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

async function text(uri: string | undefined): Promise<string> {
  assert.ok(uri, 'no side to read');
  return (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
}

describe('Review Changes and Compare with Workspace', function () {
  this.timeout(30_000);
  const fx = useApply();

  /** A session of two coding turns: the second writes the omega files and deletes src/add-kappa-parser.ts. */
  function twoTurns(second = 'Add omega parser, deleting src/add-kappa-parser.ts') {
    const sessionId = randomUUID();
    const first = fx.den.emu.seedTurn(sessionId, 'Add kappa parser', 'code');
    const later = fx.den.emu.seedTurn(sessionId, second, 'code');
    fx.made.push('src/add-kappa-parser.ts', 'src/add-omega-parser.ts', 'test/add-omega-parser.test.ts');
    return { sessionId, first: first.agentMessageId, second: later.agentMessageId };
  }

  it('opens a turn’s modified, new and deleted files in vscode.changes, each beside its workspace file', async () => {
    const { sessionId, second } = twoTurns();
    const mine = write('src/add-omega-parser.ts', 'mine\n');
    const kappa = write('src/add-kappa-parser.ts', 'old kappa\n');

    const result = await vscode.commands.executeCommand<ReviewResult>('den.reviewTurn', sessionId, second);

    assert.deepEqual(fx.den.messages.texts('error'), []);
    assert.equal(result?.opened, 'changes');
    // The turn by what it asked, as the panel heads it: no number the person sees nowhere else.
    assert.equal(
      result.title,
      'Den: Changes of “Add omega parser, deleting src/add-kappa-parser.ts” — Add kappa parser',
    );
    const byPath = new Map(result.pairs.map((p) => [p.relPath, p]));
    assert.deepEqual([...byPath.keys()].sort(), [
      'src/add-kappa-parser.ts',
      'src/add-omega-parser.ts',
      'test/add-omega-parser.test.ts',
    ]);
    // Modified: the workspace file beside the turn's version.
    const modified = byPath.get('src/add-omega-parser.ts')!;
    assert.equal(modified.original, vscode.Uri.file(mine).toString());
    assert.match(modified.modified ?? '', /^den-session:/);
    assert.match(await text(modified.modified), /Add omega parser, deleting/);
    // New: nothing on the left.
    const created = byPath.get('test/add-omega-parser.test.ts')!;
    assert.equal(created.original, undefined);
    assert.match(await text(created.modified), /add-omega-parser/);
    // Deleted by the agent: nothing on the right.
    const deleted = byPath.get('src/add-kappa-parser.ts')!;
    assert.deepEqual(deleted, {
      relPath: 'src/add-kappa-parser.ts',
      original: vscode.Uri.file(kappa).toString(),
    });
    await waitFor('the multi-file diff tab', () =>
      tabs().find((t) =>
        t.label.includes(
          'Den: Changes of “Add omega parser, deleting src/add-kappa-parser.ts” — Add kappa parser',
        ),
      ),
    );
  });

  it('shows a turn’s own version of a file a later turn changed', async () => {
    const { sessionId, first } = twoTurns('Add kappa parser again');
    write('src/add-kappa-parser.ts', 'mine\n');

    const result = await vscode.commands.executeCommand<ReviewResult>('den.reviewTurn', sessionId, first);

    const src = result?.pairs.find((p) => p.relPath === 'src/add-kappa-parser.ts');
    assert.ok(src?.modified, JSON.stringify(result));
    const uri = vscode.Uri.parse(src.modified);
    // Shown under the workspace file's path, naming the session's file and the turn's version.
    assert.equal(uri.path, vscode.Uri.file(path.join(root(), 'src/add-kappa-parser.ts')).path);
    assert.match(
      uri.query,
      new RegExp(`^session=${sessionId}&file=src%2Fadd-kappa-parser\\.ts&key=.+&updatedAt=\\d{4}-`),
    );
    const turnVersion = await text(src.modified);
    assert.match(turnVersion, /^\/\*\* Add kappa parser \*\//);
    const current = await text(uri.with({ query: uri.query.replace(/&key=.*$/, '') }).toString());
    assert.match(current, /^\/\*\* Add kappa parser again \*\//);
  });

  it('opens the turn’s version from the Session panel after a later turn changed the file', async () => {
    const { sessionId, first } = twoTurns('Add kappa parser again');
    const panel = await openPanel(fx.den.api, sessionId);
    await waitFor('the history', () => panel.host.loaded);

    await panel.handleMessage({ type: 'openFile', turnId: first, path: 'src/add-kappa-parser.ts' });

    const doc = await waitFor('the turn’s file', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.scheme === 'den-session' ? d : undefined;
    });
    assert.match(doc.uri.query, /key=/);
    assert.match(doc.getText(), /^\/\*\* Add kappa parser \*\//);
    assert.equal(panel.host.view.notice, null);
  });

  it('compares one file with its workspace file in vscode.diff', async () => {
    const { sessionId } = twoTurns();
    const mine = write('src/add-omega-parser.ts', 'mine\n');

    const result = await vscode.commands.executeCommand<ReviewResult>(
      'den.compareWithWorkspace',
      sessionId,
      'src/add-omega-parser.ts',
    );

    assert.equal(result?.opened, 'diff');
    assert.equal(result.title, 'src/add-omega-parser.ts (workspace) ↔ Den: agent');
    const diff = await waitFor('the diff editor', () =>
      tabs()
        .map((t) => t.input)
        .find((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff),
    );
    assert.equal(diff.original.fsPath, mine);
    assert.equal(diff.modified.scheme, 'den-session');
    // The agent's side is shown under the workspace file's path: a change, not a rename.
    assert.equal(diff.modified.path, vscode.Uri.file(mine).path);
    assert.equal(new URLSearchParams(diff.modified.query).get('file'), 'src/add-omega-parser.ts');
    assert.equal(diff.modified.toString(), result.pairs[0].modified);
    assert.ok(tabs().some((t) => t.label.includes('(workspace) ↔ Den: agent')));

    // From the agent file's editor (its title action passes the URI): the same pair.
    const again = await vscode.commands.executeCommand<ReviewResult>(
      'den.compareWithWorkspace',
      diff.modified,
    );
    assert.deepEqual(again?.pairs, result.pairs);
  });

  it('says there is nothing to review for a turn without files, and opens nothing', async () => {
    const sessionId = randomUUID();
    const { agentMessageId } = fx.den.emu.seedTurn(sessionId, 'answer in 30 events', 'auto');
    const before = tabs().length;

    const result = await vscode.commands.executeCommand<ReviewResult>(
      'den.reviewTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.opened, 'none');
    assert.deepEqual(result.pairs, []);
    assert.ok(
      fx.den.messages
        .texts('info')
        .some((t) => /no changes to review in the files of “answer in 30 events”/.test(t)),
      fx.den.messages.texts().join(' | '),
    );
    assert.equal(tabs().length, before);
  });

  it('names a refused path in a warning and leaves it out of a session’s review', async () => {
    const { sessionId } = await fx.seeded('Add tau parser', 'add-tau-parser');
    fx.den.emu.putGeneratedFile(sessionId, '.git/config', '[core]\n');

    const result = await vscode.commands.executeCommand<ReviewResult>('den.reviewSession', {
      kind: 'session',
      sessionId,
    });

    assert.equal(result?.opened, 'changes');
    assert.equal(result.title, 'Den: Changes of “Add tau parser”');
    assert.deepEqual(result.refused, ['.git/config']);
    assert.deepEqual(result.pairs.map((p) => p.relPath).sort(), [
      'src/add-tau-parser.ts',
      'test/add-tau-parser.test.ts',
    ]);
    assert.ok(result.pairs.every((p) => p.original === undefined && !p.modified?.includes('key=')));
    assert.ok(
      fx.den.messages.texts('warning').some((t) => t.includes('.git/config')),
      fx.den.messages.texts().join(' | '),
    );
  });
});
