/**
 * The review loop of issue 24, as a person does it in the browser: a code turn; comments on lines
 * of two of the agent's files, from the keyboard; Send Feedback from the Session panel's bar; the
 * next turn changing those lines; the threads marked addressed (the Comments panel lists them). A
 * screenshot at every step.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { answerInputBox, runCommand, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { openSessionFromTree, panelShot, sendTask, TURN_TIMEOUT_MS } from './panel-view';
import { UI_WAIT, shot } from './sessions-view';

const SESSION = 'Refactor auth middleware';
const TASK = 'Add omicron parser';
const SRC = 'src/add-omicron-parser.ts';
const TEST = 'test/add-omicron-parser.test.ts';
/** The Comments panel's icon of a resolved thread (an open one's differs). */
const RESOLVED_ICON = 'codicon-comment';

describe('A person reviews the agent’s work like a pull request', function () {
  this.timeout(300_000);
  const t = useSignedInWorkbench('review-loop', { files: () => ({ 'README.md': '# project\n' }) });
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  beforeEach(() => {
    ({ wb, page, frame } = t);
  });

  /** The newest turn's status once it is `status`. */
  async function newestTurn(status: string): Promise<void> {
    const last = frame.locator('.rows > .turn-status').last();
    await waitFor(`the turn to be ${status}`, () => last.getAttribute('data-status'), {
      ...UI_WAIT,
      timeoutMs: TURN_TIMEOUT_MS,
      until: (s) => s === status,
    });
  }

  /** Opens an agent file from the newest turn's "Files changed" and puts the cursor on `line` (1-based). */
  async function openAgentFile(path: string, line: number): Promise<void> {
    await frame.locator(`button.file-change[data-path$="${path}"]`).last().click();
    const name = path.split('/').pop()!;
    await page.locator('.part.editor .tab.active', { hasText: name }).waitFor();
    await page.locator('.part.editor .editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  }

  /** Comments on the selected lines from the palette, as a keyboard user does. */
  async function comment(text: string): Promise<void> {
    await runCommand(page, 'Den: Comment on Selection for the Agent');
    await answerInputBox(page, 'Den: Comment for the Agent', text);
    await page.locator('.review-widget', { hasText: text }).first().waitFor();
  }

  /** The icon of each comment row in the Comments panel (its thread's state). */
  const threadIcons = (): Promise<string[]> =>
    page
      .locator('.part.panel .monaco-list-row .comment-metadata .icon')
      .evaluateAll((els) =>
        els.map((e) => [...e.classList].filter((c) => c.startsWith('codicon-')).join(' ')),
      );

  /** The agent's file as the emulator holds it now. */
  async function agentFile(sessionId: string, path: string): Promise<string> {
    const res = await fetch(`${t.emu.url}/media/${sessionId}/${path}`, {
      headers: { authorization: `Bearer ${t.emu.keys.primary}` },
    });
    assert.equal(res.status, 200);
    return res.text();
  }

  it('comments on two files, sends them as one turn, and sees the threads addressed', async () => {
    // 1. A code turn in the seeded session, from the panel.
    await openSessionFromTree(page, frame, SESSION);
    await sendTask(frame, TASK, 'code');
    await newestTurn('completed');

    // 2. A comment on two lines of the agent's source file: select with Shift+Down, then the palette.
    await openAgentFile(SRC, 8);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await comment('Plan for empty input.');
    await shot(wb, 'review-loop-1-comment-on-agent-file');

    // 3. A comment on the test file's first line.
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    await openAgentFile(TEST, 1);
    await comment('Use the strict import.');

    // 4. The Session panel says two comments are open; Send Feedback there, with a note.
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    const bar = frame.locator('#feedback-bar');
    await bar.locator('.feedback-count', { hasText: '2 open comments' }).waitFor();
    await panelShot(wb, frame, 'review-loop-2-feedback-bar');
    await runCommand(page, 'Comments: Focus on Comments View');
    await waitFor('both threads shown open in the Comments panel', () => threadIcons(), {
      ...UI_WAIT,
      until: (icons) => icons.length === 2 && icons.every((c) => c !== RESOLVED_ICON),
    });
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    await bar.getByRole('button', { name: 'Send Feedback' }).click();
    await answerInputBox(page, 'Den: Send Feedback (2)', 'Nothing else.');
    // (the request row may be windowed out once the turn ends: its answer is what shows)
    await frame
      .locator('.rows > .row', { hasText: 'I went through your review comments' })
      .first()
      .waitFor({ timeout: TURN_TIMEOUT_MS });
    await newestTurn('completed');
    await bar.waitFor({ state: 'hidden' });
    await panelShot(wb, frame, 'review-loop-3-feedback-turn');

    // 5. The agent changed those lines; the Comments panel lists both threads as addressed.
    const sessionId = (
      await (
        await fetch(`${t.emu.url}/sessions?limit=100`, {
          headers: { authorization: `Bearer ${t.emu.keys.primary}` },
        })
      ).json()
    ).sessions.find((s: { title: string }) => s.title === SESSION).sessionId as string;
    assert.match((await agentFile(sessionId, SRC)).split('\n')[7], /\/\/ Review: Plan for empty input\.$/);
    assert.match((await agentFile(sessionId, TEST)).split('\n')[0], /\/\/ Review: Use the strict import\.$/);
    await runCommand(page, 'Comments: Focus on Comments View');
    const panel = page.locator('.part.panel');
    await panel.locator('.monaco-list-row', { hasText: 'Plan for empty input.' }).first().waitFor();
    await waitFor('both threads shown resolved (addressed) in the Comments panel', () => threadIcons(), {
      ...UI_WAIT,
      until: (icons) => icons.length === 2 && icons.every((c) => c === RESOLVED_ICON),
    });
    // The test file's thread, expanded in the editor, says why it is resolved; the line changed under it.
    await runCommand(page, 'Comments: Expand All Comments');
    await page
      .locator('.part.editor .review-widget', { hasText: 'Addressed: the agent changed these lines' })
      .first()
      .waitFor();
    await shot(wb, 'review-loop-4-addressed');
  });
});
