/**
 * The preview panel, as VS Code's preview editor: a single click on a session in the Sessions view
 * (`den.previewSession`) shows it in one reused panel, without a new webview; a double-click, Keep
 * Open, an edit or a send, or a running turn keeps its session open; `workbench.editor.enablePreview`
 * off opens a panel per session.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';
import { digestOf, seededSession, serverTranscript, waitShows } from './panel-helpers';

describe('Session panel: the preview', () => {
  const den = useDen({ emulator: { eventDelayMs: 20 }, trackContext: true });
  /** A single click on a session's row (the row's command, with the title the view lists). */
  const click = (id: string, title?: string): Thenable<unknown> =>
    vscode.commands.executeCommand('den.previewSession', id, title);
  const previewSetting = () => vscode.workspace.getConfiguration('workbench.editor');

  afterEach(async () => {
    await previewSetting().update('enablePreview', undefined, vscode.ConfigurationTarget.Global);
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
