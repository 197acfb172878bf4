/**
 * The preview panel, as VS Code's preview editor: a single click on a session in the Sessions view
 * (`den.previewSession`) shows it in one reused panel, without a new webview; a double-click, Keep
 * Open, an edit or a send, or a running turn keeps its session open; `workbench.editor.enablePreview`
 * off opens a panel per session.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Transcript } from '../../src/core/transcript/model';
import type { TranscriptCache } from '../../src/model/session/transcript-cache';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { type RecordingProxy, startRecordingProxy } from './network-helpers';
import { digestOf, seededSession, serverTranscript, waitShows } from './panel-helpers';
import { signIn } from './sign-in-helpers';

describe('Session panel: the preview', () => {
  const den = useDen({ emulator: { eventDelayMs: 20 }, trackContext: true });
  /** A single click on a session's row (the row's command, with the title the view lists). */
  const click = (id: string, title?: string): Thenable<unknown> =>
    vscode.commands.executeCommand('den.previewSession', id, title);
  const previewSetting = () => vscode.workspace.getConfiguration('workbench.editor');

  /** A proxy a test put between Den and the emulator (closed after the panels). */
  let proxy: RecordingProxy | undefined;

  afterEach(async () => {
    await previewSetting().update('enablePreview', undefined, vscode.ConfigurationTarget.Global);
    await proxy?.close();
    proxy = undefined;
  });

  it('a single click shows the next session in the same panel and page, its own rows only; the one left goes', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    await click(a);
    const p = den.api.panels.panel(a);
    assert.ok(p, 'no panel for A');
    assert.equal(p.preview, true);
    assert.equal(den.api.panels.previewPanel, p);
    const wantA = await serverTranscript(den.api, a);
    await waitShows(p, () => wantA, 'A in the preview');
    const inits = { n: 0 };
    const untap = p.panel.webview.onDidReceiveMessage((m: { type?: string }) => {
      if (m.type === 'ready') inits.n++;
    });

    await click(b, 'Compare CSV parsing libraries');
    untap.dispose();
    assert.equal(den.api.panels.panel(a), undefined, 'A keeps a panel');
    assert.equal(den.api.panels.panel(b), p, 'B is not in the same panel');
    assert.equal(p.panel.title, 'Compare CSV parsing libraries');
    const wantB = await serverTranscript(den.api, b);
    const d = await waitShows(p, () => wantB, 'B in the preview');
    assert.ok(d);
    assert.equal(inits.n, 0, 'the page was loaded again (a new webview)');
    assert.equal(den.api.registry.isAttached(a), false, 'A is still held');
    assert.deepEqual(d.turns, digestOf(wantB));
  });

  it('back to a session shown lately: it shows whole in one post (kept in memory), before its history is read again', async () => {
    proxy = await startRecordingProxy(den.emu.url);
    await signIn(den.api, proxy.url, den.emu.keys.primary);
    const cache = (den.api.registry as unknown as { cache?: TranscriptCache }).cache;
    assert.ok(cache, 'the session registry keeps no `cache`: update this test');
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    await click(a);
    const p = den.api.panels.panel(a)!;
    await waitFor('A’s history', () => p.host.loaded);
    const shownA: Transcript = structuredClone(p.transcript);
    await click(b);
    await waitFor('B’s history', () => den.api.panels.panel(b)?.host.loaded === true);
    await waitFor('A kept in memory', () => cache.keptInMemory.includes(a));
    // A's history waits: what shows first can only come from what Den kept.
    const history = proxy.hold((r) => r.method === 'GET' && r.url.split('?')[0] === `/sessions/${a}`);
    await click(a);
    assert.equal(den.api.panels.panel(a), p, 'A is not back in the same panel');
    assert.equal(cache.keptInMemory.includes(a), false, 'A was not taken from memory');
    assert.equal(p.stats.inits, 1, 'A was posted in more than one init (its title first?)');
    assert.ok(p.transcript.turns.length > 0, 'A was shown before its rows');
    await waitShows(p, () => shownA, 'A as it was shown');
    assert.equal(p.host.loaded, false, 'the history came before A was shown');
    await waitFor('A’s history to be asked for again', () => history.held > 0);
    history.release();
    await waitFor('A’s history', () => p.host.loaded);
  });

  it('clicks that come while a session is still being read: the last one shows; a double-click keeps it open', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    const c = await seededSession(den.api, 'Plan the Postgres 16 migration');
    await click(c);
    const p = den.api.panels.panel(c)!;
    // A's and B's cached transcripts are read while the next click comes.
    await Promise.all([click(a), click(b)]);
    assert.equal(den.api.panels.panel(b), p, 'B is not in the preview');
    assert.equal(den.api.panels.panel(a), undefined, 'A was shown after B was clicked');
    assert.equal(den.api.registry.isAttached(a), false, 'A is still held');
    assert.equal(den.api.registry.isAttached(c), false, 'C is still held');
    await Promise.all([click(a), click(a)]);
    assert.equal(den.api.panels.panel(a), p, 'A is not in the preview panel');
    assert.equal(p.preview, false, 'the double-click did not keep A open');
    assert.equal(den.api.registry.isAttached(a), true, 'A is not held');
    assert.equal(den.api.registry.isAttached(b), false, 'B is still held');
  });

  it('drops what the page still says about the session it left (a send meant for A does not reach B)', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    await click(a);
    await click(b);
    const p = den.api.panels.panel(b)!;
    const wantB = await serverTranscript(den.api, b);
    await waitShows(p, () => wantB, 'B in the preview');
    const before = p.transcript.turns.length;
    await p.handleMessage({ type: 'send', text: 'meant for A', mode: 'code', effort: 'fast', session: a });
    await p.handleMessage({ type: 'keepOpen', session: a });
    assert.equal(p.transcript.turns.length, before, 'a turn started in B');
    assert.equal(p.preview, true, 'a Keep Open about A kept B open');
  });

  it('a double-click keeps the session open: the next click opens a new preview beside it', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    await click(a);
    await click(a);
    const pa = den.api.panels.panel(a)!;
    assert.equal(pa.preview, false, 'the double-click did not keep A open');
    assert.equal(den.api.panels.previewPanel, undefined);
    await click(b);
    const pb = den.api.panels.panel(b)!;
    assert.notEqual(pb, pa);
    assert.equal(pb.preview, true);
    assert.equal(den.api.panels.panel(a), pa, 'A lost its panel');
  });

  it('Keep Open (the command, the page’s button) and a send keep the session open', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    const c = await seededSession(den.api, 'Write release notes for v2.3');
    await click(a);
    const pa = den.api.panels.panel(a)!;
    pa.reveal();
    await waitFor('the preview to have the focus', () => pa.panel.active);
    await waitFor('Keep Open in the title bar', () => den.context.get('den.sessionPreview') === true);
    await vscode.commands.executeCommand('den.keepSessionOpen');
    assert.equal(pa.preview, false);
    await waitFor('Keep Open to leave the title bar', () => den.context.get('den.sessionPreview') === false);

    await click(b);
    const pb = den.api.panels.panel(b)!;
    assert.notEqual(pb, pa);
    await pb.handleMessage({ type: 'keepOpen', session: b });
    assert.equal(pb.preview, false);

    await click(c);
    const pc = den.api.panels.panel(c)!;
    assert.equal(pc.preview, true);
    await pc.handleMessage({
      type: 'send',
      text: 'answer in 3 events',
      mode: 'auto',
      effort: 'fast',
      session: c,
    });
    assert.equal(pc.preview, false, 'a send left the session in the preview');
  });

  it('a running turn keeps the preview’s session open', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    await click(a);
    const p = den.api.panels.panel(a)!;
    assert.equal(p.preview, true);
    // a turn started without the panel (another command, the API)
    await den.api.registry.startTurn(a, { task: 'answer in 40 events', mode: 'auto' });
    await waitFor('the running turn to keep A open', () => !p.preview);
    assert.equal(den.api.panels.previewPanel, undefined);
  });

  it('with workbench.editor.enablePreview off, each click opens a panel of its own', async () => {
    await previewSetting().update('enablePreview', false, vscode.ConfigurationTarget.Global);
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    await click(a);
    await click(b);
    const pa = den.api.panels.panel(a);
    const pb = den.api.panels.panel(b);
    assert.ok(pa && pb && pa !== pb, 'one panel for both');
    assert.equal(pa.preview || pb.preview, false);
  });

  it('a preview restored after a reload is the preview again', async () => {
    const a = await seededSession(den.api, 'Refactor auth middleware');
    const b = await seededSession(den.api, 'Compare CSV parsing libraries');
    const restored = vscode.window.createWebviewPanel('den.session', 'restored', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    await den.api.panels
      .serializer()
      .deserializeWebviewPanel(restored, { sessionId: a, draft: '', preview: true });
    const p = den.api.panels.panel(a)!;
    assert.equal(p.panel, restored);
    assert.equal(p.preview, true);
    await click(b);
    assert.equal(den.api.panels.panel(b), p, 'the restored preview was not reused');
  });
});
