/**
 * The Search in Sessions view's page (dist/search.js) in headless Chromium: it asks the host to
 * search as the person types, shows the answer grouped by session with the match marked, moves
 * through the hits with the keyboard and asks to open the one chosen, announces the count, and
 * offers to fetch the sessions not stored here. Screenshots in light, dark and high contrast.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchHostMessage } from '../../../../src/protocol/session-search/messages';
import { waitFor } from '../../../support/wait';
import {
  closeBrowser,
  openWebviewPage,
  type Theme,
  type WebviewPage,
} from '../session-panel/browser-harness';

after(closeBrowser);

// Compiled to dist/test/unit/webview: the bundle is dist/search.js, the stylesheet stays in media/.
const BUNDLE = join(__dirname, '../../../../search.js');
const CSS = join(__dirname, '../../../../../media/search.css');
const SHOTS = join(__dirname, '../../../../../shots');

const OPTIONS = { matchCase: false, wholeWord: false, regex: false };

async function open(
  theme: Theme = 'light',
): Promise<WebviewPage & { send(...m: SearchHostMessage[]): Promise<void> }> {
  const p = await openWebviewPage(BUNDLE, readFileSync(CSS, 'utf8'), { theme, width: 340, height: 420 });
  await waitFor('ready', async () => (await p.posted()).some((m) => m.type === 'ready'), { intervalMs: 20 });
  const send = (...m: SearchHostMessage[]): Promise<void> => p.deliver(m);
  await send({ type: 'init', l10n: null, query: '', options: OPTIONS });
  return { ...p, send };
}

const hit = (
  turnId: string,
  line: string,
  word: string,
  start: number,
  where = 'answer',
  firstOfTurn = true,
) => ({
  turnId,
  line,
  matchStart: line.indexOf(word),
  matchEnd: line.indexOf(word) + word.length,
  where,
  address: { turnId, blockId: 'answer:main', kind: 'answer' as const, index: 0 },
  start,
  firstOfTurn,
});

function answer(id: number): SearchHostMessage {
  return {
    type: 'results',
    id,
    summary: '3 matches in 2 sessions',
    error: false,
    groups: [
      {
        sessionId: 's1',
        title: 'Plan the Postgres 16 migration',
        hits: [
          hit('t1', 'Plan the migration of the orders database to Postgres 16', 'migration', 0, 'request'),
          hit(
            't1',
            'The migration runs in three steps: dump, upgrade, swap.',
            'migration',
            120,
            'answer',
            false,
          ),
        ],
      },
      {
        sessionId: 's2',
        title: 'Fix flaky upload test',
        hits: [
          hit('t9', '…the test waits for the migration lock before it uploads', 'migration', 42, 'tool log'),
        ],
      },
    ],
  };
}

describe('webview: Search in Sessions view (Chromium)', function () {
  this.timeout(60_000);
  let p: Awaited<ReturnType<typeof open>> | undefined;

  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('searches as one types, shows hits grouped by session, and opens the hit chosen with the keyboard', async () => {
    p = await open();
    const { page } = p;
    await page.locator('.ss-input').fill('migration');
    await waitFor('a search', async () => (await p!.posted()).some((m) => m.type === 'search'), {
      intervalMs: 20,
    });
    const asked = (await p.posted()).filter((m) => m.type === 'search');
    assert.equal(asked.length, 1, 'one search after the pause in typing');
    assert.deepEqual(
      { query: asked[0].query, options: asked[0].options },
      { query: 'migration', options: OPTIONS },
    );
    // An older answer is dropped; the newest shows.
    await p.send({ ...answer(0), groups: [] } as SearchHostMessage, answer(asked[0].id as number));
    await page.locator('.ss-hit').nth(2).waitFor();
    assert.deepEqual(await page.locator('.ss-session-title').allInnerTexts(), [
      'Plan the Postgres 16 migration',
      'Fix flaky upload test',
    ]);
    assert.deepEqual(await page.locator('.ss-match').allInnerTexts(), [
      'migration',
      'migration',
      'migration',
    ]);
    assert.equal(await page.locator('.ss-summary').innerText(), '3 matches in 2 sessions');
    await waitFor(
      'the count announced',
      async () => (await page.locator('#live-region').innerText()) === '3 matches in 2 sessions',
      { intervalMs: 30 },
    );
    // Down from the box into the list: the session row, then its hits.
    await page.locator('.ss-input').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const active = page.locator('.ss-results');
    assert.equal(await active.getAttribute('aria-activedescendant'), 'ss-row-2');
    assert.equal(await page.locator('#ss-row-2').getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    const opened = (await p.posted()).filter((m) => m.type === 'open');
    assert.deepEqual(opened, [
      {
        type: 'open',
        sessionId: 's1',
        query: 'migration',
        options: OPTIONS,
        address: { turnId: 't1', blockId: 'answer:main', kind: 'answer', index: 0 },
        start: 120,
      },
    ]);
    // Home and Enter: the session row opens the session, without an address.
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    const last = (await p.posted()).filter((m) => m.type === 'open').at(-1);
    assert.deepEqual(last, { type: 'open', sessionId: 's1', query: 'migration', options: OPTIONS });
    // Escape goes back to the box; Alt+R toggles regex and searches again at once.
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'ss-input');
    await page.keyboard.press('Alt+r');
    const again = (await p.posted()).filter((m) => m.type === 'search').at(-1);
    assert.deepEqual(again?.options, { ...OPTIONS, regex: true });
    assert.deepEqual(await p.saved(), { query: 'migration', options: { ...OPTIONS, regex: true } });
  });

  it('words an error, offers to fetch the sessions not stored here, and keeps agent text as text', async () => {
    p = await open();
    const { page } = p;
    await p.send({ type: 'missing', count: 3 });
    assert.equal(
      await page.locator('.ss-fetch').innerText(),
      'Fetch and index the 3 sessions not stored here…',
    );
    await page.locator('.ss-fetch').click();
    assert.ok((await p.posted()).some((m) => m.type === 'fetchMissing'));
    await page.locator('.ss-input').fill('(');
    await page.keyboard.press('Enter');
    const id = (await p.posted()).filter((m) => m.type === 'search').at(-1)?.id as number;
    await p.send({
      type: 'results',
      id,
      groups: [],
      note: 'Not a valid regular expression.',
      summary: 'Not a valid regular expression.',
      error: true,
    });
    await page.locator('.ss-note.ss-error').waitFor();
    assert.equal(await page.locator('.ss-input').getAttribute('aria-invalid'), 'true');
    const evil = answer(id);
    if (evil.type === 'results') evil.groups[0].title = '<img src=x onerror=alert(1)>';
    await p.send(evil);
    await page.locator('.ss-hit').first().waitFor();
    assert.equal(await page.locator('.ss-results img').count(), 0);
    assert.equal(await page.locator('.ss-session-title').first().innerText(), '<img src=x onerror=alert(1)>');
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`looks right in ${theme} (screenshot)`, async () => {
      p = await open(theme);
      const { page } = p;
      await page.locator('.ss-input').fill('migration');
      await waitFor('a search', async () => (await p!.posted()).some((m) => m.type === 'search'), {
        intervalMs: 20,
      });
      const id = (await p.posted()).filter((m) => m.type === 'search').at(-1)?.id as number;
      await p.send(answer(id), { type: 'missing', count: 5 });
      await page.locator('.ss-hit').nth(2).waitFor();
      await page.locator('.ss-input').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.screenshot({ path: join(SHOTS, `search-view-${theme}.png`) });
    });
  }
});
