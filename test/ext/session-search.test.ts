import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { addressKey } from '../../src/core/search/fields';
import type { SearchRow } from '../../src/model/search/result-rows';
import type { SearchHitView, SearchHostMessage } from '../../src/protocol/session-search/messages';
import type { SessionPanel } from '../../src/editor/session-panel/session-panel';
import { folderStore } from '../../src/model/search/search-store';
import { SessionSearchIndex } from '../../src/model/search/session-index';
import { waitFor } from '../support/wait';
import type { DenApi } from './den-api';
import { useDen } from './fixtures';
import { lastTurn, openPanel, seededSession, turnEnded } from './panel-helpers';
import { rows } from './tree-helpers';

type Item = vscode.QuickPickItem & { row?: SearchRow; fetch?: boolean };

/** A word of `text` of at least 5 letters (the emulator's logs and answers hold some). */
function wordOf(text: string): string {
  const w = text.match(/[A-Za-z]{5,}/)?.[0];
  assert.ok(w, `no word in ${JSON.stringify(text.slice(0, 200))}`);
  return w;
}

/** Runs Search in Sessions with `args` and gives the QuickPick's items once its search settled. */
async function searchPick(api: DenApi, args: Record<string, unknown>): Promise<readonly Item[]> {
  await vscode.commands.executeCommand('den.searchSessionContents', args);
  const qp = api.search.picker;
  assert.ok(qp, 'no QuickPick shown');
  await api.search.searching;
  return qp.items;
}

