import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator';
import {
  clickActivityBar,
  contextMenuAction,
  dismissQuickInput,
  notifications,
  openWorkbench,
  runCommand,
  waitForIdle,
  webviewFrame,
  type Workbench,
} from '../harness/workbench';
import { waitFor } from '../support/wait';
import {
  newestTurnRows,
  panelSettled,
  panelShot,
  positionWhileTextArrives,
  recorded,
  scanTranscript,
  openToolLines,
  scrollRowToTop,
  scrollToTurn,
  sendTask,
  startRecorder,
  turnEnds,
  TURN_TIMEOUT_MS,
} from './panel-view';
import { UI_WAIT, freshService, pickColorTheme, sessionTitles, showAllSessions } from './sessions-view';

/** Pause between the emulator's scripted events: slow enough to see streaming, fast enough for a 400-chunk turn. */
const EVENT_DELAY_MS = 25;

/** The seeded session every test works in (test/emulator/seed.ts): two completed coding turns. */
const SESSION = 'Refactor auth middleware';

/** The id the emulator gave the session titled `title` (ids are new at every start). */
async function sessionId(emu: Emulator, title: string): Promise<string> {
  const res = await fetch(`${emu.url}/sessions?limit=100`, {
    headers: { authorization: `Bearer ${emu.keys.primary}` },
  });
  assert.equal(res.status, 200);
  const { sessions } = (await res.json()) as { sessions: { sessionId: string; title: string }[] };
  const found = sessions.find((s) => s.title === title);
  assert.ok(found, `no session "${title}" on the emulator`);
  return found.sessionId;
}

/** Runs a turn in a session straight on the emulator (no panel involved); resolves when it ended. */
async function turnOnServer(emu: Emulator, sessionId: string, task: string, mode: string): Promise<void> {
  const res = await fetch(`${emu.url}/sessions/new`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.keys.primary}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session_id: sessionId, task, mode }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const { agent_message_id: agentMessageId } = (await res.json()) as { agent_message_id: string };
  await emu.turnEnded(sessionId, agentMessageId);
}

/**
 * Waits until the workbench has written to its storage (IndexedDB, flushed every 5 s by VS Code for
 * the web when idle) an open Session panel whose saved state names `sessionId`: what a reload
 * restores the panel from. A reload does not wait for that write. Checks every 250 ms, for 30 s.
 */
