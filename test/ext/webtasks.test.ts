import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { toCsv, toJsonLines, toPrettyJson } from '../../src/core/webtasks/writers';
import {
  EMPTY_WEB_TASK_FORM,
  type WebTaskForm,
  type WebTaskHostMessage,
} from '../../src/protocol/webtask-panel/webtask-messages';
import { waitFor } from '../support/wait';
import { denApi, type DenApi, denLogText } from './den-api';
import { useDen } from './fixtures';
import { setDenSetting } from './settings-helpers';
import { labelOf, rows, sessionIds } from './tree-helpers';

const SCHEMA = { name: 'the product name', price: 'the price in USD', url: 'the product page url' };

function form(query: string, over: Partial<WebTaskForm> = {}): WebTaskForm {
  return {
    ...EMPTY_WEB_TASK_FORM,
    appUrl: 'https://shop.example.com',
    query,
    schemaText: JSON.stringify(SCHEMA),
    ...over,
  };
}

/** What the Web Task panel posted to its webview since `watch` was called. */
function watchPosts(api: DenApi): { posts: WebTaskHostMessage[]; dispose(): void } {
  const posts: WebTaskHostMessage[] = [];
  const sub = api.webTasks.panel.onDidPost((m) => posts.push(m));
  return { posts, dispose: () => sub.dispose() };
}

/** Opens the panel with Run Web Task…, posts `run` as the webview would, and waits for the run's end. */
async function runFromPanel(api: DenApi, f: WebTaskForm): Promise<string> {
  await vscode.commands.executeCommand('den.runWebTask');
  await api.webTasks.panel.handleMessage({ type: 'run', form: f });
  const id = api.webTasks.panel.shownRunId;
  assert.ok(id, 'no run is shown');
  await api.webTasks.runner.settled(id);
  return id;
}

async function storedFilesText(api: DenApi): Promise<string> {
  const dir = api.webTasks.storageDir;
  const names = await fs.readdir(path.join(dir, 'runs')).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((n) => fs.readFile(path.join(dir, 'runs', n), 'utf8')));
  return [await fs.readFile(path.join(dir, 'index.json'), 'utf8').catch(() => ''), ...texts].join('\n');
}

/** The last post of a type. */
function lastPost<T extends WebTaskHostMessage['type']>(
  posts: readonly WebTaskHostMessage[],
  type: T,
): Extract<WebTaskHostMessage, { type: T }> | undefined {
  return [...posts].reverse().find((m): m is Extract<WebTaskHostMessage, { type: T }> => m.type === type);
}

function root(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the tests run with a workspace folder');
  return folder;
}

