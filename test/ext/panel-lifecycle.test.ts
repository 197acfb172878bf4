import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../emulator';
import { waitFor } from '../support/wait';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { type RecordingProxy, startRecordingProxy } from './network-helpers';
import {
  cachedOnClose,
  digestOf,
  lastTurn,
  openPanel,
  seededSession,
  serverTranscript,
  turnEnded,
  waitShows,
  withStoredTurn,
} from './panel-helpers';
import { signIn } from './sign-in-helpers';

/** Starts a turn on the service directly (as another client would). */
async function startElsewhere(emu: Emulator, sessionId: string, task: string): Promise<string> {
  const { status, body } = await emuFetch(emu, '/sessions/new', {
    method: 'POST',
    body: JSON.stringify({ session_id: sessionId, task, mode: 'auto' }),
  });
  assert.equal(status, 200, JSON.stringify(body));
  return body.agent_message_id as string;
}

describe('Session panel lifecycle', () => {
  // Turns of "N events" take about N × 20 ms: long enough to hide, close or stop them midway.
  const den = useDen({ emulator: { eventDelayMs: 20 }, trackContext: true });
  /** A proxy a test put between Den and the emulator (closed after the panels). */
  let proxy: RecordingProxy | undefined;

  /** Signs Den in through a recording proxy, so the test can hold requests. */
  const signInThroughProxy = async (): Promise<RecordingProxy> => {
    proxy = await startRecordingProxy(den.emu.url);
    await signIn(den.api, proxy.url, den.emu.keys.primary);
    return proxy;
  };

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('posts nothing to a hidden panel while its turn streams, notifies when the turn ends, and catches up when shown', async () => {
    // Nothing of the turn reaches its panel before the panel is hidden: its live stream and its
    // session's history wait until then, whatever the speed of the machine.
    const id = randomUUID();
    const news = (await signInThroughProxy()).hold(
      (r) => r.method === 'UPGRADE' || (r.method === 'GET' && r.url.split('?')[0] === `/sessions/${id}`),
    );
    const a = await openPanel(den.api, id, { turn: { task: 'answer in 60 events', mode: 'auto' } });
    const turn = lastTurn(a);
    await waitFor('the running count in the status bar', () => den.api.status.text.includes('1 running'));
    assert.equal(den.context.get('den.turnRunning'), true);
    assert.deepEqual(
      den.api.registry.runningTurns().map((r) => r.agentMessageId),
      [turn.agentMessageId],
    );
    // Another session's panel in the same editor group hides this one.
    const other = await openPanel(den.api, await seededSession(den.api, 'Write release notes for v2.3'));
    await waitFor('the first panel to be hidden', () => !a.visible && !a.host.link.visible && other.visible);
    assert.equal(turn.blocks.length, 0, 'the turn reached its panel before the panel was hidden');
    const posts = a.stats.posts;
    news.release();
    await turnEnded(den.api, turn);
    assert.ok(turn.blocks.length > 0, 'the turn streamed nothing');
    // Posts are counted as they are made: none while hidden, and none can follow while it stays so.
    assert.equal(a.stats.posts, posts, 'the hidden panel got posts');
    assert.equal(a.host.link.visible, false);
    assert.equal(turn.status, 'completed');
    await waitFor('the notification', () => den.messages.texts().length > 0);
    assert.deepEqual(den.messages.shown, [{ level: 'info', text: 'Den: “answer in 60 events” finished' }]);
    await waitFor('the status bar without running turns', () => !den.api.status.text.includes('running'));
    assert.equal(den.context.get('den.turnRunning'), false);
    await den.api.panels.open(a.sessionId);
    await waitFor('the first panel to be shown', () => a.visible);
    await waitShows(
      a,
      () => withStoredTurn(den.emu, a.transcript, turn.agentMessageId),
      'the caught-up panel',
    );
  });

  it('keeps following a turn after its panel is closed, then notifies and updates the status bar', async () => {
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'answer in 50 events', mode: 'auto' } });
    const turn = lastTurn(panel);
    await waitFor('the turn to run', () => turn.blocks.length > 0);
    panel.dispose();
    assert.equal(den.api.panels.panel(id), undefined);
    assert.equal(den.api.registry.runningTurns().length, 1);
    await turnEnded(den.api, turn);
    assert.equal(turn.status, 'completed');
    await waitFor('the notification', () => den.messages.texts().length > 0);
    assert.match(den.messages.texts('info')[0], /^Den: “answer in 50 events” finished$/);
    await waitFor('the status bar', () => !den.api.status.text.includes('running'));
  });

  it('counts a queued turn apart from the running one in the status bar', async () => {
    // Issue 22 (7): one running and one queued turn read "Den: 2 running".
    const panel = await openPanel(den.api, randomUUID(), {
      turn: { task: 'slow long: keep running', mode: 'auto' },
    });
    const first = lastTurn(panel);
    await waitFor('the first turn to run', () => first.status === 'running');
    assert.ok(await panel.host.send('then this', 'auto', 'fast'), 'the second turn was not queued');
    const seen = (): string =>
      `${den.api.status.text} ${JSON.stringify(panel.transcript.turns.map((t) => t.status))}`;
    await waitFor('one running, one queued', seen, {
      until: (v) => v.startsWith('$(sync) Den: 1 running, 1 queued '),
    });
    assert.equal(den.api.status.tooltip, 'Den: 1 turn running, 1 turn queued. Click to list them.');
    assert.deepEqual(
      den.api.registry.runningTurns().map((t) => t.queued),
      [false, true],
    );
    await panel.host.stop();
    await waitFor('the queued turn to run', () => den.api.status.text === '$(sync) Den: 1 running');
    await panel.host.stop();
    await waitFor('no turn left', () => den.api.status.text === '$(check) Den');
  });

  it('reopens a closed session from the cache at once, then brings it up to date from the service', async () => {
    const server = await signInThroughProxy();
    const id = await seededSession(den.api, 'Plan the Postgres 16 migration');
    const first = await openPanel(den.api, id);
    await waitFor('the history', () => first.host.loaded);
    const cached = first.transcript;
    first.dispose();
    await waitFor('the panel to close', () => den.api.panels.panel(id) === undefined);
    assert.deepEqual(digestOf(await cachedOnClose(den.api, id)), digestOf(cached));
    // Another client adds a turn meanwhile; the service then answers only when the test lets it.
    const agentId = await startElsewhere(den.emu, id, 'answer in 5 events');
    await den.emu.turnEnded(id, agentId);
    const history = server.hold((r) => r.method === 'GET' && r.url.split('?')[0] === `/sessions/${id}`);
    const again = await openPanel(den.api, id);
    await waitShows(again, () => cached, 'the cached transcript');
    assert.equal(again.host.loaded, false, 'the history arrived before the cache was shown');
    await waitFor('the history to be asked for', () => history.held > 0);
    history.release();
    await waitFor('the history', () => again.host.loaded);
    await waitShows(again, () => again.transcript, 'the caught-up transcript');
    assert.deepEqual(again.transcript, await serverTranscript(den.api, id));
    assert.equal(again.transcript.turns.length, cached.turns.length + 1);
  });

  it('restores a panel after a window reload from its saved session id and follows its running turn to the end', async () => {
    const id = await seededSession(den.api, 'Fix flaky upload test');
    const agentId = await startElsewhere(den.emu, id, 'answer in 100 events');
    const raw = vscode.window.createWebviewPanel('den.session', 'Restoring…', vscode.ViewColumn.Active, {});
    await den.api.panels.serializer().deserializeWebviewPanel(raw, { sessionId: id, draft: '' });
    const panel = den.api.panels.panel(id);
    assert.ok(panel, 'the panel was not adopted');
    assert.equal(panel.panel, raw);
    await waitFor('the running turn to be followed', () => den.api.registry.runningTurns().length === 1);
    const turn = lastTurn(panel);
    assert.equal(turn.agentMessageId, agentId);
    // The Sessions view marks the session as running, and unmarks it at the end.
    const a11y = (): string => {
      const item = den.api.sessions.getTreeItem({ kind: 'session', sessionId: id }) as vscode.TreeItem;
      return item.accessibilityInformation?.label ?? '';
    };
    await den.api.sessions.getChildren();
    assert.match(a11y(), /, running,/);
    await turnEnded(den.api, turn);
    assert.doesNotMatch(a11y(), /running/);
    await waitShows(panel, () => withStoredTurn(den.emu, panel.transcript, agentId), 'the restored session');
    assert.equal(panel.panel.title, 'Fix flaky upload test');
  });

  it('disposes a restored panel whose state names no session', async () => {
    const raw = vscode.window.createWebviewPanel('den.session', 'Broken', vscode.ViewColumn.Active, {});
    let disposed = false;
    raw.onDidDispose(() => (disposed = true));
    await den.api.panels.serializer().deserializeWebviewPanel(raw, { draft: 'x' });
    assert.equal(disposed, true);
  });

  it('Den: Stop Running Turn stops the turn of the focused panel', async () => {
    // Longer than the test (100 s): only the stop can end it.
    const panel = await openPanel(den.api, randomUUID(), {
      turn: { task: 'answer in 5000 events', mode: 'auto' },
    });
    const turn = lastTurn(panel);
    await waitFor('the turn to run', () => turn.blocks.length > 0);
    await vscode.commands.executeCommand('den.stopTurn');
    await turnEnded(den.api, turn);
    assert.equal(turn.status, 'aborted');
    assert.deepEqual(den.messages.shown, []);
  });

  it('Den: Show Running Turns opens the panel of the chosen turn', async () => {
    const id = randomUUID();
    // Longer than the test (100 s): it is still running whenever the list is asked for; stopped below.
    const panel = await openPanel(den.api, id, { turn: { task: 'answer in 5000 events', mode: 'auto' } });
    panel.dispose();
    const w = vscode.window as unknown as { showQuickPick: (items: unknown) => Thenable<unknown> };
    const saved = w.showQuickPick;
    let offered: { label: string }[] = [];
    w.showQuickPick = async (items) => {
      offered = (await items) as { label: string }[];
      return offered[0];
    };
    try {
      await vscode.commands.executeCommand('den.showRunningTurns');
    } finally {
      w.showQuickPick = saved;
    }
    assert.equal(offered.length, 1);
    assert.match(offered[0].label, /answer in 5000 events/);
    const reopened = den.api.panels.panel(id);
    assert.ok(reopened, 'no panel was opened');
    await vscode.commands.executeCommand('den.stopTurn', id);
    await turnEnded(den.api, lastTurn(reopened));
  });

  it('opens http(s) links only, copies text, and shows a generated file read-only', async () => {
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'Add a slugify helper', mode: 'code' } });
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn);
    const env = vscode.env as unknown as { openExternal: (u: vscode.Uri) => Thenable<boolean> };
    const saved = env.openExternal;
    const opened: string[] = [];
    env.openExternal = async (u) => {
      opened.push(u.toString(true));
      return true;
    };
    try {
      for (const href of [
        'javascript:alert(1)',
        'command:den.signOut',
        'file:///etc/passwd',
        'https://example.com/docs?a=1',
      ]) {
        await panel.handleMessage({ type: 'openLink', href });
      }
    } finally {
      env.openExternal = saved;
    }
    assert.deepEqual(opened, ['https://example.com/docs?a=1']);

    await panel.handleMessage({ type: 'copy', text: 'copied from the panel' });
    assert.equal(await vscode.env.clipboard.readText(), 'copied from the panel');

    const file = turn.files.find((f) => f.change !== 'deleted');
    assert.ok(file, 'the coding turn changed no file');
    await panel.handleMessage({ type: 'openFile', turnId: turn.agentMessageId, path: file.path });
    const doc = await waitFor('the file document', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.scheme === 'den-session' ? d : undefined;
    });
    assert.ok(doc.uri.path.endsWith(file.path));
    const res = await fetch(`${den.emu.url}/media/${file.key}`, {
      headers: { authorization: `Bearer ${den.emu.keys.primary}` },
    });
    assert.equal(doc.getText(), await res.text());
    assert.equal(panel.host.view.notice, null);
  });

  it('attaches files picked in the file dialog, streams them to the service and sends them with the next turn', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-attach-'));
    const file = path.join(dir, 'data.csv');
    fs.writeFileSync(file, 'a,b\n1,2\n');
    const panel = await openPanel(den.api, await seededSession(den.api, 'Compare CSV parsing libraries'));
    await waitFor('the history', () => panel.host.loaded);
    const w = vscode.window as unknown as {
      showOpenDialog: (o: vscode.OpenDialogOptions) => Thenable<unknown>;
    };
    const saved = w.showOpenDialog;
    let asked: vscode.OpenDialogOptions | undefined;
    w.showOpenDialog = async (o) => {
      asked = o;
      return [vscode.Uri.file(file)];
    };
    try {
      await panel.handleMessage({ type: 'pickAttachments' });
    } finally {
      w.showOpenDialog = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(asked?.canSelectMany, true);
    assert.deepEqual(
      panel.host.view.composer().attachments.map((a) => [a.name, a.status, a.size]),
      [['data.csv', 'ready', 8]],
    );
    await panel.handleMessage({
      type: 'send',
      text: 'Parse the attached file',
      mode: 'code',
      effort: 'fast',
    });
    const turn = lastTurn(panel);
    assert.deepEqual(
      turn.userMessage.files.map((f) => [f.key, f.name, f.size]),
      [[`${panel.sessionId}/data.csv`, 'data.csv', 8]],
    );
    assert.deepEqual(panel.host.view.composer().attachments, []);
    const res = await fetch(`${den.emu.url}/media/${panel.sessionId}/data.csv`, {
      headers: { authorization: `Bearer ${den.emu.keys.primary}` },
    });
    assert.equal(await res.text(), 'a,b\n1,2\n');
    await turnEnded(den.api, turn);
  });

  it('shows a generated file from the session events when the service does not serve it', async () => {
    await den.restart({ downloads: 'none' });
    const panel = await openPanel(den.api, randomUUID(), {
      turn: { task: 'Add a slugify helper', mode: 'code' },
    });
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn);
    const file = turn.files.find((f) => f.change !== 'deleted' && f.path.endsWith('.ts'));
    assert.ok(file, 'the coding turn wrote no TypeScript file');
    await panel.handleMessage({ type: 'openFile', turnId: turn.agentMessageId, path: file.path });
    const doc = await waitFor('the file document', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.scheme === 'den-session' ? d : undefined;
    });
    assert.ok(doc.getText().length > 0);
    const notice = (): string | undefined => panel.host.view.notice?.message;
    assert.equal(notice(), undefined);
    // A path that is not a file of the turn is refused with a notice, not an error.
    await panel.handleMessage({ type: 'openFile', turnId: turn.agentMessageId, path: '../../etc/passwd' });
    assert.match(notice() ?? '', /is not a file of this turn/);
  });
});
