import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TurnFile } from '../../src/core/client/types';
import type { PanelTurnRequest } from '../../src/editor/session-panel/session-panels';
import { type Emulator } from '../emulator';
import { waitFor } from '../support/wait';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { type RecordingProxy, startRecordingProxy } from './network-helpers';
import type { PanelOpenCall, PanelSpy } from './panel-helpers';
import { setDenSetting } from './settings-helpers';
import { resetDen, signIn } from './sign-in-helpers';

/** A fresh folder inside the opened workspace (so paths are reported workspace-relative). */
function workspaceDir(): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'the test window has no workspace folder');
  return fs.mkdtempSync(path.join(root, 'den-turns-'));
}

/** The one `panels.open` call for a session. */
function openCall(spy: PanelSpy, sessionId: string): PanelOpenCall {
  const calls = spy.calls.filter((c) => c.sessionId === sessionId);
  assert.equal(calls.length, 1, `panels.open calls for ${sessionId}: ${JSON.stringify(spy.calls)}`);
  return calls[0];
}

interface StoredMessage {
  type: string;
  content: string;
  inputMode?: string;
  files: TurnFile[];
}

/** The stored messages of a session, once it has at least `count` of them. */
async function storedMessages(emu: Emulator, sessionId: string, count = 1): Promise<StoredMessage[]> {
  return waitFor(`session ${sessionId} to have ${count} message(s)`, async () => {
    const { status, body } = await emuFetch(emu, `/sessions/${sessionId}`);
    const msgs = (body.messages ?? []) as StoredMessage[];
    return status === 200 && msgs.length >= count ? msgs : undefined;
  });
}

/** The name of the test window's workspace folder (sent as a reference's `folder`). */
function folderName(): string {
  const name = vscode.workspace.workspaceFolders?.[0]?.name;
  assert.ok(name, 'the test window has no workspace folder');
  return name;
}

/** The `references` of a session's first turn as the emulator received them (its `message.received`). */
async function receivedReferences(emu: Emulator, sessionId: string): Promise<unknown> {
  const { body } = await emuFetch(emu, `/sessions/${sessionId}`);
  const agent = (
    body.messages as { type: string; events: { kind: string; payload: { references?: unknown } }[] }[]
  ).find((m) => m.type === 'agent');
  return agent?.events.find((e) => e.kind === 'message.received')?.payload.references;
}

/** The content the emulator keeps for an uploaded key. */
async function media(emu: Emulator, key: string): Promise<{ status: number; text: string }> {
  const url = `${emu.url}/media/${key.split('/').map(encodeURIComponent).join('/')}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${emu.keys.primary}` } });
  return { status: res.status, text: await res.text() };
}

/** The `POST /sessions/new` bodies that went over the wire. */
function turnBodies(proxy: RecordingProxy): Record<string, unknown>[] {
  return proxy.requests
    .filter((r) => r.method === 'POST' && r.url === '/sessions/new' && r.json)
    .map((r) => r.json as Record<string, unknown>);
}

function lines(n: number, tag: string): string {
  return (
    Array.from({ length: n }, (_, i) => `const ${tag}${i + 1} = ${i + 1}; // line ${i + 1}`).join('\n') + '\n'
  );
}

