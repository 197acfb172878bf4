/**
 * Find in a session, in real (headless) Chromium: the bar opens with Ctrl+F or the host's `openFind`,
 * counts matches in the whole transcript (rows windowed out of the DOM too), scrolls to them and
 * highlights them (CSS Custom Highlights over the sanitized text), opens a closed thought, words a
 * bad pattern, recounts while a turn streams, and gives the focus back on Escape.
 */
import assert from 'node:assert/strict';
import type { Block } from '../../../../src/core/transcript/model';
import type { Delta } from '../../../../src/protocol/session-panel/messages';
import { waitFor } from '../../../support/wait';
import {
  closeBrowser,
  openHarness,
  recordDialogs,
  started,
  toolBlock,
  type Harness,
} from './browser-harness';
import { AGENT } from './helpers';

after(closeBrowser);

/** The text of the current highlight and the block id of the row holding it ('' when none). */
async function current(h: Harness): Promise<{ text: string; block: string }> {
  return h.page.evaluate(() => {
    const reg = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
    const hl = reg.get('den-find-current');
    const r = hl ? [...hl][0] : undefined;
    if (!r) return { text: '', block: '' };
    const node = r.startContainer;
    const el = node instanceof Element ? node : node.parentElement;
    return { text: r.toString(), block: el?.closest('[data-block-id]')?.getAttribute('data-block-id') ?? '' };
  });
}

const count = (h: Harness): Promise<string> => h.page.locator('.find-count').innerText();

async function countIs(h: Harness, text: string): Promise<void> {
  await waitFor(`the count "${text}"`, async () => (await count(h)) === text, { intervalMs: 30 });
}

function tools(n: number, special: Record<number, string>): Delta[] {
  const deltas: Delta[] = [];
  for (let i = 0; i < n; i++)
    deltas.push({
      type: 'block',
      turnId: AGENT,
      block: toolBlock(`tool:run:${i}`, special[i] ?? `line ${i}\n`),
    });
  return deltas;
}

