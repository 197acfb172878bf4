/**
 * Files that can run code (`docs/decisions/2026-11-26-files-that-run-code.md`) and every refused
 * path, through the apply commands in the real workbench: an agent's `.vscode/tasks.json` is
 * written only after its own confirmation; the setting extends the list; a workspace that is not
 * trusted refuses them (Den is off in Restricted Mode, so trust is switched off through the apply's
 * `isTrusted`); Show All Refused lists every refused path in a document.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { applyAgentFiles, type ApplyDeps, type ApplyResult } from '../../src/editor/apply/apply-command';
import type { ApplyPreviews } from '../../src/editor/apply/apply-review';
import { TASKS_JSON } from '../emulator/scripts';
import { waitFor } from '../support/wait';
import { root, useApply } from './apply-helpers';
import type { Asked } from './message-helpers';

const TASKS = '.vscode/tasks.json';

describe('Apply: files that run code', function () {
  this.timeout(30_000);
  const fx = useApply();

  afterEach(async () => {
    fs.rmSync(path.join(root(), TASKS), { force: true });
    fs.rmSync(path.join(root(), 'tools'), { recursive: true, force: true });
    const dir = path.join(root(), '.vscode');
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    await vscode.workspace
      .getConfiguration('den')
      .update('apply.filesThatRunCode', undefined, vscode.ConfigurationTarget.Global);
  });

  /** The first modal's button, then the second's (the confirmation of the files that run code). */
  const twoAnswers =
    (first: string, second: string | undefined) =>
    (a: Asked): string | undefined =>
      a.buttons.includes(first) ? first : second;

  async function codeTurn(slug: string) {
    const s = await fx.seeded(`Add ${slug} vscode task`, `add-${slug}-vscode`);
    return s;
  }

  it('Apply all leaves an agent’s .vscode/tasks.json out unless its own confirmation is given', async () => {
    const { sessionId, agentMessageId } = await codeTurn('omega');
    const answers = fx.answer(twoAnswers('Apply', 'Apply Without Them'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    const modals = answers.asked.filter((a) => a.modal);
    assert.equal(modals.length, 2, JSON.stringify(answers.asked));
    // The headline names the turn and what it asked, the summary names the file first, with why.
    assert.match(modals[0].text, /^Apply the changes of “Add omega vscode task” in “.+” to .+\?$/);
    assert.deepEqual(modals[0].detail?.split('\n').slice(0, 2), [
      '1 file can run code: Den writes it only if you confirm it separately.',
      '.vscode/tasks.json: a task can run by itself when the folder opens',
    ]);
    assert.equal(modals[1].text, 'Also write .vscode/tasks.json? It can run code.');
    assert.match(
      modals[1].detail ?? '',
      /^\.vscode\/tasks\.json: a task can run by itself when the folder opens\n/,
    );
    assert.deepEqual(modals[1].buttons, ['Apply Without Them', 'Write the File That Runs Code']);
    assert.deepEqual(
      result?.written.map((e) => e.relPath),
      ['src/add-omega-vscode.ts', 'test/add-omega-vscode.test.ts'],
    );
    assert.ok(!fs.existsSync(path.join(root(), TASKS)), 'tasks.json is not written');
    assert.match(
      result?.message ?? '',
      /Not written, as they can run code and were not confirmed: \.vscode\/tasks\.json\./,
    );
  });

  it('cancelling the second confirmation writes nothing at all', async () => {
    const { sessionId, agentMessageId } = await codeTurn('sigma');
    fx.answer(twoAnswers('Apply', undefined));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 0);
    assert.ok(!fs.existsSync(path.join(root(), TASKS)));
    assert.ok(!fs.existsSync(path.join(root(), 'src/add-sigma-vscode.ts')));
  });

  it('Apply Except Files Needing Confirmation never writes it, and asks nothing more', async () => {
    const { sessionId, agentMessageId } = await codeTurn('kappa');
    const answers = fx.answer(
      twoAnswers('Apply Except Files Needing Confirmation', 'Write the File That Runs Code'),
    );

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(answers.asked.filter((a) => a.modal).length, 1);
    assert.equal(result?.written.length, 2);
    assert.ok(!fs.existsSync(path.join(root(), TASKS)));
  });

  it('writes it, with the agent’s bytes, once confirmed separately', async () => {
    const { sessionId, agentMessageId, bytes } = await codeTurn('theta');
    fx.answer(twoAnswers('Apply', 'Write the File That Runs Code'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    assert.equal(result?.written.length, 3, JSON.stringify(result?.message));
    assert.deepEqual(fs.readFileSync(path.join(root(), TASKS)), await bytes(TASKS));
    assert.equal(fs.readFileSync(path.join(root(), TASKS), 'utf8'), TASKS_JSON);
  });

  it('refuses it, unread, in a workspace that is not trusted, and says why', async () => {
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));
    let reads = 0;
    const read = async () => {
      reads++;
      return new TextEncoder().encode(TASKS_JSON);
    };
    const deps: ApplyDeps = { previews: {} as ApplyPreviews, isTrusted: () => false };
    fx.made.push('untrusted-ok.txt');

    const result = await applyAgentFiles(deps, 'test-session', {
      what: 'the test files',
      title: 'Untrusted',
      files: [
        { path: TASKS, read },
        { path: 'untrusted-ok.txt', read: async () => new TextEncoder().encode('ok\n') },
      ],
    });

    assert.equal(reads, 0, 'the file that runs code is not even read');
    assert.deepEqual(
      result.written.map((e) => e.relPath),
      ['untrusted-ok.txt'],
    );
    assert.ok(!fs.existsSync(path.join(root(), TASKS)));
    const modals = answers.asked.filter((a) => a.modal);
    assert.equal(modals.length, 1, 'no second confirmation: there is nothing to confirm');
    assert.match(
      modals[0].detail ?? '',
      /Refused \.vscode\/tasks\.json: it can run code \(a task can run by itself when the folder opens\), and this workspace is not trusted\./,
    );
    assert.match(result.message ?? '', /Refused: \.vscode\/tasks\.json\./);
  });

  it('den.apply.filesThatRunCode extends the list', async () => {
    const { sessionId } = await fx.seeded('Add lambda parser', 'add-lambda-parser');
    fx.den.emu.putGeneratedFile(sessionId, 'tools/setup.sh', 'echo set up\n');
    const config = vscode.workspace.getConfiguration('den');
    // Without the setting: a plain new file.
    const declined = fx.answer(() => undefined);
    const before = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'tools/setup.sh',
    );
    assert.equal(before?.plan?.entries[0].runsCode, undefined);
    declined.restore();

    await config.update('apply.filesThatRunCode', ['tools/*.sh'], vscode.ConfigurationTarget.Global);
    await waitFor(
      'the setting to be read',
      () => vscode.workspace.getConfiguration('den').get('apply.filesThatRunCode'),
      {
        until: (v) => Array.isArray(v) && v.length === 1,
      },
    );
    const answers = fx.answer(twoAnswers('Apply', undefined));
    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyFile',
      sessionId,
      'tools/setup.sh',
    );

    const modals = answers.asked.filter((a) => a.modal);
    assert.equal(modals.length, 2, JSON.stringify(answers.asked));
    assert.match(
      modals[0].detail ?? '',
      /^1 file can run code.*\ntools\/setup\.sh: the den\.apply\.filesThatRunCode setting lists it\n/,
    );
    assert.equal(result?.written.length, 0);
    assert.ok(!fs.existsSync(path.join(root(), 'tools/setup.sh')));
  });
});

