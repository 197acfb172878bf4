import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { applyAgentFiles, type ApplyDeps, type ApplyResult } from '../../src/files/apply-command';
import type { ApplyPreviews } from '../../src/files/apply-review';
import { contentHash } from '../../src/core/files/hash';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { emuFetch } from './helpers';

/** One message Den showed while answered: its text, options and buttons. */
interface Asked {
  level: 'info' | 'warning';
  text: string;
  modal: boolean;
  detail?: string;
  buttons: string[];
}

/** Answers Den's messages: `choose` picks a button of the modal (undefined dismisses it). */
function answerMessages(choose: (a: Asked) => string | undefined): { asked: Asked[]; restore(): void } {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = {
    showInformationMessage: w.showInformationMessage,
    showWarningMessage: w.showWarningMessage,
  };
  const asked: Asked[] = [];
  const fake =
    (level: Asked['level']) =>
    async (text: string, ...rest: unknown[]): Promise<string | undefined> => {
      const opts = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as vscode.MessageOptions) : {};
      const buttons = rest.filter((r): r is string => typeof r === 'string');
      const a: Asked = { level, text, modal: opts.modal === true, detail: opts.detail, buttons };
      asked.push(a);
      return a.modal ? choose(a) : undefined;
    };
  w.showInformationMessage = fake('info');
  w.showWarningMessage = fake('warning');
  return { asked, restore: () => Object.assign(w, saved) };
}

function root(): string {
  const r = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(r, 'the test window has no workspace folder');
  return r;
}

/** The files a seeded coding turn with `task` writes (see test/emulator/scripts.ts). */
function turnPaths(slug: string): string[] {
  return [`src/${slug}.ts`, `test/${slug}.test.ts`];
}

