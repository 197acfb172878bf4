/**
 * The preview panel's page, in headless Chromium: one page shows session after session (each an
 * `init` of its own), with the preview's mark and Keep Open, messages that say which session they are
 * about, and each session's scroll position kept for going back to it.
 */
import assert from 'node:assert/strict';
import type { Block } from '../../../../src/core/transcript/model';
import type {
  Delta,
  HostMessage,
  WebviewPersistedState,
} from '../../../../src/protocol/session-panel/messages';
import { liveTranscript } from '../../core/transcript/helpers';
import { closeBrowser, openHarness, toolBlock, type Harness } from './browser-harness';
import { AGENT, initMessage } from './helpers';

after(closeBrowser);

type Batch = Extract<HostMessage, { type: 'batch' }>;

/** `n` tool calls, each followed by a short answer. */
function calls(n: number, tag: string): Delta[] {
  const deltas: Delta[] = [];
  const add = (block: Block): void => void deltas.push({ type: 'block', turnId: AGENT, block });
  for (let k = 0; k < n; k++) {
    add(toolBlock(`tool:${k}`, `step ${k}\n`));
    add({ type: 'markdown', id: `answer:${k}`, text: `${tag} answer ${k}: the tests pass.`, final: true });
  }
  return deltas;
}

/** A session's `init` (seq 1, as a host's first post) and its first batch (seq 2), in the preview. */
function session(sessionId: string, n: number, preview = true): HostMessage[] {
  const init = initMessage(liveTranscript(), 1, {
    session: { sessionId, title: `Session ${sessionId}`, service: 'agents.example.test' },
    preview,
  });
  const batch: Batch = { type: 'batch', seq: 2, deltas: calls(n, sessionId) };
  return [init, batch];
}

/** The first answer whose top is in the viewport (what the person reads at the top). */
const FIRST_READ = (): string | undefined => {
  const t = document.getElementById('transcript')!;
  const top = t.getBoundingClientRect().top;
  const row = [...t.querySelectorAll('[data-block-id^="answer:"]')].find(
    (r) => r.getBoundingClientRect().top >= top,
  );
  return row?.getAttribute('data-block-id') ?? undefined;
};

