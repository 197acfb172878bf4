/**
 * Issue 24, "Per-hunk accept and reject": in the review diff of an agent's file, hunks are accepted
 * into the workspace or kept out one at a time, through Apply's merge from the recorded base, each
 * undoable; the file's state follows (`partly applied · 2 of 3 hunks`). The agent is the emulator's
 * write-back (test/emulator/write-back.ts): a file with two separated TODOs sent to it comes back
 * with three separated changes (a header line on top, each TODO done).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DenTurnSnapshot } from '../../src/editor/api/types';
import type { HunkResult } from '../../src/editor/apply/hunk-actions';
import type { ReviewResult } from '../../src/editor/apply/review-changes';
import { fileStatusText } from '../../src/protocol/session-panel/file-status-text';
import { waitFor } from '../support/wait';
import { root, useApply, spyOnRecordedBases } from './apply-helpers';
import { turnThroughApi } from './den-api';
import { openPanel } from './panel-helpers';
import { withAutoSave } from './settings-helpers';
import { TWO_TODOS_SAMPLE } from '../emulator/write-back';

const MINE = TWO_TODOS_SAMPLE;
const HEADER = '// Reviewed by the agent\n';
const FIRST = ['  // TODO: first', '  // Done: first'];
const SECOND = ['  // TODO: second', '  // Done: second'];

describe('Hunk by hunk in the review diff: accept, reject, undo, the state follows', function () {
  this.timeout(60_000);
  const fx = useApply();
  let dir: string;
  let file: string;
  let rel: string;
  let recorded: string[];
  let unspy: (() => void) | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(root(), 'den-hunks-'));
    file = path.join(dir, 'src', 'three.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, MINE);
    rel = path.relative(root(), file).split(path.sep).join('/');
    fx.made.push('src/three-hunks.ts', 'test/three-hunks.test.ts');
    const spy = spyOnRecordedBases(fx.den.api.registry);
    recorded = spy.recorded;
    unspy = spy.restore;
  });

  afterEach(() => {
    unspy?.();
    unspy = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the file (its base recorded), waits for the agent, opens Compare with Workspace. */
  async function reviewed(): Promise<{ sessionId: string; agent: vscode.Uri }> {
    const ref = await agentTurn();
    await vscode.commands.executeCommand('den.compareWithWorkspace', ref.sessionId, rel);
    const diff = await waitFor(
      'the review diff',
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'den-session' && input;
      },
      10_000,
    );
    assert.equal(diff.original.fsPath, file);
    return { sessionId: ref.sessionId, agent: diff.modified };
  }

  /** Sends the file (its base recorded) and waits for the agent's turn to end. */
  async function agentTurn(): Promise<DenTurnSnapshot> {
    const { ended } = await turnThroughApi({
      task: 'Three hunks',
      mode: 'code',
      files: [vscode.Uri.file(file)],
    });
    assert.equal(ended.status, 'completed');
    await waitFor(`the base of ${rel}`, () => recorded.includes(rel) || undefined, 5_000);
    return ended;
  }

  /** The review's agent side, once it is the active editor. */
  const agentSideFocused = (agent: vscode.Uri): Promise<vscode.TextEditor> =>
    waitFor(
      'the agent side focused',
      () => {
        const e = vscode.window.activeTextEditor;
        return e?.document.uri.toString() === agent.toString() && e;
      },
      5_000,
    );
  const lensTitles = async (uri: vscode.Uri): Promise<string[]> =>
    (
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []
    ).map((l) => l.command?.title ?? '');
  const disk = (): string => fs.readFileSync(file, 'utf8');
  /** The disk holds `text` (the save after the edit lands a moment later under load, as for Apply). */
  const onDisk = (text: string): Promise<unknown> =>
    waitFor('the file on disk', () => disk() === text || undefined, 5_000).catch(() => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      assert.equal(
        disk(),
        text,
        `its document: ${doc ? `dirty=${doc.isDirty} ${JSON.stringify(doc.getText())}` : 'none'}`,
      );
    });

  it('accepts two hunks (one from a lens, one at the cursor), rejects one, undoes one; the panel says partly applied', async () => {
    const { sessionId, agent } = await reviewed();
    // The diff editor shows no CodeLens by default (`diffEditor.codeLens`): the commands are the way in.
    assert.equal(vscode.workspace.getConfiguration('diffEditor').get('codeLens'), false);
    const first = await waitFor(
      'the hunks’ lenses',
      async () => {
        const t = await lensTitles(agent);
        return t.includes('Hunk 3') && t;
      },
      10_000,
    );
    assert.ok(first.includes('0 of 3 hunks applied'), first.join(' | '));
    assert.equal(first.filter((t) => t === 'Accept Hunk').length, 3, first.join(' | '));
    // The message of the third hunk's accept is answered with Undo once the test clicks it.
    const w = vscode.window as unknown as Record<string, unknown>;
    const shown = w.showInformationMessage as (...a: unknown[]) => Thenable<string | undefined>;
    let clickUndo: (() => void) | undefined;
    w.showInformationMessage = (text: string, ...rest: unknown[]) =>
      /hunk 3/.test(text) && rest.includes('Undo')
        ? new Promise<string>((resolve) => (clickUndo = () => resolve('Undo')))
        : shown(text, ...rest);
    try {
      await acceptRejectUndo(sessionId, agent, () => clickUndo);
    } finally {
      w.showInformationMessage = shown;
    }
  });

  async function acceptRejectUndo(
    sessionId: string,
    agent: vscode.Uri,
    undo: () => (() => void) | undefined,
  ) {
    // 1. The header, as the lens's command runs it.
    const one = await vscode.commands.executeCommand<HunkResult>('den.acceptHunk', agent, 0);
    assert.equal(one?.done, 'accepted', one?.message);
    assert.deepEqual(one.counts, { applied: 1, total: 3 });
    await onDisk(HEADER + MINE);

    // 2. The third hunk, at the cursor of the diff's agent side (the palette's / the key's way).
    const editor = await agentSideFocused(agent);
    const line = editor.document.getText().split('\n').indexOf(SECOND[1]);
    editor.selection = new vscode.Selection(line, 4, line, 4);
    const three = await vscode.commands.executeCommand<HunkResult>('den.acceptHunk');
    assert.equal(three?.done, 'accepted', three?.message);
    assert.deepEqual(three.hunks, [2]);
    await onDisk(HEADER + MINE.replace(SECOND[0], SECOND[1]));
    const panel = await openPanel(fx.den.api, sessionId);
    const stateOf = () => panel.host.view.initBody().fileStatus?.find((f) => f.path === rel);
    const partly = await waitFor(
      'partly applied in the panel',
      () => stateOf()?.hunks?.applied === 2 && stateOf(),
      20_000,
    ).catch(() => assert.fail(JSON.stringify(panel.host.view.initBody().fileStatus)));
    assert.equal(fileStatusText(partly), 'partly applied · 2 of 3 hunks');

    // 3. Reject the first TODO's hunk at the cursor of the diff's workspace side, as the title bar's
    // `…` menu runs it (the resource, then an editor context): nothing is written, its lens says so.
    // (the panel took the focus: back to the review first)
    await vscode.commands.executeCommand('den.compareWithWorkspace', sessionId, rel);
    await waitFor(
      'the agent side focused again',
      () => vscode.window.activeTextEditor?.document.uri.scheme === 'den-session',
      5_000,
    );
    await vscode.commands.executeCommand('workbench.action.compareEditor.focusOtherSide');
    const left = await waitFor(
      'the workspace side focused',
      () => vscode.window.activeTextEditor?.document.uri.fsPath === file && vscode.window.activeTextEditor,
      5_000,
    );
    const todo = left.document.getText().split('\n').indexOf(FIRST[0]);
    left.selection = new vscode.Selection(todo, 2, todo, 2);
    const two = await vscode.commands.executeCommand<HunkResult>('den.rejectHunk', agent, { groupId: 0 });
    assert.equal(two?.done, 'rejected', two?.message);
    assert.deepEqual(two.hunks, [1]);
    assert.equal(disk(), HEADER + MINE.replace(SECOND[0], SECOND[1]));
    assert.ok((await lensTitles(agent)).includes('Hunk 2: kept out'));

    // 4. Undo the third hunk's accept, from its message.
    const clickUndo = undo();
    assert.ok(clickUndo, 'no Undo offered after the third hunk');
    clickUndo();
    const undone = await three.undone;
    assert.ok(undone && undone !== 'unmarked', JSON.stringify(undone));
    assert.deepEqual(undone.undone, [rel]);
    await onDisk(HEADER + MINE);
    const after = await waitFor(
      'the panel’s state after Undo',
      () => stateOf()?.hunks?.applied === 1 && stateOf(),
      20_000,
    );
    assert.equal(fileStatusText(after), 'partly applied · 1 of 3 hunks');
    assert.deepEqual(fx.den.messages.texts('error'), []);
  }

  it('an editor with unsaved changes is edited in memory (the disk untouched) and its own Undo takes the hunk back', async () => {
    // code-server is VS Code for the web, whose `files.autoSave` is `afterDelay` (1 s) by default:
    // it saved the person's unsaved text by itself when more than a second passed between their
    // edit and the hunk's (seen under load). This test is about what Den does to unsaved text, so
    // it runs with the desktop's default, as most people have it (the ext tier's default too).
    await withAutoSave('off', unsavedEditedInMemory);
  });

  async function unsavedEditedInMemory() {
    assert.equal(vscode.workspace.getConfiguration('files').get('autoSave'), 'off');
    const { agent } = await reviewed();
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const mine = new vscode.WorkspaceEdit();
    mine.replace(doc.uri, new vscode.Range(6, 0, 6, doc.lineAt(6).text.length), '  return 22;');
    assert.ok(await vscode.workspace.applyEdit(mine));
    assert.ok(doc.isDirty);
    fx.answer(() => undefined);

    const all = await vscode.commands.executeCommand<HunkResult>('den.acceptAllHunks', agent);

    assert.equal(all?.done, 'accepted', all?.message);
    assert.deepEqual(all.counts, { applied: 3, total: 3 });
    const merged =
      HEADER +
      MINE.replace(FIRST[0], FIRST[1]).replace(SECOND[0], SECOND[1]).replace('return 2;', 'return 22;');
    assert.equal(doc.getText(), merged);
    assert.ok(doc.isDirty);
    assert.equal(disk(), MINE);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor(
      'the editor’s undo',
      () => doc.getText() === MINE.replace('return 2;', 'return 22;') || undefined,
      5_000,
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  it('hunks kept out stay kept out after a window reload (the workspace state), and go with their session', async () => {
    const { sessionId, agent } = await reviewed();
    fx.answer(() => undefined);
    const one = await vscode.commands.executeCommand<HunkResult>('den.acceptHunk', agent, 0);
    assert.equal(one?.done, 'accepted', one?.message);
    await onDisk(HEADER + MINE);
    const two = await vscode.commands.executeCommand<HunkResult>('den.rejectHunk', agent, 1);
    assert.equal(two?.done, 'rejected', two?.message);
    assert.equal(disk(), HEADER + MINE);

    // A reload: the store drops what it holds and reads the workspace state afresh, as activation does.
    const kept = fx.den.api.keptOutHunks;
    kept.reload();

    const titles = await lensTitles(agent);
    assert.ok(titles.includes('Hunk 2: kept out'), titles.join(' | '));
    assert.ok(titles.includes('1 of 3 hunks applied'), titles.join(' | '));
    assert.equal(titles.filter((t) => t === 'Reject Hunk').length, 2, titles.join(' | '));
    const panel = await openPanel(fx.den.api, sessionId);
    const stateOf = () => panel.host.view.initBody().fileStatus?.find((f) => f.path === rel);
    const partly = await waitFor('partly applied in the panel', () => stateOf()?.hunks && stateOf(), 20_000);
    assert.equal(fileStatusText(partly), 'partly applied · 1 of 3 hunks');

    // Taken in after all: no longer kept out, after a reload too.
    const taken = await vscode.commands.executeCommand<HunkResult>('den.acceptHunk', agent, 1);
    assert.equal(taken?.done, 'accepted', taken?.message);
    kept.reload();
    assert.ok(!(await lensTitles(agent)).some((t) => /kept out/.test(t)));
    // Kept out again, then the session is deleted: its marks go with it.
    await vscode.commands.executeCommand<HunkResult>('den.rejectHunk', agent, 2);
    assert.equal(kept.has(sessionId), true);
    await waitFor(
      'the session listed',
      async () => {
        await fx.den.api.sessions.getChildren();
        return fx.den.api.sessions.get(sessionId);
      },
      10_000,
    );
    await vscode.commands.executeCommand('den.deleteSession', sessionId, true);
    await waitFor('the marks forgotten', () => !kept.has(sessionId) || undefined, 10_000);
    kept.reload();
    assert.equal(kept.has(sessionId), false);
    assert.deepEqual(fx.den.messages.texts('error'), []);
  });

  it('keys pressed quickly act in order (Next Hunk twice, then Accept Hunk takes the hunk they went to); a hunk already in says so', async () => {
    const { agent } = await reviewed();
    const editor = await agentSideFocused(agent);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const run = <T>(id: string) => Promise.resolve(vscode.commands.executeCommand<T>(id));
    // Each reads the files before it acts: given at once, a command must not act on the cursor
    // before the ones given before it moved it.
    const [went1, went2, accepted] = await Promise.all([
      run<number>('den.nextHunk'),
      run<number>('den.nextHunk'),
      run<HunkResult>('den.acceptHunk'),
    ]);
    assert.deepEqual([went1, went2], [1, 2]);
    assert.equal(accepted?.done, 'accepted', accepted?.message);
    assert.deepEqual(accepted.hunks, [2]);
    await onDisk(MINE.replace(SECOND[0], SECOND[1]));

    // The cursor on a hunk already in: nothing written, and the message says why.
    const line = editor.document.getText().split('\n').indexOf(SECOND[1]);
    editor.selection = new vscode.Selection(line, 0, line, 0);
    const again = await run<HunkResult>('den.acceptHunk');
    assert.equal(again?.done, 'nothing');
    assert.match(again.message ?? '', /hunk 3 of .*three\.ts is already in the workspace/);
    assert.ok(fx.den.messages.texts('info').some((m) => /already in the workspace/.test(m)));
    assert.equal(disk(), MINE.replace(SECOND[0], SECOND[1]));
  });

  it('in Review Changes (the multi-file diff), the commands act on the focused file’s hunk at the cursor', async () => {
    const ended = await agentTurn();
    const review = await vscode.commands.executeCommand<ReviewResult>(
      'den.reviewTurn',
      ended.sessionId,
      ended.agentMessageId,
    );
    assert.equal(review?.opened, 'changes');
    assert.ok(review.pairs.length > 1, JSON.stringify(review.pairs));
    await waitFor(
      'the multi-file diff',
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.label.startsWith(review.title ?? '?'),
      10_000,
    );
    // VS Code reports the focused embedded editor as the active text editor (no view column), with
    // the agent's `den-session:` URI on its right side; its own Go to Next Change moves the focus.
    const isAgentSide = (e: vscode.TextEditor | undefined): e is vscode.TextEditor =>
      e?.document.uri.scheme === 'den-session' && e.document.uri.path === vscode.Uri.file(file).path;
    let editor = vscode.window.activeTextEditor;
    for (let i = 0; i < 2 * review.pairs.length + 2 && !isAgentSide(editor); i++) {
      await vscode.commands.executeCommand('multiDiffEditor.goToNextChange');
      editor = vscode.window.activeTextEditor;
    }
    assert.ok(isAgentSide(editor), `focused: ${editor?.document.uri.toString()}`);
    assert.equal(editor.viewColumn, undefined);
    await waitFor('den.hunkReview on', () => fx.den.api.hunkActions.reviewFocused, 5_000);

    const line = editor.document.getText().split('\n').indexOf(SECOND[1]);
    editor.selection = new vscode.Selection(line, 4, line, 4);
    fx.answer(() => undefined);
    // As the palette and the key run it, then as the multi-file diff's title bar does (its own URI).
    const three = await vscode.commands.executeCommand<HunkResult>('den.acceptHunk');
    assert.equal(three?.done, 'accepted', three?.message);
    assert.deepEqual(three.hunks, [2]);
    await onDisk(MINE.replace(SECOND[0], SECOND[1]));
    const header = await vscode.commands.executeCommand<number>('den.previousHunk');
    assert.equal(header, 1);
    const kept = await vscode.commands.executeCommand<HunkResult>(
      'den.rejectHunk',
      vscode.Uri.parse('multi-diff-source:/den-review'),
    );
    assert.equal(kept?.done, 'rejected', kept?.message);
    assert.deepEqual(kept.hunks, [1]);
    assert.equal(disk(), MINE.replace(SECOND[0], SECOND[1]));

    // An editor that is no review's focused: the key is off.
    const other = await vscode.workspace.openTextDocument({ content: 'not a review\n' });
    await vscode.window.showTextDocument(other, { viewColumn: vscode.ViewColumn.Beside });
    await waitFor('den.hunkReview off', () => !fx.den.api.hunkActions.reviewFocused, 5_000);
    assert.deepEqual(fx.den.messages.texts('error'), []);
  });
});
