/**
 * The calm transcript in real (headless) Chromium: each tool call one line that opens in place by
 * keyboard, consecutive calls grouped (a running call in sight), events Den has no words for as one
 * quiet line, JSON results as fields (agent text inert), a failed turn's code as a detail, a time
 * estimate only while fresh, and Find opening a closed group and a closed line to its match.
 */
import assert from 'node:assert/strict';
import type { Block, ToolBlock } from '../../../../src/core/transcript/model';
import type { Delta, TurnHeader } from '../../../../src/protocol/session-panel/messages';
import { waitFor } from '../../../support/wait';
import { closeBrowser, openHarness, recordDialogs, started, type Harness } from './browser-harness';
import { AGENT, header } from './helpers';
import { liveTranscript } from '../../core/transcript/helpers';

after(closeBrowser);

const NOW = 1_800_000_000_000;

function tool(id: string, name: string, patch: Partial<ToolBlock> = {}, log = ''): Block {
  return {
    type: 'tool',
    id,
    name,
    parameters: {},
    log: { segments: log ? [{ stream: 'stdout', data: log }] : [], chars: log.length, truncatedChars: 0 },
    status: 'success',
    ...patch,
  };
}

const block = (b: Block): Delta => ({ type: 'block', turnId: AGENT, block: b });

function turn(patch: Partial<TurnHeader>): Delta {
  return { type: 'turn', turn: { ...header(liveTranscript().turns[0]), ...patch } };
}

