import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { flattenTranscript } from '../../src/core/search/fields';
import { findInFields } from '../../src/core/search/find';
import { compileQuery } from '../../src/core/search/matcher';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import {
  lastTurn,
  openPanel,
  seededSession,
  serverTranscript,
  turnEnded,
  waitShows,
  webviewBuilt,
  withStoredTurn,
} from './panel-helpers';

describe('Session panel', () => {
  const den = useDen();

  it('opens a seeded session and shows its history as the service stores it', async () => {
    const id = await seededSession(den.api, 'Refactor auth middleware');
    const panel = await openPanel(den.api, id);
    assert.equal(panel.panel.viewType, 'den.session');
    await waitFor('the history', () => panel.host.loaded);
    assert.equal(panel.panel.title, 'Refactor auth middleware');
    const expected = await serverTranscript(den.api, id);
    assert.deepEqual(panel.transcript, expected);
    const digest = await waitShows(panel, () => expected, 'the webview to show the history');
    if (webviewBuilt()) assert.equal(digest?.turns.length, 2);
    assert.deepEqual(den.messages.shown, []);
  });

  /** The seeded session's panel, its history shown, focused; and the history as the service stores it. */
  async function focusedSeededPanel(): Promise<{
    panel: Awaited<ReturnType<typeof openPanel>>;
    expected: Awaited<ReturnType<typeof serverTranscript>>;
  }> {
    const id = await seededSession(den.api, 'Refactor auth middleware');
    const panel = await openPanel(den.api, id);
    await waitFor('the history', () => panel.host.loaded);
    const expected = await serverTranscript(den.api, id);
    await waitShows(panel, () => expected, 'the webview to show the history');
    await waitFor('the panel focused', () => panel.panel.active);
    return { panel, expected };
  }

  it('den.findInSession opens the find bar of the focused panel with the query, counting the whole transcript', async () => {
    const { panel, expected } = await focusedSeededPanel();
    const q = compileQuery('auth');
    assert.ok(q.ok);
    // what the panel is sent: all but the turns' output files
    const shown = structuredClone(expected);
    for (const t of shown.turns) delete t.outputFiles;
    const n = findInFields(flattenTranscript(shown), q).count;
    assert.ok(n > 0, 'the seeded session mentions auth');
    await vscode.commands.executeCommand('den.findInSession', 'auth');
    assert.deepEqual(den.messages.shown, [], 'no "open a session" message: the panel was found');
    if (!webviewBuilt()) return;
    const find = await waitFor(
      'the find bar open with its count',
      async () => (await panel.probe(3_000).catch(() => undefined))?.find ?? null,
      { intervalMs: 60, until: (f) => f?.count === `1 of ${n}` },
    );
    assert.deepEqual({ query: find?.query, count: find?.count }, { query: 'auth', count: `1 of ${n}` });
    assert.ok(find?.current, 'the first match is current');
  });

  it('den.showTurnOutline opens the focused panel’s outline of the turn in view: its tool runs and files', async () => {
    const { panel, expected } = await focusedSeededPanel();
    await vscode.commands.executeCommand('den.showTurnOutline');
    assert.deepEqual(den.messages.shown, [], 'no "open a session" message: the panel was found');
    if (!webviewBuilt()) return;
    // the view follows the bottom: the outline is the last turn's
    const last = expected.turns[expected.turns.length - 1];
    const outline = await waitFor(
      'the outline open',
      async () => (await panel.probe(3_000).catch(() => undefined))?.outline ?? null,
      { intervalMs: 60 },
    );
    assert.equal(outline.turnId, last.agentMessageId);
    assert.deepEqual(
      outline.files,
      last.files.map((f) => f.path),
    );
    const tools = last.blocks.filter((b) => b.type === 'tool').length;
    assert.ok(tools > 0, 'the seeded turn ran tools');
    assert.ok(
      outline.steps.some((s) => s === `${tools} tool calls` || (tools === 1 && s === '1 tool call')),
      JSON.stringify(outline.steps),
    );
  });

  it('runs a coding turn sent from the panel to its end; the webview shows the fold of the stored events', async () => {
    const id = await seededSession(den.api, 'Set up CI dependency caching');
    const panel = await openPanel(den.api, id);
    await waitFor('the history', () => panel.host.loaded);
    await panel.handleMessage({
      type: 'send',
      text: 'Add a cache key for the lockfile',
      mode: 'code',
      effort: 'fast',
    });
    const turn = lastTurn(panel);
    assert.equal(turn.userMessage.text, 'Add a cache key for the lockfile');
    await turnEnded(den.api, turn);
    assert.equal(turn.status, 'completed');
    const expected = withStoredTurn(den.emu, await serverTranscript(den.api, id), turn.agentMessageId);
    assert.deepEqual(panel.transcript.turns.at(-1)?.blocks, expected.turns.at(-1)?.blocks);
    // the emulator's context.usage is the turn's context use, which the header's meter shows
    assert.deepEqual(turn.contextUsage, { used: 18_432, max: 200_000, fraction: 0.09216 });
    const digest = await waitShows(panel, () => expected, 'the webview to show the finished turn');
    if (webviewBuilt()) assert.deepEqual(digest?.contextUsage, turn.contextUsage, 'the meter');
    assert.ok(
      panel.stats.posts < den.emu.storedEvents(id, turn.agentMessageId).length,
      `${panel.stats.posts} posts`,
    );
    assert.deepEqual(den.messages.shown, [], 'a visible panel notified');
  });

  it('stops a slow turn: it ends aborted and keeps its partial transcript', async () => {
    const sessionId = randomUUID();
    const panel = await openPanel(den.api, sessionId, {
      turn: { task: 'slow: migrate the build to esbuild', mode: 'code' },
    });
    const turn = lastTurn(panel);
    await waitFor('some output', () => turn.blocks.length >= 3, 8_000);
    await panel.handleMessage({ type: 'stop' });
    await turnEnded(den.api, turn);
    assert.equal(turn.status, 'aborted');
    assert.ok(turn.blocks.length >= 3, 'the partial transcript was lost');
    await waitShows(
      panel,
      () => withStoredTurn(den.emu, panel.transcript, turn.agentMessageId),
      'the aborted turn',
    );
  });

  it('queues a follow-up sent while a turn runs, shows it queued, then runs it', async () => {
    await den.restart({ eventDelayMs: 15 });
    // A first turn far longer than any wait below (over a minute): it still runs, and the follow-up
    // still waits, however slowly the webview loads; the test stops it once the queue was shown.
    const panel = await openPanel(den.api, randomUUID(), {
      turn: { task: 'answer in 5000 events', mode: 'auto' },
    });
    const first = lastTurn(panel);
    await panel.handleMessage({ type: 'send', text: 'and then summarize', mode: 'auto', effort: 'fast' });
    const second = lastTurn(panel);
    assert.notEqual(second.agentMessageId, first.agentMessageId);
    assert.equal(second.status, 'queued');
    if (webviewBuilt()) {
      await waitFor(
        'the webview to show it queued',
        async () => {
          const d = await panel.probe(3_000).catch(() => undefined);
          return d?.turns.at(-1)?.status === 'queued';
        },
        10_000,
      );
    }
    assert.equal(second.status, 'queued');
    await panel.handleMessage({ type: 'stop' });
    await turnEnded(den.api, second, 15_000);
    assert.equal(first.status, 'aborted');
    assert.equal(second.status, 'completed');
    const expected = withStoredTurn(
      den.emu,
      withStoredTurn(den.emu, panel.transcript, first.agentMessageId),
      second.agentMessageId,
    );
    await waitShows(panel, () => expected, 'both turns');
  });

  it('resumes after the service cuts the socket again and again: nothing lost, nothing twice', async () => {
    den.emu.faults = { dropAfterFrames: 5 };
    const panel = await openPanel(den.api, randomUUID(), {
      turn: { task: 'Port the config loader to TOML', mode: 'code' },
    });
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn);
    assert.equal(turn.status, 'completed');
    const expected = withStoredTurn(den.emu, panel.transcript, turn.agentMessageId);
    assert.deepEqual(panel.transcript.turns.at(-1)?.blocks, expected.turns.at(-1)?.blocks);
    const ids = turn.blocks.map((b) => b.id);
    assert.equal(new Set(ids).size, ids.length, 'a block twice');
    await waitShows(panel, () => expected, 'the resumed turn');
  });

  for (const replay of ['before', 'after'] as const) {
    it(`shows a turn streamed with state.snapshot frames and cuts exactly as stored, without a reopen (replay ${replay} the snapshot)`, async () => {
      await den.restart({ stateSnapshot: true, snapshotReplay: replay });
      den.emu.faults = { dropAfterFrames: 5, dropAfterSnapshot: 0.3, seed: 11 };
      const panel = await openPanel(den.api, randomUUID(), {
        turn: { task: 'big log: port the config loader to TOML', mode: 'code' },
      });
      const turn = lastTurn(panel);
      await turnEnded(den.api, turn, 20_000);
      await panel.host.whenReconciled();
      assert.equal(turn.status, 'completed');
      const expected = withStoredTurn(den.emu, panel.transcript, turn.agentMessageId);
      // the request as Den sent it (mode, fast/think) stays; everything its events make is the stored fold
      const stored = expected.turns.at(-1);
      assert.deepEqual({ ...turn, userMessage: stored?.userMessage }, stored);
      // every tool log (one of 1 MiB), the files list and the blocks of unknown kinds are there
      assert.ok(turn.blocks.filter((b) => b.type === 'tool').every((b) => b.log.chars > 0));
      assert.ok(turn.blocks.some((b) => b.type === 'tool' && b.log.chars + b.log.truncatedChars > 1_000_000));
      assert.ok(turn.blocks.some((b) => b.type === 'generic'));
      assert.equal(turn.files.length, 2);
      const digest = await waitShows(panel, () => expected, 'the webview to show the stored turn', 15_000);
      if (webviewBuilt()) {
        assert.equal(digest?.turns.at(-1)?.files, 2);
        assert.equal(panel.stats.inits, 1, 'the webview was repainted');
      }
    });
  }

  it('starts a brand-new session from open(id, {turn}) without a 404, then loads it and lists it', async () => {
    await den.api.sessions.getChildren(); // the Sessions view has loaded its list already
    const sessionId = randomUUID();
    assert.equal(den.api.sessions.get(sessionId), undefined);
    const panel = await openPanel(den.api, sessionId, {
      turn: { task: 'Write a README for the CLI', mode: 'code' },
      title: 'Write a README for the CLI',
    });
    assert.equal(panel.panel.title, 'Write a README for the CLI');
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn);
    await waitFor('the history', () => panel.host.loaded);
    assert.deepEqual(den.messages.shown, []);
    const expected = await serverTranscript(den.api, sessionId);
    await waitShows(panel, () => expected, 'the new session');
    await waitFor('the Sessions view to list it', async () => {
      await den.api.sessions.getChildren();
      return den.api.sessions.get(sessionId);
    });
  });

  it('shows a 429 in the panel with the time to retry, holds the message, and starts nothing', async () => {
    await den.restart({ maxConcurrent: 1 });
    const busy = await openPanel(den.api, randomUUID(), { turn: { task: 'slow: keep busy', mode: 'code' } });
    const panel = await openPanel(den.api, randomUUID());
    await panel.handleMessage({ type: 'send', text: 'one more', mode: 'code', effort: 'fast' });
    assert.equal(panel.transcript.turns.length, 0);
    assert.equal(busy.transcript.turns.length, 1);
    const notice = panel.host.view.notice;
    assert.match(notice?.message ?? '', /429.*Den can send “one more” at [^(]*\.$/);
    assert.deepEqual(
      notice?.actions.map((a) => a.title),
      ['Send When Ready', 'Edit'],
    );
    const composer = panel.host.view.composer();
    assert.equal(composer.held, 'one more');
    assert.ok((composer.rateLimitedUntil ?? 0) > Date.now());
    assert.equal(composer.sending, false);
    assert.deepEqual(den.messages.shown, [], 'the 429 went to a notification instead of the panel');
  });
});
