/**
 * A turn's outline and "Jump to latest", in real (headless) Chromium: the outline opens from its
 * button or the host's `openOutline`, lists steps, files and failures, jumps to a row windowed out of
 * the DOM and marks it, moves with the arrow keys, follows a streaming turn and gives the focus back
 * on Escape; scrolling up while a turn streams is never undone, "Jump to latest" counts what arrived
 * and brings the view back to following the bottom.
 */
import assert from 'node:assert/strict';
import type { Block, ToolBlock } from '../../../../src/core/transcript/model';
import type { Delta } from '../../../../src/protocol/session-panel/messages';
import { waitFor } from '../../../support/wait';
import { closeBrowser, openHarness, started, toolBlock, type Harness } from './browser-harness';
import { AGENT } from './helpers';

after(closeBrowser);

function tools(from: number, to: number, failing: number[] = []): Delta[] {
  const deltas: Delta[] = [];
  for (let i = from; i < to; i++) {
    const block: Block = failing.includes(i)
      ? {
          ...(toolBlock(`tool:run:${i}`, `line ${i}\n`) as ToolBlock),
          status: 'error',
          output: `exit code ${i}`,
        }
      : toolBlock(`tool:run:${i}`, `line ${i}\n`);
    deltas.push({ type: 'block', turnId: AGENT, block });
  }
  return deltas;
}

/** Tool calls each followed by a line of answer: one row each (consecutive calls share a group line). */
function spacedTools(from: number, to: number): Delta[] {
  return tools(from, to).flatMap((d, k) => [
    d,
    {
      type: 'block',
      turnId: AGENT,
      block: { type: 'markdown', id: `note:${from + k}`, text: `note ${from + k}`, final: true },
    } satisfies Delta,
  ]);
}

const answer = (text: string): Delta => ({
  type: 'block',
  turnId: AGENT,
  block: { type: 'markdown', id: 'answer:main', text, final: false },
});

/** The outline's entries: section class and text. */
function entries(h: Harness): Promise<string[]> {
  return h.page.$$eval('.outline-item', (els) =>
    els.map(
      (e) => `${e.closest('ul')?.classList[1] ?? ''}: ${e.querySelector('.outline-text')?.textContent}`,
    ),
  );
}

const focusedKey = (h: Harness): Promise<string | undefined> =>
  h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.outlineKey);

/** The transcript's distance from its bottom, in px. */
const distance = (h: Harness): Promise<number> =>
  h.page.evaluate(() => {
    const t = document.getElementById('transcript')!;
    return t.scrollHeight - t.clientHeight - t.scrollTop;
  });

