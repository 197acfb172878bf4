/**
 * The windowed transcript under fast scrolling, in headless Chromium: a fling (most of a viewport a
 * frame) shows rows in the viewport every frame and ends with the rows in view mounted; rows that
 * left the DOM lend their elements to the next rows of their kind, which show their own block's
 * current state (changed while it was out of the DOM), and open/closed state follows the block.
 */
import assert from 'node:assert/strict';
import type { Block, ToolBlock } from '../../../../src/core/transcript/model';
import type { Delta } from '../../../../src/protocol/session-panel/messages';
import { closeBrowser, openHarness, started, toolBlock, type Harness } from './browser-harness';
import { AGENT } from './helpers';

after(closeBrowser);

/** `n` tool calls, each followed by a short answer, a thought after every 10th (the benchmark's shape). */
function longSession(n: number): Delta[] {
  const deltas: Delta[] = [];
  const add = (block: Block): void => void deltas.push({ type: 'block', turnId: AGENT, block });
  for (let k = 0; k < n; k++) {
    add(toolBlock(`tool:${k}`, `step ${k}\n`));
    if (k % 10 === 9) add({ type: 'thought', id: `thought:${k}`, text: `Case ${k} passed.`, final: true });
    add({ type: 'markdown', id: `answer:${k}`, text: `Answer ${k}: the tests pass.`, final: true });
  }
  return deltas;
}

/** Points down the viewport (top, middle, bottom) that no row covers, in the page as last painted. */
const GAPS = (): number => {
  const t = document.getElementById('transcript')!;
  const r = t.getBoundingClientRect();
  let gaps = 0;
  for (const y of [r.top + 4, r.top + r.height / 2, r.bottom - 4]) {
    const at = document.elementFromPoint(r.left + 30, y);
    if (!at?.closest('.rows > .row')) gaps++;
  }
  return gaps;
};

