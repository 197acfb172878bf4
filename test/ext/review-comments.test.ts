/**
 * Line comments → the next turn (issue 24), in the real workbench: two comments on two agent files,
 * Send Feedback as one `code` turn in the feedback text shape, the agent (emulator) changing those
 * lines, the threads marked addressed; reopen and resolve; the threads back after a reload; a
 * workspace file opened from disk after a reload takes comments for the session that changed it last.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { silentLogger } from '../../src/core/shared/log';
import { Counterparts } from '../../src/model/review/counterparts';
import { parseFeedback } from '../../src/model/review/feedback';
import { ReviewComments } from '../../src/editor/review-comments/review-comments';
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

  it('after a reload, a workspace file opened from disk takes comments for the session that changed it last', async () => {
    // Two sessions of this window write the same file (the emulator's slug drops "a").
    const older = await codeSession('Add tau parser');
    const newer = await codeSession('Add a tau parser');
    const rel = 'src/add-tau-parser.ts';
    const ws = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, rel);
    fx.made.push(rel);
    await vscode.workspace.fs.writeFile(
      ws,
      new TextEncoder().encode('export const mine = 1;\nexport const two = 2;\n'),
    );
    const comments = fx.den.api.comments;
    // Learned from the turns' snapshots, no review shown: the more recent session's file.
    assert.deepEqual(comments.targetOf(ws), { sessionId: newer, path: rel });

    // A reload: a new controller over the same workspace state, with a new index read from it.
    await comments.counterparts.flush();
    const sent: { sessionId: string; task: string }[] = [];
    const titleOf = (id: string): string | undefined => fx.den.api.registry.host(id)?.title;
    const counterparts = new Counterparts(comments.state);
    const reloaded = new ReviewComments({
      state: comments.state,
      counterparts,
      commands: false,
      read: async () => new Uint8Array(),
      send: async (sessionId, task) => void sent.push({ sessionId, task }),
      busy: () => false,
      onDidEndTurn: () => ({ dispose() {} }),
      titleOf,
      logger: silentLogger,
    });
    try {
      const doc = await vscode.workspace.openTextDocument(ws);
      await vscode.window.showTextDocument(doc);
      const source = new vscode.CancellationTokenSource();
      const ranges = await reloaded.controller.commentingRangeProvider!.provideCommentingRanges(
        doc,
        source.token,
      );
      source.dispose();
      assert.ok(Array.isArray(ranges), 'no commenting ranges for the workspace file');
      assert.deepEqual(
        ranges.map((r) => [r.start.line, r.end.line]),
        [[0, doc.lineCount - 1]],
      );
      // A file no session has takes none.
      const other = await vscode.workspace.openTextDocument({ content: 'x', language: 'plaintext' });
      assert.equal(
        await reloaded.controller.commentingRangeProvider!.provideCommentingRanges(other, source.token),
        undefined,
      );

      const record = await reloaded.commentOn({
        uri: ws,
        startLine: 1,
        endLine: 1,
        text: 'Keep my second constant.',
      });
      assert.ok(record, 'no thread on the workspace file');
      assert.deepEqual(
        [record.sessionId, record.path, record.uri, record.quote],
        [newer, rel, ws.toString(), ['export const two = 2;']],
      );
      assert.deepEqual(reloaded.threads(older), []);
      // The thread says which session it goes to.
      const label = reloaded.threadOf(record.id)?.label ?? '';
      const title = titleOf(newer);
      assert.ok(title, 'the newer session has no title');
      assert.ok(label.includes(`“${title}”`) && label.includes(rel), label);

      const task = await reloaded.sendFeedback({ sessionId: newer, note: '' });
      assert.ok(task, 'Send Feedback sent nothing');
      assert.deepEqual(
        sent.map((x) => x.sessionId),
        [newer],
      );
      assert.deepEqual(
        parseFeedback(task).entries.map((e) => [e.path, e.startLine, e.endLine, e.quote, e.comment]),
        [[rel, 2, 2, ['export const two = 2;'], 'Keep my second constant.']],
      );
    } finally {
      reloaded.dispose();
      counterparts.dispose();
    }
  });
});
