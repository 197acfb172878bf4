/**
 * The Session panel at 300 px wide in real (headless) Chromium: the header names the service only in
 * the connection's tooltip, a turn's file rows keep one line each (buttons as icons, long words cut
 * with the whole in a tooltip) and the composer does not move when the "1 queued" badge appears.
 * Needs Debian's Chromium (scripts/setup-code-server.sh installs it; DEN_CHROMIUM overrides the path).
 */
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { waitFor } from '../../../support/wait';
import { closeBrowser, openHarness, type Harness } from './browser-harness';
import { composer, loadFixture, scenario } from './helpers';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

/** A turn with two changed files and their states, at `width` px, with the composer `queued`. */
async function filesAt(width: number): Promise<{ h: Harness; files: string[]; next: number }> {
  const h = await openHarness({ width, height: 900 });
  const s = scenario(loadFixture('coding-turn.jsonl'), 50);
  const files = s.transcript.turns[0].files.map((f) => f.path);
  const last = s.batches[s.batches.length - 1].seq;
  await h.send(s.init, ...s.batches, {
    type: 'batch',
    seq: last + 1,
    deltas: [
      {
        type: 'fileStatus',
        files: [
          { path: files[0], state: 'modified', added: 3, removed: 1 },
          { path: files[1], state: 'conflicts', added: 4, removed: 0, conflicts: 2, reason: 'Both changed' },
        ],
      },
      { type: 'composer', composer: composer({ running: true }) },
    ],
  });
  await waitFor('the states shown', async () => (await h.page.locator('.file-state').count()) === 2);
  await h.page.locator('.files').scrollIntoViewIfNeeded();
  return { h, files, next: last + 2 };
}

const box = async (l: Locator): Promise<{ x: number; y: number; width: number; height: number }> => {
  const b = await l.boundingBox();
  assert.ok(b, 'not laid out');
  return b;
};

