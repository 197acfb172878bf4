import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator } from '../emulator';
import { waitFor } from '../support/wait';
import { trackContext } from './context-helpers';
import type { DenApi } from './den-api';
import { emuFetch, serverSessions } from './emulator-helpers';
import { useDen } from './fixtures';
import { startRecordingProxy } from './network-helpers';
import { setDenSetting } from './settings-helpers';
import { resetDen, signIn } from './sign-in-helpers';
import { labelOf, type Row, rows, sessionIds, sessionsView } from './tree-helpers';

const EXTRA = 1000;
const SEEDED = 8;
/** More pages than a full walk can need at the smallest page size: keeps every loop bounded. */
const MAX_PAGES = Math.ceil((EXTRA + SEEDED) / 10) + 2;

/** Runs Load More until the tree has every page (bounded); returns how many times it ran. */
async function loadAll(api: DenApi): Promise<number> {
  let runs = 0;
  while (api.sessions.hasMore) {
    assert.ok(runs < MAX_PAGES, `still more after ${runs} more pages`);
    await vscode.commands.executeCommand('den.loadMoreSessions');
    runs++;
  }
  return runs;
}

function findSession(list: Row[], title: string): Row {
  const row = list.find((r) => r.node.kind === 'session' && labelOf(r.item) === title);
  assert.ok(row, `no session "${title}" in the tree`);
  return row;
}