/** Presses Enter on `item` in the QuickPick on screen, as a person would. */
async function enterOn(api: DenApi, item: Item): Promise<void> {
  const qp = api.search.picker;
  assert.ok(qp);
  qp.activeItems = [item];
  await waitFor('the item to be active', () => qp.activeItems[0] === item);
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/** Streams a turn in a seeded session's panel and gives a word of its tool log and of its answer. */
async function streamedTurn(
  api: DenApi,
  title: string,
): Promise<{ id: string; panel: SessionPanel; turnId: string; logWord: string; answerWord: string }> {
  const id = await seededSession(api, title);
  const panel = await openPanel(api, id);
  await waitFor('the history', () => panel.host.loaded);
  await panel.handleMessage({
    type: 'send',
    text: 'Add a cache key for the lockfile',
    mode: 'code',
    effort: 'fast',
  });
  const turn = lastTurn(panel);
  await turnEnded(api, turn);
  const tool = turn.blocks.find((b) => b.type === 'tool' && b.log.segments.length > 0);
  assert.ok(tool?.type === 'tool', 'the emulator turn ran no tool with a log');
  const answer = turn.blocks.find((b) => (b.type === 'markdown' || b.type === 'text') && b.text);
  assert.ok(answer && (answer.type === 'markdown' || answer.type === 'text'));
  return {
    id,
    panel,
    turnId: turn.agentMessageId,
    logWord: wordOf(tool.log.segments.map((s) => s.data).join('')),
    answerWord: wordOf(answer.text),
  };
}

/** Searches through the view as its page does, and gives the view's answer. */
async function viewSearch(
  api: DenApi,
  query: string,
): Promise<Extract<SearchHostMessage, { type: 'results' }>> {
  const posts: SearchHostMessage[] = [];
  const untap = api.searchView.tap((m) => posts.push(m));
  try {
    const id = Math.floor(Math.random() * 1e9);
    await api.searchView.handleMessage({
      type: 'search',
      id,
      query,
      options: { matchCase: true, wholeWord: false, regex: false },
    });
    const r = posts.find((m) => m.type === 'results' && m.id === id && !m.partial);
    assert.ok(r?.type === 'results', 'the view got no results');
    return r;
  } finally {
    untap();
  }
}

/** Waits until a panel's find bar has the hit's match current. */
async function findsAt(panel: SessionPanel, query: string, hit: SearchHitView): Promise<void> {
  const want = { address: addressKey(hit.address), start: hit.start };
  let last: unknown;
  try {
    await waitFor('the panel at the match', async () => {
      const d = await panel.probe(3_000).catch(() => undefined);
      last = d?.find;
      return d?.find?.query === query && isDeepStrictEqual(d.find.current, want);
    });
  } catch (err) {
    assert.deepEqual(last, { query, current: want }, (err as Error).message);
    throw err;
  }
}

describe('Search in Sessions', () => {
  const den = useDen();

  /** Read in `afterEach`, which runs after the fixture let go of Den. */
  let search: DenApi['search'] | undefined;

  beforeEach(async () => {
    search = den.api.search;
    // The background pass over the cache (once a window) and what earlier tests streamed land first.
    await den.api.search.start();
    await den.api.search.feeder.flush();
    await den.api.search.index.clear();
  });

  afterEach(async () => {
    search?.picker?.hide();
    await search?.index.clear();
    // Den's container shown (the view test) lists sessions at once, and the next sign-in would
    // never see its connection "ready" before "connected": back to the Explorer.
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('finds a turn streamed in this window by a word of its tool log and of its answer, grouped by session; Enter opens it', async () => {
    const { id, panel, turnId, logWord, answerWord } = await streamedTurn(
      den.api,
      'Set up CI dependency caching',
    );

    for (const [word, where] of [
      [logWord, 'tool log'],
      [answerWord, 'answer'],
    ]) {
      const items = await searchPick(den.api, { query: word, matchCase: true });
      const heading = items.findIndex((i) => i.row?.kind === 'session' && i.row.sessionId === id);
      assert.ok(
        heading >= 0,
        `no group for the session searching ${word}: ${items.map((i) => i.label).join(' | ')}`,
      );
      assert.equal(items[heading].kind, vscode.QuickPickItemKind.Separator);
      assert.equal(items[heading].label, 'Set up CI dependency caching');
      const hit = items.find(
        (i) =>
          i.row?.kind === 'hit' &&
          i.row.sessionId === id &&
          i.row.turnId === turnId &&
          i.description === where,
      );
      assert.ok(hit, `no ${where} hit for ${word} in the streamed turn`);
      assert.ok(hit.label.includes(word), 'the hit shows its line of context');
      assert.ok(items.indexOf(hit) > heading, 'the hit is under its session');
    }

    // Enter on a hit opens the session's panel (closed first).
    panel.panel.dispose();
    await waitFor('the panel to close', () => !den.api.panels.panel(id));
    const items = await searchPick(den.api, { query: logWord, matchCase: true });
    const hit = items.find((i) => i.row?.kind === 'hit' && i.row.sessionId === id);
    assert.ok(hit);
    await enterOn(den.api, hit);
    await waitFor('the session panel to open', () => den.api.panels.panel(id));

    // The index is kept on disk: a new instance over the same folder finds it.
    const again = new SessionSearchIndex({ store: folderStore(den.api.search.dir) });
    const found = await again.search(logWord, { matchCase: true });
    assert.ok(found.ok);
    assert.ok(found.sessions.some((s) => s.sessionId === id));

    // Clearing empties it, and says what went.
    den.api.panels.panel(id)?.panel.dispose();
    await waitFor('the panel to close', () => !den.api.panels.panel(id));
    await den.api.search.feeder.flush();
    await vscode.commands.executeCommand('den.clearSearchIndex');
    assert.match(den.messages.texts('info').join('\n'), /Cleared the search index: \d+ sessions?, [\d.]+ MB/);
    const after = await searchPick(den.api, { query: logWord, matchCase: true });
    assert.ok(!after.some((i) => i.row?.kind === 'session'), 'a session is still found');
    assert.match(after[0].label, /^No match in the \d+ sessions? indexed on this machine\.$/);
    assert.equal((await again.stats()).sessions, 1, 'the old instance still holds its filters in memory');
    const fresh = new SessionSearchIndex({ store: folderStore(den.api.search.dir) });
    assert.equal((await fresh.stats()).sessions, 0);
  });

  it('words a bad regular expression in the list instead of failing', async () => {
    const items = await searchPick(den.api, { query: 'cache(', regex: true });
    assert.match(items[0].label, /^Not a valid regular expression/);
    const costly = await searchPick(den.api, { query: '(a+)+', regex: true });
    assert.match(costly[0].label, /could take too long/);
    assert.deepEqual(den.messages.texts('error'), []);
  });

  it('fetches and indexes the listed sessions not stored here, with progress', async () => {
    await vscode.commands.executeCommand('den.sessions.showAll');
    await rows(den.api);
    const seeded = await seededSession(den.api, 'Refactor auth middleware');
    assert.ok(den.api.search.missing().includes(seeded));
    const items = await searchPick(den.api, { query: 'middleware' });
    const fetch = items.at(-1);
    assert.ok(fetch?.fetch, 'no fetch row last');
    assert.match(fetch.label, /Fetch and index the \d+ sessions not stored here/);
    // Watch the progress notification it shows (VS Code's own runs it as well).
    const w = vscode.window as unknown as Record<string, unknown>;
    const withProgress = vscode.window.withProgress;
    const shown: { title?: string; cancellable?: boolean; messages: string[] }[] = [];
    w.withProgress = (options: vscode.ProgressOptions, task: Parameters<typeof withProgress>[1]) => {
      const seen = { title: options.title, cancellable: options.cancellable, messages: [] as string[] };
      shown.push(seen);
      return withProgress(options, (progress, token) =>
        task(
          {
            report: (v) => {
              if (v.message) seen.messages.push(v.message);
              progress.report(v);
            },
          },
          token,
        ),
      );
    };
    try {
      await enterOn(den.api, fetch);
      await waitFor('the fetch to end', () =>
        den.messages.texts('info').find((t) => t.startsWith('Indexed')),
      );
    } finally {
      w.withProgress = withProgress;
    }
    assert.equal(shown.length, 1);
    assert.equal(shown[0].title, 'Den: indexing sessions for search');
    assert.equal(shown[0].cancellable, true);
    assert.match(shown[0].messages.at(-1) ?? '', /^(\d+) of \1$/);
    assert.ok(den.api.search.index.has(seeded));
    assert.deepEqual(den.api.search.missing(), []);
    const found = await den.api.search.rows('middleware', {});
    assert.ok(found.some((r) => r.kind === 'session' && r.sessionId === seeded));
  });

  it("the view in Den's container finds a streamed turn, grouped by session; opening a hit opens the session at that match, closed or open", async () => {
    await vscode.commands.executeCommand('den.search.focus');
    await waitFor('the view to load', () => den.api.searchView.ready);
    const { id, panel, logWord, answerWord } = await streamedTurn(den.api, 'Set up CI dependency caching');
    const r = await viewSearch(den.api, logWord);
    const group = r.groups.find((g) => g.sessionId === id);
    assert.ok(group, `no group for the session: ${JSON.stringify(r.groups.map((g) => g.title))}`);
    assert.equal(group.title, 'Set up CI dependency caching');
    assert.match(r.summary, /^\d+ match(es)? in \d+ sessions?$/);
    const hit = group.hits.find((h) => h.where === 'tool log');
    assert.ok(hit, 'no tool log hit');
    assert.equal(hit.line.slice(hit.matchStart, hit.matchEnd), logWord, 'the match is marked in its line');

    // The panel closed: opening the hit opens it, its find bar at that very match.
    panel.panel.dispose();
    await waitFor('the panel to close', () => !den.api.panels.panel(id));
    await den.api.searchView.handleMessage({
      type: 'open',
      sessionId: id,
      query: logWord,
      options: { matchCase: true, wholeWord: false, regex: false },
      address: hit.address,
      start: hit.start,
    });
    const opened = den.api.panels.panel(id);
    assert.ok(opened, 'the session panel did not open');
    await findsAt(opened, logWord, hit);

    // Already open: another hit moves it there.
    const other = (await viewSearch(den.api, answerWord)).groups.find((g) => g.sessionId === id)?.hits.at(-1);
    assert.ok(other, 'no hit for the answer word');
    await den.api.searchView.handleMessage({
      type: 'open',
      sessionId: id,
      query: answerWord,
      options: { matchCase: true, wholeWord: false, regex: false },
      address: other.address,
      start: other.start,
    });
    assert.equal(den.api.panels.panel(id), opened, 'the open panel is reused');
    await findsAt(opened, answerWord, other);

    // A malformed message is ignored, never a throw.
    await den.api.searchView.handleMessage({ type: 'open', sessionId: 3 });
    assert.deepEqual(den.messages.texts('error'), []);
    opened.panel.dispose();
  });

  it('Cancel stops fetching and indexing: the sessions after it stay missing', async () => {
    await vscode.commands.executeCommand('den.sessions.showAll');
    await rows(den.api);
    const before = den.api.search.missing();
    assert.ok(before.length >= 2, `too few sessions to fetch: ${before.length}`);
    const w = vscode.window as unknown as Record<string, unknown>;
    const withProgress = vscode.window.withProgress;
    const cancel = new vscode.CancellationTokenSource();
    let reports = 0;
    // The person presses Cancel on the notification once the first session is indexed.
    w.withProgress = (_o: vscode.ProgressOptions, task: Parameters<typeof withProgress>[1]) =>
      task(
        {
          report: () => {
            reports++;
            cancel.cancel();
          },
        },
        cancel.token,
      );
    let result: { indexed: number; failed: number };
    try {
      result = await den.api.search.fetchMissing();
    } finally {
      w.withProgress = withProgress;
      cancel.dispose();
    }
    assert.equal(reports, 1, 'it stopped after the session being indexed when Cancel came');
    assert.deepEqual(result, { indexed: 1, failed: 0 });
    assert.ok(den.api.search.index.has(before[0]));
    assert.deepEqual(den.api.search.missing(), before.slice(1));
    assert.match(den.messages.texts('info').join('\n'), /Indexed 1 sessions? for search/);
  });

  it('takes a new den.search.indexMaxMegabytes at once, without a reload', async () => {
    const config = () => vscode.workspace.getConfiguration('den');
    const MB = 1024 * 1024;
    assert.equal(den.api.search.index.maxBytes, 256 * MB);
    await den.api.search.index.put('big', [
      { address: { turnId: 't', kind: 'answer', index: 0 }, text: 'x'.repeat(2 * MB) },
    ]);
    assert.ok(den.api.search.index.has('big'));
    try {
      await config().update('search.indexMaxMegabytes', 1, vscode.ConfigurationTarget.Global);
      await waitFor('the new cap', () => den.api.search.index.maxBytes === MB);
      await waitFor('the session over the cap to go', () => !den.api.search.index.has('big'));
    } finally {
      await config().update('search.indexMaxMegabytes', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the default cap back', () => den.api.search.index.maxBytes === 256 * MB);
  });
});