async function panelStateSaved(page: Page, sessionId: string): Promise<void> {
  const saved = await page.evaluate(
    async ({ id, timeoutMs }) => {
      const request = <T>(r: IDBRequest<T>): Promise<T> =>
        new Promise((resolve, reject) => {
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
      const isSaved = async (): Promise<boolean> => {
        const names = (await indexedDB.databases())
          .map((d) => d.name ?? '')
          .filter((n) => n.startsWith('vscode-web-state-db'));
        for (const name of names) {
          const db = await request(indexedDB.open(name));
          try {
            if (!db.objectStoreNames.contains('ItemTable')) continue;
            // the editor part's memento: the open editors, a webview's with its `setState` state
            const editors: unknown = await request(
              db.transaction('ItemTable').objectStore('ItemTable').get('memento/workbench.parts.editor'),
            );
            if (typeof editors === 'string' && editors.includes('den.session') && editors.includes(id))
              return true;
          } finally {
            db.close();
          }
        }
        return false;
      };
      const deadline = Date.now() + timeoutMs;
      while (!(await isSaved())) {
        if (Date.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 250));
      }
      return true;
    },
    { id: sessionId, timeoutMs: 30_000 },
  );
  assert.ok(saved, "the workbench did not save the Session panel's state within 30 s");
}

describe('A person works in the Session panel (emulator, packaged .vsix)', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let port: number;
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  const dialogs: string[] = [];

  before(async () => {
    emu = await startEmulator({ eventDelayMs: EVENT_DELAY_MS });
    port = Number(new URL(emu.url).port);
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
    await clickActivityBar(page, 'Den');
    await showAllSessions(page);
    await waitFor('the seeded sessions', () => sessionTitles(page), {
      ...UI_WAIT,
      until: (t) => t.includes(SESSION),
    });
  });

  /**
   * Every test starts from the same place: no editor open, a freshly seeded emulator on the same port
   * (den.baseUrl and the keys stay valid), and a Sessions tree that shows that emulator's sessions.
   */
  beforeEach(async () => {
    dialogs.length = 0;
    if ((await page.locator('.part.editor .tabs-container .tab').count()) > 0) {
      await runCommand(page, 'View: Close All Editors');
      await page.locator('.part.editor .tabs-container .tab').first().waitFor({ state: 'detached' });
    }
    await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
    await clickActivityBar(page, 'Den');
    // the tree's rows (and what its commands get) must come from the new emulator
    emu = await freshService(page, emu, port, { eventDelayMs: EVENT_DELAY_MS });
    await runCommand(page, 'Den: Refresh Sessions');
    await waitFor('the seeded sessions', () => sessionTitles(page), {
      ...UI_WAIT,
      until: (t) => t.includes(SESSION),
    });
  });

  afterEach(async function () {
    // what the person would have seen when a step failed
    if (this.currentTest?.state !== 'failed') return;
    await wb?.screenshot('panel-failure').catch(() => undefined);
    const toasts = await notifications(page).catch(() => []);
    if (toasts.length) console.log(`notifications shown: ${JSON.stringify(toasts)}`);
  });

  after(async () => {
    await wb?.close();
    await emu?.close();
  });

  /** Opens the seeded session from the Sessions tree; resolves once its history shows. */
  async function openSession(): Promise<void> {
    const title = frame.locator('#session-title', { hasText: SESSION });
    const picker = page.locator('.quick-input-widget .quick-input-title', {
      hasText: 'Den: choose a session to open',
    });
    for (let attempt = 1; ; attempt++) {
      // (a click on the row opens it too; the context menu's entry says which command ran)
      await contextMenuAction(page, SESSION, 'Open Session');
      // whichever shows first (the other wait times out unobserved)
      const shown: unknown = await Promise.race([
        title.waitFor().then(
          () => 'panel',
          (err: unknown) => err,
        ),
        picker.waitFor().then(
          () => 'picker',
          (err: unknown) => err,
        ),
      ]);
      if (shown === 'panel') break;
      if (shown !== 'picker') throw shown;
      // Clicked while the tree was redrawing its rows: VS Code ran the command without the row and
      // Den asked which session (seen under load). Close that and click again.
      assert.ok(attempt < 3, `"Open Session" in the tree reached Den without its session ${attempt} times`);
      await dismissQuickInput(page);
    }
    await frame.locator('.rows > .turn-status[data-status="completed"]').first().waitFor();
    await frame.locator('#composer-input').waitFor({ state: 'visible' });
  }

  /** Slow turn, some of its output, Stop: the turn ends as stopped (aborted). */
  async function stopSlowTurn(task: string): Promise<string> {
    await sendTask(frame, task, 'code');
    await turnEnds(frame, task, /^running$/);
    await waitFor('some output of the slow turn', () => newestTurnRows(frame), {
      ...UI_WAIT,
      until: (rows) => rows.some((r) => r.type === 'tool' || r.type === 'tool-group'),
    });
    await frame.locator('#stop').click();
    return turnEnds(frame, task, /^aborted$/);
  }

  function noDialogs(): void {
    assert.deepEqual(dialogs, [], 'a JavaScript dialog opened');
  }

  it('shows the history of a seeded session clicked in the Sessions tree', async () => {
    await openSession();
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
    noDialogs();
  });

  it('streams a coding turn typed into the composer: running, a growing answer, a tool log, then completed', async () => {
    // "slow": 300 ms between events, so each step of the stream is on screen a while, even on a busy machine
    const task = 'Add a slow whitespace normalizer to the upload client';
    await openSession();
    // its tool calls opened, the history is taller than the view (one line each, it may not be)
    await openToolLines(frame);
    // scrolled up to the history's second turn: sending brings the view down to the new turn
    await scrollToTurn(frame, 'Add tests for expired tokens');
    const jump = frame.locator('#jump-to-latest');
    await jump.waitFor({ state: 'visible' });
    await startRecorder(frame);
    await sendTask(frame, task, 'code');
    await jump.waitFor({ state: 'hidden' });
    assert.equal(await turnEnds(frame, task, /^completed$/), 'Completed');
    // the turn's context.usage is the header's meter, in words for screen readers too
    const meter = frame.locator('header.panel-header [role="meter"]');
    await meter.waitFor({ state: 'visible' });
    assert.equal(await meter.innerText(), '18k of 200k tokens');
    assert.deepEqual(
      await meter.evaluate((m) =>
        ['aria-valuemin', 'aria-valuemax', 'aria-valuenow', 'aria-label'].map((a) => m.getAttribute(a)),
      ),
      ['0', '200000', '18432', 'Context window: 18,432 of 200,000 tokens used (9%)'],
    );
    const bar = await meter.locator('.context-meter-fill').evaluate((f) => {
      const track = f.parentElement!;
      return {
        filled: f.getBoundingClientRect().width / track.getBoundingClientRect().width,
        colours: [getComputedStyle(f).backgroundColor, getComputedStyle(track).backgroundColor],
      };
    });
    assert.ok(bar.filled > 0.05 && bar.filled < 0.15, `the bar is ${bar.filled} full, not 9 %`);
    assert.notEqual(bar.colours[0], bar.colours[1], 'the bar is told apart from its track');
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
    // The finished run_command is one line; opened, its card shows its log.
    const lastTool = frame.locator('.rows > .block-tool').last();
    await lastTool.locator('.tool-line').click();
    assert.ok(
      (await lastTool.locator('pre.tool-log').innerText()).length > 0,
      'the finished tool card has no log',
    );
    await frame.locator('#send').waitFor({ state: 'visible' });
    await scrollRowToTop(frame.locator('.rows > .block-tool').last());
    await panelShot(wb, frame, 'panel-coding-turn');
    noDialogs();
  });

  it('shows a coding turn calmly: each tool call one line, consecutive calls grouped, unknown events quiet (light, dark, high contrast)', async () => {
    const task = 'Add a calm whitespace normalizer';
    await openSession();
    await sendTask(frame, task, 'code');
    assert.equal(await turnEnds(frame, task, /^completed$/), 'Completed');
    const last = (sel: string): ReturnType<FrameLocator['locator']> => frame.locator(sel).last();
    // The two write_file calls: one group line; the run_command after a thought: one line.
    assert.match(
      await last('.rows > .tool-group .group-text').innerText(),
      /^2 tool calls · (under 1 s|\d+ s)$/,
    );
    const run = last('.rows > .block-tool');
    assert.equal(await run.locator('.tool-name').innerText(), 'run_command');
    assert.deepEqual(await run.locator('.tool-outcome').allTextContents(), [' · exit 0', ' · 2 passing']);
    assert.equal(await run.locator('.tool-line').getAttribute('aria-expanded'), 'false');
    assert.match(
      await last('.rows > .block-generic summary').innerText(),
      /^focus · Writing code · src\/.+\.ts$/,
    );
    assert.equal(
      await frame.locator('.rows .tool-card:visible, .rows .generic-payload:visible').count(),
      0,
      'a tool card or a raw payload open by default',
    );
    // The group opened: each call its own line, the file's content not printed.
    await last('.rows > .tool-group .group-line').click();
    await waitFor('the group’s calls', () => frame.locator('.rows > .block-tool.in-group').count(), {
      ...UI_WAIT,
      until: (n) => n >= 2,
    });
    assert.match(
      await frame.locator('.rows > .block-tool.in-group .tool-summary').first().innerText(),
      /write_file\s*src\/.+\.ts · \+\d+/,
    );
    await frame.locator('#send').waitFor({ state: 'visible' });
    await scrollRowToTop(frame.locator('.rows > .turn-header').last());
    const was = await pickColorTheme(page, 'Dark Modern');
    await page.locator('.monaco-workbench.vs-dark').waitFor();
    await panelShot(wb, frame, 'panel-calm-dark');
    await pickColorTheme(page, 'Light Modern');
    await page.locator('.monaco-workbench.vs').waitFor();
    await panelShot(wb, frame, 'panel-calm-light');
    await pickColorTheme(page, 'Dark High Contrast');
    await page.locator('.monaco-workbench.hc-black').waitFor();
    await panelShot(wb, frame, 'panel-calm-high-contrast');
    await pickColorTheme(page, was);
    await page.locator('.monaco-workbench.hc-black').waitFor({ state: 'detached' });
    noDialogs();
  });

  it('updates the todos of a plan turn in place until all are done', async () => {
    // "slow": 300 ms between events, so a todo stays active a while, even on a busy machine
    const task = 'Make a slow plan for the cache layer';
    await openSession();
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
    await panelShot(wb, frame, 'panel-plan-turn');
    noDialogs();
  });

  it('a plan waits for approval: the question with Approve under the turn; Approve and the same turn goes on to the end', async () => {
    const task = 'Please approve my plan for the cache';
    await openSession();
    await sendTask(frame, task, 'plan');
    const box = frame.locator('.rows > .turn-status .needs-input').last();
    await box.waitFor({ state: 'visible', timeout: TURN_TIMEOUT_MS });
    assert.match(await box.innerText(), /The agent needs your input:\s*Approve the plan to go on\./);
    assert.deepEqual(await box.locator('button').allInnerTexts(), ['Approve', 'Revise…', 'Reject']);
    assert.equal(await frame.locator('#send').innerText(), 'Answer');
    await panelShot(wb, frame, 'panel-plan-approval');
    await box.getByRole('button', { name: 'Approve' }).click();
    await turnEnds(frame, task, /^completed$/);
    await box.waitFor({ state: 'detached' });
    const rows = await newestTurnRows(frame);
    assert.ok(
      rows.some((r) => r.type === 'message'),
      `the answer is not in the turn: ${JSON.stringify(rows)}`,
    );
    const headers = await frame.locator('.rows > .turn-header .turn-title').allInnerTexts();
    assert.equal(headers.filter((t) => t.includes('approve my plan')).length, 1, JSON.stringify(headers));
    assert.ok(
      !headers.some((t) => t.startsWith('Approved')),
      `the answer became a turn: ${JSON.stringify(headers)}`,
    );
    assert.equal(await frame.locator('#send').innerText(), 'Send');
    await panelShot(wb, frame, 'panel-plan-approved');
    noDialogs();
  });

  it('shows the error of a failing turn in its status line and keeps what it streamed', async () => {
    const task = 'This build will fail';
    await openSession();
    await sendTask(frame, task, 'code');
    const status = await turnEnds(frame, task, /^error$/);
    assert.equal(status, 'Failed: The sandbox process exited unexpectedly (exit code 1).');
    // The error code is a detail; the icon stays on the words' line (no stray "✕" above them).
    const line = frame.locator('.rows > .turn-status[data-status="error"]').last();
    assert.equal(await line.locator('.status-code').textContent(), 'Error code: sandbox_failed');
    const [icon, words] = await Promise.all(
      ['.status-icon', '.status-text'].map((s) =>
        line.locator(s).evaluate((e) => e.getBoundingClientRect().top),
      ),
    );
    assert.ok(Math.abs(icon - words) < 4, `the icon sits apart from the words: ${icon} vs ${words}`);
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
    noDialogs();
  });

  it('stops a slow turn when Stop is clicked and keeps its partial output', async () => {
    await openSession();
    const status = await stopSlowTurn('A slow refactor of the parser');
    assert.match(status, /^Stopped by you/);
    const rows = await newestTurnRows(frame);
    assert.ok(
      rows.some((r) => r.type === 'tool' || r.type === 'tool-group'),
      `the partial output is gone: ${JSON.stringify(rows)}`,
    );
    assert.ok(!rows.some((r) => r.type === 'block-files'), 'a stopped turn lists changed files');
    await frame.locator('#send').waitFor({ state: 'visible' });
    assert.equal(await frame.locator('#stop').isVisible(), false);
    // a tool cut off by Stop no longer says it runs
    assert.ok(
      !(await frame.locator('.rows > .block-tool .tool-outcome, .rows > .tool-group').allInnerTexts()).some(
        (t) => t.includes('running…'),
      ),
      'a tool of the stopped turn still shows as running',
    );
    noDialogs();
  });

  it('gives a send the service refuses (403, a read-only key) back to the composer, with the reason', async () => {
    // Issue 22 (4): "sending" and "not sending" could fold into one post, and the text was lost.
    await openSession();
    emu.failNext({
      method: 'POST',
      path: '/sessions/new',
      status: 403,
      body: { error: 'forbidden', message: 'This API key is read-only' },
    });
    const input = frame.locator('#composer-input');
    await input.fill('keep my words');
    await frame.locator('#send:enabled').waitFor();
    await input.press('Enter');
    await frame.locator('#notice .notice-message', { hasText: 'This API key is read-only' }).waitFor();
    await waitFor('the text back in the composer', () => input.inputValue(), {
      ...UI_WAIT,
      until: (v) => v === 'keep my words',
    });
    await panelShot(wb, frame, 'panel-send-refused');
    noDialogs();
  });

  it('restores the panel with its transcript after the window reloads', async function () {
    // a whole workbench start again, which a busy machine slows down
    this.timeout(150_000);
    await openSession();
    assert.match(await stopSlowTurn('A slow refactor of the parser'), /^Stopped/);
    const before = await frame.locator('.rows > .turn-header .turn-title').allTextContents();
    // reload once the workbench has saved the panel's state (it does so on a timer)
    await panelStateSaved(page, await sessionId(emu, SESSION));
    await page.reload();
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await frame.locator('#session-title', { hasText: SESSION }).waitFor({ timeout: 60_000 });
    await frame.locator('.rows > .turn-status[data-status="aborted"]').waitFor({ timeout: 15_000 });
    const after = await frame.locator('.rows > .turn-header .turn-title').allTextContents();
    assert.deepEqual(after.slice(-before.length), before);
    assert.match(await frame.locator('.rows > .turn-status').last().innerText(), /Stopped/);
    await waitForIdle(page);
    await panelShot(wb, frame, 'panel-restored');
    noDialogs();
  });
  it('keeps only a window of rows in the DOM for a long answer; Jump to latest follows it again', async () => {
    const task = 'Write a long essay about the agent';
    // a transcript many windows long: more turns of history (tools, a plan, an error) before the answer
    const id = await sessionId(emu, SESSION);
    await turnOnServer(emu, id, 'Add a whitespace normalizer to the upload client', 'code');
    await turnOnServer(emu, id, 'Make a plan for the cache layer', 'plan');
    await turnOnServer(emu, id, 'This build will fail', 'code');
    await openSession();
    await sendTask(frame, task, 'code');
    await turnEnds(frame, task, /^running$/);
    const transcript = frame.locator('main#transcript');
    const jump = frame.locator('#jump-to-latest');
    // scrolling up while it streams stops following; the position holds while text arrives below
    await waitFor(
      'a scrollable transcript',
      () => transcript.evaluate((el) => el.scrollHeight - el.clientHeight),
      { ...UI_WAIT, until: (d) => d > 2000 },
    );
    await transcript.hover();
    await page.mouse.wheel(0, -1200);
    await jump.waitFor({ state: 'visible' });
    const held = await positionWhileTextArrives(frame, 100);
    assert.ok(held.arrived >= 100, `only ${held.arrived} characters arrived while scrolled up`);
    assert.ok(Math.abs(held.after - held.before) < 2, `the view moved from ${held.before} to ${held.after}`);
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
    await waitFor(
      'the bottom of the transcript',
      () => transcript.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop),
      { ...UI_WAIT, until: (d) => d < 2 },
    );
    assert.equal(await frame.locator('.rows > .turn-status').last().getAttribute('data-status'), 'completed');
    await panelShot(wb, frame, 'panel-long');
    noDialogs();
  });

  it('a long turn: Jump to latest while scrolled up as it streams; its outline jumps to a failed call', async function () {
    // a turn of about 180 events, 80 ms apart
    this.timeout(120_000);
    const task = 'Work through many steps in the importer';
    await openSession();
    await sendTask(frame, task, 'code');
    await turnEnds(frame, task, /^running$/);
    const transcript = frame.locator('main#transcript');
    const jump = frame.locator('#jump-to-latest');
    const fromBottom = (): Promise<number> =>
      transcript.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
    // enough streamed to scroll up from (step 2's calls are one group line now: its heading stands for it)
    await frame
      .locator('.rows > *', { hasText: 'Step 3: port module 3' })
      .first()
      .waitFor({ timeout: TURN_TIMEOUT_MS });
    // scrolled up while it streams: the view stays put, the button counts what arrived below
    await transcript.hover();
    await page.mouse.wheel(0, -400);
    await jump.waitFor({ state: 'visible' });
    await panelSettled(frame);
    const top = await transcript.evaluate((el) => el.scrollTop);
    await waitFor('blocks counted as they arrive', () => jump.innerText(), {
      ...UI_WAIT,
      until: (t) => /· ([3-9]|\d\d+) new/.test(t),
    });
    assert.ok(Math.abs((await transcript.evaluate((el) => el.scrollTop)) - top) < 2, 'the view moved');
    await panelShot(wb, frame, 'panel-jump-to-latest');
    await jump.click();
    await jump.waitFor({ state: 'hidden' });
    await waitFor('the bottom of the transcript', fromBottom, { ...UI_WAIT, until: (d) => d < 2 });
    // following again: the rest of the turn arrives in view (its request is far above, windowed out)
    await frame.locator('#stop').waitFor({ state: 'hidden', timeout: TURN_TIMEOUT_MS });
    await frame.locator('.rows > .turn-status[data-status="completed"]').last().waitFor({ state: 'visible' });
    await waitFor('still at the bottom', fromBottom, { ...UI_WAIT, until: (d) => d < 2 });

    // the outline of the turn in view (the palette command), an entry jumps to a windowed-out row
    await scrollToTurn(frame, task);
    await runCommand(page, 'Den: Show Turn Outline');
    const outline = frame.locator('#turn-outline');
    await outline.waitFor({ state: 'visible' });
    assert.match(await outline.locator('.outline-title').innerText(), /Work through many steps/);
    const texts = await outline.locator('.outline-item .outline-text').allInnerTexts();
    assert.equal(texts[0], 'Plan: 10 of 10 done');
    assert.ok(texts.includes('Step 4: port module 4') && texts.includes('Summary'), JSON.stringify(texts));
    assert.equal(await outline.locator('.outline-files .outline-item').count(), 10);
    assert.deepEqual(await outline.locator('.outline-failures .outline-text').allInnerTexts(), [
      'run_command npm test -- module-4',
    ]);
    await outline.locator('.outline-failure').click();
    const failed = frame.locator('.rows > .block-tool[data-block-id="tool:run_command:4"]');
    await failed.waitFor({ state: 'visible' });
    assert.equal(await failed.evaluate((e) => e.classList.contains('outline-target')), true);
    await panelShot(wb, frame, 'panel-outline');
    await page.keyboard.press('Escape');
    await outline.waitFor({ state: 'hidden' });
    // its keyboard shortcut, from the transcript
    await transcript.focus();
    await page.keyboard.press('Control+Shift+O');
    await outline.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await outline.waitFor({ state: 'hidden' });
    noDialogs();
  });
});
