import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../support/wait';
import { sessionFileShownAt } from '../../src/editor/session-files/session-fs';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { lastTurn, openPanel, seededSession, turnEnded } from './panel-helpers';
import { labelOf, rows } from './tree-helpers';

const SEEDED = 'Refactor auth middleware';

/** A 1×1 transparent PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface StoredFile {
  key: string;
  name: string;
  size: number;
  updatedAt?: number;
}

describe('den-session: generated files as a read-only file system', () => {
  const den = useDen();

  const uri = (sessionId: string, path = ''): vscode.Uri =>
    vscode.Uri.from({ scheme: 'den-session', path: path ? `/${sessionId}/${path}` : `/${sessionId}` });

  /** The session's stored snapshot as path → file (the emulator keys it `<session>/<path>`). */
  async function storedFiles(sessionId: string): Promise<Map<string, StoredFile>> {
    const body = (await emuFetch(den.emu, `/sessions/${sessionId}`)).body as {
      session: { fileSnapshot: Record<string, StoredFile> };
    };
    return new Map(
      Object.entries(body.session.fileSnapshot).map(([k, f]) => [k.slice(sessionId.length + 1), f]),
    );
  }

  /** A file's bytes as the emulator serves them. */
  async function served(key: string): Promise<Buffer> {
    const res = await fetch(`${den.emu.url}/media/${key}`, {
      headers: { authorization: `Bearer ${den.emu.keys.primary}` },
    });
    assert.equal(res.status, 200, `GET /media/${key}`);
    return Buffer.from(await res.arrayBuffer());
  }

  async function fsCode(p: Thenable<unknown>): Promise<string> {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof vscode.FileSystemError, `not a FileSystemError: ${String(err)}`);
      return err.code;
    }
    assert.fail('it did not fail');
  }

  it("stats, lists and reads a session's files: read-only, directories from the paths, the service's bytes", async () => {
    const id = await seededSession(den.api, SEEDED);
    const stored = await storedFiles(id);
    assert.ok(stored.size > 0, 'the seeded session has no files');
    for (const [path, file] of stored) {
      const st = await vscode.workspace.fs.stat(uri(id, path));
      assert.equal(st.type, vscode.FileType.File);
      assert.equal(st.size, file.size);
      assert.equal(st.mtime, file.updatedAt);
      assert.equal(st.permissions, vscode.FilePermission.Readonly);
      assert.deepEqual(
        Buffer.from(await vscode.workspace.fs.readFile(uri(id, path))),
        await served(file.key),
      );
    }
    const tops = new Map<string, vscode.FileType>();
    for (const path of stored.keys()) {
      const [first, ...rest] = path.split('/');
      tops.set(first, rest.length ? vscode.FileType.Directory : vscode.FileType.File);
    }
    const listed = await vscode.workspace.fs.readDirectory(uri(id));
    assert.deepEqual(new Map(listed), tops);
    const dir = [...tops].find(([, t]) => t === vscode.FileType.Directory)?.[0];
    if (dir) {
      const st = await vscode.workspace.fs.stat(uri(id, dir));
      assert.equal(st.type, vscode.FileType.Directory);
      const inside = await vscode.workspace.fs.readDirectory(uri(id, dir));
      assert.ok(inside.length > 0);
    }
    const root = await vscode.workspace.fs.readDirectory(
      vscode.Uri.from({ scheme: 'den-session', path: '/' }),
    );
    assert.ok(
      root.some(([name]) => name === id),
      'the root does not list the session',
    );
  });

  it('says FileNotFound for unknown paths and sessions, and refuses every write with NoPermissions', async () => {
    const id = await seededSession(den.api, SEEDED);
    const [path] = (await storedFiles(id)).keys();
    assert.equal(await fsCode(vscode.workspace.fs.stat(uri(id, 'no/such/file.ts'))), 'FileNotFound');
    assert.equal(await fsCode(vscode.workspace.fs.readFile(uri(id, 'no/such/file.ts'))), 'FileNotFound');
    assert.equal(
      await fsCode(vscode.workspace.fs.stat(uri('00000000-0000-4000-8000-000000000000', 'a.ts'))),
      'FileNotFound',
    );
    const target = uri(id, path);
    const provider = den.api.files;
    for (const attempt of [
      () => provider.writeFile(target),
      () => provider.delete(target),
      () => provider.rename(target),
      () => provider.createDirectory(uri(id, 'new-dir')),
    ]) {
      assert.throws(
        attempt,
        (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'NoPermissions',
      );
    }
    // Through VS Code's file service too, which knows the provider is read-only.
    assert.equal(await fsCode(vscode.workspace.fs.writeFile(target, Buffer.from('x'))), 'NoPermissions');
    assert.equal(await fsCode(vscode.workspace.fs.delete(target)), 'NoPermissions');
    assert.ok((await vscode.workspace.fs.readFile(target)).length > 0, 'the file is gone');
  });

  it("opens a binary file in VS Code's own image viewer, with the service's bytes", async () => {
    const id = await seededSession(den.api, SEEDED);
    den.emu.putGeneratedFile(id, 'assets/pixel.png', PIXEL);
    const target = uri(id, 'assets/pixel.png');
    assert.deepEqual(Buffer.from(await vscode.workspace.fs.readFile(target)), PIXEL);
    assert.equal(
      await vscode.commands.executeCommand('den.openGeneratedFile', id, 'assets/pixel.png'),
      'opened',
    );
    const tab = await waitFor('the image preview', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.toString() === target.toString()
        ? input
        : undefined;
    });
    assert.equal(tab.viewType, 'imagePreview.previewEditor');
    assert.equal(
      vscode.workspace.textDocuments.some((d) => d.uri.toString() === target.toString()),
      false,
      'the image was opened as a text document',
    );
    assert.deepEqual(den.messages.shown, []);
  });

  it("reports a live turn's sandbox.snapshot as Created, and the same files written again as Changed", async () => {
    const id = await seededSession(den.api, SEEDED);
    const before = await vscode.workspace.fs.readDirectory(uri(id)); // the index is known now
    assert.ok(before.length > 0);
    const seen: vscode.FileChangeEvent[] = [];
    const sub = den.api.files.onDidChangeFile((e) => seen.push(...e));
    try {
      const task = 'Write a tokenizer module';
      const panel = await openPanel(den.api, id, { turn: { task, mode: 'code' } });
      const first = lastTurn(panel);
      await turnEnded(den.api, first);
      const written = first.files.map((f) => f.path);
      assert.ok(written.length > 0, 'the coding turn wrote no file');
      const of = (type: vscode.FileChangeType) =>
        seen.filter((e) => e.type === type).map((e) => e.uri.toString());
      await waitFor('Created events for the written files', () =>
        written.every((p) => of(vscode.FileChangeType.Created).includes(uri(id, p).toString())),
      );
      for (const p of written) {
        const file = (await storedFiles(id)).get(p);
        assert.ok(file, `${p} is not stored`);
        assert.deepEqual(Buffer.from(await vscode.workspace.fs.readFile(uri(id, p))), await served(file.key));
      }

      // A file read as Review shows it (under a workspace path) hears of its changes there too.
      const shownAt = sessionFileShownAt(uri(id, written[0]), vscode.Uri.file(`/work/ws/${written[0]}`));
      assert.ok(shownAt);
      assert.deepEqual(
        Buffer.from(await vscode.workspace.fs.readFile(shownAt)),
        Buffer.from(await vscode.workspace.fs.readFile(uri(id, written[0]))),
      );

      seen.length = 0;
      await panel.handleMessage({ type: 'send', text: task, mode: 'code', effort: 'fast' });
      const second = lastTurn(panel);
      assert.notEqual(second, first);
      await turnEnded(den.api, second);
      await waitFor('Changed events for the files written again', () =>
        written.every((p) => of(vscode.FileChangeType.Changed).includes(uri(id, p).toString())),
      );
      assert.ok(
        of(vscode.FileChangeType.Changed).includes(shownAt.toString()),
        'no Changed event for the shown-at URI',
      );
      assert.deepEqual(of(vscode.FileChangeType.Created), []);
    } finally {
      sub.dispose();
    }
  });

  it("opens a file of the Sessions tree's Files node through den-session:", async () => {
    const session = (await rows(den.api)).find((r) => labelOf(r.item) === SEEDED);
    assert.ok(session, `no "${SEEDED}" row`);
    const id = (session.node as { sessionId: string }).sessionId;
    const [, filesGroup] = await rows(den.api, session.node);
    const [file] = await rows(den.api, filesGroup.node);
    assert.equal(file.item.resourceUri?.scheme, 'den-session');
    const command = file.item.command;
    assert.equal(command?.command, 'den.openGeneratedFile');
    const path = String(command.arguments?.[1]);
    assert.equal(file.item.resourceUri?.toString(), uri(id, path).toString());
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const doc = await waitFor('the file in an editor', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.toString() === uri(id, path).toString() ? d : undefined;
    });
    const stored = (await storedFiles(id)).get(path);
    assert.ok(stored);
    assert.equal(doc.getText(), (await served(stored.key)).toString('utf8'));
    assert.deepEqual(den.messages.shown, []);
  });
});
