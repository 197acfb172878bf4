/**
 * The round trip a person makes: a workspace file with a TODO attached through "Attach to Den…", a
 * code turn sent from the Session panel, the agent's rewrite of that file (the emulator's
 * write-back, test/emulator/write-back.ts), then Apply Turn's Files merging it with what the person
 * did to the file meanwhile, and undo.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AttachCommandResult } from '../../src/editor/commands/attach-commands';
import type { ApplyResult } from '../../src/editor/apply/apply-command';
import type { SessionRegistryDeps } from '../../src/model/session/session-registry';
import { ROUND_TRIP_SAMPLE } from '../emulator/write-back';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply } from './apply-helpers';
import type { Asked } from './message-helpers';
import { lastTurn, openPanel, seededSession, turnEnded } from './panel-helpers';

const TASK = 'Implement the total';
const SLUG = 'implement-total';

/** The person's file, with a TODO on line 3. */
const MINE = ROUND_TRIP_SAMPLE.content;

/** What the agent makes of MINE (the emulator's write-back: a header, the TODO line done). */
const AGENTS = ['// Reviewed by the agent', ...MINE.split('\n')]
  .map((l) => (l.includes('TODO') ? '  // Done: add up the items' : l))
  .join('\n');

describe('Round trip: attach a file, the agent rewrites it, Apply merges it back', function () {
  this.timeout(60_000);
  const fx = useApply();
  let dir: string;
  let unspy: (() => void) | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(root(), 'den-roundtrip-'));
  });

  afterEach(() => {
    unspy?.();
    unspy = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Counts the bases Den records at send (`model/apply/bases.ts`), which it does after the turn starts,
   * without waiting: Apply knows the base only once the record is written.
   */
  function countRecordedBases(): { done: () => number } {
    const deps = (fx.den.api.registry as unknown as { deps: SessionRegistryDeps }).deps;
    const real = deps.recordBase;
    assert.ok(real, 'the session registry records no bases: update this test');
    let done = 0;
    deps.recordBase = async (...args) => {
      const r = await real(...args);
      done++;
      return r;
    };
    unspy = () => (deps.recordBase = real);
    return { done: () => done };
  }

  /**
   * Writes `<dir>/src/total.ts`, attaches it to a seeded session's panel through Den's attach
   * command, sends a code turn and waits until the turn ended and the base was recorded.
   */
  async function agentRewrote(): Promise<{
    sessionId: string;
    agentMessageId: string;
    file: string;
    rel: string;
  }> {
    const file = path.join(dir, 'src', 'total.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, MINE);
    const rel = path.relative(root(), file).split(path.sep).join('/');
    fx.made.push(...turnPaths(SLUG));
    const bases = countRecordedBases();
    const panel = await openPanel(
      fx.den.api,
      await seededSession(fx.den.api, 'Compare CSV parsing libraries'),
    );
    await waitFor('the history', () => panel.host.loaded);

    const attached = await vscode.commands.executeCommand<AttachCommandResult | undefined>(
      'den.attachToSession',
      { uri: vscode.Uri.file(file), session: panel.sessionId },
    );
    assert.equal(attached?.counts.uploaded, 1, fx.den.messages.texts().join(' | '));
    await panel.handleMessage({ type: 'send', text: TASK, mode: 'code', effort: 'fast' });
    const turn = lastTurn(panel);
    await turnEnded(fx.den.api, turn);
    assert.equal(turn.status, 'completed');
    await waitFor('the base of the attached file to be recorded', () => bases.done() >= 1 || undefined);
    return { sessionId: panel.sessionId, agentMessageId: turn.agentMessageId, file, rel };
  }

  async function applyTurn(sessionId: string, agentMessageId: string): Promise<ApplyResult> {
    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );
    assert.ok(result, fx.den.messages.texts().join(' | '));
    return result;
  }

  const entryOf = (result: ApplyResult, rel: string) => result.written.find((e) => e.relPath === rel);
  const modalOf = (asked: Asked[]) => asked.find((a) => a.modal);

  it('(a) with no local edit: overwrites with the agent’s version, asking nothing (the base is known)', async () => {
    const t = await agentRewrote();
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await applyTurn(t.sessionId, t.agentMessageId);

    const modal = modalOf(answers.asked);
    assert.equal(modal?.level, 'info', JSON.stringify(answers.asked));
    assert.doesNotMatch(modal?.detail ?? '', /Needs your confirmation/);
    assert.equal(entryOf(result, t.rel)?.action, 'overwrite', JSON.stringify(result.written));
    assert.equal(fs.readFileSync(t.file, 'utf8'), AGENTS);
    assert.match(fs.readFileSync(`${t.file}.notes.md`, 'utf8'), /Implemented 1 TODO \(line 3 /);
    assert.equal(result.written.length, 4, 'the attached file, its notes and the turn’s two new files');
  });

  it('(b) with a local edit on another line: merges cleanly and keeps both edits', async () => {
    const t = await agentRewrote();
    fs.writeFileSync(t.file, MINE.replace('Total for', 'Sum for'));
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await applyTurn(t.sessionId, t.agentMessageId);

    assert.equal(modalOf(answers.asked)?.level, 'info', JSON.stringify(answers.asked));
    assert.equal(entryOf(result, t.rel)?.action, 'merge', JSON.stringify(result.written));
    assert.equal(fs.readFileSync(t.file, 'utf8'), AGENTS.replace('Total for', 'Sum for'));
  });

  it('(c) with a local edit on the TODO line: offers conflict markers and writes them', async () => {
    const t = await agentRewrote();
    const mine = MINE.replace('  // TODO: add up the items', '  sum = items.reduce((a, b) => a + b, 0);');
    fs.writeFileSync(t.file, mine);
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply with Conflict Markers'));

    const result = await applyTurn(t.sessionId, t.agentMessageId);

    const modal = modalOf(answers.asked);
    assert.equal(modal?.buttons[0], 'Apply with Conflict Markers', JSON.stringify(answers.asked));
    assert.match(modal?.detail ?? '', /conflict/i);
    assert.equal(entryOf(result, t.rel)?.action, 'mergeWithConflicts', JSON.stringify(result.written));
    const text = fs.readFileSync(t.file, 'utf8');
    assert.ok(text.startsWith('// Reviewed by the agent\n'), text);
    assert.match(
      text,
      /<<<<<<< Workspace\n {2}sum = items\.reduce\(\(a, b\) => a \+ b, 0\);\n[\s\S]*=======\n {2}\/\/ Done: add up the items\n>>>>>>> Agent\n/,
    );
    assert.match(result.message ?? '', /conflict markers in .*total\.ts/);
  });

  it('(d) undo in the changed file’s editor restores the workspace text', async () => {
    const t = await agentRewrote();
    const mine = MINE.replace('  // TODO: add up the items', '  sum = items.reduce((a, b) => a + b, 0);');
    fs.writeFileSync(t.file, mine);
    fx.answer((a) => a.buttons.find((b) => b === 'Apply with Conflict Markers'));
    const result = await applyTurn(t.sessionId, t.agentMessageId);
    assert.equal(entryOf(result, t.rel)?.action, 'mergeWithConflicts');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(t.file));
    assert.match(doc.getText(), /<<<<<<< Workspace/);

    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');

    assert.equal(doc.getText(), mine);
    await waitFor(
      'the created notes file to be removed',
      () => !fs.existsSync(`${t.file}.notes.md`) || undefined,
    );
    await vscode.commands.executeCommand('workbench.action.files.save');
    assert.equal(fs.readFileSync(t.file, 'utf8'), mine);
  });

  it('(e) the result offers Open Conflicted File (it opens the file at its markers) and Undo (all back, saved)', async () => {
    const t = await agentRewrote();
    const mine = MINE.replace('  // TODO: add up the items', '  sum = items.reduce((a, b) => a + b, 0);');
    fs.writeFileSync(t.file, mine);
    const picks = ['Open Conflicted File', 'Undo'];
    const answers = fx.answer(
      (a) =>
        a.modal
          ? a.buttons.find((b) => b === 'Apply with Conflict Markers')
          : a.buttons.includes('Undo')
            ? picks.shift()
            : undefined,
      { notifications: true },
    );
    const first = await applyTurn(t.sessionId, t.agentMessageId);
    const report = answers.asked.find((a) => !a.modal && a.buttons.includes('Undo'));
    assert.deepEqual(report?.buttons, ['Undo', 'Open Conflicted File'], JSON.stringify(answers.asked));
    assert.equal(await first.undone, undefined);
    const shown = await waitFor('the conflicted file in an editor', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === t.file),
    );
    assert.match(shown.document.getText(), /<<<<<<< Workspace/);

    // A second apply's result: Undo puts the workspace text back, saved, and removes the notes file.
    // The person puts their text back in the open editor and saves (no file watcher involved).
    const back = new vscode.WorkspaceEdit();
    back.replace(
      shown.document.uri,
      new vscode.Range(
        shown.document.positionAt(0),
        shown.document.positionAt(shown.document.getText().length),
      ),
      mine,
    );
    assert.ok(await vscode.workspace.applyEdit(back));
    assert.ok(await shown.document.save());
    fs.rmSync(`${t.file}.notes.md`, { force: true });
    const second = await applyTurn(t.sessionId, t.agentMessageId);
    const r = await second.undone;
    assert.ok(r && r.undone.includes(t.rel) && r.kept.length === 0, JSON.stringify(r));
    assert.equal(shown.document.getText(), mine);
    assert.equal(shown.document.isDirty, false);
    assert.equal(fs.readFileSync(t.file, 'utf8'), mine);
    assert.ok(!fs.existsSync(`${t.file}.notes.md`), 'the created notes file is still there');
  });
});