describe('webview at 300 px in Chromium', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('keeps each file on one line, with its actions as labelled icons and the cut words in tooltips', async () => {
    const r = await filesAt(300);
    h = r.h;
    const page = h.page;
    const items = page.locator('.file-item');
    assert.equal(await items.count(), 2);
    const lineHeight = await page.evaluate(
      () => parseFloat(getComputedStyle(document.body).lineHeight) || 20,
    );
    const scroller = await page.evaluate(() => {
      const rows = document.querySelector('.files');
      return rows ? { scroll: rows.scrollWidth, client: rows.clientWidth } : undefined;
    });
    assert.ok(scroller && scroller.scroll <= scroller.client, 'the file list overflows sideways');
    for (let i = 0; i < 2; i++) {
      const item = items.nth(i);
      const row = await box(item);
      // One line: every part of the row shares its top (buttons a bit taller than text).
      assert.ok(row.height < 2 * lineHeight, `file row ${i} wraps: ${row.height}px high`);
      for (const part of await item.locator(':scope > *').all()) {
        const b = await box(part);
        assert.ok(b.x + b.width <= row.x + row.width + 0.5, `a part of row ${i} is cut off at the right`);
      }
      // The file's name comes first and whole words are in its tooltip and accessible name.
      const path = r.files[i];
      const button = item.locator('button.file-change');
      assert.ok(
        (await button.getAttribute('title'))?.startsWith(`Open ${path}\n`),
        'the tooltip names the path',
      );
      assert.equal(await item.locator('.file-name').textContent(), path.split('/').pop());
      assert.match(
        await button.evaluate((b) => b.textContent ?? ''),
        new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      );
    }
    // A calm state is the letter alone (its words for screen readers and in the file's tooltip);
    // one that needs the person keeps its words, cut when narrow, whole in its tooltip.
    const calm = items.nth(0).locator('.file-state');
    assert.ok((await box(calm)).width <= 1, 'a calm state takes room from the name');
    assert.match((await calm.textContent()) ?? '', /against the workspace: modified, 3 lines added/);
    assert.match(
      (await items.nth(0).locator('button.file-change').getAttribute('title')) ?? '',
      /\nmodified · \+3 −1/,
    );
    const state = items.nth(1).locator('.file-state');
    assert.match((await state.getAttribute('title')) ?? '', /^Both changed\nconflicts · 2 hunks/);
    assert.equal(await state.evaluate((e) => getComputedStyle(e).textOverflow), 'ellipsis');
    // Compare and Reviewed are icons, named for screen readers and reachable by keyboard.
    const compare = page.getByRole('button', { name: `Compare ${r.files[0]} with the workspace file` });
    assert.equal(await compare.innerText(), '⇄');
    const reviewed = page.getByRole('button', { name: `Reviewed: ${r.files[0]}` });
    assert.doesNotMatch(await reviewed.innerText(), /Reviewed/);
    await compare.focus();
    await page.keyboard.press('Enter');
    const posted = await waitFor('the compare posted', async () =>
      (await h.posted()).find((m) => m.type === 'runCommand' && m.command === 'den.compareWithWorkspace'),
    );
    assert.equal((posted.args as unknown[])[1], r.files[0]);
    // Review Changes and Apply stay together, each on one line.
    const review = await box(page.locator('button[data-command="den.reviewTurn"]'));
    const apply = await box(page.locator('button[data-command="den.applyTurn"]'));
    assert.equal(Math.round(review.y), Math.round(apply.y), 'Review Changes and Apply are apart');
    assert.ok(review.height < 2 * lineHeight, 'Review Changes wraps inside itself');
  });

  it('shows the words of Compare and Reviewed when there is room', async () => {
    const r = await filesAt(720);
    h = r.h;
    const compare = h.page.getByRole('button', { name: `Compare ${r.files[0]} with the workspace file` });
    assert.equal(await compare.innerText(), 'Compare');
    assert.match(
      await h.page.getByRole('button', { name: `Reviewed: ${r.files[0]}` }).innerText(),
      /Reviewed$/,
    );
  });

  it('moves nothing when the queued badge appears, and announces it', async () => {
    const r = await filesAt(300);
    h = r.h;
    const page = h.page;
    const badge = page.locator('#queued');
    assert.equal(await badge.getAttribute('role'), 'status');
    assert.equal(await badge.isVisible(), false, 'a badge with nothing queued');
    const parts = ['#composer', '#composer-input', '#send', '#stop', '#attach', '#mode'];
    const before = await Promise.all(parts.map((p) => box(page.locator(p))));
    await h.send({
      type: 'batch',
      seq: r.next,
      deltas: [{ type: 'composer', composer: composer({ running: true, queued: 1 }) }],
    });
    await waitFor('the badge', async () => (await badge.textContent()) === '1 queued');
    assert.equal(await badge.isVisible(), true);
    const after = await Promise.all(parts.map((p) => box(page.locator(p))));
    assert.deepEqual(after, before, 'the composer moved when the badge appeared');
    // The badge sits inside the panel, over nothing the person types in.
    const b = await box(badge);
    const input = await box(page.locator('#composer-input'));
    assert.ok(b.x + b.width <= 300 && b.x >= 0, 'the badge is out of the panel');
    assert.ok(b.y + b.height <= input.y, 'the badge covers the text box');
  });

  it('names the service only in the connection’s tooltip and description, not in the header line', async () => {
    const r = await filesAt(300);
    h = r.h;
    const header = h.page.locator('.panel-header');
    assert.doesNotMatch(await h.page.locator('.title-line').innerText(), /agents\.example\.test/);
    // Only in words for screen readers (visually hidden), besides the tooltip.
    const detail = h.page.locator('#connection-detail');
    assert.equal(await detail.evaluate((e) => e.getBoundingClientRect().width <= 1), true);
    const connection = h.page.locator('#connection');
    assert.equal(await connection.getAttribute('title'), 'Agent Session Service at agents.example.test');
    assert.equal(await detail.textContent(), ' (Agent Session Service at agents.example.test)');
    await h.send({
      type: 'batch',
      seq: r.next,
      deltas: [
        { type: 'connection', connection: { state: 'offline', message: 'The service did not answer.' } },
      ],
    });
    await waitFor('offline', async () => (await connection.getAttribute('data-state')) === 'offline');
    assert.equal(
      await connection.getAttribute('title'),
      'The service did not answer.\nAgent Session Service at agents.example.test',
    );
    // The header still fits 300 px: title, meter and state without a sideways scroll.
    const width = await header.evaluate((e) => e.scrollWidth <= e.clientWidth);
    assert.ok(width, 'the header overflows');
  });
});