describe('Sessions tree', () => {
  // A fresh service per test: no test sees another's faults or changes.
  const den = useDen({ emulator: { extraSessions: EXTRA }, signIn: false });

  it('shows den.sessionsPageSize sessions first, newest first, followed by a "Load more" row', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary, 25);
    const root = await rows(den.api);
    const server = await serverSessions(den.emu);
    assert.equal(root.length, 26);
    assert.deepEqual(
      sessionIds(root),
      server.slice(0, 25).map((s) => s.sessionId),
    );
    const more = root[25];
    assert.equal(more.node.kind, 'more');
    assert.equal(more.item.command?.command, 'den.loadMoreSessions');
    // Counts are written in the editor's language (English here: a thousands separator).
    assert.equal(EXTRA + SEEDED, 1008);
    assert.equal(more.item.description, '25 of 1,008');
  });

  it('Load More appends the next pages without duplicates until all sessions are listed', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary, 100);
    assert.equal(sessionIds(await rows(den.api)).length, 100);
    await vscode.commands.executeCommand('den.loadMoreSessions');
    const second = await rows(den.api);
    assert.equal(sessionIds(second).length, 200);

    const runs = await loadAll(den.api);
    assert.equal(runs, Math.ceil((EXTRA + SEEDED) / 100) - 2);
    const root = await rows(den.api);
    const ids = sessionIds(root);
    assert.equal(root.length, ids.length, 'a "Load more" row is left after the last page');
    assert.equal(new Set(ids).size, ids.length, 'a session is listed twice');
    assert.deepEqual(
      ids,
      (await serverSessions(den.emu)).map((s) => s.sessionId),
    );
  });

  it('Load More clicked twice in a row skips no page', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary, 100);
    await rows(den.api);
    await Promise.all([
      vscode.commands.executeCommand('den.loadMoreSessions'),
      vscode.commands.executeCommand('den.loadMoreSessions'),
    ]);
    await loadAll(den.api);
    const ids = sessionIds(await rows(den.api));
    assert.equal(new Set(ids).size, ids.length, 'a session is listed twice');
    assert.equal(ids.length, EXTRA + SEEDED, 'sessions are missing');
  });

  it('marks pinned sessions with contextValue "session.pinned" and the others with "session"', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    const server = new Map((await serverSessions(den.emu)).map((s) => [s.sessionId, s]));
    const root = (await rows(den.api)).filter((r) => r.node.kind === 'session');
    const pinned = root.filter((r) => r.item.contextValue === 'session.pinned');
    assert.ok(pinned.length >= 1, 'no pinned session shown');
    for (const r of root) {
      const id = (r.node as { sessionId: string }).sessionId;
      assert.equal(r.item.contextValue, server.get(id)?.isPinned ? 'session.pinned' : 'session', id);
    }
  });

  it('hides sessions the service lists as deleted', async () => {
    const own = await startEmulator();
    try {
      await signIn(den.api, own.url, own.keys.primary);
      const victim = findSession(await rows(den.api), 'Write release notes for v2.3');
      const id = (victim.node as { sessionId: string }).sessionId;
      assert.equal((await emuFetch(own, `/sessions/${id}`, { method: 'DELETE' })).status, 200);
      // The service keeps listing it, flagged deleted (it moved to the top: newest update).
      const raw = await emuFetch(own, '/sessions?page=1&limit=5');
      const listed = (raw.body.sessions as { sessionId: string; deleted: boolean }[]).find(
        (s) => s.sessionId === id,
      );
      assert.equal(listed?.deleted, true);

      await vscode.commands.executeCommand('den.refreshSessions');
      const after = sessionIds(await rows(den.api));
      assert.equal(after.length, SEEDED - 1);
      assert.ok(!after.includes(id), 'the deleted session is still shown');
    } finally {
      await resetDen(den.api);
      await own.close();
    }
  });

  it('gives a session a Turns group from its history and a Files group from its file snapshot', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary);
    const session = findSession(await rows(den.api), 'Refactor auth middleware');
    const id = (session.node as { sessionId: string }).sessionId;
    // a click shows the session in the preview panel; it still has children to expand
    assert.deepEqual(session.item.command && [session.item.command.command, session.item.command.arguments], [
      'den.previewSession',
      [id, 'Refactor auth middleware'],
    ]);
    assert.equal(session.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const groups = await rows(den.api, session.node);
    assert.deepEqual(
      groups.map((g) => [labelOf(g.item), g.item.contextValue]),
      [
        ['Turns', 'group.turns'],
        ['Files', 'group.files'],
      ],
    );

    const detail = (await emuFetch(den.emu, `/sessions/${id}`)).body as {
      session: { fileSnapshot: Record<string, { size: number }> };
      messages: { type: string; content: string }[];
    };
    const prompts = detail.messages.filter((m) => m.type === 'user').map((m) => m.content);
    assert.equal(prompts.length, 2);
    const turns = await rows(den.api, groups[0].node);
    assert.deepEqual(
      turns.map((t) => labelOf(t.item)),
      prompts,
    );
    for (const t of turns) assert.deepEqual(t.item.command?.arguments, [id]);
    assert.equal(den.api.sessions.getTreeItem(groups[0].node).description, '2');

    const paths = Object.keys(detail.session.fileSnapshot).sort((a, b) => a.localeCompare(b));
    assert.ok(paths.length > 0, 'the seeded session has no files');
    const files = await rows(den.api, groups[1].node);
    assert.deepEqual(
      files.map((f) => labelOf(f.item)),
      paths.map((p) => p.split('/').pop()),
    );
    assert.equal(den.api.sessions.getTreeItem(groups[1].node).description, String(paths.length));
  });

  it('gives every row a unique id that stays the same after a refresh', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary, 10);
    const collect = async (): Promise<string[]> => {
      const ids: string[] = [];
      const root = await rows(den.api);
      for (const r of root) {
        ids.push(String(r.item.id));
        if (r.node.kind !== 'session') continue;
        for (const g of await rows(den.api, r.node)) {
          ids.push(String(g.item.id));
          for (const c of await rows(den.api, g.node)) ids.push(String(c.item.id));
        }
      }
      return ids;
    };
    const first = await collect();
    assert.ok(first.length > 40, `only ${first.length} rows walked`);
    assert.ok(!first.includes('undefined'), 'a row has no id');
    assert.equal(new Set(first).size, first.length, 'two rows share an id');
    await vscode.commands.executeCommand('den.refreshSessions');
    assert.deepEqual(await collect(), first);
  });

  it('Search narrows the list through the service, names the filter in the view, and Clear Search restores it', async () => {
    const context = trackContext();
    try {
      await signIn(den.api, den.emu.url, den.emu.keys.primary, 10);
      const unfiltered = sessionIds(await rows(den.api));

      await vscode.commands.executeCommand('den.searchSessions', 'POSTGRES');
      assert.equal(den.api.sessions.filter, 'POSTGRES');
      assert.equal(context.get('den.hasFilter'), true);
      const found = await rows(den.api);
      assert.deepEqual(
        found.map((r) => labelOf(r.item)),
        ['Plan the Postgres 16 migration'],
      );
      assert.match(sessionsView(den.api).description ?? '', /POSTGRES/);
      assert.match(sessionsView(den.api).message ?? '', /POSTGRES/);

      await vscode.commands.executeCommand('den.searchSessions', 'billing export');
      const billing = await rows(den.api);
      const expected = (await serverSessions(den.emu, 'billing export')).map((s) => s.sessionId);
      assert.ok(expected.length > 10);
      assert.deepEqual(sessionIds(billing), expected.slice(0, 10));
      assert.equal(billing[billing.length - 1].item.description, `10 of ${expected.length}`);

      // No match: an empty tree, and the keys that show the "No sessions match" welcome.
      await vscode.commands.executeCommand('den.searchSessions', 'no session has this title');
      assert.deepEqual(await rows(den.api), []);
      assert.equal(context.get('den.sessionsEmpty'), true);
      assert.equal(sessionsView(den.api).message, undefined, 'a view message hides the welcome content');

      await vscode.commands.executeCommand('den.clearSearch');
      assert.equal(den.api.sessions.filter, undefined);
      assert.equal(context.get('den.hasFilter'), false);
      assert.deepEqual(sessionIds(await rows(den.api)), unfiltered);
      // (rows do not wait for the keys, which pick the welcome of an empty view: they follow)
      await waitFor('the empty key to clear', () => context.get('den.sessionsEmpty') === false);
      assert.equal(sessionsView(den.api).description, 'All Sessions');
      assert.equal(sessionsView(den.api).message, undefined);
    } finally {
      context.restore();
    }
  });

  it('a search started while the first page is still loading shows the search’s results', async () => {
    const proxy = await startRecordingProxy(den.emu.url);
    try {
      await signIn(den.api, proxy.url, den.emu.keys.primary, 10);
      // The unfiltered first page answers only after the search has been shown.
      const firstPage = proxy.hold(
        (r) => r.method === 'GET' && /^\/sessions\?/.test(r.url) && !/search=/.test(r.url),
      );
      const first = den.api.sessions.getChildren();
      await waitFor('the first page to be requested', () => firstPage.held >= 1);
      await vscode.commands.executeCommand('den.searchSessions', 'postgres');
      const found = await rows(den.api);
      assert.deepEqual(
        found.map((r) => labelOf(r.item)),
        ['Plan the Postgres 16 migration'],
      );
      firstPage.release();
      await first;
      assert.deepEqual(sessionIds(await rows(den.api)), sessionIds(found));
      assert.equal(den.api.sessions.filter, 'postgres');
    } finally {
      await resetDen(den.api);
      await proxy.close();
    }
  });

  it('keeps the search when the page size changes', async () => {
    await signIn(den.api, den.emu.url, den.emu.keys.primary, 10);
    await vscode.commands.executeCommand('den.searchSessions', 'log rotation');
    assert.equal(sessionIds(await rows(den.api)).length, 10);
    await setDenSetting(den.api, 'sessionsPageSize', 20);
    const root = await rows(den.api);
    assert.equal(den.api.sessions.filter, 'log rotation');
    assert.equal(sessionIds(root).length, 20);
    for (const r of root.filter((x) => x.node.kind === 'session'))
      assert.match(labelOf(r.item), /log rotation/);
  });
});
