/**
 * The webview bundle in real (headless) Chromium with a fake VS Code API: the composer, restored state, the seq protocol, notices, long logs and copying.
 * Needs Debian's Chromium (scripts/setup-code-server.sh installs it; DEN_CHROMIUM overrides the path).
 */
import assert from 'node:assert/strict';
import type { Block } from '../../../../src/core/transcript/model';
import { liveTranscript } from '../../core/transcript/helpers';
import { waitFor } from '../../../support/wait';
import {
  closeBrowser,
  openHarness,
  openToolCards,
  started,
  toolBlock,
  type Harness,
} from './browser-harness';
import { AGENT, composer, header, initMessage } from './helpers';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

/** A fixed time for pages whose clock is stopped. */
const NOW = Date.UTC(2026, 0, 15, 9, 30);

describe('webview controls in Chromium', function () {
  // A hang guard: Chromium on a busy two-core machine can take several seconds per test.
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('sends from the composer with Enter, keeps Shift+Enter for new lines and ignores double sends', async () => {
    // The page's clock stands still, so the second press is "too soon" however slow the machine.
    h = await openHarness({ now: NOW });
    await started(h);
    const input = h.page.locator('#composer-input');
    await input.fill('first line');
    await input.press('Shift+Enter');
    await h.page.keyboard.insertText('second line');
    await h.page.locator('#mode').selectOption('plan');
    await h.page.locator('#effort-think').click();
    assert.equal(await h.page.locator('#effort-think').getAttribute('aria-pressed'), 'true');
    assert.equal(await h.page.locator('#effort-fast').getAttribute('aria-pressed'), 'false');
    await input.press('Enter');
    await input.fill('again');
    await input.press('Enter');
    const posted = await h.posted();
    assert.deepEqual(posted.filter((m) => m.type === 'composerChoice').pop(), {
      type: 'composerChoice',
      mode: 'plan',
      effort: 'think',
    });
    const sends = posted.filter((m) => m.type === 'send');
    const sendId = sends[0]?.sendId;
    assert.equal(typeof sendId, 'string');
    assert.deepEqual(sends, [
      { type: 'send', text: 'first line\nsecond line', mode: 'plan', effort: 'think', sendId },
    ]);
    assert.equal(await input.inputValue(), 'again', 'the second press came too soon and was ignored');
    await input.press('Escape');
    assert.equal(await h.page.evaluate(() => document.activeElement?.id), '');
    await h.page.waitForFunction(
      () => (window as unknown as { __saved?: { draft?: string } }).__saved?.draft === 'again',
    );
    assert.deepEqual(await h.saved(), {
      sessionId: 'sess-0001',
      draft: 'again',
      mode: 'plan',
      effort: 'think',
      // Kept until the host answers the send (the text comes back if it is refused).
      pendingSend: { id: sendId, text: 'first line\nsecond line' },
    });
  });

  it('shows the composer state: stop, queue, disabled reason, rate limit, attachments, continue', async () => {
    // The page's clock stands still, so the time left to the rate limit's end is exact.
    h = await openHarness({ now: NOW });
    const next = await started(h);
    const page = h.page;
    await h.send(
      next([
        {
          type: 'composer',
          composer: composer({
            running: true,
            queued: 2,
            attachments: [
              { id: 'a1', name: 'data.csv', size: 2048, status: 'ready' },
              { id: 'a2', name: 'big.zip', size: 5e6, status: 'error', error: 'Too large' },
            ],
          }),
        },
      ]),
    );
    await h.frames(2);
    assert.equal(await page.locator('#stop').isVisible(), true);
    assert.equal(await page.locator('#queued').innerText(), '2 queued');
    await page.locator('#stop').click();
    await page.getByRole('button', { name: 'Remove big.zip' }).click();
    await page.locator('#attach').click();
    assert.equal(
      await page.locator('.attachment-chip[data-status="error"] .chip-error').innerText(),
      'Too large',
    );
    await h.send(next([{ type: 'composer', composer: composer({ disabledReason: 'Sign in to send.' }) }]));
    await h.frames(2);
    await page.locator('#composer-input').fill('hello');
    assert.equal(await page.locator('#send').isDisabled(), true);
    assert.equal(await page.locator('#send-disabled-reason').innerText(), 'Sign in to send.');
    await h.send(next([{ type: 'composer', composer: composer({ rateLimitedUntil: NOW + 30_000 }) }]));
    await h.frames(2);
    assert.equal(await page.locator('#rate-limit').innerText(), 'Rate limited: you can send again in 30 s');
    assert.equal(await page.locator('#send').isDisabled(), true);
    await h.send(
      next([
        { type: 'composer', composer: composer() },
        {
          type: 'turn',
          turn: { ...header(liveTranscript().turns[0]), status: 'completed', hasContinuation: true },
        },
      ]),
    );
    await h.frames(2);
    assert.equal(await page.locator('#stop').isHidden(), true);
    await page.locator('#continue').click();
    const types = (await h.posted()).map((m) => m.type);
    assert.ok(
      ['stop', 'removeAttachment', 'pickAttachments'].every((t) => types.includes(t)),
      types.join(),
    );
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'send').map(({ sendId: _, ...m }) => m),
      [{ type: 'send', text: 'hello', mode: 'code', effort: 'fast', continueTurnId: AGENT }],
    );
  });

  it('offers Continue after a stopped turn as after a completed one, and hides it while one runs', async () => {
    h = await openHarness({ now: NOW });
    const next = await started(h, { composer: composer() });
    const page = h.page;
    const cont = page.locator('#continue');
    assert.equal(await cont.isHidden(), true, 'offered while the turn runs');
    await h.send(
      next([
        {
          type: 'turn',
          turn: { ...header(liveTranscript().turns[0]), status: 'aborted', abortReason: 'user' },
        },
      ]),
    );
    await cont.waitFor({ state: 'visible' });
    assert.match((await cont.getAttribute('title')) ?? '', /go on from where the last turn ended/);
    await cont.press('Enter');
    const sends = await waitFor('the continue posted', async () => {
      const s = (await h.posted()).filter((m) => m.type === 'send');
      return s.length > 0 && s;
    });
    assert.deepEqual(
      sends.map(({ sendId: _, ...m }) => m),
      [{ type: 'send', text: 'Continue', mode: 'code', effort: 'fast', continueTurnId: AGENT }],
    );
  });

  it('keeps a message held back by a 429 out of the draft, offers its choices, and gives it back on Edit', async () => {
    h = await openHarness();
    const next = await started(h, { composer: composer() });
    const input = h.page.locator('#composer-input');
    await input.fill('another turn');
    await input.press('Enter');
    const until = Date.now() + 30_000;
    await h.send(next([{ type: 'composer', composer: composer({ sending: true }) }]));
    await h.send(
      next([
        { type: 'composer', composer: composer({ rateLimitedUntil: until, held: 'another turn' }) },
        {
          type: 'notice',
          notice: {
            level: 'warning',
            message: 'The service is busy (429). Den can send “another turn” at 10:42:13.',
            actions: [
              { title: 'Send When Ready', heldTurn: 'sendWhenReady' },
              { title: 'Edit', heldTurn: 'edit' },
            ],
          },
        },
      ]),
    );
    await h.frames(2);
    // Held by Den: not also back in the composer, where a second Send would repeat it.
    assert.equal(await input.inputValue(), '');
    await h.page.locator('.notice-action', { hasText: 'Send When Ready' }).click();
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'heldTurn'),
      [{ type: 'heldTurn', action: 'sendWhenReady' }],
    );
    assert.ok(!(await h.posted()).some((m) => m.type === 'runCommand'), 'a held-turn button ran a command');
    // Edit: the host lets go of it, and it is back in the composer.
    await h.send(
      next([
        { type: 'composer', composer: composer({ rateLimitedUntil: until }) },
        { type: 'notice', notice: null },
      ]),
    );
    await h.frames(2);
    assert.equal(await input.inputValue(), 'another turn');
  });

  it('restores draft and choices saved by setState and tells the host', async () => {
    h = await openHarness({
      state: {
        sessionId: 'sess-0001',
        draft: 'half-written',
        mode: 'deepsearch',
        effort: 'think',
        scrollTop: 0,
      },
    });
    await started(h);
    await h.frames(2);
    assert.equal(await h.page.locator('#composer-input').inputValue(), 'half-written');
    assert.equal(await h.page.locator('#mode').inputValue(), 'deepsearch');
    const posted = await h.posted();
    assert.deepEqual(posted[0], { type: 'ready', lastSeq: null });
    assert.deepEqual(
      posted.find((m) => m.type === 'composerChoice'),
      { type: 'composerChoice', mode: 'deepsearch', effort: 'think' },
    );
    assert.equal((await h.probe()).composerText, 'half-written');
  });

  it('asks for a fresh init after a gap, shows connection and notice, runs notice actions', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(next([{ type: 'connection', connection: { state: 'offline' } }]));
    next([]);
    await h.send(next([{ type: 'title', title: 'never applied' }]));
    await h.frames(2);
    assert.deepEqual((await h.posted()).filter((m) => m.type === 'ready').pop(), {
      type: 'ready',
      lastSeq: 2,
    });
    assert.equal(await h.page.locator('#connection').getAttribute('data-state'), 'offline');
    await h.page.locator('#retry').click();
    await h.send(
      initMessage(liveTranscript(), 10, {
        notice: {
          level: 'warning',
          message: 'Rate limited.',
          actions: [{ title: 'Sign In', command: 'den.signIn' }],
        },
      }),
    );
    await h.frames(2);
    assert.equal(await h.page.locator('#notice').getAttribute('data-level'), 'warning');
    assert.equal(await h.page.locator('#notice').getAttribute('role'), 'status');
    await h.page.locator('.notice-action').click();
    const posted = await h.posted();
    assert.ok(posted.some((m) => m.type === 'retry'));
    assert.deepEqual(
      posted.find((m) => m.type === 'runCommand'),
      { type: 'runCommand', command: 'den.signIn' },
    );
    assert.equal(await h.page.locator('#retry').isHidden(), true);
  });

  it('shows the open comments with Send Feedback, which runs den.sendFeedback for the session', async () => {
    h = await openHarness();
    const next = await started(h);
    const bar = h.page.locator('#feedback-bar');
    assert.equal(await bar.isHidden(), true, 'no comments: no bar');
    await h.send(next([{ type: 'reviewComments', open: 2 }]));
    await bar.waitFor({ state: 'visible' });
    assert.equal(await bar.getAttribute('role'), 'region');
    assert.equal(await bar.getAttribute('aria-label'), 'Comments for the agent');
    assert.equal(
      (await bar.locator('.feedback-count').textContent())?.trim(),
      '2 open comments on the agent’s files',
    );
    await bar.getByRole('button', { name: 'Send Feedback' }).click();
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'runCommand'),
      [{ type: 'runCommand', command: 'den.sendFeedback', args: ['sess-0001'] }],
    );
    await h.send(next([{ type: 'reviewComments', open: 0 }]));
    await bar.waitFor({ state: 'hidden' });
    // An init carries the count too (a reopened panel).
    await h.send(initMessage(liveTranscript(), 20, { reviewComments: 1 }));
    await bar.waitFor({ state: 'visible' });
    assert.equal(
      (await bar.locator('.feedback-count').textContent())?.trim(),
      '1 open comment on the agent’s files',
    );
  });

  it('caps a long log with a "Show all" that asks the host, then shows the whole log', async () => {
    h = await openHarness();
    const next = await started(h);
    const long = Array.from({ length: 3000 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m`).join('\n');
    await h.send(
      next([
        {
          type: 'block',
          turnId: AGENT,
          block: { ...toolBlock('tool:long', long), status: 'running' } as Block,
        },
      ]),
    );
    await h.frames(2);
    await openToolCards(h);
    const marker = h.page.locator('.log-truncated');
    assert.match(await marker.innerText(), /^[\d,]+ characters earlier not shown — Show all$/);
    await marker.getByRole('button', { name: 'Show all' }).click();
    assert.deepEqual(
      (await h.posted()).find((m) => m.type === 'showFullLog'),
      { type: 'showFullLog', turnId: AGENT, blockId: 'tool:long' },
    );
    await h.send({ type: 'fullLog', seq: 3, turnId: AGENT, blockId: 'tool:long', text: long });
    await h.frames(2);
    assert.equal(await marker.isHidden(), true);
    const shown = await h.page.locator('.tool-log').innerText();
    assert.ok(shown.startsWith('line 0\n') && shown.endsWith('line 2999'));
    const copy = await h.page.locator('.block-tool .param-value').first().innerText();
    assert.equal(copy, 'run tool:long');
  });

  it('renders ANSI colours in a tool result as it does in the log, without the escape codes', async () => {
    h = await openHarness();
    const next = await started(h);
    const coloured = '\x1b[32m12 passed\x1b[0m, \x1b[1;31m1 failed\x1b[0m';
    const long = Array.from({ length: 40 }, (_, i) => `\x1b[33mline ${i}\x1b[0m`).join('\n');
    await h.send(
      next([
        {
          type: 'block',
          turnId: AGENT,
          block: { ...toolBlock('tool:short', coloured), output: coloured } as Block,
        },
        { type: 'block', turnId: AGENT, block: { ...toolBlock('tool:long'), output: long } as Block },
      ]),
    );
    await h.frames(2);
    await openToolCards(h);
    const short = h.page.locator('[data-block-id="tool:short"]');
    const result = short.locator('.tool-output-value');
    assert.equal(await result.innerText(), '12 passed, 1 failed');
    assert.equal(await result.locator('.ansi-fg-green').innerText(), '12 passed');
    assert.equal(await result.locator('.ansi-bold.ansi-fg-red').innerText(), '1 failed');
    // the same colours as the log of the same text
    const inLog = await short.locator('.tool-log .ansi-fg-red').evaluate((el) => getComputedStyle(el).color);
    const inResult = await result.locator('.ansi-fg-red').evaluate((el) => getComputedStyle(el).color);
    assert.equal(inResult, inLog);
    // A clipped result is cut by what shows, never inside an escape; "more" shows all of it, styled.
    const clipped = h.page.locator('[data-block-id="tool:long"] .tool-output-value');
    const shown = await clipped.locator('.value-text').innerText();
    assert.ok(!/\x1b|\[\d+m/.test(shown), `escape codes in ${JSON.stringify(shown)}`);
    assert.ok(shown.startsWith('line 0\nline 1\n') && shown.endsWith('…'), shown);
    await clipped.locator('.more').click();
    assert.equal(await clipped.locator('.ansi-fg-yellow').count(), 40);
    assert.ok((await clipped.locator('.value-text').innerText()).endsWith('line 39'));
  });

  it('keeps saying how much of a capped log was dropped after "Show all"', async () => {
    h = await openHarness();
    const next = await started(h);
    const kept = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const block = toolBlock('tool:capped', kept) as Extract<Block, { type: 'tool' }>;
    block.log.truncatedChars = 123_456;
    await h.send(next([{ type: 'block', turnId: AGENT, block: { ...block, status: 'running' } }]));
    await h.frames(2);
    await openToolCards(h);
    const marker = h.page.locator('[data-block-id="tool:capped"] .log-truncated');
    assert.match(await marker.innerText(), /earlier not shown — Show all$/);
    await marker.getByRole('button', { name: 'Show all' }).click();
    await h.send({
      type: 'fullLog',
      seq: 3,
      turnId: AGENT,
      blockId: 'tool:capped',
      text: kept,
      droppedChars: 123_456,
    });
    await h.frames(2);
    assert.equal(await marker.isVisible(), true, 'the marker went away with the whole log');
    assert.equal(
      await marker.innerText(),
      '123,456 earlier characters were dropped: Den keeps only the end of a long log.',
    );
    assert.equal(await marker.getByRole('button').count(), 0, 'nothing more to show');
    const log = await h.page.locator('[data-block-id="tool:capped"] .tool-log').innerText();
    assert.ok(log.startsWith('line 0\n'), 'the note is not mixed into the log text');
  });

  it('copies a code block through the host', async () => {
    h = await openHarness();
    const next = await started(h);
    await h.send(
      next([
        {
          type: 'block',
          turnId: AGENT,
          block: { type: 'markdown', id: 'answer:main', text: '```sh\nnpm test\n```', final: true },
        },
      ]),
    );
    await h.frames(2);
    assert.equal(await h.page.locator('code.language-sh').innerText(), 'npm test');
    await h.page.locator('.copy-code').click();
    assert.deepEqual(
      (await h.posted()).find((m) => m.type === 'copy'),
      { type: 'copy', text: 'npm test' },
    );
  });
});
