import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import {
  clickActivityBar,
  contextMenuAction,
  openWorkbench,
  waitForIdle,
  webviewFrame,
  type Workbench,
} from '../harness/workbench';
import {
  newestTurnRows,
  panelShot,
  recorded,
  scanTranscript,
  scrollRowToTop,
  scrollToTurn,
  sendTask,
  startRecorder,
  turnEnds,
  TURN_TIMEOUT_MS,
} from './panel-view';
import { eventually, sessionTitles } from './sessions-view';

/** Pause between the emulator's scripted events: slow enough to see streaming, fast enough for a 400-chunk turn. */
const EVENT_DELAY_MS = 25;

describe('A person works in the Session panel (emulator, packaged .vsix)', function () {
  this.timeout(60_000);
  // each step builds on the one before: the first failure explains the rest
  this.bail(true);
  let emu: Emulator;
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  const dialogs: string[] = [];

  before(async () => {
    emu = await startEmulator({ eventDelayMs: EVENT_DELAY_MS });
    wb = await openWorkbench({
      settings: { 'den.baseUrl': emu.url },
      env: { DEN_API_KEY: emu.keys.primary },
    });
    page = wb.page;
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss().catch(() => undefined);
    });
    frame = webviewFrame(page);
  });

  afterEach(async function () {
    // what the person would have seen when a step failed
    if (this.currentTest?.state === 'failed') await wb?.screenshot('panel-failure').catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
    await emu?.close();
  });

  it('shows the history of a seeded session clicked in the Sessions tree', async () => {
    await clickActivityBar(page, 'Den');
    await eventually(
      'the seeded sessions',
      () => sessionTitles(page),
      (t) => t.includes('Refactor auth middleware'),
    );
    // a session row expands on click; opening is its context menu's first entry
    await contextMenuAction(page, 'Refactor auth middleware', 'Open Session');
    await frame.locator('#session-title', { hasText: 'Refactor auth middleware' }).waitFor();
    await frame.locator('.rows > .turn-status[data-status="completed"]').first().waitFor();
    const rows = await scanTranscript(frame);
    assert.deepEqual(
      rows.filter((r) => r.kind === 'turn-header').map((r) => r.text.replace(/^You asked: /, '')),
      [
        'Refactor auth middleware to use async token validation',
        'Add tests for expired tokens in the auth middleware',
      ],
    );
    assert.deepEqual(
      rows.filter((r) => r.kind === 'turn-status').map((r) => r.status),
      ['completed', 'completed'],
    );
    assert.ok(rows.filter((r) => r.kind === 'tool').length >= 4, 'tool cards are missing from the history');
    assert.ok(
      rows.some((r) => r.kind === 'markdown' && r.text.includes('I implemented')),
      'the answer is missing from the history',
    );
    // the view is back at the bottom: the last answer, its files and its status line show
    await frame.locator('.rows > .block-files button.file-change').first().waitFor({ state: 'visible' });
    await frame.locator('#composer-input').waitFor({ state: 'visible' });
    await scrollToTurn(frame, 'Add tests for expired tokens');
    await panelShot(wb, frame, 'panel-history');
  });

  it('streams a coding turn typed into the composer: running, a growing answer, a tool log, then completed', async () => {
    const task = 'Add a whitespace normalizer to the upload client';
    // still scrolled up to the history's second turn: sending brings the view down to the new turn
    const jump = frame.locator('#jump-to-latest');
    await jump.waitFor({ state: 'visible' });
    await startRecorder(frame);
    await sendTask(frame, task, 'code');
    await jump.waitFor({ state: 'hidden' });
    assert.equal(await turnEnds(frame, task, /^completed$/), 'Completed');
    const ours = (await recorded(frame)).samples.filter((s) => s.title.includes(task));
    const running = ours.filter((s) => s.status === 'running');
    assert.ok(running.length > 0, `never saw the turn running: ${JSON.stringify(ours.slice(0, 5))}`);
    const answers = [...new Set(running.map((s) => s.answer).filter((n) => n > 0))];
    assert.ok(answers.length >= 2, `the answer did not grow while running: ${JSON.stringify(answers)}`);
    assert.deepEqual(
      answers,
      [...answers].sort((a, b) => a - b),
      'the answer shrank while streaming',
    );
    assert.ok(
      running.some((s) => s.log > 0 && s.tools.includes('running')),
      'no tool log was shown while a tool ran',
    );
    const rows = await newestTurnRows(frame);
    assert.ok(
      rows.some((r) => r.type === 'tool' && r.status === 'success'),
      JSON.stringify(rows),
    );
    const files = frame.locator('.rows > .block-files').last().locator('button.file-change');
    assert.deepEqual(await files.evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))), [
      'src/add-whitespace-normalizer.ts',
      'test/add-whitespace-normalizer.test.ts',
    ]);
    assert.ok(
      (await frame.locator('.rows > .block-tool').last().locator('pre.tool-log').innerText()).length > 0,
      'the finished tool card has no log',
    );
    await frame.locator('#send').waitFor({ state: 'visible' });
    await scrollRowToTop(frame.locator('.rows > .block-tool').last());
    await page.waitForTimeout(200);
    await panelShot(wb, frame, 'panel-coding-turn');
  });

  it('updates the todos of a plan turn in place until all are done', async () => {
    const task = 'Make a plan for the cache layer';
    await startRecorder(frame);
    await sendTask(frame, task, 'plan');
    await turnEnds(frame, task, /^completed$/);
    const plan = frame.locator('.rows > .block-plan').last();
    assert.deepEqual(
      await plan.locator('li.todo').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))),
      ['completed', 'completed', 'completed', 'completed', 'completed'],
    );
    assert.equal((await plan.locator('.plan-progress').innerText()).trim(), '5/5');
    const { todos } = await recorded(frame);
    const inPlace = todos.filter((c) => c.from !== null && c.from !== c.to);
    assert.ok(
      inPlace.some((c) => c.to === 'active'),
      `no todo turned active in place: ${JSON.stringify(todos)}`,
    );
    assert.ok(
      inPlace.some((c) => c.from !== 'completed' && c.to === 'completed'),
      `no todo turned completed in place: ${JSON.stringify(todos)}`,
    );
    await scrollRowToTop(plan);
    await page.waitForTimeout(200);
    await panelShot(wb, frame, 'panel-plan-turn');
  });

  it('shows the error of a failing turn in its status line and keeps what it streamed', async () => {
    const task = 'This build will fail';
    await sendTask(frame, task, 'code');
    const status = await turnEnds(frame, task, /^error$/);
    assert.match(status, /^Failed: The sandbox process exited unexpectedly \(exit code 1\)\./);
    const rows = await newestTurnRows(frame);
    assert.ok(
      rows.some((r) => r.type === 'tool' && r.status === 'error'),
      JSON.stringify(rows),
    );
    assert.ok(
      rows.some((r) => r.type === 'markdown'),
      `the partial answer is gone: ${JSON.stringify(rows)}`,
    );
    await frame.locator('#send').waitFor({ state: 'visible' });
    await panelShot(wb, frame, 'panel-error');
  });

  it('stops a slow turn when Stop is clicked and keeps its partial output', async () => {
    const task = 'A slow refactor of the parser';
    await sendTask(frame, task, 'code');
    await turnEnds(frame, task, /^running$/);
    await eventually(
      'some output of the slow turn',
      () => newestTurnRows(frame),
      (rows) => rows.some((r) => r.type === 'tool'),
    );
    await frame.locator('#stop').click();
    const status = await turnEnds(frame, task, /^aborted$/);
    assert.match(status, /^Stopped by you/);
    const rows = await newestTurnRows(frame);
    assert.ok(
      rows.some((r) => r.type === 'tool'),
      `the partial output is gone: ${JSON.stringify(rows)}`,
    );
    assert.ok(!rows.some((r) => r.type === 'block-files'), 'a stopped turn lists changed files');
    await frame.locator('#send').waitFor({ state: 'visible' });
    assert.equal(await frame.locator('#stop').isVisible(), false);
    // a tool cut off by Stop no longer says it runs
    assert.ok(
      !(await frame.locator('.rows > .block-tool .tool-status').allInnerTexts()).includes('running…'),
      'a tool of the stopped turn still shows as running',
    );
  });

  it('restores the panel with its transcript after the window reloads', async () => {
    const before = await frame.locator('.rows > .turn-header .turn-title').allTextContents();
    // the workbench saves webview state on a timer
    await page.waitForTimeout(3000);
    await page.reload();
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 30_000 });
    await frame
      .locator('#session-title', { hasText: 'Refactor auth middleware' })
      .waitFor({ timeout: 30_000 });
    await frame.locator('.rows > .turn-status[data-status="aborted"]').waitFor({ timeout: 15_000 });
    const after = await frame.locator('.rows > .turn-header .turn-title').allTextContents();
    assert.deepEqual(after.slice(-before.length), before);
    assert.match(await frame.locator('.rows > .turn-status').last().innerText(), /Stopped/);
    await waitForIdle(page);
    await panelShot(wb, frame, 'panel-restored');
  });

  it('keeps only a window of rows in the DOM for a long answer; Jump to latest follows it again', async () => {
    const task = 'Write a long essay about the agent';
    await sendTask(frame, task, 'code');
    await turnEnds(frame, task, /^running$/);
    const transcript = frame.locator('main#transcript');
    const jump = frame.locator('#jump-to-latest');
    // scrolling up while it streams stops following; the position holds while text arrives below
    await eventually(
      'a scrollable transcript',
      () => transcript.evaluate((el) => el.scrollHeight - el.clientHeight),
      (d) => d > 2000,
    );
    await transcript.hover();
    await page.mouse.wheel(0, -1200);
    await jump.waitFor({ state: 'visible' });
    const topBefore = await transcript.evaluate((el) => el.scrollTop);
    await page.waitForTimeout(500);
    const topAfter = await transcript.evaluate((el) => el.scrollTop);
    assert.ok(Math.abs(topAfter - topBefore) < 2, `the view moved from ${topBefore} to ${topAfter}`);
    // scrolled up, the newest rows are not in the DOM: the composer tells when the turn ended
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: TURN_TIMEOUT_MS });

    const rows = await scanTranscript(frame);
    const answer = rows.filter((r) => r.kind === 'markdown' && r.turnId === rows[rows.length - 1].turnId);
    const answerChars = answer.reduce((n, r) => n + r.text.length, 0);
    assert.ok(answerChars > 2000, `the long answer has ${answerChars} characters in ${answer.length} rows`);
    assert.ok(
      rows.maxInDom < rows.length * 0.7,
      `${rows.maxInDom} of ${rows.length} rows were in the DOM at once`,
    );
    assert.ok(rows.worstFrameMs < 250, `a scroll step took ${Math.round(rows.worstFrameMs)} ms`);
    // at the bottom, the DOM holds about three viewports of rows, not the whole transcript
    const dom = await transcript.evaluate((el) => ({
      rowsHeight: [...el.querySelectorAll('.rows > .row')].reduce(
        (n, r) => n + r.getBoundingClientRect().height,
        0,
      ),
      total: el.scrollHeight,
      viewport: el.clientHeight,
      firstTurnShown: [...el.querySelectorAll('.rows > .turn-header')].some((h) =>
        h.textContent?.includes('Refactor auth middleware to use async token validation'),
      ),
    }));
    assert.ok(
      dom.rowsHeight < dom.total / 2,
      `the DOM holds ${Math.round(dom.rowsHeight)} of ${dom.total} px`,
    );
    assert.ok(dom.rowsHeight < dom.viewport * 4, `the DOM holds ${Math.round(dom.rowsHeight)} px of rows`);
    assert.equal(dom.firstTurnShown, false, 'the first turn is in the DOM while the view is at the bottom');

    await transcript.evaluate((el) => (el.scrollTop = 0));
    await jump.waitFor({ state: 'visible' });
    await jump.click();
    await jump.waitFor({ state: 'hidden' });
    await eventually(
      'the bottom of the transcript',
      () => transcript.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop),
      (d) => d < 2,
    );
    assert.equal(await frame.locator('.rows > .turn-status').last().getAttribute('data-status'), 'completed');
    await panelShot(wb, frame, 'panel-long');
  });

  it('never opened a JavaScript dialog', () => {
    assert.deepEqual(dialogs, []);
  });
});
