import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { contentHash } from '../../src/core/merge/hash';
import { applyAgentFiles, type ApplyDeps, type ApplyResult } from '../../src/editor/apply/apply-command';
import type { ApplyPreviews } from '../../src/editor/apply/apply-review';
import { waitFor } from '../support/wait';
import { root, turnPaths, useApply } from './apply-helpers';
import { emuFetch } from './emulator-helpers';

describe('Apply the agent’s files: review, merges, changes meanwhile', function () {
  this.timeout(30_000);
  const fx = useApply();

  it('Review… opens the diff against what Apply writes, then asks again without a modal', async () => {
    const { sessionId } = await fx.seeded('Add kappa parser', 'add-kappa-parser');
    const file = path.join(root(), 'src/add-kappa-parser.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'mine\n');
    const w = vscode.window as unknown as Record<string, unknown>;
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Review…'));
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
    const planned = result?.plan?.entries.map((e) => ({
      path: e.relPath,
      action: e.action,
      text: e.newContent && new TextDecoder().decode(e.newContent).slice(0, 60),
    }));
    assert.match(planned?.[0]?.text ?? '', /Add kappa parser/, JSON.stringify(planned));
    // The preview document is read until it shows the planned text: under heavy load it was once
    // seen with the workspace file's text (1 run in about 30; not reproduced alone), so a failure
    // here says which documents were open and what was planned.
    const preview = await vscode.workspace.openTextDocument(diff.modified);
    await waitFor('the preview to show what Apply writes', () => /Add kappa parser/.test(preview.getText()), {
      timeoutMs: 5_000,
    }).catch(() => {
      const docs = vscode.workspace.textDocuments.map(
        (d) => `${d.uri.toString()} v${d.version} ${JSON.stringify(d.getText().slice(0, 30))}`,
      );
      assert.fail(
        `the preview shows ${JSON.stringify(preview.getText().slice(0, 60))}: ${JSON.stringify({ planned, docs })}`,
      );
    });
    assert.equal(answers.asked.filter((a) => !a.modal && a.buttons.includes('Apply')).length, 1);
    assert.equal(result?.written.length, 1, JSON.stringify(answers.asked));
    // Seen twice in a dozen full runs (2026-11-27): Apply reported the file written and the disk
    // still held 'mine'. Not reproduced alone; a late write would pass here, anything else says
    // what Apply reported and what the file's document holds.
    await waitFor(
      'the file on disk to hold what Apply wrote',
      () => /Add kappa parser/.test(fs.readFileSync(file, 'utf8')),
      {
        timeoutMs: 5_000,
      },
    ).catch(() => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
      assert.fail(
        `the disk holds ${JSON.stringify(fs.readFileSync(file, 'utf8'))}; Apply said ${JSON.stringify(result?.message)}; ` +
          `its document: ${doc ? `v${doc.version} dirty=${doc.isDirty} ${JSON.stringify(doc.getText().slice(0, 40))}` : 'none'}`,
      );
    });
  });

  it('Review… of several files opens the multi-file diff; dismissing the question writes nothing', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add omega parser', 'add-omega-parser');
    const [src, test] = turnPaths('add-omega-parser').map((p) => path.join(root(), p));
    fs.mkdirSync(path.dirname(src), { recursive: true });
    fs.writeFileSync(src, 'mine\n');
    fx.answer((a) => a.buttons.find((b) => b === 'Review…'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 0, fx.den.messages.texts().join(' | '));
    assert.deepEqual(fx.den.messages.texts('error'), []);
    const labels = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    assert.ok(
      labels.some((l) => l.includes('Den: What Apply Writes')),
      labels.join(', '),
    );
    assert.equal(fs.readFileSync(src, 'utf8'), 'mine\n');
    assert.ok(!fs.existsSync(test));
  });

  describe('Apply and Discard in the review’s title bar', () => {
    const activeTab = (): vscode.Tab | undefined => vscode.window.tabGroups.activeTabGroup.activeTab;
    const diffOf = (scheme: string) => () => {
      const input = activeTab()?.input;
      return input instanceof vscode.TabInputTextDiff && input.modified.scheme === scheme ? input : undefined;
    };

    it('after Review…, Apply in the diff’s title bar answers the question the notification asks too', async () => {
      const { sessionId } = await fx.seeded('Add sigma parser', 'add-sigma-parser');
      const file = path.join(root(), 'src/add-sigma-parser.ts');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'mine\n');
      const answers = fx.answer((a) => a.buttons.find((b) => b === 'Review…'), { keepNotifications: true });

      const pending = vscode.commands.executeCommand<ApplyResult>(
        'den.applyFile',
        sessionId,
        'src/add-sigma-parser.ts',
      );
      await waitFor('the review diff', diffOf('den-apply'));
      await waitFor('the question asked again', () =>
        answers.asked.some((a) => !a.modal && a.buttons.includes('Apply')),
      );
      await vscode.commands.executeCommand('den.applyReviewed');
      const result = await pending;

      assert.equal(result?.written.length, 1, JSON.stringify(answers.asked));
      assert.match(
        await waitFor('the file written', () => {
          const text = fs.readFileSync(file, 'utf8');
          return /Add sigma parser/.test(text) ? text : undefined;
        }),
        /Add sigma parser/,
      );
    });

    it('after Review…, Discard closes the diff and writes nothing', async () => {
      const { sessionId } = await fx.seeded('Add tau parser', 'add-tau-parser');
      const file = path.join(root(), 'src/add-tau-parser.ts');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'mine\n');
      fx.answer((a) => a.buttons.find((b) => b === 'Review…'), { keepNotifications: true });

      const pending = vscode.commands.executeCommand<ApplyResult>(
        'den.applyFile',
        sessionId,
        'src/add-tau-parser.ts',
      );
      const diff = await waitFor('the review diff', diffOf('den-apply'));
      await vscode.commands.executeCommand('den.discardReview');
      const result = await pending;

      assert.equal(result?.written.length, 0);
      assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
      const open = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some(
          (t) =>
            t.input instanceof vscode.TabInputTextDiff &&
            t.input.modified.toString() === diff.modified.toString(),
        );
      assert.equal(open, false, 'the review is still open');
    });

    it('Review Changes of a turn: Apply in its title bar applies that turn; Compare of one file applies that file', async () => {
      const { sessionId, agentMessageId } = await fx.seeded('Add upsilon parser', 'add-upsilon-parser');
      const [src, test] = turnPaths('add-upsilon-parser').map((p) => path.join(root(), p));
      const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

      await vscode.commands.executeCommand(
        'den.compareWithWorkspace',
        sessionId,
        'src/add-upsilon-parser.ts',
      );
      await waitFor('the compare diff', diffOf('den-session'));
      const one = await vscode.commands.executeCommand<ApplyResult>('den.applyReviewed');
      assert.deepEqual(
        one?.written.map((e) => e.relPath),
        ['src/add-upsilon-parser.ts'],
      );
      assert.ok(fs.existsSync(src) && !fs.existsSync(test), 'not only the file shown was applied');

      await vscode.commands.executeCommand('den.reviewTurn', sessionId, agentMessageId);
      await waitFor('the turn’s review', () =>
        activeTab()?.label.startsWith('Den: Changes of “Add upsilon parser”'),
      );
      const tab = activeTab();
      const all = await vscode.commands.executeCommand<ApplyResult>('den.applyReviewed');
      assert.deepEqual(
        all?.written.map((e) => e.relPath),
        ['test/add-upsilon-parser.test.ts'],
        `the turn’s other file (tab ${JSON.stringify(tab?.label)}, ${tab?.input?.constructor.name}): ${JSON.stringify(answers.asked.map((a) => a.text))}`,
      );
      assert.ok(fs.existsSync(test));
      await vscode.commands.executeCommand('den.discardReview');
      await waitFor(
        'the review closed',
        () => !activeTab()?.label.startsWith('Den: Changes of “Add upsilon parser”') || undefined,
      );
    });

    it('Compare of a turn’s file (as the panel opens it): Apply the Whole Turn in its title bar applies the turn', async () => {
      const { sessionId, agentMessageId } = await fx.seeded('Add phi parser', 'add-phi-parser');
      const [src, test] = turnPaths('add-phi-parser').map((p) => path.join(root(), p));
      fx.answer((a) => a.buttons.find((b) => b === 'Apply'));
      // Without the turn, a file's compare offers no whole turn.
      await vscode.commands.executeCommand('den.compareWithWorkspace', sessionId, 'src/add-phi-parser.ts');
      await waitFor('the compare diff', diffOf('den-session'));
      assert.equal(fx.den.api.reviewActions.active()?.applyTurn, undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');

      await vscode.commands.executeCommand('den.compareWithWorkspace', sessionId, 'src/add-phi-parser.ts', {
        turn: agentMessageId,
      });
      await waitFor('the compare diff', diffOf('den-session'));
      const all = await vscode.commands.executeCommand<ApplyResult>('den.applyReviewedTurn');
      assert.deepEqual(all?.written.map((e) => e.relPath).sort(), [
        'src/add-phi-parser.ts',
        'test/add-phi-parser.test.ts',
      ]);
      assert.ok(fs.existsSync(src) && fs.existsSync(test));
    });

    it('Apply in the title bar of an editor that is no review says so and applies nothing', async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const answers = fx.answer(() => undefined);
      const r = await vscode.commands.executeCommand('den.applyReviewed');
      assert.equal(r, undefined);
      assert.ok(
        answers.asked.some((a) => /not a review Den opened/.test(a.text)),
        JSON.stringify(answers.asked),
      );
    });
  });

  it('writes nothing when a file changes while the person decides', async () => {
    const { sessionId } = await fx.seeded('Add lambda parser', 'add-lambda-parser');
    const file = path.join(root(), 'src/add-lambda-parser.ts');
    fx.answer((a) => {
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

  it('Apply Except Files Needing Confirmation writes the new file and leaves the questioned one', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add upsilon parser', 'add-upsilon-parser');
    const [src, test] = turnPaths('add-upsilon-parser').map((p) => path.join(root(), p));
    fs.mkdirSync(path.dirname(src), { recursive: true });
    fs.writeFileSync(src, 'mine\n');
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply Except Files Needing Confirmation'));

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
    const { sessionId } = await fx.seeded('Add sigma parser', 'add-sigma-parser');
    const { body } = await emuFetch(fx.den.emu, `/sessions/${sessionId}`);
    const user = (body.messages as { id: string; type: string }[]).find((m) => m.type === 'user');
    assert.ok(user);
    fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const turn = await vscode.commands.executeCommand<ApplyResult>('den.applyTurn', {
      kind: 'turn',
      sessionId,
      message: { id: user.id },
    });
    assert.equal(turn?.written.length, 2, fx.den.messages.texts().join(' | '));

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
    fx.made.push('merge-clean.txt', 'merge-conflict.txt');
    fs.writeFileSync(path.join(root(), 'merge-clean.txt'), 'A\nb\nc\n');
    const answers = fx.answer((a) => a.buttons[0]);

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
    const { sessionId } = await fx.seeded('Add eta parser', 'add-eta-parser');
    const { status } = await emuFetch(fx.den.emu, `/sessions/${sessionId}`);
    assert.equal(status, 200);

    const result = await vscode.commands.executeCommand<ApplyResult>('den.applyFile', sessionId, 'nope.txt');

    assert.equal(result, undefined);
    assert.ok(
      fx.den.messages.texts().some((t) => /no file nope\.txt/.test(t)),
      fx.den.messages.texts().join(' | '),
    );
  });
});
