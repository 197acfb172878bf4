import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { silentLogger } from '../../src/core/shared/log';
import type { IdStorage } from '../../src/model/sessions-list/recent-ids';
import { SessionsTreeProvider } from '../../src/editor/sessions-view/sessions-tree';
import type { Emulator } from '../emulator';
import { waitFor } from '../support/wait';
import { sessionsWelcomes, trackContext, whenHolds } from './context-helpers';
import type { DenApi } from './den-api';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { groupedRows, labelOf, type Row, rows, sessionsView } from './tree-helpers';

/** The session row of `sessionId` in the tree (groups expanded), or undefined when not shown. */
async function rowOf(api: DenApi, sessionId: string): Promise<Row | undefined> {
  return (await rows(api)).find((r) => r.node.kind === 'session' && r.node.sessionId === sessionId);
}

/** The id of a listed session (the list loaded first, as the view does). */
async function idOf(api: DenApi, title: string): Promise<string> {
  await rows(api);
  const s = api.sessions.sessions.find((x) => x.title === title);
  assert.ok(s, `no session "${title}" listed`);
  return s.sessionId;
}

/** Starts a new session from this window, as New Session does; returns its id. */
async function newSession(task: string): Promise<string> {
  const id = await vscode.commands.executeCommand<string>('den.newSession', task);
  assert.ok(id, 'New Session started nothing');
  return id;
}

/** Creates a session on the service directly (as its web app would), not from this window. */
async function sessionStartedElsewhere(api: DenApi, emu: Emulator): Promise<string> {
  const id = randomUUID();
  const { status, body } = await emuFetch(emu, '/sessions/new', {
    method: 'POST',
    body: JSON.stringify({ session_id: id, task: 'Started in the web app', mode: 'auto' }),
  });
  assert.equal(status, 200, JSON.stringify(body));
  await vscode.commands.executeCommand('den.refreshSessions');
  await rows(api);
  assert.ok(api.sessions.get(id), 'the service does not list it');
  return id;
}

function description(row: Row | undefined): string {
  return String(row?.item.description ?? '');
}

function icon(row: Row | undefined): string {
  return (row?.item.iconPath as vscode.ThemeIcon | undefined)?.id ?? '';
}