describe('webview: turn outline and Jump to latest (Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('lists steps, files and failures and jumps to a windowed-out row by mouse and keyboard', async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    await h.send(
      next([
        answer('I will look at the tests first.\n\n'),
        ...tools(0, 300, [150]),
        {
          type: 'plan',
          turnId: AGENT,
          plan: {
            todos: [
              { id: '1', content: 'Read', status: 'completed' },
              { id: '2', content: 'Fix', status: 'active' },
            ],
          },
        },
      ]),
    );
    await h.probe();
    assert.equal(await h.page.locator('[data-block-id="tool:run:150"]').count(), 0, 'windowed out at first');
    const toggle = h.page.locator('#outline-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await h.page.locator('#turn-outline').isVisible(), true);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await entries(h), [
      'outline-steps: Plan: 1 of 2 done',
      'outline-steps: I will look at the tests first.',
      'outline-steps: 300 tool calls',
      'outline-failures: run run tool:run:150',
    ]);
    assert.equal(await focusedKey(h), 'plan', 'the first entry has the focus');
    assert.match(await h.page.locator('.outline-tools .outline-detail').innerText(), /run ×300 · 1 failed/);

    await h.page.locator('.outline-failure').click();
    const row = h.page.locator('[data-block-id="tool:run:150"]');
    await waitFor(
      'the failed call in view',
      async () => (await row.count()) === 1 && (await row.isVisible()),
    );
    assert.equal(await row.evaluate((e) => e.classList.contains('outline-target')), true, 'marked');
    assert.equal(await h.page.locator('.outline-failure').getAttribute('aria-current'), 'location');
    assert.equal(await h.page.locator('#jump-to-latest').isVisible(), true, 'no longer following');

    // keyboard: up to the answer's line, Enter jumps there; Home, End; Escape gives the focus back
    await h.page.keyboard.press('ArrowUp');
    await h.page.keyboard.press('ArrowUp');
    assert.equal(await focusedKey(h), 'text:answer:main');
    await h.page.keyboard.press('Enter');
    const part = h.page.locator('.md-part[data-part="0"]');
    await waitFor('the answer in view', async () => (await part.count()) === 1 && (await part.isVisible()));
    assert.equal(await row.count(), 0, 'the failed call left the DOM');
    await h.page.keyboard.press('End');
    assert.equal(await focusedKey(h), 'fail:tool:run:150');
    await h.page.keyboard.press('Home');
    assert.equal(await focusedKey(h), 'plan');
    await h.page.keyboard.press('Escape');
    assert.equal(await h.page.locator('#turn-outline').isHidden(), true);
    assert.equal(await h.page.evaluate(() => document.activeElement?.id), 'outline-toggle');
  });

  it('opens on the host’s openOutline and follows the turn as it streams', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(next(tools(0, 2)));
    await h.probe();
    await h.page.locator('#composer-input').focus();
    // the host's `openOutline` takes the next seq (an empty batch is only a way to number it)
    await h.send({ type: 'openOutline', seq: next([]).seq });
    await waitFor('the outline', () => h.page.locator('#turn-outline').isVisible());
    assert.deepEqual(await entries(h), ['outline-steps: 2 tool calls']);
    await h.page.keyboard.press('ArrowDown');
    await h.send(
      next([
        ...tools(2, 3, [2]),
        answer('## Result\n\nDone.\n'),
        {
          type: 'files',
          turnId: AGENT,
          files: [{ path: 'src/a.ts', change: 'added', key: 'k', name: 'a.ts' }],
        },
      ]),
    );
    await waitFor('the outline to follow', async () => (await entries(h)).length === 4, { intervalMs: 30 });
    assert.deepEqual(await entries(h), [
      'outline-steps: 3 tool calls',
      'outline-steps: Result',
      'outline-files: src/a.ts',
      'outline-failures: run run tool:run:2',
    ]);
    assert.equal(await focusedKey(h), 'tools:tool:run:0', 'the focused entry kept the focus');
    await h.page.keyboard.press('Escape');
    assert.equal(await h.page.evaluate(() => document.activeElement?.id), 'composer-input');
  });

  it('never pulls the view down while scrolled up in a streaming turn; Jump to latest counts and resumes following', async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    await h.send(next(spacedTools(0, 200)));
    await h.probe();
    assert.ok((await distance(h)) <= 1, 'following the bottom');
    assert.equal(await h.page.locator('#jump-to-latest').isHidden(), true);
    // a trackpad's small steps up, each followed by streamed output
    await h.page.locator('#transcript').hover();
    for (let i = 0; i < 6; i++) {
      await h.page.mouse.wheel(0, -6);
      await h.frames(2);
      await h.send(
        next([
          { type: 'append', turnId: AGENT, blockId: 'tool:run:199', text: `more ${i}\n`, stream: 'stdout' },
        ]),
      );
      await h.frames(2);
    }
    assert.ok((await distance(h)) >= 30, `pulled back down: ${await distance(h)} px from the bottom`);
    const top = await h.page.evaluate(() => document.getElementById('transcript')!.scrollTop);
    await h.send(next(spacedTools(200, 203)));
    await h.frames(3);
    assert.ok(
      Math.abs((await h.page.evaluate(() => document.getElementById('transcript')!.scrollTop)) - top) <= 1,
      'new blocks did not move the view',
    );
    const jump = h.page.locator('#jump-to-latest');
    assert.equal(await jump.isVisible(), true);
    assert.equal(await jump.innerText(), 'Jump to latest · 6 new ↓');
    await jump.click();
    await h.frames(3);
    assert.ok((await distance(h)) <= 1, 'at the bottom');
    assert.equal(await jump.isHidden(), true);
    await h.send(next(spacedTools(203, 204)));
    await h.frames(3);
    assert.equal(await h.page.locator('[data-block-id="tool:run:203"]').count(), 1, 'following again');
    assert.ok((await distance(h)) <= 1);
  });
});