describe('Web tasks', () => {
  const den = useDen();
  let watched: ReturnType<typeof watchPosts>;

  beforeEach(async () => {
    await vscode.commands.executeCommand('den.clearWebTaskHistory', true);
    watched = watchPosts(den.api);
  });

  afterEach(async () => {
    // Den itself, not `den.api`: the fixture's own teardown may have run first.
    const api = await denApi();
    watched.dispose();
    for (const id of api.webTasks.runner.runningIds()) {
      api.webTasks.runner.cancel(id);
      await api.webTasks.runner.settled(id);
    }
    api.webTasks.panel.close();
    api.webTasks.windowFocused = () => vscode.window.state.focused;
    await api.webTasks.passcode.set('');
    await vscode.commands.executeCommand('den.clearWebTaskHistory', true);
  });

  it('runs from Run Web Task…: the results reach the panel and the history records DONE with rows and problems', async () => {
    const id = await runFromPanel(den.api, form('list products with gaps', { maxCount: '6' }));
    const results = watched.posts.find((m) => m.type === 'results');
    assert.ok(results?.type === 'results');
    assert.equal(results.results.runId, id);
    assert.equal(results.results.data.length, 6);
    assert.deepEqual(results.results.schema, SCHEMA);
    assert.equal(results.results.sessionOpenable, false, 'the emulator lists no session of the run');
    const statuses = watched.posts.flatMap((m) => (m.type === 'status' ? [m.status] : []));
    assert.ok(statuses.some((s) => s.phase === 'running'));
    assert.equal(statuses.at(-1)?.phase, 'done');
    const run = await den.api.webTasks.history().get(id);
    assert.equal(run?.status, 'DONE');
    assert.equal(run?.rowCount, 6);
    assert.ok((run?.problems?.missing ?? 0) > 0, JSON.stringify(run?.problems));
    assert.ok((run?.problems?.null ?? 0) > 0, JSON.stringify(run?.problems));
    // The view lists it, and the form is remembered for the next Run Web Task….
    const rows = await den.api.webTasks.tree.getChildren();
    assert.deepEqual(
      rows.map((r) => r.runId),
      [id],
    );
    const item = den.api.webTasks.tree.getTreeItem(rows[0]);
    assert.match(String(item.description), /^Done · 6 rows · \d+ problems · /);
    den.api.webTasks.panel.close();
    await vscode.commands.executeCommand('den.runWebTask');
    assert.equal(den.api.webTasks.panel.form.query, 'list products with gaps');
  });

  it("offers the run's session when the service has it, and Open Session opens its panel", async () => {
    await den.restart({ lamSessions: true });
    await runFromPanel(den.api, form('list products'));
    assert.equal(lastPost(watched.posts, 'results')?.results.sessionOpenable, true);
    const sessionId = lastPost(watched.posts, 'status')?.status.sessionId;
    assert.ok(sessionId, 'the run has a session');
    await den.api.webTasks.panel.handleMessage({ type: 'openSession' });
    await waitFor('the session panel', () => den.api.panels.panel(sessionId));
  });

  it("keeps the run's own session out of the day groups: under Web Tasks, collapsed, marked web task", async () => {
    await den.restart({ lamSessions: true });
    await runFromPanel(den.api, form('list products for the sessions view'));
    const sessionId = lastPost(watched.posts, 'status')?.status.sessionId;
    assert.ok(sessionId, 'the run has a session');
    const sessions = den.api.sessions;
    const scope = sessions.showAll;
    const webTasksGroup = async () =>
      (await sessions.getChildren())?.find((n) => n.kind === 'day' && n.group === 'webtasks');
    try {
      // This Workspace lists it: the run was made here
      await sessions.setShowAll(false);
      await sessions.refresh();
      const group = await waitFor('the Web Tasks group', webTasksGroup);
      const item = sessions.getTreeItem(group);
      assert.equal(labelOf(item), 'Web Tasks');
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      const inGroup = (await sessions.getChildren(group)) ?? [];
      assert.deepEqual(
        inGroup.map((n) => (n.kind === 'session' ? n.sessionId : n.kind)),
        [sessionId],
      );
      const row = sessions.getTreeItem(inGroup[0]);
      assert.match(String(row.description), /^web task · /);
      assert.equal((row.iconPath as vscode.ThemeIcon).id, 'globe');
      // nowhere else in the tree, in either scope
      assert.equal(sessionIds(await rows(den.api)).filter((id) => id === sessionId).length, 1);
      await sessions.setShowAll(true);
      assert.equal(sessionIds(await rows(den.api)).filter((id) => id === sessionId).length, 1);
      // the run deleted from the history: an ordinary session again, among the day's
      await vscode.commands.executeCommand('den.clearWebTaskHistory', true);
      await waitFor('no Web Tasks group', async () => (await webTasksGroup()) === undefined);
      assert.ok(sessionIds(await rows(den.api)).includes(sessionId));
    } finally {
      await sessions.setShowAll(scope);
    }
  });

  it('gives the page its whole state when it says ready: the remembered form, and only whether a passcode is set', async () => {
    const secret = `pc-${Date.now()}-ready`;
    await vscode.commands.executeCommand('den.setWebTaskPasscode', secret);
    await runFromPanel(den.api, form('list products for the page'));
    den.api.webTasks.panel.close();
    watched.posts.length = 0;
    await vscode.commands.executeCommand('den.runWebTask');
    // dist/webtask.js posts `ready` once loaded.
    const init = await waitFor('the page to ask for its state', () => lastPost(watched.posts, 'init'));
    assert.equal(init.passcodeSet, true);
    assert.equal(init.form.query, 'list products for the page');
    assert.equal(init.status?.phase, 'done');
    assert.equal(init.results?.data.length, 3);
    assert.ok(!JSON.stringify(watched.posts).includes(secret), 'the passcode reached the page');
  });

  it('refuses a bad form on the host with messages by field, and runs nothing', async () => {
    await vscode.commands.executeCommand('den.runWebTask');
    await den.api.webTasks.panel.handleMessage({ type: 'run', form: form('', { appUrl: 'ftp://x' }) });
    const errors = watched.posts.find((m) => m.type === 'formErrors');
    assert.ok(errors?.type === 'formErrors');
    assert.deepEqual(Object.keys(errors.errors).sort(), ['appUrl', 'query']);
    assert.equal((await den.api.webTasks.history().list()).length, 0);
    assert.equal(den.emu.lamRequests().length, 0);
    // Messages that fail the contract are ignored.
    await den.api.webTasks.panel.handleMessage({ type: 'run', form: { appUrl: 1 } });
    await den.api.webTasks.panel.handleMessage({ type: 'nope' });
    assert.equal(den.emu.lamRequests().length, 0);
  });

  it('runs with a *.denschema.json file from Run Web Task with This Schema; a bad file is named with its problem', async () => {
    const file = vscode.Uri.joinPath(root(), 'products.denschema.json');
    const text = JSON.stringify({ title: 'the title', seller: { city: 'the city' } }, null, 2);
    await vscode.workspace.fs.writeFile(file, Buffer.from(text));
    const bad = vscode.Uri.joinPath(root(), 'bad.denschema.json');
    await vscode.workspace.fs.writeFile(bad, Buffer.from('{"price": 3}'));
    try {
      await vscode.commands.executeCommand('den.runWebTaskWithSchema', bad);
      assert.match(den.messages.texts('error').join('\n'), /bad\.denschema\.json.*price/);
      assert.equal(den.api.webTasks.panel.isOpen, false);

      await vscode.commands.executeCommand('den.runWebTaskWithSchema', file);
      const panel = den.api.webTasks.panel;
      assert.equal(panel.isOpen, true);
      assert.equal(panel.form.schemaText, text);
      assert.equal(panel.form.schemaSource, 'products.denschema.json');
      await panel.handleMessage({
        type: 'run',
        form: { ...panel.form, appUrl: 'https://books.example.com', query: 'list books', stream: false },
      });
      const id = panel.shownRunId as string;
      await den.api.webTasks.runner.settled(id);
      const run = await den.api.webTasks.history().get(id);
      assert.equal(run?.status, 'DONE');
      assert.equal(run?.rowCount, 3);
      assert.deepEqual(run?.problems, { missing: 0, null: 0, empty: 0, wrongShape: 0 });
      const data = await den.api.webTasks.history().data(id);
      assert.deepEqual(Object.keys(data?.[0] ?? {}), ['title', 'seller']);
      assert.equal(den.emu.lamRequests().at(-1)?.stream, false);
      // With the page open, the schema replaces only the form's schema.
      await vscode.commands.executeCommand('den.runWebTaskWithSchema', file);
      const schema = lastPost(watched.posts, 'schema');
      assert.deepEqual(schema, { type: 'schema', schemaText: text, schemaSource: 'products.denschema.json' });
    } finally {
      await vscode.workspace.fs.delete(file);
      await vscode.workspace.fs.delete(bad);
    }
  });

  it('sends the passcode from Set Web Task Passcode as service_passcode, and never logs or stores it', async () => {
    const secret = `pc-${Date.now()}-secret`;
    await vscode.commands.executeCommand('den.setWebTaskPasscode', secret);
    await runFromPanel(den.api, form('list products'));
    assert.equal(den.emu.lamRequests().at(-1)?.service_passcode, secret);
    // The service echoes it back in a 403: the message and the log carry no passcode.
    den.emu.failNext({
      path: '^/lam/run$',
      status: 403,
      body: { error: 'forbidden', message: `passcode ${secret} is not valid` },
    });
    const refused = await runFromPanel(den.api, form('list products again'));
    const status = den.api.webTasks.runner.statusOf(
      (await den.api.webTasks.history().get(refused)) ?? assert.fail('no run'),
    );
    assert.equal(status.phase, 'error');
    assert.match(status.hint ?? '', /Set Web Task Passcode/);
    assert.ok(!status.message.includes(secret), status.message);
    assert.ok(!(await storedFilesText(den.api)).includes(secret), 'the passcode is in the history files');
    const posted = JSON.stringify(watched.posts);
    assert.ok(!posted.includes(secret), 'the passcode reached the webview');
    const log = await denLogText(`Web task ${refused}: ERROR`);
    assert.ok(!log.includes(secret), 'the passcode is in the Den log');
    // Removing it: the next run sends none.
    await vscode.commands.executeCommand('den.setWebTaskPasscode', '');
    await runFromPanel(den.api, form('list products once more'));
    assert.equal(den.emu.lamRequests().at(-1)?.service_passcode, undefined);
  });

  it('saves the results as JSON, JSONL and CSV into the workspace, copies them and opens them as JSON', async () => {
    await runFromPanel(den.api, form('Top products, with prices!'));
    const results = watched.posts.find((m) => m.type === 'results');
    assert.ok(results?.type === 'results');
    const data = results.results.data;
    const w = vscode.window as unknown as { showSaveDialog: typeof vscode.window.showSaveDialog };
    const original = w.showSaveDialog;
    const offered: string[] = [];
    const written: vscode.Uri[] = [];
    w.showSaveDialog = async (options) => {
      offered.push(options?.defaultUri?.path ?? '');
      const uri = vscode.Uri.joinPath(
        root(),
        `saved-${written.length}-${path.posix.basename(options?.defaultUri?.path ?? 'x')}`,
      );
      written.push(uri);
      return uri;
    };
    try {
      const expected = {
        json: toPrettyJson(data),
        jsonl: toJsonLines(data),
        csv: toCsv(data, { schema: SCHEMA }),
      };
      for (const format of ['json', 'jsonl', 'csv'] as const) {
        await den.api.webTasks.panel.handleMessage({ type: 'save', format });
        const text = new TextDecoder().decode(
          await vscode.workspace.fs.readFile(written.at(-1) as vscode.Uri),
        );
        assert.equal(text, expected[format], format);
      }
      assert.deepEqual(
        offered.map((p) => path.posix.relative(root().path, p)),
        ['top-products-with-prices.json', 'top-products-with-prices.jsonl', 'top-products-with-prices.csv'],
      );
      assert.match(expected.csv.split('\r\n')[0], /^name,price,url/);
      assert.equal(expected.jsonl.trim().split('\n').length, data.length);
      assert.match(den.messages.texts('info').join('\n'), /Saved 3 records to saved-2-/);
      await den.api.webTasks.panel.handleMessage({ type: 'copy', format: 'csv' });
      assert.equal(await vscode.env.clipboard.readText(), expected.csv);
      await den.api.webTasks.panel.handleMessage({ type: 'copy', format: 'json' });
      assert.equal(await vscode.env.clipboard.readText(), expected.json);
      await den.api.webTasks.panel.handleMessage({ type: 'openJson' });
      const doc = vscode.window.activeTextEditor?.document;
      assert.equal(doc?.languageId, 'json');
      assert.equal(doc?.getText(), expected.json);
    } finally {
      w.showSaveDialog = original;
      for (const uri of written) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    }
  });

  it('keeps at most den.webTasks.maxRuns runs, evicting the oldest', async () => {
    await setDenSetting(den.api, 'webTasks.maxRuns', 2);
    try {
      const ids: string[] = [];
      for (const q of ['first', 'second', 'third'])
        ids.push(await runFromPanel(den.api, form(`list ${q}`, { stream: false })));
      const runs = await den.api.webTasks.history().list();
      assert.deepEqual(
        runs.map((r) => r.id),
        [ids[2], ids[1]],
      );
      assert.equal((await den.api.webTasks.tree.getChildren()).length, 2);
      // Delete from the view removes the run and its files.
      await vscode.commands.executeCommand('den.deleteWebTaskRun', { kind: 'webTaskRun', runId: ids[2] });
      assert.deepEqual(
        (await den.api.webTasks.tree.getChildren()).map((n) => n.runId),
        [ids[1]],
      );
      assert.ok(!(await storedFilesText(den.api)).includes(ids[2]), 'the deleted run is still stored');
    } finally {
      await setDenSetting(den.api, 'webTasks.maxRuns', undefined);
    }
  });

  it('compares a rerun with the previous run: rows added, removed and changed', async () => {
    const first = await runFromPanel(den.api, form('list products drift', { maxCount: '5' }));
    await vscode.commands.executeCommand('den.rerunWebTask', first);
    const second = den.api.webTasks.panel.shownRunId as string;
    assert.notEqual(second, first);
    await den.api.webTasks.runner.settled(second);
    await den.api.webTasks.panel.handleMessage({ type: 'compare' });
    const c = lastPost(watched.posts, 'comparison');
    assert.ok(c?.type === 'comparison');
    assert.equal(c.comparison.runId, second);
    assert.equal(c.comparison.previous?.runId, first);
    assert.ok(c.comparison.added.length > 0, 'added');
    assert.ok(c.comparison.removed.length > 0, 'removed');
    assert.ok(c.comparison.changed.length > 0, 'changed');
    // From the view: the first run has no earlier one.
    await vscode.commands.executeCommand('den.compareWebTaskRun', { kind: 'webTaskRun', runId: first });
    const none = lastPost(watched.posts, 'comparison');
    assert.ok(none?.type === 'comparison');
    assert.equal(none.comparison.runId, first);
    assert.equal(none.comparison.previous, null);
    assert.match(none.comparison.message ?? '', /No earlier run/);
  });

  it('cancels a run mid-stream: it ends cancelled, and is recorded so', async () => {
    await vscode.commands.executeCommand('den.runWebTask');
    await den.api.webTasks.panel.handleMessage({ type: 'run', form: form('list products hold') });
    const id = den.api.webTasks.panel.shownRunId as string;
    await waitFor('a PROCESSING state', () =>
      watched.posts.some((m) => m.type === 'status' && m.status.taskStatus === 'PROCESSING'),
    );
    assert.equal(den.api.webTasks.runner.isRunning(id), true);
    await den.api.webTasks.panel.handleMessage({ type: 'cancel' });
    await den.api.webTasks.runner.settled(id);
    const last = lastPost(watched.posts, 'status');
    assert.ok(last?.type === 'status');
    assert.equal(last.status.phase, 'cancelled');
    assert.equal((await den.api.webTasks.history().get(id))?.status, 'CANCELLED');
  });

  it('HUMAN_INTERACTION: needs a person, with a notification offering Watch Live when not looked at', async () => {
    // the person looks elsewhere (a test window's focus cannot be set: Den's check is replaced)
    den.api.webTasks.windowFocused = () => false;
    const id = await runFromPanel(den.api, form('log in as a human'));
    const last = lastPost(watched.posts, 'status');
    assert.ok(last?.type === 'status');
    assert.equal(last.status.phase, 'needs-person', last.status.message);
    assert.match(last.status.livestreamUrl ?? '', /^http:\/\/.*\/livestream\//);
    assert.match(den.messages.texts('info').join('\n'), /Den: a web task needs a person: .*login/);
    assert.equal(den.api.webTasks.noticeRunId, id);
    assert.equal((await den.api.webTasks.history().get(id))?.status, 'HUMAN_INTERACTION');
    // Watch Live, outside the editor: the run's http(s) live link goes to the system browser.
    const env = vscode.env as unknown as { openExternal: typeof vscode.env.openExternal };
    const original = env.openExternal;
    const opened: string[] = [];
    env.openExternal = async (uri) => {
      opened.push(uri.toString(true));
      return true;
    };
    try {
      await den.api.webTasks.panel.handleMessage({ type: 'watchLive', external: true });
    } finally {
      env.openExternal = original;
    }
    assert.deepEqual(opened, [last.status.livestreamUrl]);
  });

  it('Watch Live in the editor opens the live link in the Simple Browser', async () => {
    await runFromPanel(den.api, form('log in as a human'));
    const live = lastPost(watched.posts, 'status')?.status.livestreamUrl;
    assert.match(live ?? '', /^http:\/\/127\.0\.0\.1:\d+\/livestream\//);
    assert.ok(
      vscode.extensions.getExtension('vscode.simple-browser'),
      'code-server ships the Simple Browser',
    );
    const browserTabs = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputWebview && /simpleBrowser/i.test(t.input.viewType));
    const before = browserTabs().length;
    await den.api.webTasks.panel.handleMessage({ type: 'watchLive', external: false });
    await waitFor('the Simple Browser tab', () => browserTabs().length > before);
    for (const t of browserTabs()) await vscode.window.tabGroups.close(t);
  });

  it('restores the panel after a window reload, showing the newest run as recorded', async () => {
    const older = await runFromPanel(den.api, form('list products'));
    const newest = await runFromPanel(den.api, form('list products drift'));
    assert.notEqual(older, newest);
    den.api.webTasks.panel.close();
    // (the closed page's own init may name the newest run too, from before it ended: skip it)
    const before = watched.posts.length;
    const raw = vscode.window.createWebviewPanel('den.webTask', 'Restoring…', vscode.ViewColumn.Active, {});
    await den.api.webTasks.panel.serializer().deserializeWebviewPanel(raw, {});
    assert.equal(den.api.webTasks.panel.isOpen, true);
    assert.equal(den.api.webTasks.panel.shownRunId, newest);
    // the page loads and says ready: its init carries the newest run and its results
    const init = await waitFor('the restored page to get its init', () => {
      const m = lastPost(watched.posts.slice(before), 'init');
      return m?.status?.runId === newest ? m : undefined;
    });
    assert.equal(init.status?.phase, 'done');
    assert.equal(init.results?.runId, newest);
    assert.equal(init.form.query, 'list products drift');
    // a second restored panel while one is open is closed, not adopted
    const extra = vscode.window.createWebviewPanel('den.webTask', 'Another', vscode.ViewColumn.Active, {});
    let disposed = false;
    extra.onDidDispose(() => (disposed = true));
    await den.api.webTasks.panel.serializer().deserializeWebviewPanel(extra, {});
    assert.equal(disposed, true);
  });

  it('checks *.denschema.json files in the editor through the contributed JSON schema', async () => {
    const file = vscode.Uri.joinPath(root(), 'checked.denschema.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from('{\n  "title": "the title",\n  "price": 3\n}\n'));
    try {
      const doc = await vscode.workspace.openTextDocument(file);
      assert.equal(doc.languageId, 'json');
      await vscode.window.showTextDocument(doc);
      // The JSON language server reports the number where a description or nested fields belong.
      const problems = await waitFor(
        'the JSON language server to check the file',
        () => vscode.languages.getDiagnostics(file),
        { timeoutMs: 30_000, until: (d) => d.length > 0 },
      );
      assert.ok(
        problems.some((d) => d.range.start.line === 2),
        JSON.stringify(problems.map((d) => [d.range.start.line, d.message])),
      );
      // Fixed, the file has no problem left.
      const edit = new vscode.WorkspaceEdit();
      edit.replace(file, new vscode.Range(2, 11, 2, 12), '"the price in USD"');
      await vscode.workspace.applyEdit(edit);
      await waitFor('the problem to go', () => vscode.languages.getDiagnostics(file), {
        timeoutMs: 30_000,
        until: (d) => d.length === 0,
      });
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await vscode.workspace.fs.delete(file);
    }
  });

  it('FAILURE: failed, with the service message and what to try', async () => {
    const id = await runFromPanel(den.api, form('this will fail'));
    const last = lastPost(watched.posts, 'status');
    assert.ok(last?.type === 'status');
    assert.equal(last.status.phase, 'failed');
    assert.match(last.status.message, /did not load/);
    assert.match(last.status.hint ?? '', /app URL/);
    assert.equal((await den.api.webTasks.history().get(id))?.status, 'FAILURE');
  });

  it('401: an error with a hint, recorded as ERROR; a stream or a JSON answer cut short: Interrupted, advice by mode', async () => {
    den.emu.failNext({
      path: '^/lam/run$',
      status: 401,
      body: { error: 'unauthorized', message: 'bad key' },
    });
    const rejected = await runFromPanel(den.api, form('list products'));
    let status = lastPost(watched.posts, 'status');
    assert.ok(status?.type === 'status');
    assert.equal(status.status.phase, 'error');
    assert.match(status.status.hint ?? '', /Set API Key/);
    assert.equal((await den.api.webTasks.history().get(rejected))?.status, 'ERROR');

    const cut = await runFromPanel(den.api, form('list products no final'));
    status = lastPost(watched.posts, 'status');
    assert.ok(status?.type === 'status');
    assert.equal(status.status.runId, cut);
    assert.equal(status.status.phase, 'interrupted');
    assert.match(status.status.message, /^Interrupted: the status stream ended before the task finished/);
    assert.match(status.status.hint ?? '', /turn Streaming off/);
    const run = (await den.api.webTasks.history().get(cut)) ?? assert.fail('no run');
    assert.equal(run.status, 'INTERRUPTED');
    // the row says the same, and so does the run reopened from the history
    await den.api.webTasks.tree.getChildren();
    const item = den.api.webTasks.tree.getTreeItem({ kind: 'webTaskRun', runId: cut });
    assert.ok(String(item.description).startsWith('Interrupted'), String(item.description));
    assert.equal(item.contextValue, 'webTaskRun');
    assert.equal(den.api.webTasks.runner.statusOf(run).phase, 'interrupted');

    // Streaming off, the JSON answer cut off half way: Interrupted, and no "turn streaming off".
    const cutJson = await runFromPanel(den.api, form('list products no final', { stream: false }));
    assert.equal(den.emu.lamRequests().at(-1)?.stream, false);
    status = lastPost(watched.posts, 'status');
    assert.ok(status?.type === 'status');
    assert.equal(status.status.runId, cutJson);
    assert.equal(status.status.phase, 'interrupted');
    assert.match(status.status.message, /^Interrupted: the service's answer was cut off/);
    assert.match(status.status.hint ?? '', /connection or proxy/);
    assert.doesNotMatch(`${status.status.message} ${status.status.hint}`, /stream/i);
    const stored = (await den.api.webTasks.history().get(cutJson)) ?? assert.fail('no run');
    assert.equal(stored.status, 'INTERRUPTED');
    assert.doesNotMatch(den.api.webTasks.runner.statusOf(stored).hint ?? '', /stream/i);
  });
});

describe('Web tasks: a run that needs a person', () => {
  const den = useDen();
  let watched: ReturnType<typeof watchPosts>;

  beforeEach(async () => {
    await vscode.commands.executeCommand('den.clearWebTaskHistory', true);
    watched = watchPosts(den.api);
  });
  afterEach(async () => {
    watched.dispose();
    const api = await denApi();
    for (const id of api.webTasks.runner.runningIds()) {
      api.webTasks.runner.cancel(id);
      await api.webTasks.runner.settled(id);
    }
    api.webTasks.panel.close();
    api.webTasks.windowFocused = () => vscode.window.state.focused;
    await vscode.commands.executeCommand('den.clearWebTaskHistory', true);
  });

  const rowOf = async (runId: string) => {
    await den.api.webTasks.tree.getChildren();
    return den.api.webTasks.tree.getTreeItem({ kind: 'webTaskRun', runId });
  };
  const needsPersonNotices = () => den.messages.texts('info').filter((t) => /needs a person/.test(t));

  it('a final HUMAN_INTERACTION is finished: row not live, no Cancel, no notification while its panel is visible', async () => {
    den.api.webTasks.windowFocused = () => true;
    const id = await runFromPanel(den.api, form('log in as a human'));
    assert.equal(den.api.webTasks.panel.isShowing(id), true, 'the panel shows the run');
    const last = lastPost(watched.posts, 'status')?.status ?? assert.fail('no status');
    assert.equal(last.phase, 'needs-person');
    assert.ok(last.finishedAt !== undefined && last.finishedAt >= last.startedAt, 'a real end time');
    assert.match(last.hint ?? '', /over.*Watch Live/);
    assert.equal(den.api.webTasks.runner.isRunning(id), false);
    const row = await rowOf(id);
    assert.equal(row.contextValue, 'webTaskRun', 'the row offers Cancel');
    assert.match(String(row.description), /^Needs a person · 0 rows/);
    assert.equal((row.iconPath as vscode.ThemeIcon).id, 'person');
    assert.deepEqual(needsPersonNotices(), [], 'notified while the person looks at the run');
    assert.equal(den.api.webTasks.noticeRunId, undefined);
  });

  it('notifies when the person looks elsewhere, and a later run withdraws the notice', async () => {
    den.api.webTasks.windowFocused = () => false;
    const first = await runFromPanel(den.api, form('log in as a human'));
    assert.equal(needsPersonNotices().length, 1);
    assert.equal(den.api.webTasks.noticeRunId, first);
    const later = await runFromPanel(den.api, form('list products'));
    assert.notEqual(later, first);
    assert.equal(den.api.webTasks.noticeRunId, undefined, 'the earlier notice outlived the later run');
    assert.equal(needsPersonNotices().length, 1, 'nothing new to tell');
    // the earlier run's row is still finished, and the later run is done
    assert.equal((await rowOf(first)).contextValue, 'webTaskRun');
    assert.match(String((await rowOf(later)).description), /^Done/);
  });
});