describe('webview: Find in a session (Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('opens with Ctrl+F, counts every match and scrolls a windowed-out row into view, highlighted', async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    await h.send(next(tools(400, { 5: 'found the needle here\n', 300: 'another Needle\n' })));
    await h.probe();
    assert.equal(await h.page.locator('[data-block-id="tool:run:5"]').count(), 0, 'windowed out at first');
    await h.page.locator('#transcript').focus();
    await h.page.keyboard.press('Control+f');
    assert.equal(await h.page.locator('.find-bar').isVisible(), true);
    assert.equal(await h.page.evaluate(() => document.activeElement?.className), 'find-input');
    await h.page.keyboard.type('needle');
    await countIs(h, '1 of 2');
    assert.equal(await h.page.locator('[data-block-id="tool:run:5"]').count(), 1, 'scrolled into the DOM');
    assert.deepEqual(await current(h), { text: 'needle', block: 'tool:run:5' });
    assert.ok(await h.page.locator('[data-block-id="tool:run:5"]').isVisible());
    await h.page.keyboard.press('Enter');
    await countIs(h, '2 of 2');
    assert.deepEqual(await current(h), { text: 'Needle', block: 'tool:run:300' });
    await h.page.keyboard.press('Shift+Enter');
    await countIs(h, '1 of 2');
    await h.page.keyboard.press('F3');
    await countIs(h, '2 of 2');
    // Match case: only the lower-case one is left.
    await h.page.keyboard.press('Alt+c');
    assert.equal(await h.page.locator('.find-toggle').first().getAttribute('aria-pressed'), 'true');
    await countIs(h, '1 of 1');
    assert.deepEqual(await current(h), { text: 'needle', block: 'tool:run:5' });
    await waitFor('the count announced', () =>
      h.page.evaluate(() => document.getElementById('live-region')?.textContent?.includes('1 of 1')),
    );
  });

  it('opens a closed thought holding the match', async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    const thought: Block = {
      type: 'thought',
      id: 'th:1',
      text: 'Consider the secret plan first',
      final: true,
    };
    await h.send(next([{ type: 'block', turnId: AGENT, block: thought }, ...tools(200, {})]));
    await h.probe();
    await h.page.locator('#transcript').focus();
    await h.page.keyboard.press('Control+f');
    await h.page.keyboard.type('secret');
    await countIs(h, '1 of 1');
    assert.equal(
      await h.page.locator('details[data-block-id="th:1"]').evaluate((e) => (e as HTMLDetailsElement).open),
      true,
    );
    await waitFor('the thought highlighted', async () => (await current(h)).block === 'th:1', {
      intervalMs: 30,
    });
    assert.equal((await current(h)).text, 'secret');
  });

  it('words a bad regular expression and gives the focus back on Escape', async () => {
    h = await openHarness();
    await started(h);
    await h.probe();
    await h.page.locator('#composer-input').focus();
    await h.page.keyboard.press('Control+f');
    await h.page.keyboard.press('Alt+r');
    assert.equal(await h.page.locator('.find-toggle').nth(2).getAttribute('aria-pressed'), 'true');
    await h.page.keyboard.type('(unclosed');
    await waitFor('the error', async () => /Not a valid regular expression/.test(await count(h)), {
      intervalMs: 30,
    });
    assert.equal(await h.page.locator('.find-input').getAttribute('aria-invalid'), 'true');
    await h.page.keyboard.press('Escape');
    assert.equal(await h.page.locator('.find-bar').isHidden(), true);
    assert.equal(await h.page.evaluate(() => document.activeElement?.id), 'composer-input');
  });

  it('keeps the count current while a turn streams', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(next(tools(3, { 1: 'a needle\n' })));
    await h.probe();
    // the host's `openFind` takes the next seq (an empty batch is only a way to number it)
    await h.send({ type: 'openFind', seq: next([]).seq, query: 'needle' });
    await countIs(h, '1 of 1');
    await h.send(
      next([
        { type: 'append', turnId: AGENT, blockId: 'tool:run:2', text: 'needle again\n', stream: 'stdout' },
      ]),
    );
    await countIs(h, '1 of 2');
  });

  it("reaches a match in a long log's hidden head: asks for the whole log, then scrolls to it", async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    // 3,000 lines (≈ 30,000 characters): the log shows its last 20,000 only; line 7 says the needle
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 7 ? 'line 7 has the needle' : `line ${i} ok`,
    );
    const long = lines.join('\n');
    await h.send(
      next([...tools(50, {}), { type: 'block', turnId: AGENT, block: toolBlock('tool:long', long) }]),
    );
    await h.probe();
    await h.page.locator('#transcript').focus();
    await h.page.keyboard.press('Control+f');
    await h.page.keyboard.type('needle');
    await countIs(h, '1 of 1');
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'showFullLog'),
      [{ type: 'showFullLog', turnId: AGENT, blockId: 'tool:long' }],
    );
    assert.equal((await current(h)).text, '', 'highlighted before the head is shown');
    await h.send({ type: 'fullLog', seq: 3, turnId: AGENT, blockId: 'tool:long', text: long });
    await waitFor('the head highlighted', async () => (await current(h)).block === 'tool:long', {
      intervalMs: 30,
    });
    assert.equal((await current(h)).text, 'needle');
    // in view: inside the log's own scroll box and the transcript's
    await waitFor(
      'the match scrolled into view',
      () =>
        h.page.evaluate(() => {
          const reg = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
          const r = [...(reg.get('den-find-current') ?? [])][0]?.getBoundingClientRect();
          const log = document
            .querySelector('[data-block-id="tool:long"] .tool-log')!
            .getBoundingClientRect();
          const t = document.getElementById('transcript')!.getBoundingClientRect();
          return (
            !!r &&
            r.height > 0 &&
            r.top >= log.top &&
            r.bottom <= log.bottom &&
            r.top >= t.top &&
            r.bottom <= t.bottom
          );
        }),
      { intervalMs: 30 },
    );
    // stepping again (1 of 1) asks nothing more of the host
    await h.page.keyboard.press('Enter');
    await countIs(h, '1 of 1');
    assert.equal((await h.posted()).filter((m) => m.type === 'showFullLog').length, 1);
  });

  it("finds a turn's changed files by name and highlights the right path, not the row's buttons", async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    const file = (path: string) => ({ path, change: 'added' as const, key: `k/${path}`, name: path });
    await h.send(
      next([
        ...tools(3, {}),
        {
          type: 'files',
          turnId: AGENT,
          files: [file('src/review.ts'), file('README.md'), file('test/review.test.ts')],
        },
      ]),
    );
    await h.probe();
    await h.page.keyboard.press('Control+f');
    // "review" is also in the row's "Review Changes" button: not a field, so not highlighted
    await h.page.keyboard.type('review');
    await countIs(h, '1 of 2');
    const path = async (): Promise<string> =>
      h.page.evaluate(() => {
        const reg = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
        const r = [...(reg.get('den-find-current') ?? [])][0];
        return r?.startContainer.parentElement?.closest('.file-change')?.getAttribute('data-path') ?? '';
      });
    await waitFor('the first path highlighted', async () => (await path()) === 'src/review.ts', {
      intervalMs: 30,
    });
    await h.page.keyboard.press('Enter');
    await countIs(h, '2 of 2');
    await waitFor('the second path highlighted', async () => (await path()) === 'test/review.test.ts', {
      intervalMs: 30,
    });
    const highlighted = await h.page.evaluate(() => {
      const reg = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
      return [...(reg.get('den-find') ?? [])].map(
        (r) => r.startContainer.parentElement?.closest('.file-path')?.className ?? '',
      );
    });
    assert.deepEqual(highlighted, ['file-path', 'file-path']);
  });

  it('highlights agent text holding HTML without making it markup', async () => {
    h = await openHarness();
    const dialogs = recordDialogs(h.page);
    const next = await started(h);
    const md: Block = {
      type: 'markdown',
      id: 'md:1',
      text: 'Look: <img src=x onerror=alert(1)> and <b>needle</b> <script>alert(2)</script>',
      final: true,
    };
    await h.send(next([{ type: 'block', turnId: AGENT, block: md }]));
    await h.probe();
    await h.page.keyboard.press('Control+f');
    await h.page.keyboard.type('needle');
    await countIs(h, '1 of 1');
    await waitFor('the highlight', async () => (await current(h)).text === 'needle', { intervalMs: 30 });
    assert.equal(await h.page.locator('#transcript img, #transcript script, #transcript b').count(), 0);
    assert.deepEqual(dialogs, []);
  });

  it('revealMatch (Search in Sessions) opens the bar on that very match, and waits for one still to come', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(next(tools(30, { 3: 'a needle\n', 20: 'one needle, two NEEDLE\n' })));
    await h.probe();
    const address = { turnId: AGENT, blockId: 'tool:run:20', kind: 'tool-log' as const, index: 0 };
    await h.send({
      type: 'revealMatch',
      seq: next([]).seq,
      query: 'needle',
      options: { matchCase: false, wholeWord: false, regex: false },
      address,
      start: 'one needle, two '.length,
    });
    await countIs(h, '3 of 3');
    await waitFor('the highlight', async () => (await current(h)).block === 'tool:run:20', {
      intervalMs: 30,
    });
    assert.equal((await current(h)).text, 'NEEDLE');
    const d = await h.probe();
    assert.deepEqual(d.find?.current, {
      address: `${AGENT}\u0000tool:run:20\u0000tool-log\u00000`,
      start: 'one needle, two '.length,
    });
    // Match case as the search had it: the toggle shows it.
    await h.send({
      type: 'revealMatch',
      seq: next([]).seq,
      query: 'NEEDLE',
      options: { matchCase: true, wholeWord: false, regex: false },
      address: { ...address, blockId: 'tool:run:40' },
      start: 0,
    });
    assert.equal(await h.page.locator('.find-toggle').first().getAttribute('aria-pressed'), 'true');
    await countIs(h, '1 of 1');
    // tool:run:40 is not there yet (its history still loading): it becomes current once it comes.
    await h.send(next(tools(41, { 3: 'a needle\n', 20: 'one needle, two NEEDLE\n', 40: 'NEEDLE last\n' })));
    await countIs(h, '2 of 2');
    await waitFor('the late match', async () => (await current(h)).block === 'tool:run:40', {
      intervalMs: 30,
    });
  });
});
