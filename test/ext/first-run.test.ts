/** A new person's first minutes: the walkthrough in an empty editor area, once per profile. */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { offerWalkthrough } from '../../src/editor/commands/auth-commands';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { setDenSetting } from './settings-helpers';

/** A Memento of one's own (Den's globalState is the real profile's). */
function memento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
  } as vscode.Memento;
}

const walkthroughTab = (): vscode.Tab | undefined =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => /Welcome|Get Started|Walkthrough/i.test(t.label));

describe('First run: the walkthrough', () => {
  const den = useDen();

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens in an empty editor area once, and never again for that profile', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setDenSetting(den.api, 'showWalkthroughOnFirstRun', true);
    const state = memento();
    assert.equal(await offerWalkthrough(state), true);
    await waitFor('the walkthrough tab', walkthroughTab);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await offerWalkthrough(state), false, 'only once');
    assert.equal(walkthroughTab(), undefined);
  });

  it('stays closed when an editor is open, or when den.showWalkthroughOnFirstRun is off', async () => {
    await setDenSetting(den.api, 'showWalkthroughOnFirstRun', true);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'x' }));
    assert.equal(await offerWalkthrough(memento()), false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setDenSetting(den.api, 'showWalkthroughOnFirstRun', false);
    assert.equal(await offerWalkthrough(memento()), false);
    assert.equal(walkthroughTab(), undefined);
  });
});