describe('Apply the agent’s files', function () {
  this.timeout(30_000);
  const den = useDen();
  let answers: ReturnType<typeof answerMessages> | undefined;
  const made: string[] = [];

  afterEach(async () => {
    answers?.restore();
    answers = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const p of made.splice(0)) fs.rmSync(path.join(root(), p), { force: true });
    for (const d of ['src', 'test']) {
      const dir = path.join(root(), d);
      if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    }
  });

  /** Seeds a completed coding turn and answers its session id, agent message id and file bytes. */
  async function seeded(task: string, slug: string) {
    const sessionId = randomUUID();
    const { agentMessageId } = den.emu.seedTurn(sessionId, task, 'code');
    made.push(...turnPaths(slug));
    const bytes = async (p: string): Promise<Buffer> => {
      const res = await fetch(`${den.emu.url}/media/${sessionId}/${p}`, {
        headers: { authorization: `Bearer ${den.emu.keys.primary}` },
      });
      assert.equal(res.status, 200, `media of ${p}`);
      return Buffer.from(await res.arrayBuffer());
    };
    return { sessionId, agentMessageId, bytes };
  }

  it('applies one file into an empty folder: the file appears with the agent’s bytes', async () => {
    const { sessionId, bytes } = await seeded('Add alpha parser', 'add-alpha-parser');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-alpha-parser.ts',
    );

    assert.ok(result, den.messages.texts().join(' | '));
    assert.equal(result.written.length, 1);
    const modal = answers.asked.find((a) => a.modal);
    assert.match(modal?.detail ?? '', /1 new/);
    const disk = fs.readFileSync(path.join(root(), 'src/add-alpha-parser.ts'));
    assert.deepEqual(disk, await bytes('src/add-alpha-parser.ts'));
    assert.ok(!fs.existsSync(path.join(root(), 'test/add-alpha-parser.test.ts')), 'only the one file');
    const report = answers.asked.find((a) => !a.modal);
    assert.match(report?.text ?? '', /applied 1 file/);
  });

  it('applies a turn’s files', async () => {
    const { sessionId, agentMessageId, bytes } = await seeded('Add beta parser', 'add-beta-parser');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 2, den.messages.texts().join(' | '));
    for (const p of turnPaths('add-beta-parser')) {
      assert.deepEqual(fs.readFileSync(path.join(root(), p)), await bytes(p), p);
    }
  });

  it('applies a session’s files', async () => {
    const { sessionId } = await seeded('Add gamma parser', 'add-gamma-parser');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>('den.applySession', sessionId);

    assert.equal(result?.written.length, 2, den.messages.texts().join(' | '));
    for (const p of turnPaths('add-gamma-parser')) assert.ok(fs.existsSync(path.join(root(), p)), p);
  });

  it('asks before overwriting a workspace file it has no base for; declining leaves the disk untouched', async () => {
    const { sessionId } = await seeded('Add delta parser', 'add-delta-parser');
    const file = path.join(root(), 'src/add-delta-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    answers = answerMessages(() => undefined);

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-delta-parser.ts',
    );

    const modal = answers.asked.find((a) => a.modal);
    assert.ok(modal, JSON.stringify(answers.asked));
    assert.equal(modal.level, 'warning');
    assert.match(modal.detail ?? '', /Needs your confirmation/);
    assert.equal(result?.written.length, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
  });

  it('edits a file with unsaved changes through its document: the disk stays as it was', async () => {
    const { sessionId, bytes } = await seeded('Add epsilon parser', 'add-epsilon-parser');
    const file = path.join(root(), 'src/add-epsilon-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const dirty = new vscode.WorkspaceEdit();
    dirty.insert(doc.uri, new vscode.Position(0, 0), 'unsaved ');
    assert.ok(await vscode.workspace.applyEdit(dirty));
    assert.ok(doc.isDirty);
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

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

  it('refuses paths outside the folder and names them; the disk is untouched', async () => {
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));
    const read = async () => new TextEncoder().encode('escaped\n');
    const deps: ApplyDeps = { previews: {} as ApplyPreviews };
    made.push('inside-ok.txt');

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
    const { sessionId } = await seeded('Add zeta parser', 'add-zeta-parser');
    const file = path.join(root(), 'src/add-zeta-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

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
    const { sessionId } = await seeded('Add theta parser', 'add-theta-parser');
    const file = path.join(root(), 'src/add-theta-parser.ts');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

    await vscode.commands.executeCommand<ApplyResult>('den.applyFile', sessionId, 'src/add-theta-parser.ts');
    assert.ok(fs.existsSync(file));
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    await vscode.commands.executeCommand('undo');

    await waitFor('the created file to be removed', () => !fs.existsSync(file) || undefined);
  });

  it('undo in one editor restores every file of the apply, as unsaved text', async () => {
    const { sessionId, agentMessageId } = await seeded('Add iota parser', 'add-iota-parser');
    const [a, b] = turnPaths('add-iota-parser').map((p) => path.join(root(), p));
    for (const [f, text] of [
      [a, 'mine a\n'],
      [b, 'mine b\n'],
    ]) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, text);
    }
    answers = answerMessages((m) => m.buttons.find((x) => x === 'Apply'));

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

  it('Review… opens the diff against what Apply writes, then asks again without a modal', async () => {
    const { sessionId } = await seeded('Add kappa parser', 'add-kappa-parser');
    const file = path.join(root(), 'src/add-kappa-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    const w = vscode.window as unknown as Record<string, unknown>;
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Review…'));
    const modalFake = w.showWarningMessage as (...a: unknown[]) => Promise<string | undefined>;
    // After the review, the question comes back as a notification: answer it with Apply.
    w.showWarningMessage = async (text: string, ...rest: unknown[]) => {
      const got = await modalFake(text, ...rest);
      return (rest[0] as vscode.MessageOptions).modal ? got : rest.includes('Apply') ? 'Apply' : undefined;
    };

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-kappa-parser.ts',
    );

    const diff = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.input)
      .find((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff);
    assert.ok(diff, 'no diff editor');
    assert.equal(diff.original.fsPath, file);
    assert.equal(diff.modified.scheme, 'den-apply');
    const preview = await vscode.workspace.openTextDocument(diff.modified);
    assert.match(preview.getText(), /Add kappa parser/);
    assert.equal(answers.asked.filter((a) => !a.modal && a.buttons.includes('Apply')).length, 1);
    assert.equal(result?.written.length, 1, JSON.stringify(answers.asked));
    assert.match(fs.readFileSync(file, 'utf8'), /Add kappa parser/);
  });

  it('Review… of several files opens the multi-file diff; dismissing the question writes nothing', async () => {
    const { sessionId, agentMessageId } = await seeded('Add omega parser', 'add-omega-parser');
    const [src, test] = turnPaths('add-omega-parser').map((p) => path.join(root(), p));
    fs.mkdirSync(path.dirname(src), { recursive: true });
    fs.writeFileSync(src, 'mine\n');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Review…'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 0, den.messages.texts().join(' | '));
    assert.deepEqual(den.messages.texts('error'), []);
    const labels = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    assert.ok(
      labels.some((l) => l.includes('Den: What Apply Writes')),
      labels.join(', '),
    );
    assert.equal(fs.readFileSync(src, 'utf8'), 'mine\n');
    assert.ok(!fs.existsSync(test));
  });

  it('writes nothing when a file changes while the person decides', async () => {
    const { sessionId } = await seeded('Add lambda parser', 'add-lambda-parser');
    const file = path.join(root(), 'src/add-lambda-parser.ts');
    answers = answerMessages((a) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'meanwhile\n');
      return a.buttons.find((b) => b === 'Apply');
    });

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'src/add-lambda-parser.ts',
    );

    assert.equal(result?.written.length, 0);
    assert.match(result?.message ?? '', /Nothing was applied: src\/add-lambda-parser\.ts changed/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'meanwhile\n');
  });

  it('Apply Only Unquestioned writes the new file and leaves the questioned one', async () => {
    const { sessionId, agentMessageId } = await seeded('Add upsilon parser', 'add-upsilon-parser');
    const [src, test] = turnPaths('add-upsilon-parser').map((p) => path.join(root(), p));
    fs.mkdirSync(path.dirname(src), { recursive: true });
    fs.writeFileSync(src, 'mine\n');
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply Only Unquestioned'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.deepEqual(
      result?.written.map((e) => e.relPath),
      ['test/add-upsilon-parser.test.ts'],
      JSON.stringify(answers.asked),
    );
    assert.equal(fs.readFileSync(src, 'utf8'), 'mine\n');
    assert.ok(fs.existsSync(test));
  });

  it('takes the Sessions tree’s turn and file rows as arguments', async () => {
    const { sessionId } = await seeded('Add sigma parser', 'add-sigma-parser');
    const { body } = await emuFetch(den.emu, `/sessions/${sessionId}`);
    const user = (body.messages as { id: string; type: string }[]).find((m) => m.type === 'user');
    assert.ok(user);
    answers = answerMessages((a) => a.buttons.find((b) => b === 'Apply'));

    const turn = await vscode.commands.executeCommand<ApplyResult>('den.applyTurn', {
      kind: 'turn',
      sessionId,
      message: { id: user.id },
    });
    assert.equal(turn?.written.length, 2, den.messages.texts().join(' | '));

    fs.rmSync(path.join(root(), 'src/add-sigma-parser.ts'));
    const file = await vscode.commands.executeCommand<ApplyResult>('den.applyFile', {
      kind: 'file',
      sessionId,
      path: `${sessionId}/src/add-sigma-parser.ts`,
      file: { key: `${sessionId}/src/add-sigma-parser.ts`, name: 'src/add-sigma-parser.ts', size: 1 },
    });
    assert.deepEqual(
      file?.written.map((e) => e.relPath),
      ['src/add-sigma-parser.ts'],
    );
  });

  it('merges with a known base: a clean merge asks nothing; a conflict offers conflict markers', async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    const base = enc('a\nb\nc\n');
    const deps: ApplyDeps = {
      previews: {} as ApplyPreviews,
      bases: () => async () => ({ hash: contentHash(base), content: base }),
    };
    made.push('merge-clean.txt', 'merge-conflict.txt');
    fs.writeFileSync(path.join(root(), 'merge-clean.txt'), 'A\nb\nc\n');
    answers = answerMessages((a) => a.buttons[0]);

    const clean = await applyAgentFiles(deps, 's', {
      what: 'a file',
      title: 'Merges',
      files: [{ path: 'merge-clean.txt', read: async () => enc('a\nb\nC\n') }],
    });
    assert.equal(answers.asked.find((a) => a.modal)?.level, 'info');
    assert.equal(clean.written[0]?.action, 'merge');
    assert.equal(fs.readFileSync(path.join(root(), 'merge-clean.txt'), 'utf8'), 'A\nb\nC\n');

    fs.writeFileSync(path.join(root(), 'merge-conflict.txt'), 'A\nb\nc\n');
    const conflict = await applyAgentFiles(deps, 's', {
      what: 'a file',
      title: 'Merges',
      files: [{ path: 'merge-conflict.txt', read: async () => enc('X\nb\nc\n') }],
    });
    const modal = answers.asked.filter((a) => a.modal).at(-1);
    assert.equal(modal?.buttons[0], 'Apply with Conflict Markers');
    assert.equal(conflict.written[0]?.action, 'mergeWithConflicts');
    assert.match(fs.readFileSync(path.join(root(), 'merge-conflict.txt'), 'utf8'), /<<<<<<< Workspace/);
    assert.match(conflict.message ?? '', /conflict markers in merge-conflict\.txt/);
  });

  it('needs a service file list entry: an unknown file is a clear message', async () => {
    const { sessionId } = await seeded('Add eta parser', 'add-eta-parser');
    const { status } = await emuFetch(den.emu, `/sessions/${sessionId}`);
    assert.equal(status, 200);

    const result = await vscode.commands.executeCommand<ApplyResult>('den.applyFile', sessionId, 'nope.txt');

    assert.equal(result, undefined);
    assert.ok(
      den.messages.texts().some((t) => /no file nope\.txt/.test(t)),
      den.messages.texts().join(' | '),
    );
  });
});
