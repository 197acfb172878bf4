/**
 * Issue 22, point 3: every way of sending a workspace file records what the agent saw of it (its
 * base), so that Apply merges the agent's version with the person's later saved edits instead of
 * offering to replace the file. Each command sends `src/total.ts`; the agent (the emulator's
 * write-back, test/emulator/write-back.ts) implements its TODO; the person then saves an edit on
 * another line; Apply Turn's Files merges cleanly and keeps it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyResult } from '../../src/editor/apply/apply-command';
import { ROUND_TRIP_SAMPLE } from '../emulator/write-back';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply, spyOnRecordedBases } from './apply-helpers';
import { turnThroughApi } from './den-api';
import { lastTurn, turnEnded } from './panel-helpers';

const TASK = 'Implement the total';
const SLUG = 'implement-total';
const MINE = ROUND_TRIP_SAMPLE.content;
const TODO = '  // TODO: add up the items';
const DONE = '  // Done: add up the items';
/** The person's saved edit after the send, away from the lines the agent changes. */
const edit = (text: string): string => text.replace('Total for', 'Sum for');

describe('Ask Agent About File / Selection / Open Editors record the base: Apply merges the saved edit', function () {
  this.timeout(60_000);
  const fx = useApply();
  let dir: string;
  let file: string;
  let rel: string;
  let recorded: string[];
  let unspy: (() => void) | undefined;

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    dir = fs.mkdtempSync(path.join(root(), 'den-sendbases-'));
    file = path.join(dir, 'src', 'total.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, MINE);
    rel = path.relative(root(), file).split(path.sep).join('/');
    fx.made.push(...turnPaths(SLUG));
    const spy = spyOnRecordedBases(fx.den.api.registry);
    recorded = spy.recorded;
    unspy = spy.restore;
  });

  afterEach(() => {
    unspy?.();
    unspy = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Waits for the command's turn to end and for the sent file's base; saves the person's edit. */
  async function sentThenEdited(sessionId: string | undefined): Promise<string> {
    assert.ok(sessionId, fx.den.messages.texts().join(' | '));
    const panel = fx.den.api.panels.panel(sessionId);
    assert.ok(panel, 'the command opened no panel');
    const turn = lastTurn(panel);
    await turnEnded(fx.den.api, turn);
    assert.equal(turn.status, 'completed');
    await edited();
    return turn.agentMessageId;
  }

  /** Waits for the sent file's base, then saves the person's edit in its editor. */
  async function edited(): Promise<void> {
    await waitFor(`the base of ${rel} to be recorded`, () => recorded.includes(rel) || undefined, 5_000);
    // A saved edit, made in the editor as a person makes it.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const we = new vscode.WorkspaceEdit();
    we.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), edit(doc.getText()));
    assert.ok(await vscode.workspace.applyEdit(we));
    assert.ok(await doc.save());
    assert.equal(fs.readFileSync(file, 'utf8'), edit(MINE));
  }

  /** Applies the turn's files, answering Apply; asserts a clean merge of `rel` keeping the edit. */
  async function appliedMerging(sessionId: string, agentMessageId: string, expected: string): Promise<void> {
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));
    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );
    assert.ok(result, fx.den.messages.texts().join(' | '));
    const modal = answers.asked.find((a) => a.modal);
    assert.ok(modal, JSON.stringify(answers.asked));
    assert.doesNotMatch(modal.detail ?? '', /Needs your confirmation|will be lost/, modal.detail);
    assert.equal(modal.buttons[0], 'Apply', JSON.stringify(modal.buttons));
    const entry = result.plan?.entries.find((e) => e.relPath === rel);
    assert.equal(entry?.action, 'merge', JSON.stringify(entry && { ...entry, newContent: undefined }));
    assert.equal(fs.readFileSync(file, 'utf8'), expected);
  }

  /** The agent's whole-file version (a header, the TODO done) merged with the saved edit. */
  const mergedWhole = edit(['// Reviewed by the agent', ...MINE.split('\n')].join('\n').replace(TODO, DONE));

  it('Ask Agent About File… records the file; Apply merges the agent’s version with the saved edit', async () => {
    const sessionId = await vscode.commands.executeCommand<string>('den.sendFileToAgent', {
      uri: vscode.Uri.file(file),
      task: TASK,
      session: 'new',
    });
    const agentMessageId = await sentThenEdited(sessionId);

    await appliedMerging(sessionId, agentMessageId, mergedWhole);
  });

  it('Ask Agent About Selection… records the selection sent; Apply puts the agent’s edit in place and keeps the saved edit', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    // Lines 2–4 (the TODO in the middle), selected as whole lines.
    editor.selection = new vscode.Selection(1, 0, 4, 0);

    const sessionId = await vscode.commands.executeCommand<string>('den.askAboutSelection', {
      task: TASK,
      session: 'new',
    });
    const agentMessageId = await sentThenEdited(sessionId);

    await appliedMerging(sessionId, agentMessageId, edit(MINE.replace(TODO, DONE)));
  });

  it('Ask Agent About Open Editors… records each open file; Apply merges the agent’s version with the saved edit', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });

    const sessionId = await vscode.commands.executeCommand<string>('den.sendOpenEditorsToAgent', {
      task: TASK,
      session: 'new',
    });
    const agentMessageId = await sentThenEdited(sessionId);

    await appliedMerging(sessionId, agentMessageId, mergedWhole);
  });

  it('the public API’s startTurn with files (as @den chat and the tools call it, no panel) records the file; Apply merges', async () => {
    const { ref, ended } = await turnThroughApi({ task: TASK, mode: 'code', files: [vscode.Uri.file(file)] });
    assert.equal(ended.status, 'completed');
    await edited();

    await appliedMerging(ref.sessionId, ref.agentMessageId, mergedWhole);
  });
});
