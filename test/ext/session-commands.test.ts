import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../emulator';
import { waitFor } from '../support/wait';
import type { DenApi } from './den-api';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { resetDen, signIn } from './sign-in-helpers';
import { labelOf, type Row, rows, sessionIds } from './tree-helpers';

async function sessionRow(api: DenApi, title: string): Promise<Row & { id: string }> {
  const row = (await rows(api)).find((r) => r.node.kind === 'session' && labelOf(r.item) === title);
  assert.ok(row && row.node.kind === 'session', `no session "${title}" in the tree`);
  return { ...row, id: row.node.sessionId };
}

async function serverTitle(emu: Emulator, id: string): Promise<string> {
  const { body } = await emuFetch(emu, `/sessions/${id}`);
  return (body.session as { title: string }).title;
}

describe('Session commands', () => {
  // A fresh service per test: these tests change its data.
  const den = useDen();

  it('Rename Session changes the title on the service and in the tree', async () => {
    const s = await sessionRow(den.api, 'Fix flaky upload test');
    await vscode.commands.executeCommand('den.renameSession', s.id, '  Upload test: fixed the race  ');
    assert.equal(await serverTitle(den.emu, s.id), 'Upload test: fixed the race');
    assert.equal(den.api.sessions.get(s.id)?.title, 'Upload test: fixed the race');
    assert.equal(
      labelOf(den.api.sessions.getTreeItem(s.node) as vscode.TreeItem),
      'Upload test: fixed the race',
    );
    assert.deepEqual(den.messages.shown, []);
  });

  it('Rename Session accepts the tree node it is invoked on', async () => {
    const s = await sessionRow(den.api, 'Compare CSV parsing libraries');
    await vscode.commands.executeCommand('den.renameSession', s.node, 'CSV parsers compared');
    assert.equal(await serverTitle(den.emu, s.id), 'CSV parsers compared');
  });

  it('Rename Session rejects an empty title with a message saying so and changes nothing', async () => {
    const s = await sessionRow(den.api, 'Fix flaky upload test');
    await vscode.commands.executeCommand('den.renameSession', s.id, '   ');
    assert.equal(await serverTitle(den.emu, s.id), 'Fix flaky upload test');
    assert.equal(den.api.sessions.get(s.id)?.title, 'Fix flaky upload test');
    const shown = den.messages.texts().join('\n');
    assert.match(shown, /title cannot be empty/i);
    assert.doesNotMatch(shown, /cannot be reached/, 'a validation problem is reported as a network failure');
  });

  it('Delete Session with confirmation deletes it on the service and removes it from the tree', async () => {
    const s = await sessionRow(den.api, 'Set up CI dependency caching');
    const before = sessionIds(await rows(den.api)).length;
    await vscode.commands.executeCommand('den.deleteSession', s.id, true);
    const after = sessionIds(await rows(den.api));
    assert.equal(after.length, before - 1);
    assert.ok(!after.includes(s.id));
    assert.equal((await emuFetch(den.emu, `/sessions/${s.id}`)).status, 404);
    // Still gone after a full reload from the service.
    await vscode.commands.executeCommand('den.refreshSessions');
    assert.ok(!sessionIds(await rows(den.api)).includes(s.id));
  });

  it('Delete Session asks first and deletes nothing when the question is dismissed', async () => {
    const s = await sessionRow(den.api, 'Set up CI dependency caching');
    await vscode.commands.executeCommand('den.deleteSession', s.id);
    assert.match(
      den.messages.texts('warning').join('\n'),
      /Delete the session “Set up CI dependency caching”\?/,
    );
    assert.equal((await emuFetch(den.emu, `/sessions/${s.id}`)).status, 200);
    assert.ok(sessionIds(await rows(den.api)).includes(s.id));
  });

  it('Export Session as Markdown shows the session as a read-only den-export: Markdown document with its prompts', async () => {
    const s = await sessionRow(den.api, 'Refactor auth middleware');
    await vscode.commands.executeCommand('den.exportSession', s.id);
    const doc = await waitFor('a den-export editor', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.scheme === 'den-export' ? d : undefined;
    });
    assert.equal(doc.languageId, 'markdown');
    assert.ok(doc.uri.path.startsWith(`/${s.id}/`), doc.uri.toString());
    const text = doc.getText();
    assert.match(text, /^# Refactor auth middleware/);
    assert.ok(
      text.includes('Refactor auth middleware to use async token validation'),
      'first prompt missing',
    );
    assert.ok(text.includes('Add tests for expired tokens in the auth middleware'), 'second prompt missing');
  });

  it('Open Session works for a session id that is not loaded in the tree', async () => {
    const id = (await sessionRow(den.api, 'Plan the Postgres 16 migration')).id;
    await resetDen(den.api);
    await signIn(den.api, den.emu.url, den.emu.keys.primary); // nothing loaded yet
    await vscode.commands.executeCommand('den.exportSession', id);
    const doc = await waitFor('a den-export editor', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.scheme === 'den-export' ? d : undefined;
    });
    assert.ok(doc.getText().includes('Plan the migration of the orders database to Postgres 16'));
  });

  it('Copy Session ID puts the id on the clipboard', async () => {
    const s = await sessionRow(den.api, 'Research vector database options');
    await vscode.env.clipboard.writeText('something else');
    await vscode.commands.executeCommand('den.copySessionId', s.node);
    assert.equal(await vscode.env.clipboard.readText(), s.id);
  });
});
