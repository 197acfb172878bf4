/**
 * A send the host refuses gives its text back, whatever the timing (issue 22, point 4), in real
 * (headless) Chromium: the host's `sending` on and off fold into one batch, the answer reaches a
 * reloaded page, text typed meanwhile is kept.
 */
import assert from 'node:assert/strict';
import { closeBrowser, openHarness, started, type Harness } from './browser-harness';
import { composer } from './helpers';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

/** Sends what is typed with Enter and returns the `sendId` the page posted. */
async function sendTyped(h: Harness, text: string): Promise<string> {
  const input = h.page.locator('#composer-input');
  await input.fill(text);
  await input.press('Enter');
  const sent = (await h.posted()).filter((m) => m.type === 'send').pop();
  assert.equal(sent?.text, text);
  assert.equal(typeof sent?.sendId, 'string');
  return sent?.sendId as string;
}

describe('webview: a refused send gives its text back', function () {
  // A hang guard: Chromium on a busy two-core machine can take several seconds per test.
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('when "sending" and "not sending" folded into one batch (the page never saw it sending)', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer() });
    const input = h.page.locator('#composer-input');
    const id = await sendTyped(h, 'keep my words');
    assert.equal(await input.inputValue(), '');
    // The fold: the only composer state the page gets is the one after the refusal.
    await h.send(
      next([
        { type: 'composer', composer: composer() },
        { type: 'sendResult', sendId: id, outcome: 'refused' },
      ]),
    );
    await h.frames(2);
    assert.equal(await input.inputValue(), 'keep my words');
    const saved = (await h.saved()) as { draft?: string; pendingSend?: unknown };
    assert.equal(saved.draft, 'keep my words');
    assert.equal(saved.pendingSend, undefined);
  });

  it('keeps what was typed since, after the text given back', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer() });
    const input = h.page.locator('#composer-input');
    const refused = await sendTyped(h, 'first');
    await input.fill('typed meanwhile');
    await h.send(next([{ type: 'sendResult', sendId: refused, outcome: 'refused' }]));
    await h.frames(2);
    assert.equal(await input.inputValue(), 'first\n\ntyped meanwhile');
    // An answer to a send this page does not wait for (already answered, or another page's) is ignored.
    await h.send(next([{ type: 'sendResult', sendId: refused, outcome: 'refused' }]));
    await h.send(next([{ type: 'sendResult', sendId: 'not-mine', outcome: 'refused' }]));
    await h.frames(2);
    assert.equal(await input.inputValue(), 'first\n\ntyped meanwhile');
  });

  it('a send that started a turn gives nothing back', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer() });
    const id = await sendTyped(h, 'this one starts');
    await h.send(next([{ type: 'sendResult', sendId: id, outcome: 'started' }]));
    await h.frames(2);
    assert.equal(await h.page.locator('#composer-input').inputValue(), '');
    assert.equal(((await h.saved()) as { pendingSend?: unknown }).pendingSend, undefined);
  });

  it('when the answer reaches a page reloaded after the send (hidden meanwhile)', async () => {
    h = await openHarness({
      state: { sessionId: 'sess-0001', draft: '', pendingSend: { id: 'send-1', text: 'sent then hidden' } },
    });
    const next = await started(h, { composer: composer() });
    await h.send(next([{ type: 'sendResult', sendId: 'send-1', outcome: 'refused' }]));
    await h.frames(2);
    assert.equal(await h.page.locator('#composer-input').inputValue(), 'sent then hidden');
  });

  it('a send the service held back (429) stays out of the draft', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer() });
    const id = await sendTyped(h, 'later please');
    await h.send(
      next([
        {
          type: 'composer',
          composer: composer({ held: 'later please', rateLimitedUntil: Date.now() + 30_000 }),
        },
        { type: 'sendResult', sendId: id, outcome: 'held' },
      ]),
    );
    await h.frames(2);
    assert.equal(await h.page.locator('#composer-input').inputValue(), '');
  });
});
