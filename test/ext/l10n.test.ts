/**
 * Den in another language, inside VS Code: a pseudo-translation of its whole English bundle
 * (`l10n/bundle.l10n.json`, every message `m` as `⟪m⟫`) set the way activation sets VS Code's
 * bundle (`core/shared/l10n.ts` keeps it in one slot that every copy of the module reads, this test's
 * included). Whatever Den writes for a person must then come out bracketed; English parts left
 * unbracketed would be texts that bypass `l10n.t`. The service's own words stay as they are.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { setL10nBundle } from '../../src/core/shared/l10n';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { signIn } from './sign-in-helpers';
import { groupedRows, labelOf, rows } from './tree-helpers';

describe('Den in another language (its whole bundle pseudo-translated)', () => {
  const den = useDen();
  let pseudo: Record<string, string>;

  before(() => {
    const ext = vscode.extensions.all.find((e) => e.id.endsWith('.den') && e.packageJSON?.name === 'den');
    assert.ok(ext, 'Den is not installed');
    const english = JSON.parse(
      fs.readFileSync(path.join(ext.extensionPath, 'l10n', 'bundle.l10n.json'), 'utf8'),
    ) as Record<string, string>;
    pseudo = Object.fromEntries(Object.keys(english).map((m) => [m, `⟪${m}⟫`]));
    assert.ok(Object.keys(pseudo).length > 500, 'the bundle is nearly empty');
  });
  beforeEach(() => setL10nBundle(pseudo, 'de'));
  afterEach(() => setL10nBundle(vscode.l10n.bundle, vscode.env.language));

  it("the Sessions view's groups and its rows' states come out translated", async () => {
    await vscode.commands.executeCommand('den.refreshSessions');
    const groups = await groupedRows(den.api);
    assert.ok(groups.length > 0, 'no groups shown');
    for (const [label] of groups) assert.match(label, /^⟪[^⟪⟫]+⟫$/, `group "${label}"`);
    // A session row's title is the service's data and stays as it is.
    const titles = groups.flatMap(([, t]) => t);
    assert.ok(titles.includes('Fix flaky upload test'), titles.join(', '));
  });

  it("a failing command's notification is translated whole, with the service's reason as it sent it", async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.readOnly);
    const s = (await rows(den.api)).find((r) => labelOf(r.item) === 'Fix flaky upload test');
    assert.ok(s && s.node.kind === 'session');
    await vscode.commands.executeCommand('den.renameSession', s.node.sessionId, 'Renamed');
    const text = den.messages.texts('error').join('\n');
    // A command's action phrase ("rename the session") is looked up when the command is registered,
    // at activation, after VS Code's bundle was set (it does not change during a window's life):
    // here, set later, that phrase is still English. The rest is looked up when the error shows.
    assert.match(text, /^⟪⟪Den could not (⟪rename the session⟫|rename the session)⟫: /, text);
    assert.match(text, /This key is read-only\./, text);
    // Outside the service's quoted reason and that phrase, nothing English is left unbracketed.
    let ours = text.replace('This key is read-only.', '').replace('rename the session', '');
    for (let i = 0; i < 4; i++) ours = ours.replace(/⟪[^⟪⟫]*⟫/g, '');
    assert.doesNotMatch(ours, /[A-Za-z]{3,}/, text);
    const { body } = await emuFetch(den.emu, `/sessions/${s.node.sessionId}`);
    assert.equal((body.session as { title: string }).title, 'Fix flaky upload test');
  });

  it('a title that is refused says why in the same language', async () => {
    const s = (await rows(den.api)).find((r) => r.node.kind === 'session');
    assert.ok(s && s.node.kind === 'session');
    await vscode.commands.executeCommand('den.renameSession', s.node.sessionId, '   ');
    assert.deepEqual(den.messages.texts('error'), [
      '⟪Den: {0}⟫'.replace('{0}', '⟪A title cannot be empty.⟫'),
    ]);
  });
});
