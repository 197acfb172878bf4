/** A new person's first minutes: the walkthrough in an empty editor area, once per profile. */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { offerWalkthrough } from '../../src/editor/commands/auth-commands';
import { denManifest } from './den-api';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { lastTurn, openPanel, seededSession, turnEnded } from './panel-helpers';
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

describe('First run: the walkthrough ticks from the real actions', () => {
  const den = useDen();

  beforeEach(() => den.api.walkthroughSteps.forget());
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('"Start a first task" and "Give the agent your files" tick from the Session panel: a send, a drop', async () => {
    const steps = den.api.walkthroughSteps;
    const panel = await openPanel(den.api, await seededSession(den.api, 'Compare CSV parsing libraries'));
    await waitFor('the history', () => panel.host.loaded);
    assert.equal(steps.done('task'), false, 'opening a session starts no task');
    // a turn sent from the composer: no command runs, the step ticks all the same
    await panel.handleMessage({ type: 'send', text: 'Which is fastest?', mode: 'code', effort: 'fast' });
    await waitFor('the task step done', () => steps.done('task'));
    await turnEnded(den.api, lastTurn(panel));
    assert.equal(steps.done('attach'), false, 'nothing was attached');

    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the test window has no workspace folder');
    const dir = fs.mkdtempSync(path.join(root, 'den-first-run-'));
    try {
      const file = path.join(dir, 'notes.md');
      fs.writeFileSync(file, '# Notes\n');
      await panel.attach([vscode.Uri.file(file)]);
      assert.equal(steps.done('attach'), true);
      assert.equal(steps.done('apply'), false, 'nothing was reviewed');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('each work step completes on its key, besides its commands (package.json)', () => {
    const manifest = denManifest<{
      contributes: { walkthroughs: { id: string; steps: { id: string; completionEvents: string[] }[] }[] };
    }>();
    const steps = manifest.contributes.walkthroughs.find((w) => w.id === 'gettingStarted')?.steps ?? [];
    const keys: Record<string, string> = {
      task: 'onContext:den.walkthrough.taskStarted',
      attach: 'onContext:den.walkthrough.filesAttached',
      apply: 'onContext:den.walkthrough.filesReviewed',
    };
    // opening a session is not starting a task (a click on a session row runs den.previewSession)
    for (const opening of ['onCommand:den.openSession', 'onCommand:den.previewSession'])
      assert.equal(steps.find((s) => s.id === 'task')?.completionEvents.includes(opening), false, opening);
    for (const [id, key] of Object.entries(keys))
      assert.ok(steps.find((s) => s.id === id)?.completionEvents.includes(key), `${id} completes on ${key}`);
  });
});