describe('webview: fast scrolling in a long transcript (Chromium)', function () {
  this.timeout(90_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  /** A panel of `n` calls, scrolled up by the wheel (no longer following the bottom). */
  const openLong = async (n: number): Promise<Awaited<ReturnType<typeof started>>> => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    await h.send(next(longSession(n)));
    await h.frames(3);
    await h.page.locator('#transcript').hover();
    await h.page.mouse.wheel(0, -400);
    return next;
  };

  it('a fling top to bottom shows rows in view every frame and ends with the last ones mounted', async () => {
    await openLong(400);
    const run = await h.page.evaluate(
      async ({ gaps }) => {
        const countGaps = new Function(`return (${gaps})()`) as () => number;
        const t = document.getElementById('transcript')!;
        const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
        t.scrollTop = 0;
        for (let i = 0; i < 5; i++) await raf();
        let frames = 0;
        let gapsSeen = 0;
        while (t.scrollTop + t.clientHeight < t.scrollHeight - 1 && frames < 2000) {
          // what the frame before painted
          gapsSeen += countGaps();
          t.scrollTop += t.clientHeight * 0.8;
          await raf();
          frames++;
        }
        for (let i = 0; i < 5; i++) await raf();
        return { frames, gapsSeen, gapsAtEnd: countGaps(), rows: t.querySelectorAll('.rows > .row').length };
      },
      { gaps: GAPS.toString() },
    );
    assert.ok(run.frames > 20, `a fling of ${run.frames} frames`);
    assert.equal(run.gapsSeen, 0, 'a row under every point of the viewport, every frame');
    assert.equal(run.gapsAtEnd, 0);
    assert.ok(run.rows < 120, `${run.rows} rows in the DOM`);
    // the end: the last answer and the turn's status line are in the DOM and in view
    const last = h.page.locator('[data-block-id="answer:399"]');
    assert.equal(await last.count(), 1);
    assert.equal(await last.isVisible(), true);
    assert.equal(await h.page.locator('.turn-status').count(), 1);
  });

  it('a fling upwards mounts rows above the view without moving what is read', async () => {
    await openLong(300);
    const moves = await h.page.evaluate(async () => {
      const t = document.getElementById('transcript')!;
      const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
      t.scrollTop = t.scrollHeight;
      for (let i = 0; i < 5; i++) await raf();
      const out: number[] = [];
      for (let step = 0; step < 30 && t.scrollTop > t.clientHeight; step++) {
        // the first row whose top is in the view, and where it is
        const top = t.getBoundingClientRect().top;
        const row = [...t.querySelectorAll('.rows > .row')].find(
          (r) => r.getBoundingClientRect().top >= top,
        )!;
        const before = row.getBoundingClientRect().top;
        const by = Math.round(t.clientHeight * 0.8);
        t.scrollTop -= by;
        await raf();
        await raf();
        // rows just mounted above it were measured and the view put back where the scroll left it
        out.push(Math.round(row.getBoundingClientRect().top - before - by));
      }
      return out;
    });
    assert.ok(moves.length >= 10, `${moves.length} steps`);
    assert.deepEqual(
      moves.filter((m) => Math.abs(m) > 1),
      [],
      `the row read moved by the scroll and more: ${moves.join()}`,
    );
  });

  it('a row reused for another block shows that block as it is now, open or closed as left', async () => {
    const next = await openLong(300);
    await h.page.evaluate(() => (document.getElementById('transcript')!.scrollTop = 0));
    await h.frames(3);
    // the first thought opened, then every row of the top marked
    await h.page.locator('[data-block-id="thought:9"] summary').click();
    await h.frames(2);
    const marked = await h.page.evaluate(() => {
      const rows = [...document.querySelectorAll('.rows > .row')] as (HTMLElement & { __mark?: boolean })[];
      for (const r of rows) r.__mark = true;
      return rows.length;
    });
    assert.ok(marked > 5);
    // a call at the top changes while the view is far below (its row out of the DOM)
    const scrollBy = (fraction: number): Promise<void> =>
      h.page.evaluate((f) => {
        const t = document.getElementById('transcript')!;
        t.scrollTop = f * (t.scrollHeight - t.clientHeight);
      }, fraction);
    await scrollBy(0.5);
    await h.frames(3);
    assert.equal(await h.page.locator('[data-block-id="tool:1"]').count(), 0, 'out of the DOM');
    const reused = await h.page.evaluate(
      () =>
        [...document.querySelectorAll('.rows > .row')].filter(
          (r) => (r as HTMLElement & { __mark?: boolean }).__mark,
        ).length,
    );
    assert.ok(reused > 0, 'rows that left the DOM were reused');
    // reused rows show their own block: ids and texts agree
    const mismatched = await h.page.evaluate(() =>
      [...document.querySelectorAll('.rows > .block-tool')]
        .filter((r) => {
          const id = r.getAttribute('data-block-id')!;
          return !(r.querySelector('.tool-subject')?.textContent ?? '').endsWith(id);
        })
        .map((r) => r.getAttribute('data-block-id')),
    );
    assert.deepEqual(mismatched, []);
    const wrongAnswers = await h.page.evaluate(() =>
      [...document.querySelectorAll('.rows > .block-markdown')]
        .filter(
          (r) =>
            !(r.textContent ?? '').startsWith(`Answer ${r.getAttribute('data-block-id')!.split(':')[1]}:`),
        )
        .map((r) => r.getAttribute('data-block-id')),
    );
    assert.deepEqual(wrongAnswers, []);
    // thoughts here were never opened: closed, whatever the reused element showed before
    const open = await h.page.evaluate(() =>
      [...document.querySelectorAll('.rows > .block-thought')].map((r) => (r as HTMLDetailsElement).open),
    );
    assert.ok(open.length > 0 && open.every((o) => !o), `thoughts open: ${open.join()}`);
    const failed: ToolBlock = {
      ...(toolBlock('tool:1', 'step 1\n') as ToolBlock),
      status: 'error',
      output: 'exit 1: 2 failing in case1',
    };
    await h.send(next([{ type: 'block', turnId: AGENT, block: failed }]));
    await h.frames(2);
    await scrollBy(0);
    await h.frames(3);
    const row = h.page.locator('[data-block-id="tool:1"]');
    assert.equal(await row.getAttribute('data-status'), 'error');
    assert.match(await row.locator('.tool-summary').innerText(), /exit 1/);
    assert.equal(
      await h.page.locator('[data-block-id="thought:9"]').evaluate((d) => (d as HTMLDetailsElement).open),
      true,
    );
    assert.match(
      await h.page.locator('[data-block-id="thought:9"] .thought-body').innerText(),
      /Case 9 passed/,
    );
  });
});