describe('Turn commands', () => {
  const den = useDen({ through: 'proxy', spyOnPanels: true });
  let dir: string;

  beforeEach(() => {
    dir = workspaceDir();
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Ask About Selection uploads the selected lines and starts a code turn with the file and a selection reference', async () => {
    const file = path.join(dir, 'calc.ts');
    fs.writeFileSync(file, lines(50, 'v'));
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    // Lines 12–40 selected as whole lines: the selection ends at column 0 of line 41.
    editor.selection = new vscode.Selection(11, 0, 40, 0);
    const selected = editor.document.getText(new vscode.Range(11, 0, 39, 1000));

    const sessionId = await vscode.commands.executeCommand<string>('den.askAboutSelection', {
      task: 'Find the bug in this',
      session: 'new',
    });

    assert.ok(sessionId, `no session id; messages: ${den.messages.texts().join(' | ')}`);
    const call = openCall(den.panels, sessionId);
    assert.equal(call.options.title, 'Find the bug in this');
    const turn = call.options.turn as PanelTurnRequest;
    assert.equal(turn.task, 'Find the bug in this');
    assert.equal(turn.mode, 'code');
    assert.equal(turn.effort, den.api.connection.settings.defaultEffort);
    const relPath = vscode.workspace.asRelativePath(file, false);
    const expectedFile = {
      key: `${sessionId}/calc-L12-L40.ts`,
      name: 'calc-L12-L40.ts',
      type: 'text/x-typescript',
      size: Buffer.byteLength(selected),
    };
    assert.deepEqual(turn.files, [expectedFile]);
    const expectedRef = {
      type: 'selection',
      path: relPath,
      folder: folderName(),
      language: 'typescript',
      range: { startLine: 12, startCharacter: 0, endLine: 40, endCharacter: selected.split('\n')[28].length },
      attachment: 'calc-L12-L40.ts',
    };
    assert.deepEqual(turn.references, [expectedRef]);

    // The service has the bytes, and the turn that reached it carries files, references and mode.
    assert.deepEqual(await media(den.emu, expectedFile.key), { status: 200, text: selected });
    const [user] = await storedMessages(den.emu, sessionId);
    assert.equal(user.type, 'user');
    assert.equal(user.content, 'Find the bug in this');
    assert.equal(user.inputMode, 'code');
    assert.deepEqual(user.files, [expectedFile]);
    const [body] = turnBodies(den.proxy);
    assert.deepEqual(body.references, [expectedRef]);
    assert.deepEqual(await receivedReferences(den.emu, sessionId), [expectedRef]);
    assert.equal(body.mode, 'code');
    assert.deepEqual(den.messages.texts('error'), []);
  });

  it('Ask About Selection continues an existing session when given its id, without renaming it', async () => {
    const listed = await emuFetch(den.emu, '/sessions?limit=1');
    const existing = (listed.body.sessions as { sessionId: string }[])[0].sessionId;
    const before = (await storedMessages(den.emu, existing)).length;
    const file = path.join(dir, 'notes.md');
    fs.writeFileSync(file, '# Notes\n\nSome text.\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(2, 0, 2, 4);

    const sessionId = await vscode.commands.executeCommand<string>('den.askAboutSelection', {
      task: 'Rephrase this',
      session: existing,
    });

    assert.equal(sessionId, existing);
    const call = openCall(den.panels, existing);
    assert.equal(call.options.title, undefined);
    assert.deepEqual(
      call.options.turn?.files?.map((f) => f.name),
      ['notes-L3.md'],
    );
    const msgs = await storedMessages(den.emu, existing, before + 1);
    const user = msgs.filter((m) => m.type === 'user').pop();
    assert.equal(user?.content, 'Rephrase this');
    assert.equal((await media(den.emu, `${existing}/notes-L3.md`)).text, 'Some');
  });

  it('Ask Agent About File streams the file from disk and reports a file reference', async () => {
    const file = path.join(dir, 'data file.json');
    const content = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i })) });
    fs.writeFileSync(file, content);

    const sessionId = await vscode.commands.executeCommand<string>('den.sendFileToAgent', {
      uri: vscode.Uri.file(file),
      task: 'Summarize this data',
      session: 'new',
    });

    assert.ok(sessionId, den.messages.texts().join(' | '));
    const turn = openCall(den.panels, sessionId).options.turn as PanelTurnRequest;
    assert.equal(turn.mode, 'code');
    assert.deepEqual(turn.files, [
      {
        key: `${sessionId}/data file.json`,
        name: 'data file.json',
        type: 'application/json',
        size: content.length,
      },
    ]);
    assert.deepEqual(turn.references, [
      {
        type: 'file',
        path: vscode.workspace.asRelativePath(file, false),
        folder: folderName(),
        language: 'json',
        attachment: 'data file.json',
      },
    ]);
    assert.equal((await media(den.emu, `${sessionId}/data file.json`)).text, content);
    const [user] = await storedMessages(den.emu, sessionId);
    assert.deepEqual(
      user.files.map((f) => [f.name, f.size]),
      [['data file.json', content.length]],
    );
  });

  it('references name files by workspace folder and relative path, never by an absolute local path', async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const inside = path.join(dir, 'src', 'cart.ts');
    fs.mkdirSync(path.dirname(inside), { recursive: true });
    fs.writeFileSync(inside, lines(5, 'c'));
    const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-outside-'));
    const outside = path.join(outsideDir, 'private notes.txt');
    fs.writeFileSync(outside, 'not in the workspace\n');
    try {
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(inside));
      editor.selection = new vscode.Selection(1, 0, 2, 5);
      const first = await vscode.commands.executeCommand<string>('den.askAboutSelection', {
        task: 'Explain',
        session: 'new',
      });
      const second = await vscode.commands.executeCommand<string>('den.sendFileToAgent', {
        uri: vscode.Uri.file(outside),
        task: 'Read my notes',
        session: 'new',
      });
      assert.ok(first && second, den.messages.texts().join(' | '));

      await storedMessages(den.emu, first);
      assert.deepEqual(await receivedReferences(den.emu, first), [
        {
          type: 'selection',
          path: `${path.basename(dir)}/src/cart.ts`,
          folder: folderName(),
          language: 'typescript',
          range: { startLine: 2, startCharacter: 0, endLine: 3, endCharacter: 5 },
          attachment: 'cart-L2-L3.ts',
        },
      ]);
      // Outside the workspace: the file's name only, no folder.
      await storedMessages(den.emu, second);
      assert.deepEqual(await receivedReferences(den.emu, second), [
        { type: 'file', path: 'private notes.txt', language: 'plaintext', attachment: 'private notes.txt' },
      ]);
      const wire = JSON.stringify(turnBodies(den.proxy));
      for (const local of [root, outsideDir, os.homedir(), 'file:'].filter((p) => p.length > 1)) {
        assert.ok(!wire.includes(local), `a turn request carried ${local}: ${wire}`);
      }
    } finally {
      fs.rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it("Ask Agent About File sends an editor's unsaved text and says so in the reference", async () => {
    const file = path.join(dir, 'draft.py');
    fs.writeFileSync(file, 'print("saved")\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# unsaved edit\n'));
    assert.ok(editor.document.isDirty);
    try {
      const sessionId = await vscode.commands.executeCommand<string>('den.sendFileToAgent', {
        task: 'Review the draft',
        session: 'new',
      });

      assert.ok(sessionId, den.messages.texts().join(' | '));
      const turn = openCall(den.panels, sessionId).options.turn as PanelTurnRequest;
      assert.equal((await media(den.emu, `${sessionId}/draft.py`)).text, '# unsaved edit\nprint("saved")\n');
      assert.equal(turn.references?.[0].unsaved, true);
      assert.equal(turn.references?.[0].type, 'file');
      assert.equal(turn.references?.[0].language, 'python');
      assert.equal(fs.readFileSync(file, 'utf8'), 'print("saved")\n', 'the file on disk was changed');
    } finally {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it("Ask Agent About Open Editors attaches every open editor's file to one turn under distinct names", async () => {
    const files = [
      [path.join(dir, 'a', 'util.ts'), 'export const a = 1;\n'],
      [path.join(dir, 'b', 'util.ts'), 'export const b = 2;\n'],
      [path.join(dir, 'README.md'), '# Read me\n'],
    ];
    for (const [f, text] of files) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, text);
      await vscode.window.showTextDocument(vscode.Uri.file(f), { preview: false });
    }

    const sessionId = await vscode.commands.executeCommand<string>('den.sendOpenEditorsToAgent', {
      task: 'Make these consistent',
      session: 'new',
    });

    assert.ok(sessionId, den.messages.texts().join(' | '));
    const turn = openCall(den.panels, sessionId).options.turn as PanelTurnRequest;
    const byName = new Map(turn.files?.map((f) => [f.name, f]));
    assert.deepEqual([...byName.keys()].sort(), ['README.md', 'util-2.ts', 'util.ts']);
    const refs = turn.references ?? [];
    assert.equal(refs.length, 3);
    for (const [f, text] of files) {
      const ref = refs.find((r) => r.path === vscode.workspace.asRelativePath(f, false));
      assert.ok(ref, `no reference for ${f}`);
      assert.equal(ref.type, 'file');
      const name = String(ref.attachment);
      assert.equal((await media(den.emu, `${sessionId}/${name}`)).text, text, name);
    }
    const [user] = await storedMessages(den.emu, sessionId);
    assert.equal(user.files.length, 3);
  });

  it('New Session with a task argument starts a new session whose first turn has the task, in the default mode', async () => {
    await setDenSetting(den.api, 'defaultMode', 'slides');
    try {
      assert.equal(den.api.connection.settings.defaultMode, 'slides');
      const task = 'Outline a talk about testing\nwith three parts';

      const sessionId = await vscode.commands.executeCommand<string>('den.newSession', task);

      assert.ok(sessionId, den.messages.texts().join(' | '));
      const call = openCall(den.panels, sessionId);
      assert.deepEqual(call.options.turn, {
        task,
        mode: 'slides',
        effort: den.api.connection.settings.defaultEffort,
      });
      assert.equal(call.options.title, 'Outline a talk about testing');
      const [user] = await storedMessages(den.emu, sessionId);
      assert.equal(user.content, task);
      assert.equal(user.inputMode, 'slides');
      const { body } = await emuFetch(den.emu, `/sessions/${sessionId}`);
      assert.match((body.session as { title: string }).title, /Outline a talk/);
    } finally {
      await setDenSetting(den.api, 'defaultMode', undefined);
    }
  });

  it('New Session with a blank task says so and makes no request', async () => {
    den.proxy.requests.length = 0;
    const result = await vscode.commands.executeCommand('den.newSession', '   ');
    assert.equal(result, undefined);
    assert.match(den.messages.texts().join('\n'), /task is empty/);
    assert.deepEqual(den.panels.calls, []);
    assert.deepEqual(den.proxy.requests, []);
  });

  it('Signed out, the commands make no request and show the sign-in message', async () => {
    await resetDen(den.api);
    await vscode.workspace
      .getConfiguration('den')
      .update('baseUrl', den.proxy.url, vscode.ConfigurationTarget.Global);
    await waitFor('state signed-out', () => den.api.connection.state.kind === 'signed-out');
    const file = path.join(dir, 'x.ts');
    fs.writeFileSync(file, 'let x = 1;\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(0, 0, 0, 5);
    den.proxy.requests.length = 0;

    const results = [
      await vscode.commands.executeCommand('den.askAboutSelection', { task: 'Explain', session: 'new' }),
      await vscode.commands.executeCommand('den.sendFileToAgent', {
        uri: vscode.Uri.file(file),
        task: 'Explain',
        session: 'new',
      }),
      await vscode.commands.executeCommand('den.sendOpenEditorsToAgent', { task: 'Explain', session: 'new' }),
      await vscode.commands.executeCommand('den.newSession', 'Explain'),
    ];

    assert.deepEqual(results, [undefined, undefined, undefined, undefined]);
    assert.deepEqual(den.proxy.requests, []);
    assert.deepEqual(den.panels.calls, []);
    const shown = den.messages.shown.map((m) => m.text);
    assert.equal(shown.length, 4);
    for (const text of shown) assert.match(text, /Sign in first/);
  });

  it('Unconfigured, a command asks for the service URL and makes no request', async () => {
    await resetDen(den.api);
    den.proxy.requests.length = 0;
    const result = await vscode.commands.executeCommand('den.newSession', 'Explain');
    assert.equal(result, undefined);
    assert.deepEqual(den.proxy.requests, []);
    assert.match(den.messages.texts().join('\n'), /service URL/);
  });

  it('When the service cannot be reached, the upload fails with a message and no turn starts', async () => {
    const dead = await startRecordingProxy(den.emu.url);
    const deadUrl = dead.url;
    await dead.close();
    await signIn(den.api, deadUrl, den.emu.keys.primary);
    const file = path.join(dir, 'y.ts');
    fs.writeFileSync(file, 'let y = 2;\n');

    const result = await vscode.commands.executeCommand('den.sendFileToAgent', {
      uri: vscode.Uri.file(file),
      task: 'Explain',
      session: 'new',
    });

    assert.equal(result, undefined);
    assert.deepEqual(den.panels.calls, []);
    assert.match(
      den.messages.texts().join('\n'),
      /could not ask about the file: the service cannot be reached/,
    );
  });
});
