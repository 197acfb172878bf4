/**
 * The review loop of issue 24, as a person does it in the browser: a workspace file with two TODOs
 * attached to a code turn; comments on lines of two of the agent's files, from the keyboard; Send
 * Feedback from the Session panel's bar; the next turn changing those lines; the threads marked
 * addressed (the Comments panel lists them); then, in the attached file's review diff, two hunks
 * accepted and one rejected from the palette, and one undone; a file marked reviewed, which the
 * feedback turn's change leaves not reviewed. A screenshot at every step.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import {
  answerInputBox,
  clickActivityBar,
  contextMenuAction,
  notifications,
  runCommand,
  type Workbench,
} from '../harness/workbench';
import { TWO_TODOS_SAMPLE } from '../emulator/write-back';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { openSessionFromTree, panelShot, scrollRowToTop, sendTask, TURN_TIMEOUT_MS } from './panel-view';
import { UI_WAIT, shot } from './sessions-view';

const SESSION = 'Refactor auth middleware';
const TASK = 'Add omicron parser';
const SRC = 'src/add-omicron-parser.ts';
const TEST = 'test/add-omicron-parser.test.ts';
/** The person's file: two TODOs far apart (the agent adds a header and does both: three hunks). */
const MINE = TWO_TODOS_SAMPLE;

/** The Comments panel's icon of a resolved thread (an open one's differs). */
const RESOLVED_ICON = 'codicon-comment';

describe('A person reviews the agent’s work like a pull request', function () {
  this.timeout(300_000);
  const t = useSignedInWorkbench('review-loop', { files: () => ({ 'src/calc.ts': MINE }) });
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

  /** The Reviewed toggle of the source file in a "Files changed" row. */
  const reviewedToggle = (files: Locator): Locator => files.getByRole('button', { name: `Reviewed: ${SRC}` });

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

  it('marks a file reviewed, takes hunks one by one, comments on two files, sends them as one turn, and sees the threads addressed and the mark cleared', async () => {
    // 1. A code turn in the seeded session, from the panel, with src/calc.ts attached from the Explorer.
    await openSessionFromTree(page, frame, SESSION);
    await clickActivityBar(page, 'Explorer');
    await page.locator('.part.sidebar [role="treeitem"][aria-label^="src"]').first().click();
    await contextMenuAction(page, 'calc.ts', 'Attach to Den…');
    await frame.locator('li.attachment-chip[data-status="ready"]', { hasText: 'calc.ts' }).waitFor();
    await sendTask(frame, TASK, 'code');
    await newestTurn('completed');

    // 1b. The source file marked reviewed with its toggle, from the keyboard: the turn counts it.
    const firstFiles = frame.locator('.rows > .row.files', { hasText: SRC }).last();
    const reviewedCount = firstFiles.locator('.files-reviewed');
    assert.equal(await reviewedCount.innerText(), '0 of 4 reviewed');
    // Focused inside the webview's frame (and that frame the page's focused one), then Enter: a
    // press sent before the frame has the focus goes to the workbench instead.
    const toggle = reviewedToggle(firstFiles);
    await waitFor(
      'the toggle focused',
      () =>
        toggle.evaluate((e) => {
          if (e !== document.activeElement || !document.hasFocus()) (e as HTMLElement).focus();
          return e === document.activeElement && document.hasFocus();
        }),
      { ...UI_WAIT, until: (focused) => focused },
    );
    await page.keyboard.press('Enter');
    await waitFor('the count', () => reviewedCount.innerText(), {
      ...UI_WAIT,
      until: (c) => c === '1 of 4 reviewed',
    });
    assert.equal(await reviewedToggle(firstFiles).getAttribute('aria-pressed'), 'true');
    await scrollRowToTop(firstFiles);
    await panelShot(wb, frame, 'review-loop-0-reviewed');

    // 2. Hunk by hunk: the attached file's review diff (Compare, from the turn's files).
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    const calc = frame.locator('li.file-item:has(> button.file-change[data-path$="src/calc.ts"])').first();
    await calc.locator('button.file-action[data-command="den.compareWithWorkspace"]').click();
    await page.locator('.part.editor .tab.active', { hasText: 'calc.ts' }).waitFor();
    // The agent's side (right), from its first line: accept, next, accept, next, reject.
    await page.locator('.part.editor .editor.modified .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    const file = path.join(t.workspace, 'src', 'calc.ts');
    const disk = (what: string, until: (text: string) => boolean): Promise<string> =>
      waitFor(what, () => fs.readFileSync(file, 'utf8'), { ...UI_WAIT, until });
    // each action waits for the one before to be written: each reads the file anew
    await runCommand(page, 'Den: Accept Hunk at Cursor');
    await disk('the header in', (text) => text.startsWith('// Reviewed by the agent\n'));
    await runCommand(page, 'Den: Go to Next Hunk of the Agent');
    await runCommand(page, 'Den: Accept Hunk at Cursor');
    await disk('the first TODO done', (text) => text.includes('// Done: first'));
    await runCommand(page, 'Den: Go to Next Hunk of the Agent');
    await runCommand(page, 'Den: Reject Hunk at Cursor');
    await waitFor('the reject said', () => notifications(page), {
      ...UI_WAIT,
      until: (n) => n.some((m) => /kept .* out of the workspace/.test(m)),
    });
    assert.ok(fs.readFileSync(file, 'utf8').includes('// TODO: second'), 'the rejected hunk stays out');
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    await calc.locator('.file-state', { hasText: 'partly applied · 2 of 3 hunks' }).waitFor();
    await page.locator('.part.editor .tab', { hasText: 'calc.ts' }).first().click();
    await shot(wb, 'review-loop-1-hunks');

    // 3. One undo, in the workspace side (left): the second accept goes, the header stays.
    await page.locator('.part.editor .editor.original .view-lines').first().click();
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Control+S');
    const undone = await disk('the first TODO back', (text) => text.includes('// TODO: first'));
    assert.ok(undone.startsWith('// Reviewed by the agent\n'), undone);
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    await calc.locator('.file-state', { hasText: 'partly applied · 1 of 3 hunks' }).waitFor();
    await panelShot(wb, frame, 'review-loop-2-hunk-undone');

    // 4. A comment on two lines of the agent's source file: select with Shift+Down, then the palette.
    await openAgentFile(SRC, 8);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await comment('Plan for empty input.');
    await shot(wb, 'review-loop-3-comment-on-agent-file');

    // 5. A comment on the test file's first line.
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    await openAgentFile(TEST, 1);
    await comment('Use the strict import.');

    // 6. The Session panel says two comments are open; Send Feedback there, with a note.
    await page.locator('.part.editor .tab', { hasText: SESSION }).first().click();
    const bar = frame.locator('#feedback-bar');
    await bar.locator('.feedback-count', { hasText: '2 open comments' }).waitFor();
    await panelShot(wb, frame, 'review-loop-4-feedback-bar');
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
    // The feedback turn changed the reviewed file: its new version is not reviewed.
    const newest = frame.locator('.rows > .row.files', { hasText: SRC }).last();
    assert.equal(await newest.locator('.files-reviewed').innerText(), '0 of 2 reviewed');
    assert.equal(await reviewedToggle(newest).getAttribute('aria-pressed'), 'false');
    await panelShot(wb, frame, 'review-loop-5-feedback-turn');

    // 7. The agent changed those lines; the Comments panel lists both threads as addressed.
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
    await shot(wb, 'review-loop-6-addressed');
  });
});
