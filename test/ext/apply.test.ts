import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { applyAgentFiles, type ApplyDeps, type ApplyResult } from '../../src/editor/apply/apply-command';
import type { ApplyPreviews } from '../../src/editor/apply/apply-review';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply } from './apply-helpers';
import { withAutoSave } from './settings-helpers';

describe('Apply the agent’s files', function () {
  this.timeout(30_000);
  const fx = useApply();

  it('applies one file into an empty folder: the file appears with the agent’s bytes', async () => {
    const { sessionId, bytes } = await fx.seeded('Add alpha parser', 'add-alpha-parser');
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-alpha-parser.ts',
    );

    assert.ok(result, fx.den.messages.texts().join(' | '));
    assert.equal(result.written.length, 1);
    const modal = answers.asked.find((a) => a.modal);
    assert.match(modal?.detail ?? '', /1 new/);
    const disk = fs.readFileSync(path.join(root(), 'src/add-alpha-parser.ts'));
    assert.deepEqual(disk, await bytes('src/add-alpha-parser.ts'));
    assert.ok(!fs.existsSync(path.join(root(), 'test/add-alpha-parser.test.ts')), 'only the one file');
    const report = answers.asked.find((a) => !a.modal);
    assert.match(report?.text ?? '', /applied 1 file/);
  });

  it('Undo from the result puts back what Apply wrote: a replaced file’s text, a created file gone; a file changed since is kept', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add omicron parser', 'add-omicron-parser');
    const [src, test] = turnPaths('add-omicron-parser').map((p) => path.join(root(), p));
    fs.mkdirSync(path.dirname(src), { recursive: true });
    fs.writeFileSync(src, 'mine\n');
    let later: (() => void) | undefined;
    const undone = new Promise<void>((resolve) => (later = resolve));
    const answers = fx.answer(
      (a) => {
        if (a.modal) return a.buttons.find((b) => b === 'Apply');
        // the result: change the created test file first, then Undo
        if (a.buttons.includes('Undo')) {
          fs.writeFileSync(test, 'changed after the apply\n');
          return 'Undo';
        }
        later?.();
        return undefined;
      },
      { notifications: true },
    );

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 2, JSON.stringify(answers.asked));
    const report = answers.asked.find((a) => !a.modal && a.buttons.includes('Undo'));
    assert.deepEqual(report?.buttons, ['Undo']);
    assert.doesNotMatch(report?.text ?? '', /Edit ▸ Undo/);
    const r = await result?.undone;
    await undone;
    assert.deepEqual(r, { undone: [path.relative(root(), src)], kept: [path.relative(root(), test)] });
    assert.equal(fs.readFileSync(src, 'utf8'), 'mine\n');
    assert.equal(fs.readFileSync(test, 'utf8'), 'changed after the apply\n');
    const told = answers.asked.at(-1);
    assert.equal(told?.level, 'warning');
    assert.match(
      told?.text ?? '',
      /undid the apply to .*: 1 file is as it was\. Kept as they are now \(changed since the apply\): test\/add-omicron-parser\.test\.ts\./,
    );
  });

  it('applies a turn’s files', async () => {
    const { sessionId, agentMessageId, bytes } = await fx.seeded('Add beta parser', 'add-beta-parser');
    fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 2, fx.den.messages.texts().join(' | '));
    for (const p of turnPaths('add-beta-parser')) {
      assert.deepEqual(fs.readFileSync(path.join(root(), p)), await bytes(p), p);
    }
  });

  it('applies a session’s files', async () => {
    const { sessionId } = await fx.seeded('Add gamma parser', 'add-gamma-parser');
    fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>('den.applySession', sessionId);

    assert.equal(result?.written.length, 2, fx.den.messages.texts().join(' | '));
    for (const p of turnPaths('add-gamma-parser')) assert.ok(fs.existsSync(path.join(root(), p)), p);
  });

  it('asks before overwriting a workspace file it has no base for; declining leaves the disk untouched', async () => {
    const { sessionId } = await fx.seeded('Add delta parser', 'add-delta-parser');
    const file = path.join(root(), 'src/add-delta-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    const answers = fx.answer(() => undefined);

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-delta-parser.ts',
    );

    const modal = answers.asked.find((a) => a.modal);
    assert.ok(modal, JSON.stringify(answers.asked));
    assert.equal(modal.level, 'warning');
    assert.match(modal.detail ?? '', /Needs your confirmation/);
    // What replacing loses, in lines, and the safe choice first (the modal's default button).
    assert.match(
      modal.detail ?? '',
      /Replace src\/add-delta-parser\.ts: 1 saved line not in the agent's version will be lost \(/,
    );
    assert.deepEqual(modal.buttons, ['Review…', 'Apply']);
    assert.equal(result?.written.length, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
  });

  it('edits a file with unsaved changes through its document: the disk stays as it was', async () => {
    const { sessionId, bytes } = await fx.seeded('Add epsilon parser', 'add-epsilon-parser');
    const file = path.join(root(), 'src/add-epsilon-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const dirty = new vscode.WorkspaceEdit();
    dirty.insert(doc.uri, new vscode.Position(0, 0), 'unsaved ');
    assert.ok(await vscode.workspace.applyEdit(dirty));
    assert.ok(doc.isDirty);
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-epsilon-parser.ts',
    );

    assert.equal(result?.written.length, 1, JSON.stringify(answers.asked));
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
    assert.equal(doc.getText(), (await bytes('src/add-epsilon-parser.ts')).toString('utf8'));
    assert.ok(doc.isDirty, 'the change stays unsaved');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('applies a file auto save saved while the person decided (VS Code for the web saves after 1 s): nothing else changed', async () => {
    await withAutoSave('afterDelay', async () => {
      const { sessionId, bytes } = await fx.seeded('Add autosave parser', 'add-autosave-parser');
      const file = path.join(root(), 'src/add-autosave-parser.ts');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'mine\n');
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      let sub: vscode.Disposable | undefined;
      const saved = new Promise<void>((resolve) => {
        sub = vscode.workspace.onDidSaveTextDocument((d) => d === doc && resolve());
      });
      const dirty = new vscode.WorkspaceEdit();
      dirty.insert(doc.uri, new vscode.Position(0, 0), 'unsaved ');
      assert.ok(await vscode.workspace.applyEdit(dirty));
      assert.ok(doc.isDirty);
      const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));
      // The question is answered once auto save has saved the person's text (the plan saw it unsaved).
      const w = vscode.window as unknown as Record<string, unknown>;
      const answer = w.showWarningMessage as (...a: unknown[]) => Promise<string | undefined>;
      w.showWarningMessage = async (text: string, ...rest: unknown[]) => {
        if ((rest[0] as vscode.MessageOptions | undefined)?.modal) await saved;
        return answer(text, ...rest);
      };

      const result = await vscode.commands.executeCommand<ApplyResult>(
        'den.applyFile',
        sessionId,
        'src/add-autosave-parser.ts',
      );

      sub?.dispose();
      assert.match(answers.asked.find((a) => a.modal)?.detail ?? '', /unsaved/);
      assert.equal(result?.written.length, 1, JSON.stringify(answers.asked));
      assert.equal(doc.getText(), (await bytes('src/add-autosave-parser.ts')).toString('utf8'));
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });
  });

  it('refuses paths outside the folder and names them; the disk is untouched', async () => {
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));
    const read = async () => new TextEncoder().encode('escaped\n');
    const deps: ApplyDeps = { previews: {} as ApplyPreviews };
    fx.made.push('inside-ok.txt');

    const result = await applyAgentFiles(deps, 'test-session', {
      what: 'the test files',
      title: 'Refusals',
      files: [
        { path: '../escape.txt', read },
        { path: '/etc/passwd', read },
        { path: 'inside-ok.txt', read },
      ],
    });

    assert.equal(result.written.length, 1);
    assert.ok(!fs.existsSync(path.join(root(), '..', 'escape.txt')));
    assert.match(result.message ?? '', /\.\.\/escape\.txt/);
    assert.match(result.message ?? '', /\/etc\/passwd/);
    const modal = answers.asked.find((a) => a.modal);
    assert.match(modal?.detail ?? '', /2 refused/);
    assert.equal(fs.readFileSync(path.join(root(), 'inside-ok.txt'), 'utf8'), 'escaped\n');
  });

  it('is one undo step: undo in the changed file’s editor restores its text', async () => {
    const { sessionId } = await fx.seeded('Add zeta parser', 'add-zeta-parser');
    const file = path.join(root(), 'src/add-zeta-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-zeta-parser.ts',
    );
    assert.equal(result?.written.length, 1, JSON.stringify(answers.asked));
    assert.notEqual(fs.readFileSync(file, 'utf8'), 'mine\n', 'saved after the edit');

    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');

    assert.equal(doc.getText(), 'mine\n');
    await vscode.commands.executeCommand('workbench.action.files.save');
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
  });

  it('undo in a created file’s editor removes the file', async () => {
    const { sessionId } = await fx.seeded('Add theta parser', 'add-theta-parser');
    const file = path.join(root(), 'src/add-theta-parser.ts');
    fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    await vscode.commands.executeCommand<ApplyResult>('den.applyFile', sessionId, 'src/add-theta-parser.ts');
    assert.ok(fs.existsSync(file));
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    await vscode.commands.executeCommand('undo');

    await waitFor('the created file to be removed', () => !fs.existsSync(file) || undefined);
  });

  it('undo in one editor restores every file of the apply, as unsaved text', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add iota parser', 'add-iota-parser');
    const [a, b] = turnPaths('add-iota-parser').map((p) => path.join(root(), p));
    for (const [f, text] of [
      [a, 'mine a\n'],
      [b, 'mine b\n'],
    ]) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, text);
    }
    const answers = fx.answer((m) => m.buttons.find((x) => x === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );
    assert.equal(result?.written.length, 2, JSON.stringify(answers.asked));
    const [da, db] = await Promise.all(
      [a, b].map((f) => vscode.workspace.openTextDocument(vscode.Uri.file(f))),
    );
    await vscode.window.showTextDocument(da);
    await vscode.commands.executeCommand('undo');

    assert.equal(da.getText(), 'mine a\n');
    assert.equal(db.getText(), 'mine b\n');
    // Den saved the files after applying: the undone text is unsaved until the person saves it.
    assert.ok(da.isDirty && db.isDirty);
    assert.match(fs.readFileSync(a, 'utf8'), /Add iota parser/);
    for (const d of [da, db]) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});
