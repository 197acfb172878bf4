import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { choiceItems } from '../../src/editor/attachments/session-choice';
import type { Session } from '../../src/core/client/types';
import { waitFor } from '../support/wait';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';

type Item = vscode.QuickPickItem & { choice?: { kind: string; sessionId?: string } };

/** Answers the input box and the quick pick as a person would; records what they were shown. */
interface Prompts {
  inputs: vscode.InputBoxOptions[];
  picks: Item[][];
  restore(): void;
}

function answerPrompts(input: string | undefined, pick: (items: Item[]) => Item | undefined): Prompts {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = { showInputBox: w.showInputBox, showQuickPick: w.showQuickPick };
  const inputs: vscode.InputBoxOptions[] = [];
  const picks: Item[][] = [];
  w.showInputBox = async (opts: vscode.InputBoxOptions) => {
    inputs.push(opts);
    return input;
  };
  w.showQuickPick = async (items: Item[] | Thenable<Item[]>) => {
    const list = await items;
    picks.push(list);
    return pick(list);
  };
  return {
    inputs,
    picks,
    restore: () => Object.assign(w, saved),
  };
}

function session(id: string, title: string, updatedAt: number): Session {
  return {
    id,
    sessionId: id,
    title,
    createdAt: updatedAt,
    updatedAt,
    deleted: false,
    isPinned: false,
    fileSnapshot: {},
  };
}

describe('Turn commands: prompts', () => {
  const den = useDen({ through: 'proxy', spyOnPanels: true });
  let prompts: Prompts | undefined;
  let dir: string;

  beforeEach(() => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the test window has no workspace folder');
    dir = fs.mkdtempSync(path.join(root, 'den-prompts-'));
  });

  afterEach(() => {
    prompts?.restore();
    prompts = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Ask About Selection asks what to ask, then offers New session first and continues the session picked', async () => {
    const file = path.join(dir, 'sum.js');
    fs.writeFileSync(file, 'function sum(a, b) {\n  return a - b;\n}\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(1, 2, 1, 15);
    const { body } = await emuFetch(den.emu, '/sessions?limit=100');
    const target = (body.sessions as { sessionId: string; title: string }[]).find(
      (s) => s.title === 'Fix flaky upload test',
    );
    assert.ok(target, 'the seeded session is missing');
    prompts = answerPrompts('Why does this subtract?', (items) =>
      items.find((i) => i.choice?.sessionId === target.sessionId),
    );

    const sessionId = await vscode.commands.executeCommand<string>('den.askAboutSelection');

    assert.equal(sessionId, target.sessionId, den.messages.texts().join(' | '));
    assert.equal(prompts.inputs[0]?.placeHolder, 'Explain this, find the bug, add tests…');
    const labels = prompts.picks[0].map((i) => i.label);
    assert.match(labels[0], /New session/);
    assert.ok(
      labels.some((l) => l === 'Fix flaky upload test'),
      labels.join(', '),
    );
    const call = den.panels.calls.find((c) => c.sessionId === target.sessionId);
    assert.equal(call?.options.turn?.task, 'Why does this subtract?');
    assert.deepEqual(
      call?.options.turn?.files?.map((f) => f.name),
      ['sum-L2.js'],
    );
    const upload = den.proxy.requests.find((r) => r.method === 'PUT' && r.url === '/media/upload');
    assert.ok(upload, 'nothing was uploaded');
  });

  it('Ask Agent About File from an Explorer multi-selection sends every selected file in a new session', async () => {
    const a = path.join(dir, 'one.txt');
    const b = path.join(dir, 'two.txt');
    fs.writeFileSync(a, 'first\n');
    fs.writeFileSync(b, 'second\n');
    prompts = answerPrompts('Compare these', (items) => items[0]);

    const sessionId = await vscode.commands.executeCommand<string>(
      'den.sendFileToAgent',
      vscode.Uri.file(a),
      [vscode.Uri.file(a), vscode.Uri.file(b)],
    );

    assert.ok(sessionId, den.messages.texts().join(' | '));
    const call = den.panels.calls.find((c) => c.sessionId === sessionId);
    assert.equal(call?.options.title, 'Compare these');
    assert.deepEqual(
      call?.options.turn?.files?.map((f) => [f.name, f.size]),
      [
        ['one.txt', 6],
        ['two.txt', 7],
      ],
    );
    const detail = await waitFor('the new session on the service', async () => {
      const r = await emuFetch(den.emu, `/sessions/${sessionId}`);
      return r.status === 200 ? r.body : undefined;
    });
    assert.equal((detail.messages as { content: string }[])[0].content, 'Compare these');
  });

  it('Dismissing the question uploads nothing and starts nothing', async () => {
    const file = path.join(dir, 'x.md');
    fs.writeFileSync(file, '# x\n');
    prompts = answerPrompts(undefined, (items) => items[0]);
    den.proxy.requests.length = 0;

    const result = await vscode.commands.executeCommand('den.sendFileToAgent', vscode.Uri.file(file));

    assert.equal(result, undefined);
    assert.equal(prompts.inputs.length, 1);
    assert.deepEqual(prompts.picks, [], 'the session was asked for after the question was dismissed');
    assert.deepEqual(den.proxy.requests, []);
    assert.deepEqual(den.panels.calls, []);
    assert.deepEqual(den.messages.shown, []);
  });

  it('The session pick lists New session, then sessions with a running turn marked, then the most recent', () => {
    const sessions = [
      session('old', 'Old work', 1_000),
      session('recent', 'Recent work', 3_000),
      session('busy', 'Busy work', 2_000),
    ];
    const running = [
      { sessionId: 'busy', agentMessageId: 'm1', title: 'Busy work', task: 't' },
      { sessionId: 'fresh', agentMessageId: 'm2', title: '', task: 'Just started this\nsecond line' },
    ];

    const items = choiceItems(sessions, running) as Item[];

    const rows = items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator);
    assert.deepEqual(
      rows.map((i) => [i.label, i.choice?.kind === 'existing' ? i.choice.sessionId : i.choice?.kind]),
      [
        ['$(add) New session', 'new'],
        ['$(sync~spin) Just started this', 'fresh'],
        ['$(sync~spin) Busy work', 'busy'],
        ['Recent work', 'recent'],
        ['Old work', 'old'],
      ],
    );
    assert.match(rows[2].description ?? '', /turn running/);
  });
});