describe('Apply: every refused path, by name', function () {
  this.timeout(30_000);
  const fx = useApply();

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers Show All Refused (18) and lists every refused path and why in a document', async () => {
    const { sessionId } = await fx.seeded('Add mu parser', 'add-mu-parser');
    const hostile = [
      ...Array.from({ length: 14 }, (_, i) => `../escape-${i}.txt`),
      '/etc/passwd',
      '.git/hooks/pre-commit',
      'src/%2e%2e/x.ts',
      'CON.txt',
    ];
    for (const p of hostile) fx.den.emu.putGeneratedFile(sessionId, p, 'x\n');
    const answers = fx.answer((a) => a.buttons.find((b) => b.startsWith('Show All Refused')));

    const result = await vscode.commands.executeCommand<ApplyResult>('den.applySession', sessionId);

    const modal = answers.asked.find((a) => a.modal);
    assert.ok(modal, JSON.stringify(answers.asked));
    assert.ok(modal.buttons.includes('Show All Refused (18)'), JSON.stringify(modal.buttons));
    assert.match(modal.detail ?? '', /Not applied: 18 refused\./);
    assert.match(modal.detail ?? '', /… and 14 more: Show All Refused lists every one\./);
    assert.equal(result?.written.length, 0, 'showing the list is not an answer');
    const doc = await waitFor(
      'the list of refused paths',
      () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'den-apply' && d.uri.path.includes('Refused'),
        ),
      { until: (d) => d !== undefined },
    );
    const text = doc!.getText();
    assert.match(text, /^Den did not apply these 18 paths of the session’s files \(“.+”\) to .+:\n/);
    for (const e of result!.plan!.entries.filter((x) => x.action === 'refused')) {
      assert.ok(e.reason && text.includes(e.reason), `the list names ${e.path} and why`);
    }
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'the list is shown');
    // Asked again, without the modal, so the document stays readable.
    const again = answers.asked.filter((a) => !a.modal);
    assert.ok(
      again.some((a) => a.buttons.includes('Apply') && !a.buttons.some((b) => b.startsWith('Show All'))),
    );
  });
});