describe('Sessions history: This Workspace, day groups, state, archive', () => {
  const den = useDen({ through: 'proxy', emulator: { eventDelayMs: 5 } });

  it('lists a session started from this window under This Workspace, and one started elsewhere only under All Sessions', async () => {
    const context = trackContext();
    try {
      await vscode.commands.executeCommand('den.sessions.showWorkspace');
      assert.equal(context.get('den.sessionsShowAll'), false);
      assert.equal(sessionsView(den.api).description, 'This Workspace');
      // Nothing was started here yet: only the pinned session, which always shows.
      assert.deepEqual(await groupedRows(den.api), [['Pinned', ['Refactor auth middleware']]]);

      const here = await newSession('Summarize the README for this workspace');
      const elsewhere = await sessionStartedElsewhere(den.api, den.emu);
      await waitFor('the new session under This Workspace', () => rowOf(den.api, here));
      assert.equal(await rowOf(den.api, elsewhere), undefined, 'a session started elsewhere is shown');
      const groups = await groupedRows(den.api);
      assert.deepEqual(
        groups.map(([label]) => label),
        ['Pinned', 'Today'],
      );
      assert.deepEqual(groups[1][1], [den.api.sessions.get(here)?.title]);

      await vscode.commands.executeCommand('den.sessions.showAll');
      assert.equal(context.get('den.sessionsShowAll'), true);
      assert.equal(sessionsView(den.api).description, 'All Sessions');
      assert.ok(await rowOf(den.api, elsewhere), 'All Sessions leaves out the session started elsewhere');
      assert.ok(await rowOf(den.api, here));

      // Search works in both scopes.
      await vscode.commands.executeCommand('den.searchSessions', 'web app');
      assert.deepEqual(
        (await rows(den.api)).map((r) => labelOf(r.item)),
        ['Started in the web app'],
      );
      assert.equal(sessionsView(den.api).description, 'All Sessions · “web app”');
      await vscode.commands.executeCommand('den.sessions.showWorkspace');
      assert.deepEqual(await rows(den.api), []);
      assert.equal(context.get('den.sessionsScopeEmpty'), true);
      await vscode.commands.executeCommand('den.searchSessions', 'README');
      assert.deepEqual(
        (await rows(den.api)).map((r) => (r.node.kind === 'session' ? r.node.sessionId : '')),
        [here],
      );
      await vscode.commands.executeCommand('den.clearSearch');

      // Remembered for this workspace: a provider over the same storage starts where this one is.
      const storage = (den.api.sessions as unknown as { storage: IdStorage }).storage;
      const again = new SessionsTreeProvider(den.api.connection, silentLogger, storage);
      try {
        assert.equal(again.showAll, false);
        assert.equal(again.isLocal(here), true);
        assert.equal(again.isLocal(elsewhere), false);
      } finally {
        again.dispose();
      }
    } finally {
      context.restore();
    }
  });

  it('shows a welcome with All Sessions and New Session when nothing of this workspace is listed', async () => {
    const context = trackContext();
    try {
      await den.restart({ seed: false });
      await sessionStartedElsewhere(den.api, den.emu);
      await vscode.commands.executeCommand('den.sessions.showWorkspace');
      assert.deepEqual(await rows(den.api), []);
      await waitFor('the scope-empty key', () => context.get('den.sessionsScopeEmpty') === true);
      assert.equal(sessionsView(den.api).message, undefined, 'a view message hides the welcome');
      const keys = new Map<string, unknown>([
        ['den.signedIn', true],
        ['den.sessionsScopeEmpty', true],
        ['den.sessionsEmpty', context.get('den.sessionsEmpty')],
      ]);
      const shown = sessionsWelcomes().filter((w) => whenHolds(w.when, keys));
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(shown[0].contents, /command:den\.sessions\.showAll/);
      assert.match(shown[0].contents, /command:den\.newSession/);
      await vscode.commands.executeCommand('den.sessions.showAll');
      assert.equal(context.get('den.sessionsScopeEmpty'), false);
      assert.equal((await rows(den.api)).length, 1);
    } finally {
      context.restore();
    }
  });

  it('groups the sessions by day of their last update: Pinned, Today, Yesterday, Last 7 Days, Older', async () => {
    await vscode.commands.executeCommand('den.sessions.showAll');
    const groups = new Map(await groupedRows(den.api));
    const order = [...groups.keys()];
    const all = ['Pinned', 'Today', 'Yesterday', 'Last 7 Days', 'Older'];
    assert.deepEqual(
      order,
      all.filter((g) => groups.has(g)),
    );
    // The seeded ages that are in one group at any time of day (test/emulator/seed.ts).
    assert.deepEqual(groups.get('Pinned'), ['Refactor auth middleware']);
    for (const t of [
      'Fix flaky upload test',
      'Add dark mode to settings page',
      'Write release notes for v2.3',
    ])
      assert.ok(
        groups.get('Last 7 Days')?.includes(t),
        `${t} not in Last 7 Days: ${JSON.stringify([...groups])}`,
      );
    assert.deepEqual(groups.get('Older'), ['Compare CSV parsing libraries', 'Set up CI dependency caching']);
    // Each group's row counts its sessions and starts expanded.
    for (const r of await den.api.sessions.getChildren()) {
      if (r.kind !== 'day') continue;
      const item = den.api.sessions.getTreeItem(r);
      assert.equal(item.description, String(groups.get(labelOf(item))?.length));
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    }
    // A session updated now (a file written on the service) moves to Today after a refresh.
    den.emu.putGeneratedFile(
      await idOf(den.api, 'Set up CI dependency caching'),
      'ci/cache.yml',
      'on: push\n',
    );
    await vscode.commands.executeCommand('den.refreshSessions');
    const after = new Map(await groupedRows(den.api));
    assert.ok(after.get('Today')?.includes('Set up CI dependency caching'), JSON.stringify([...after]));
    assert.deepEqual(after.get('Older'), ['Compare CSV parsing libraries']);
  });

  it('archive hides a session here and unarchive brings it back, with no request to the service', async () => {
    await vscode.commands.executeCommand('den.sessions.showAll');
    const id = await idOf(den.api, 'Compare CSV parsing libraries');
    const row = await rowOf(den.api, id);
    assert.equal(row?.item.contextValue, 'session');
    const before = den.proxy.requests.length;

    await vscode.commands.executeCommand('den.archiveSession', row?.node);
    let groups = new Map(await groupedRows(den.api));
    assert.deepEqual(groups.get('Older'), ['Set up CI dependency caching']);
    assert.deepEqual(groups.get('Archived'), ['Compare CSV parsing libraries']);
    assert.equal([...groups.keys()].pop(), 'Archived');
    const archived = await rowOf(den.api, id);
    assert.equal(archived?.item.contextValue, 'session.archived');
    assert.match(description(archived), /archived/);
    const group = (await den.api.sessions.getChildren()).find(
      (n) => n.kind === 'day' && n.group === 'archived',
    );
    assert.ok(group);
    assert.equal(
      den.api.sessions.getTreeItem(group).collapsibleState,
      vscode.TreeItemCollapsibleState.Collapsed,
    );
    // Archived stays archived over a refresh, and in This Workspace too (hidden from its day group).
    await vscode.commands.executeCommand('den.refreshSessions');
    assert.deepEqual(new Map(await groupedRows(den.api)).get('Archived'), ['Compare CSV parsing libraries']);

    await vscode.commands.executeCommand('den.unarchiveSession', id);
    groups = new Map(await groupedRows(den.api));
    assert.deepEqual(groups.get('Older'), ['Compare CSV parsing libraries', 'Set up CI dependency caching']);
    assert.equal(groups.has('Archived'), false);
    assert.equal((await rowOf(den.api, id))?.item.contextValue, 'session');

    const sent = den.proxy.requests.slice(before).filter((r) => r.method !== 'GET');
    assert.deepEqual(sent, [], 'archiving sent something to the service');
    assert.equal((await emuFetch(den.emu, `/sessions/${id}`)).status, 200);
  });

  it('shows each row’s state: running, then done or failed, and stopped from the history', async () => {
    await vscode.commands.executeCommand('den.sessions.showWorkspace');
    const ok = await newSession('slow answer about caching');
    await waitFor('the running row', async () => /running/.test(description(await rowOf(den.api, ok))));
    let row = await rowOf(den.api, ok);
    assert.equal(icon(row), 'sync');
    assert.match(row?.item.accessibilityInformation?.label ?? '', /, running,/);

    await waitFor('the done row', async () => /done/.test(description(await rowOf(den.api, ok))));
    row = await rowOf(den.api, ok);
    assert.equal(icon(row), 'pass');
    assert.equal(
      ((row?.item.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id,
      'testing.iconPassed',
    );
    assert.match(row?.item.accessibilityInformation?.label ?? '', /, done,/);

    const bad = await newSession('fail while checking the cache');
    await waitFor('the failed row', async () => /failed/.test(description(await rowOf(den.api, bad))));
    row = await rowOf(den.api, bad);
    assert.equal(icon(row), 'error');
    assert.match(row?.item.accessibilityInformation?.label ?? '', /, failed,/);

    // A listed session's state is unknown until its history is read (the list does not say).
    await vscode.commands.executeCommand('den.sessions.showAll');
    const stoppedId = await idOf(den.api, 'Add dark mode to settings page');
    assert.doesNotMatch(description(await rowOf(den.api, stoppedId)), /done|failed|stopped|running/);
    await den.api.sessions.detail(stoppedId);
    row = await rowOf(den.api, stoppedId);
    assert.match(description(row), /stopped/);
    assert.equal(icon(row), 'debug-stop');
  });
});
