/**
 * Line comments → the next turn (issue 24), in the real workbench: two comments on two agent files,
 * Send Feedback as one `code` turn in the feedback text shape, the agent (emulator) changing those
 * lines, the threads marked addressed; reopen and resolve; the threads back after a reload.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseFeedback } from '../../src/model/review/feedback';
import { sessionFileUri } from '../../src/editor/session-files/session-fs';
import { useApply } from './apply-helpers';
import { waitFor } from '../support/wait';

describe('Line comments and Send Feedback', function () {
  this.timeout(60_000);
  const fx = useApply();

  /** A live code turn started from this window (Den follows it), ended. */
  async function codeSession(task: string): Promise<string> {
    const sessionId = await vscode.commands.executeCommand<string>('den.newSession', task);
    assert.ok(sessionId, 'New Session started nothing');
    await waitFor(
      'the first turn to end',
      () => {
        const turns = fx.den.api.registry.host(sessionId)?.transcript.turns ?? [];
        return (
          turns.length === 1 && turns[0].status === 'completed' && !fx.den.api.registry.runningTurns().length
        );
      },
      20_000,
    );
    return sessionId;
  }

  it('sends two comments on two files as one turn, which changes those lines; the threads are addressed', async () => {
    const sessionId = await codeSession('Add omicron parser');
    const comments = fx.den.api.comments;
    const src = sessionFileUri(sessionId, 'src/add-omicron-parser.ts');
    const test = sessionFileUri(sessionId, 'test/add-omicron-parser.test.ts');
    const srcDoc = await vscode.workspace.openTextDocument(src);
    await vscode.window.showTextDocument(srcDoc);

    // From the keyboard: the active editor's selection (lines 8-9), the text as typed.
    const editor = vscode.window.activeTextEditor!;
    editor.selection = new vscode.Selection(7, 0, 8, 5);
    const first = await vscode.commands.executeCommand('den.commentOnSelection', {
      text: 'Plan for empty input.',
    });
    assert.ok(first, 'no thread for the selection');
    const second = await vscode.commands.executeCommand('den.commentOnSelection', {
      uri: test.toString(),
      startLine: 0,
      endLine: 0,
      text: 'Use the strict import.\nAnd name the suite after the module.',
    });
    assert.ok(second);
    assert.equal(comments.openCount(sessionId), 2);
    const [a, b] = comments.threads(sessionId);
    assert.deepEqual([a.path, a.startLine, a.endLine], ['src/add-omicron-parser.ts', 7, 8]);
    assert.deepEqual(a.quote, [srcDoc.lineAt(7).text, srcDoc.lineAt(8).text]);
    assert.equal(b.path, 'test/add-omicron-parser.test.ts');

    // Send Feedback: one code turn with both comments in the documented shape.
    const task = await vscode.commands.executeCommand<string>('den.sendFeedback', {
      sessionId,
      note: 'Nothing else.',
    });
    assert.ok(task, 'Send Feedback sent nothing');
    const parsed = parseFeedback(task);
    assert.deepEqual(
      parsed.entries.map((e) => [e.path, e.startLine, e.endLine, e.comment]),
      [
        ['src/add-omicron-parser.ts', 8, 9, 'Plan for empty input.'],
        [
          'test/add-omicron-parser.test.ts',
          1,
          1,
          'Use the strict import.\nAnd name the suite after the module.',
        ],
      ],
    );
    assert.equal(parsed.note, 'Nothing else.');
    // Sent threads are not counted again while their turn runs.
    assert.equal(comments.openCount(sessionId), 0);

    await waitFor(
      'both threads addressed',
      () => comments.threads(sessionId).every((t) => t.state === 'addressed'),
      20_000,
    );
    const turns = fx.den.api.registry.host(sessionId)!.transcript.turns;
    assert.equal(turns.length, 2);
    assert.equal(turns[1].userMessage.mode, 'code');
    assert.equal(turns[1].userMessage.text, task);
    const after = new TextDecoder().decode(await vscode.workspace.fs.readFile(src));
    assert.match(after.split('\n')[7], /\/\/ Review: Plan for empty input\.$/);
    assert.deepEqual(fx.den.messages.texts('error'), []);

    // Reopen and resolve: the person's call on any thread; a reload keeps every state.
    const threadOf = (): vscode.CommentThread => {
      const t = comments.threadOf(a.id);
      assert.ok(t, 'no comment thread shown');
      return t;
    };
    await vscode.commands.executeCommand('den.comments.reopen', threadOf());
    assert.equal(comments.threads(sessionId)[0].state, 'open');
    assert.equal(threadOf().state, vscode.CommentThreadState.Unresolved);
    assert.equal(comments.openCount(sessionId), 1);
    await vscode.commands.executeCommand('den.comments.resolve', threadOf());
    assert.equal(threadOf().state, vscode.CommentThreadState.Resolved);
    comments.reloadFromStorage();
    assert.deepEqual(
      comments.threads(sessionId).map((t) => [t.path, t.state, t.comments.length]),
      [
        ['src/add-omicron-parser.ts', 'resolved', 1],
        ['test/add-omicron-parser.test.ts', 'addressed', 1],
      ],
    );
    assert.equal(threadOf().collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);
  });

  it('takes comments on the workspace file a review showed beside the agent’s, and says when there is nothing to send', async () => {
    const { sessionId } = await fx.seeded('Add sigma parser', 'add-sigma-parser');
    const comments = fx.den.api.comments;
    const none = await vscode.commands.executeCommand('den.sendFeedback', { sessionId, note: '' });
    assert.equal(none, undefined);
    assert.ok(
      fx.den.messages.texts('info').some((m) => /no open comments/.test(m)),
      fx.den.messages.texts('info').join('\n'),
    );
    const ws = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'src/add-sigma-parser.ts');
    await vscode.workspace.fs.writeFile(ws, new TextEncoder().encode('export const mine = 1;\n'));
    // Not shown beside an agent file yet: it takes no comments.
    assert.equal(comments.targetOf(ws), undefined);
    await vscode.commands.executeCommand('den.compareWithWorkspace', sessionId, 'src/add-sigma-parser.ts');
    assert.deepEqual(comments.targetOf(ws), { sessionId, path: 'src/add-sigma-parser.ts' });
    const r = await vscode.commands.executeCommand('den.commentOnSelection', {
      uri: ws,
      startLine: 0,
      endLine: 0,
      text: 'Keep my constant.',
    });
    assert.ok(r);
    assert.deepEqual(
      comments.threads(sessionId).map((t) => [t.path, t.uri, t.quote]),
      [['src/add-sigma-parser.ts', ws.toString(), ['export const mine = 1;']]],
    );
  });
});