/** What a line shows to the eye: its text without what is only for screen readers or only decoration. */
function shown(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  copy.querySelectorAll('.visually-hidden, [aria-hidden="true"]').forEach((e) => e.remove());
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** {@link shown} of each element (self-contained: it runs in the page). */
function shownAll(els: Element[]): string[] {
  return els.map((el) => {
    const copy = el.cloneNode(true) as Element;
    copy.querySelectorAll('.visually-hidden, [aria-hidden="true"]').forEach((e) => e.remove());
    return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
  });
}

const thought = (id: string): Block => ({ type: 'thought', id, text: 'Thinking it over.', final: true });

describe('webview: the calm transcript (Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('shows a tool call as one line that opens in place with Enter and closes with Space', async () => {
    h = await openHarness();
    const next = await started(h);
    const content = Array.from({ length: 10 }, (_, i) => `export const line${i} = ${i};`).join('\n');
    await h.send(
      next([block(tool('tool:write_file:1', 'write_file', { parameters: { path: 'src/x.ts', content } }))]),
    );
    const line = h.page.locator('.tool-line');
    assert.equal(await line.evaluate(shown), 'write_file src/x.ts · +10');
    assert.equal(await line.locator('.visually-hidden').textContent(), ' (done)', 'said to screen readers');
    assert.equal(await line.getAttribute('aria-expanded'), 'false');
    assert.equal(
      await h.page.getByText('export const line3').count(),
      0,
      'the file’s content is not printed',
    );
    await line.focus();
    await h.page.keyboard.press('Enter');
    await waitFor('the card open', async () => (await line.getAttribute('aria-expanded')) === 'true');
    const card = h.page.locator('.tool-card');
    assert.equal(await card.isVisible(), true);
    assert.deepEqual(await card.locator('.param dt').allInnerTexts(), ['path', 'content']);
    assert.match(
      await card.locator('.tool-output-value, .param-value').nth(1).innerText(),
      /export const line0/,
    );
    await h.page.keyboard.press(' ');
    await waitFor('the card closed', async () => (await line.getAttribute('aria-expanded')) === 'false');
    assert.equal(await card.isVisible(), false);
  });

  it('groups consecutive calls in one line, opens it by keyboard to their own lines, and keeps a running call in sight', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(
      next([
        block(
          tool('tool:read_file:1', 'read_file', {
            parameters: { path: 'a.ts' },
            startedAt: 1000,
            endedAt: 2000,
          }),
        ),
        block(
          tool('tool:run_command:1', 'run_command', {
            parameters: { command: 'npm ci' },
            status: 'error',
            output: 'exit code 1',
            startedAt: 2000,
            endedAt: 30_000,
          }),
        ),
        block(thought('thought:1')),
        block(
          tool('tool:run_command:2', 'run_command', {
            parameters: { command: 'npm test' },
            startedAt: 31_000,
            endedAt: 35_000,
          }),
        ),
        block(
          tool(
            'tool:run_command:3',
            'run_command',
            { parameters: { command: 'npm run lint' }, status: 'running' },
            'checking src/a.ts\n',
          ),
        ),
      ]),
    );
    const groups = h.page.locator('.tool-group');
    assert.equal(await groups.count(), 2);
    assert.equal(await groups.nth(0).locator('.group-text').innerText(), '2 tool calls · 1 failed · 29 s');
    assert.equal(await groups.nth(1).locator('.group-text').innerText(), '2 tool calls · running…');
    // The running call is in sight under its closed group, live.
    const live = groups.nth(1).locator('.group-live');
    assert.equal(await live.evaluate(shown), 'run_command npm run lint · running… · checking src/a.ts');
    await h.send(
      next([
        {
          type: 'append',
          turnId: AGENT,
          blockId: 'tool:run_command:3',
          text: 'checking src/b.ts\n',
          stream: 'stdout',
        },
      ]),
    );
    await waitFor('the live line follows the log', async () =>
      (await live.evaluate(shown)).endsWith('checking src/b.ts'),
    );
    // Opened by keyboard, the first group is followed by its calls' lines, in order.
    assert.equal(await h.page.locator('.block-tool').count(), 0);
    await groups.nth(0).locator('.group-line').focus();
    await h.page.keyboard.press('Enter');
    await waitFor('the group open', async () => (await h.page.locator('.block-tool').count()) === 2);
    assert.equal(await groups.nth(0).locator('.group-line').getAttribute('aria-expanded'), 'true');
    const lines = await h.page.locator('.block-tool .tool-summary').evaluateAll(shownAll);
    assert.deepEqual(lines, ['read_file a.ts', 'run_command npm ci · failed · exit 1']);
    const order = await h.page.locator('.rows > *').evaluateAll((els) => els.map((e) => e.className));
    assert.deepEqual(order.slice(1, 5), [
      'row tool-group',
      'row block block-tool in-group',
      'row block block-tool in-group',
      'row block block-thought',
    ]);
    // The turn ends: the running call did not finish, the group no longer says running.
    await h.send(next([turn({ status: 'completed' })]));
    await waitFor(
      'the group settled',
      async () => (await groups.nth(1).locator('.group-text').innerText()) === '2 tool calls',
    );
    assert.equal(await live.isHidden(), true);
  });

  it('shows an event Den has no words for as one quiet line that opens to its fields', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(
      next([
        block({
          type: 'generic',
          id: 'focus#5',
          kind: 'focus',
          payload: { title: 'Writing code', detail: 'src/x.ts' },
        }),
      ]),
    );
    const row = h.page.locator('.block-generic');
    assert.equal(await row.locator('summary').innerText(), 'focus · Writing code · src/x.ts');
    assert.equal(await row.locator('.generic-payload').isVisible(), false);
    await row.locator('summary').focus();
    await h.page.keyboard.press('Enter');
    await waitFor('the payload shown', async () => (await row.locator('.json-key').count()) === 2);
    assert.deepEqual(await row.locator('.json-key').allInnerTexts(), ['title', 'detail']);
    assert.equal(await row.locator('pre').count(), 0, 'no raw block');
  });

  it('shows a JSON result as fields, lists clipped with "more", and agent text as inert text', async () => {
    h = await openHarness();
    const dialogs = recordDialogs(h.page);
    const next = await started(h);
    const results = Array.from({ length: 25 }, (_, i) => ({
      title: i === 0 ? '<img src=x onerror="alert(1)"> Rust <b>async</b>' : `Result ${i}`,
      url: `https://example.org/${i}`,
      meta: { rank: i, tags: ['a', 'b'], deep: { deeper: { deepest: '<script>alert(2)</script>' } } },
    }));
    await h.send(
      next([
        block(
          tool('tool:web_search:1', 'web_search', {
            parameters: { query: 'rust async' },
            output: JSON.stringify(results),
          }),
        ),
      ]),
    );
    const line = h.page.locator('.tool-line');
    assert.match(await line.innerText(), /web_search “rust async” · 25 results/);
    await line.click();
    const out = h.page.locator('.tool-output-value');
    await out.waitFor();
    assert.equal(await out.locator('.json-list > li').count(), 20, 'a long list is clipped');
    assert.equal(await out.locator('.json-more').innerText(), '5 more');
    const first = out.locator('.json-list > li').first();
    assert.deepEqual(
      await first.locator(':scope > .json-value > .json-fields > .json-field > .json-key').allInnerTexts(),
      ['title', 'url', 'meta'],
    );
    assert.match(await first.innerText(), /<img src=x onerror="alert\(1\)"> Rust <b>async<\/b>/);
    assert.match(
      await first.innerText(),
      /<script>alert\(2\)<\/script>/,
      'nested past the depth: compact JSON text',
    );
    assert.equal(
      await h.page.locator('.rows img, .rows script, .rows b').count(),
      0,
      'no markup from agent text',
    );
    await out.locator('.json-more').click();
    assert.equal(await out.locator('.json-list > li').count(), 25);
    assert.equal(await out.locator('.json-more').getAttribute('aria-expanded'), 'true');
    await h.frames(2);
    assert.deepEqual(dialogs, []);
  });

  it('says a failed turn in words, its error code as a detail', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(
      next([
        turn({
          status: 'error',
          error: {
            message: 'The sandbox process exited unexpectedly (exit code 1).',
            code: 'sandbox_failed',
          },
        }),
      ]),
    );
    const status = h.page.locator('.turn-status');
    assert.equal(
      await status.locator('.status-text').innerText(),
      'Failed: The sandbox process exited unexpectedly (exit code 1).',
    );
    const detail = status.locator('details.status-detail');
    assert.equal(await detail.locator('summary').innerText(), 'Details');
    assert.equal(await detail.locator('.status-code').isVisible(), false);
    await detail.locator('summary').click();
    assert.equal(await detail.locator('.status-code').innerText(), 'Error code: sandbox_failed');
  });

  it('shows a time estimate only while it is fresh', async () => {
    h = await openHarness({ now: NOW });
    const next = await started(h);
    const text = h.page.locator('.turn-status .status-text');
    await h.send(next([turn({ status: 'running', phase: 'running', etaSeconds: 42, etaAt: NOW - 2000 })]));
    await waitFor('the estimate', async () => (await text.innerText()) === 'Running · about 40 s left');
    await h.send(next([turn({ status: 'running', phase: 'running', etaSeconds: 4, etaAt: NOW - 60_000 })]));
    await waitFor('no estimate', async () => (await text.innerText()) === 'Running');
    await h.send(next([turn({ status: 'running', phase: 'running', etaSeconds: 42 })]));
    await h.frames(2);
    assert.equal(await text.innerText(), 'Running', 'without the time it was said: not shown');
  });

  it('Find opens a closed group and a closed line to a match in a call’s parameters', async () => {
    h = await openHarness();
    const next = await started(h);
    const calls: Delta[] = [];
    for (let i = 0; i < 50; i++)
      calls.push(
        block(
          tool(`tool:run:${i}`, 'run_command', {
            parameters: {
              command: i === 37 ? 'grep haystack-needle' : `echo ${i}`,
              cwd: i === 37 ? '/srv/needle-dir' : '/srv',
            },
          }),
        ),
      );
    await h.send(next(calls));
    assert.equal(await h.page.locator('.block-tool').count(), 0, 'one closed group');
    await h.page.locator('#transcript').focus();
    await h.page.keyboard.press('Control+f');
    await h.page.keyboard.type('needle-dir');
    await waitFor('the match', async () => (await h.page.locator('.find-count').innerText()) === '1 of 1');
    const row = h.page.locator('[data-block-id="tool:run:37"]');
    await waitFor('the call in sight', async () => (await row.count()) === 1 && (await row.isVisible()));
    assert.equal(await row.getAttribute('class'), 'row block block-tool in-group', 'its group opened');
    assert.equal(await row.locator('.tool-line').getAttribute('aria-expanded'), 'true');
    const current = await h.page.evaluate(() => {
      const hl = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get(
        'den-find-current',
      );
      const r = hl ? [...hl][0] : undefined;
      return r
        ? { text: r.toString(), inParams: !!r.startContainer.parentElement?.closest('.tool-params') }
        : undefined;
    });
    assert.deepEqual(current, { text: 'needle-dir', inParams: true });
  });
});
