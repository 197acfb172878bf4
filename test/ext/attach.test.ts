import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AttachCommandResult } from '../../src/editor/commands/attach-commands';
import type { SessionPanel } from '../../src/editor/session-panel/session-panel';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { lastTurn, openPanel, seededSession, turnEnded } from './panel-helpers';
import { setDenSetting } from './settings-helpers';

/** A fresh folder inside the opened workspace (dropped URIs must be in the workspace). */
function workspaceDir(): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'the test window has no workspace folder');
  return fs.mkdtempSync(path.join(root, 'den-attach-'));
}

function write(dir: string, rel: string, content: string | Buffer): vscode.Uri {
  const file = path.join(dir, ...rel.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return vscode.Uri.file(file);
}

/** The composer's chips as [name, status]. */
function chips(panel: SessionPanel): [string, string][] {
  return panel.host.view.composer().attachments.map((a) => [a.name, a.status]);
}

/** `vscode.window.withProgress` replaced: records options and reports; `cancel` is the button. */
function stubProgress() {
  const w = vscode.window as unknown as { withProgress: typeof vscode.window.withProgress };
  const saved = w.withProgress;
  const source = new vscode.CancellationTokenSource();
  const calls: { options: vscode.ProgressOptions; reports: { message?: string; increment?: number }[] }[] =
    [];
  w.withProgress = ((options, task) => {
    const call = { options, reports: [] as { message?: string; increment?: number }[] };
    calls.push(call);
    return task({ report: (v) => call.reports.push(v) }, source.token);
  }) as typeof saved;
  return {
    calls,
    cancel: () => source.cancel(),
    restore: () => {
      w.withProgress = saved;
      source.dispose();
    },
  };
}

function attach(...args: unknown[]): Thenable<AttachCommandResult | undefined> {
  return vscode.commands.executeCommand<AttachCommandResult | undefined>('den.attachToSession', ...args);
}

describe('Attach to Den', () => {
  const den = useDen({ through: 'proxy' });
  let dir: string;

  /** Uploads that went over the wire. */
  const uploads = (): number => den.proxy.requests.filter((r) => r.url.startsWith('/media/upload')).length;

  /** The `references` of the last turn sent. */
  const lastReferences = (): unknown => {
    const bodies = den.proxy.requests.filter((r) => r.method === 'POST' && r.url === '/sessions/new');
    return (bodies.at(-1)?.json as { references?: unknown } | undefined)?.references;
  };

  const media = async (key: string): Promise<string> => {
    const res = await fetch(`${den.emu.url}/media/${key}`, {
      headers: { authorization: `Bearer ${den.emu.keys.primary}` },
    });
    return res.text();
  };

  const seededPanel = async (): Promise<SessionPanel> => {
    const panel = await openPanel(den.api, await seededSession(den.api, 'Compare CSV parsing libraries'));
    await waitFor('the history', () => panel.host.loaded);
    return panel;
  };

  const send = async (panel: SessionPanel, text: string): Promise<void> => {
    await panel.handleMessage({ type: 'send', text, mode: 'code', effort: 'fast' });
    await turnEnded(den.api, lastTurn(panel));
  };

  beforeEach(() => {
    dir = workspaceDir();
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('attaches an Explorer multi-selection to the focused panel’s composer, sent with the next turn', async () => {
    const a = write(dir, 'a.ts', 'export const a = 1;\n');
    const b = write(dir, 'notes/b.md', '# B\n');
    const panel = await seededPanel();

    const result = await attach(a, [a, b]);

    assert.equal(result?.sessionId, panel.sessionId, den.messages.texts().join(' | '));
    assert.deepEqual(result?.counts, { uploaded: 2, reused: 0, duplicate: 0, failed: 0, removed: 0 });
    assert.deepEqual(chips(panel), [
      ['a.ts', 'ready'],
      ['b.md', 'ready'],
    ]);
    await send(panel, 'Review these');
    assert.deepEqual(
      lastTurn(panel).userMessage.files.map((f) => f.name),
      ['a.ts', 'b.md'],
    );
    const folder = vscode.workspace.workspaceFolders?.[0]?.name;
    assert.deepEqual(lastReferences(), [
      {
        type: 'file',
        path: vscode.workspace.asRelativePath(a, false),
        folder,
        language: 'typescript',
        attachment: 'a.ts',
      },
      {
        type: 'file',
        path: vscode.workspace.asRelativePath(b, false),
        folder,
        language: 'markdown',
        attachment: 'b.md',
      },
    ]);
    assert.deepEqual(chips(panel), []);
  });

  it('attaches an editor tab’s unsaved text as shown, marked unsaved on the chip and in the reference', async () => {
    const uri = write(dir, 'draft.py', 'print("saved")\n');
    const panel = await seededPanel();
    const editor = await vscode.window.showTextDocument(uri);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# unsaved edit\n'));
    try {
      // The tab's context menu passes the tab's URI and the editor's place.
      const result = await attach(uri, { groupId: 0, editorIndex: 0 });
      assert.equal(result?.sessionId, panel.sessionId, den.messages.texts().join(' | '));
      const [chip] = panel.host.view.composer().attachments;
      assert.deepEqual([chip.name, chip.status, chip.unsaved], ['draft.py', 'ready', true]);
      await send(panel, 'Review the draft');
      assert.equal(await media(`${panel.sessionId}/draft.py`), '# unsaved edit\nprint("saved")\n');
      const [ref] = lastReferences() as Record<string, unknown>[];
      assert.equal(ref.unsaved, true);
      assert.equal(ref.attachment, 'draft.py');
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), 'print("saved")\n', 'the file on disk was changed');
    } finally {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('attaches files and folders dropped on a session in the Sessions view, opening its panel', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('exclude', { '**/*.log': true }, vscode.ConfigurationTarget.Global);
    try {
      const one = write(dir, 'one.txt', 'one\n');
      write(dir, 'src/a.ts', 'a\n');
      write(dir, 'src/lib/c.ts', 'c\n');
      write(dir, 'src/debug.log', 'noise\n');
      write(dir, 'src/node_modules/x/index.js', 'x\n');
      write(dir, 'src/.git/HEAD', 'ref\n');
      const folder = vscode.Uri.file(path.join(dir, 'src'));
      const id = await seededSession(den.api, 'Compare CSV parsing libraries');
      const data = new vscode.DataTransfer();
      data.set('text/uri-list', new vscode.DataTransferItem(`${one.toString()}\r\n${folder.toString()}`));

      await den.api.sessionDrop.handleDrop(
        { kind: 'session', sessionId: id },
        data,
        new vscode.CancellationTokenSource().token,
      );

      const panel = den.api.panels.panel(id);
      assert.ok(panel, 'the session’s panel did not open');
      assert.deepEqual(chips(panel), [
        ['one.txt', 'ready'],
        ['a.ts', 'ready'],
        ['c.ts', 'ready'],
      ]);
    } finally {
      await files.update('exclude', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('asks before attaching a folder of many files', async () => {
    for (let i = 0; i < 51; i++) write(dir, `many/f${String(i).padStart(2, '0')}.txt`, `${i}\n`);
    const folder = vscode.Uri.file(path.join(dir, 'many'));
    const panel = await seededPanel();
    // The captured warning answers nothing: the person closed the dialog.
    assert.equal(await attach({ uri: folder, session: panel.sessionId }), undefined);
    const label = vscode.workspace.asRelativePath(folder, false);
    assert.deepEqual(den.messages.texts('warning'), [`Attach 51 files (143 B) from ${label}?`]);
    assert.deepEqual(chips(panel), []);
    const result = await attach({ uri: folder, session: panel.sessionId, confirmFolders: true });
    assert.equal(result?.counts.uploaded, 51);
    assert.deepEqual(chips(panel)[50], ['f50.txt', 'ready']);
  });

  it('attaches workspace files dropped on the panel, and says which dropped URIs it refused', async () => {
    const a = write(dir, 'a.ts', 'a\n');
    const panel = await seededPanel();
    await panel.handleMessage({
      type: 'dropUris',
      uris: [a.toString(), 'file:///etc/passwd', `${a.toString()}/../../x`, 'https://example.com/a.ts'],
    });
    assert.deepEqual(chips(panel), [['a.ts', 'ready']]);
    const notice = panel.host.view.notice;
    assert.equal(notice?.level, 'warning');
    assert.match(notice?.message ?? '', /passwd: it is not in the workspace/);
    assert.match(notice?.message ?? '', /climbs/);
    assert.match(notice?.message ?? '', /a\.ts: it is not a file \(https scheme\)/);
  });

  it('uploads the same content once per session', async () => {
    const one = write(dir, 'one.txt', 'same\n');
    const copy = write(dir, 'copy.txt', 'same\n');
    const panel = await seededPanel();
    const session = panel.sessionId;

    assert.equal((await attach({ uri: one, session }))?.counts.uploaded, 1);
    assert.equal(
      (await attach({ uri: copy, session }))?.counts.duplicate,
      1,
      'a second chip for the same content',
    );
    assert.equal(uploads(), 1);
    await send(panel, 'Read it');
    // Sent with an earlier turn: the session has it, a chip is ready without an upload.
    assert.equal((await attach({ uri: one, session }))?.counts.reused, 1);
    assert.deepEqual(chips(panel), [['one.txt', 'ready']]);
    assert.equal(uploads(), 1);
    // Changed content is uploaded again.
    write(dir, 'one.txt', 'changed\n');
    panel.host.detach(panel.host.view.composer().attachments[0].id);
    assert.equal((await attach({ uri: one, session }))?.counts.uploaded, 1);
    assert.equal(uploads(), 2);
  });

  it('refuses a file above den.attachments.maxFileSizeMB, naming it and the limit', async () => {
    const big = write(dir, 'big.bin', Buffer.alloc(2 * 1024 * 1024, 1));
    const small = write(dir, 'small.txt', 'ok\n');
    const panel = await seededPanel();
    await setDenSetting(den.api, 'attachments.maxFileSizeMB', 1);
    try {
      const result = await attach({ uris: [big, small], session: panel.sessionId });
      assert.deepEqual(chips(panel), [['small.txt', 'ready']]);
      assert.equal(result?.counts.uploaded, 1);
      assert.equal(
        panel.host.view.notice?.message,
        `${vscode.workspace.asRelativePath(big, false)} (2.0 MB) was not attached: attachments are limited to 1.0 MB each (den.attachments.maxFileSizeMB).`,
      );
      assert.equal(uploads(), 1);
    } finally {
      await setDenSetting(den.api, 'attachments.maxFileSizeMB', undefined);
    }
  });

  it('refuses files that are links leading outside the workspace folder, alone or in a folder', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'den-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'not for the agent\n');
      const kept = write(dir, 'linked/kept.txt', 'inside\n');
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'linked', 'secret.txt'));
      fs.symlinkSync(path.join(dir, 'linked', 'kept.txt'), path.join(dir, 'linked', 'alias.txt'));
      fs.symlinkSync(outside, path.join(dir, 'outside-dir'));
      const lone = vscode.Uri.file(path.join(dir, 'linked', 'secret.txt'));
      const underLink = vscode.Uri.file(path.join(dir, 'outside-dir', 'secret.txt'));
      const panel = await seededPanel();

      const result = await attach({
        uris: [vscode.Uri.file(path.join(dir, 'linked')), lone, underLink],
        session: panel.sessionId,
      });

      // The link inside the folder is followed; it has kept.txt's content, so one chip for both.
      assert.deepEqual(chips(panel), [['alias.txt', 'ready']]);
      assert.equal(result?.counts.uploaded, 1);
      const rel = (p: string): string => vscode.workspace.asRelativePath(vscode.Uri.file(p), false);
      assert.equal(
        panel.host.view.notice?.message,
        `Den did not attach ${rel(lone.fsPath)}, ${rel(underLink.fsPath)}: a link that leads outside its workspace folder.`,
      );
      assert.equal(uploads(), 1);
      await send(panel, 'Read the alias');
      assert.equal(await media(`${panel.sessionId}/alias.txt`), 'inside\n');
      assert.ok(kept);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('shows the upload in a cancellable notification; cancelling stops it and removes its chip', async () => {
    const file = write(dir, 'data.csv', 'a,b\n'.repeat(50_000));
    const panel = await seededPanel();
    const progress = stubProgress();
    const hold = den.proxy.hold((r) => r.url.startsWith('/media/upload'));
    try {
      const done = attach({ uri: file, session: panel.sessionId });
      await waitFor('the upload to be under way', () => hold.held === 1);
      assert.deepEqual(chips(panel), [['data.csv', 'uploading']]);
      const [call] = progress.calls;
      assert.equal((call.options as { cancellable?: boolean }).cancellable, true);
      assert.equal(call.options.title, 'Den: attaching data.csv');
      await waitFor('a progress report', () => call.reports.length > 0);
      // The title names the one file; the message does not repeat it.
      assert.match(call.reports[0].message ?? '', /^[\d.]+ (B|KB) of 195 KB$/);
      progress.cancel();
      const result = await done;
      assert.equal(result?.counts.removed, 1);
      assert.deepEqual(chips(panel), []);
    } finally {
      hold.release();
      progress.restore();
    }
  });

  it('asks which session when no panel is open; a new session’s panel opens with the chips', async () => {
    const a = write(dir, 'a.ts', 'a\n');
    const w = vscode.window as unknown as { showQuickPick: (items: unknown) => Promise<unknown> };
    const saved = w.showQuickPick;
    let asked = 0;
    w.showQuickPick = async (items) => {
      asked++;
      return ((await items) as unknown[])[0];
    };
    try {
      const result = await attach(a, [a]);
      assert.equal(asked, 1);
      assert.ok(result, den.messages.texts().join(' | '));
      const panel = den.api.panels.panel(result.sessionId);
      assert.ok(panel);
      assert.deepEqual(chips(panel), [['a.ts', 'ready']]);
      // Not on the service until its first turn: loading it is no failure.
      await panel.host.load();
      assert.equal(panel.host.view.failure, undefined);
      await send(panel, 'What is a?');
      assert.deepEqual(
        lastTurn(panel).userMessage.files.map((f) => f.name),
        ['a.ts'],
      );
    } finally {
      w.showQuickPick = saved;
    }
  });
});