describe('webview: the preview panel shows one session after another (Chromium)', function () {
  this.timeout(90_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  /** A new page shows session A (200 calls) and the person scrolls to `fraction` of it: what they read at the top. */
  const readingA = async (fraction: number): Promise<string | undefined> => {
    h = await openHarness({ height: 500 });
    await h.send(...session('sess-a', 200));
    await h.frames(3);
    await h.page.evaluate((f) => {
      const t = document.getElementById('transcript')!;
      t.scrollTop = Math.round(t.scrollHeight * f);
    }, fraction);
    await h.frames(4);
    return h.page.evaluate(FIRST_READ);
  };

  it('says Preview with Keep Open, in italics; Keep Open and the first edit ask to keep it, a pinned panel says nothing', async () => {
    h = await openHarness();
    await h.send(...session('sess-a', 3));
    await h.frames(3);
    assert.equal(await h.page.locator('.preview-mark').isVisible(), true);
    assert.equal(
      await h.page.locator('#session-title').evaluate((e) => getComputedStyle(e).fontStyle),
      'italic',
    );
    await h.page.locator('#keep-open').click();
    await h.page.locator('#composer-input').pressSequentially('more');
    const asked = (await h.postedAsIs()).filter((m) => m.type === 'keepOpen');
    // the button, and the edit (once: typing on does not ask again)
    assert.deepEqual(asked, [
      { type: 'keepOpen', session: 'sess-a' },
      { type: 'keepOpen', session: 'sess-a' },
    ]);
    // the host kept it open
    await h.send({ type: 'batch', seq: 3, deltas: [{ type: 'panel', preview: false }] });
    await h.frames(2);
    assert.equal(await h.page.locator('.preview-mark').isVisible(), false);
    assert.equal(
      await h.page.locator('#session-title').evaluate((e) => getComputedStyle(e).fontStyle),
      'normal',
    );
    await h.page.locator('#composer-input').pressSequentially(' still');
    assert.equal((await h.postedAsIs()).filter((m) => m.type === 'keepOpen').length, 2);
    assert.equal(((await h.saved()) as WebviewPersistedState).preview, undefined);
  });

  it('shows the next session’s rows only, tags what it posts with it, and going back lands where the person was', async () => {
    // the person scrolls up into the middle of session A
    const readInA = await readingA(0.4);
    assert.ok(readInA && readInA !== 'answer:0' && readInA !== 'answer:199', `reading ${readInA}`);

    // a single click on B: the same page shows B, at its end
    await h.send(...session('sess-b', 30));
    await h.frames(3);
    let d = await h.probe();
    assert.deepEqual(
      d.turns[0]!.blocks.filter((b) => b.type === 'markdown').map((b) => b.text.split(' ')[0]),
      Array(30).fill('sess-b'),
      'only B’s answers',
    );
    assert.equal(await h.page.locator('#session-title').textContent(), 'Session sess-b');
    assert.equal(await h.page.locator('[data-block-id="answer:29"]').isVisible(), true, 'B opens at its end');
    await h.page.locator('#keep-open').click();
    assert.deepEqual((await h.postedAsIs()).at(-1), { type: 'keepOpen', session: 'sess-b' });

    // back to A: where the person was
    await h.send(...session('sess-a', 200));
    await h.frames(4);
    assert.equal(await h.page.evaluate(FIRST_READ), readInA);
    // … also when A's rows come after its init (its history still loading when shown)
    await h.send(session('sess-b', 30)[0]!);
    await h.frames(2);
    const [initA, historyA] = session('sess-a', 200);
    await h.send(initA!);
    await h.frames(3);
    await h.send(historyA!);
    await h.frames(4);
    d = await h.probe();
    assert.equal(d.turns[0]!.blocks.filter((b) => b.text.startsWith('sess-a')).length, 200);
    assert.equal(await h.page.evaluate(FIRST_READ), readInA);
    // … and when they come as a second init (a catch-up too large for a batch)
    await h.send(session('sess-b', 30)[0]!);
    await h.frames(2);
    await h.send(initA!);
    await h.frames(3);
    const whole = initMessage(liveTranscript(), 1, {
      session: { sessionId: 'sess-a', title: 'Session sess-a', service: 'agents.example.test' },
      preview: true,
    });
    const blocks = (historyA as Batch).deltas.flatMap((d) => (d.type === 'block' ? [d.block] : []));
    await h.send({ ...whole, turns: [{ ...whole.turns[0]!, blocks }] });
    await h.frames(4);
    assert.equal(await h.page.evaluate(FIRST_READ), readInA);

    // the positions are saved with the page (a hidden preview's page is reloaded when shown again)
    const saved = (await h.saved()) as WebviewPersistedState;
    assert.equal(saved.sessionId, 'sess-a');
    assert.equal(saved.preview, true);
    assert.deepEqual(
      Object.fromEntries(saved.scrolls?.map((s) => [s.sessionId, s.anchor === undefined]) ?? []),
      { 'sess-a': false },
      'A where the person was (B follows its end: nothing to keep)',
    );
  });

  it('back through a long session’s short first init: hidden until the whole one, then where the person was', async () => {
    const readInA = await readingA(0.4);
    await h.send(...session('sess-b', 30));
    await h.frames(3);

    // A again, as a host sends a long session: short first (older answers left out), then whole
    const whole = initMessage(liveTranscript(), 1, {
      session: { sessionId: 'sess-a', title: 'Session sess-a', service: 'agents.example.test' },
      preview: true,
    });
    const blocks = calls(200, 'sess-a').flatMap((d) => (d.type === 'block' ? [d.block] : []));
    const shortBlocks = blocks.map((b, i) =>
      b.type === 'markdown' && i < blocks.length - 20 ? { ...b, text: '' } : b,
    );
    const visibility = (): Promise<string> =>
      h.page.evaluate(() => getComputedStyle(document.getElementById('transcript')!).visibility);
    await h.send({ ...whole, partial: true, turns: [{ ...whole.turns[0]!, blocks: shortBlocks }] });
    await h.frames(3);
    assert.equal(await visibility(), 'hidden', 'A’s end showed before its saved place could be reached');
    await h.send({ ...whole, seq: 2, turns: [{ ...whole.turns[0]!, blocks }] });
    await h.frames(4);
    assert.equal(await visibility(), 'visible');
    assert.equal(await h.page.evaluate(FIRST_READ), readInA);

    // C, never shown here: its short init shows its end at once
    const c = initMessage(liveTranscript(), 1, {
      session: { sessionId: 'sess-c', title: 'Session sess-c', service: 'agents.example.test' },
      preview: true,
    });
    const cBlocks = calls(50, 'sess-c').flatMap((d) => (d.type === 'block' ? [d.block] : []));
    await h.send({ ...c, partial: true, turns: [{ ...c.turns[0]!, blocks: cBlocks }] });
    await h.frames(3);
    assert.equal(await visibility(), 'visible');
    assert.equal(await h.page.locator('[data-block-id="answer:49"]').isVisible(), true, 'C opens at its end');

    // A again (held for its saved place), then C before A's whole init came: C is not held for A
    await h.send({ ...whole, partial: true, turns: [{ ...whole.turns[0]!, blocks: shortBlocks }] });
    await h.frames(2);
    assert.equal(await visibility(), 'hidden');
    await h.send({ ...c, partial: true, turns: [{ ...c.turns[0]!, blocks: cBlocks }] });
    await h.frames(3);
    assert.equal(await visibility(), 'visible', 'C stayed hidden, held for A’s place');
  });

  it('a page reloaded with saved positions goes back to a session where the person left it', async () => {
    const readInA = await readingA(0.3);
    await h.send(...session('sess-b', 5));
    await h.frames(3);
    const state = await h.saved();
    await h.close();

    // VS Code dropped the hidden page and loads it again with its state; the host then shows A
    h = await openHarness({ height: 500, state });
    await h.send(...session('sess-b', 5));
    await h.frames(3);
    const [initA, historyA] = session('sess-a', 200);
    await h.send(initA!);
    await h.frames(3);
    await h.send(historyA!);
    await h.frames(4);
    assert.equal(await h.page.evaluate(FIRST_READ), readInA);
  });
});
