/**
 * The round trip, as a person does it in the browser: a workspace file with a TODO attached from the
 * Explorer, a code turn sent from the Session panel, the file edited meanwhile on the same line the
 * agent rewrote; the Explorer menu's ways to hand a file to Den; the file states in the Sessions
 * tree and the panel; Review Changes from the turn's row (the multi-file diff); Apply from the
 * panel (summary naming the conflict's line, Review…, conflict markers); the conflict resolved with
 * the Merge Conflict extension's Accept Both Changes, and one undo. A screenshot at every step. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { ROUND_TRIP_SAMPLE } from '../emulator/write-back';
import {
  clickActivityBar,
  contextMenuAction,
  dialog,
  runCommand,
  treeItem,
  type Workbench,
} from '../harness/workbench';
import { waitFor } from '../support/wait';
import { useSignedInWorkbench } from './signed-in';
import { openSessionFromTree, panelShot, scrollRowToTop, sendTask, TURN_TIMEOUT_MS } from './panel-view';
import { UI_WAIT, shot } from './sessions-view';

const SESSION = 'Refactor auth middleware';
const TASK = 'Implement the total';

/** The person's file, with a TODO on line 3. */
const MINE = ROUND_TRIP_SAMPLE.content;

/** The person's own version of the TODO line, typed while the agent works. */
const MY_LINE = '  for (const item of items) sum += item;';

describe('A person attaches a file, lets the agent rewrite it and applies it back with a merge', function () {
  this.timeout(300_000);
  const t = useSignedInWorkbench('round-trip', {
    files: () => ({ 'src/total.ts': MINE }),
    emulator: { eventDelayMs: 25 },
  });
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;
  let workspace: string;
  let file: string;
  beforeEach(() => {
    ({ wb, page, frame, workspace } = t);
    file = path.join(workspace, 'src', 'total.ts');
  });

  /** The text of the editor showing `name` (Monaco's view lines, top to bottom; the file is short). */
  async function editorText(name: string): Promise<string> {
    await page.locator('.part.editor .tab.active', { hasText: name }).waitFor();
    const lines = page.locator('.part.editor .editor-instance .monaco-editor .view-lines').first();
    return lines.evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('.view-line')]
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
        .map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
        .join('\n'),
    );
  }

  /** The editor tab of `name` (no other open tab's label contains it in this test). */
  const fileTab = (name: string) => page.locator('.part.editor .tab', { hasText: name });

  /** The Session panel's tab (the review tabs also name the session). */
  const sessionTab = () =>
    page.locator('.part.editor .tab', { hasText: SESSION, hasNotText: 'Den: ' }).first();

  /** Moves the cursor to the start of `line` (1-based) in the focused editor, by keyboard. */
  async function goToLine(line: number): Promise<void> {
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  }

  /** The file on disk, once it reads as `until` wants. */
  const disk = (what: string, until: (t: string) => boolean): Promise<string> =>
    waitFor(what, () => fs.readFileSync(file, 'utf8'), { ...UI_WAIT, until });

  it('attaches a file dragged from the Explorer and dropped on the Session panel with Shift held', async () => {
    await openSessionFromTree(page, frame, SESSION);
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'src').click();
    const row = treeItem(page, 'total.ts');
    await row.waitFor();
    const from = await row.boundingBox();
    const to = await page.locator('iframe.webview').last().boundingBox();
    assert.ok(from && to, 'the Explorer row or the panel is not shown');

    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 40, from.y + from.height / 2, { steps: 4 });
    await page.keyboard.down('Shift');
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await page.keyboard.up('Shift');

    await frame.locator('li.attachment-chip[data-status="ready"]', { hasText: 'total.ts' }).waitFor();
    // with Shift the panel takes the drop; without it the editor group would open the file
    assert.equal(await page.locator('.part.editor .tab', { hasText: 'total.ts' }).count(), 0);
    await panelShot(wb, frame, 'round-trip-drop-attached');
  });

  it('attach from the Explorer, a code turn, an edit meanwhile, file states, Review Changes, Apply with conflict markers, Accept Both Changes, undo', async () => {
    // 1. The file with its TODO, opened from the Explorer.
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'src').click();
    await treeItem(page, 'total.ts').click();
    assert.match(await editorText('total.ts'), /\/\/ TODO: add up the items/);
    await shot(wb, 'round-trip-1-file-with-todo');

    // 2. The seeded session's panel, opened from the Sessions tree.
    await openSessionFromTree(page, frame, SESSION);
    await shot(wb, 'round-trip-2-session-open');

    // 3. Attach to Den… from the file's Explorer context menu: a chip in the panel's composer.
    await clickActivityBar(page, 'Explorer');
    await contextMenuAction(page, 'total.ts', 'Attach to Den…');
    await frame.locator('li.attachment-chip[data-status="ready"]', { hasText: 'total.ts' }).waitFor();
    await panelShot(wb, frame, 'round-trip-3-attached');

    // 4. A code turn from the composer, carrying the file; it completes with the agent's rewrite.
    await sendTask(frame, TASK, 'code');
    // (the turn is taller than the view: its request row is windowed out once it ends)
    const answer = frame.locator('.rows > .row', { hasText: `I implemented ${TASK}` }).first();
    await answer.waitFor({ timeout: TURN_TIMEOUT_MS });
    await frame.locator('.rows > .row', { hasText: 'src/total.ts.notes.md' }).first().waitFor();
    const status = frame.locator('.rows > .turn-status').last();
    await waitFor('the turn to complete', () => status.getAttribute('data-status'), {
      ...UI_WAIT,
      timeoutMs: TURN_TIMEOUT_MS,
      until: (s) => s === 'completed',
    });
    assert.equal((await status.locator('.status-text').innerText()).trim(), 'Completed');
    await panelShot(wb, frame, 'round-trip-4-turn-completed');

    // 5. Meanwhile the person implements the TODO line their own way, and saves.
    await fileTab('total.ts').click();
    await page.locator('.part.editor .monaco-editor .view-lines').first().click();
    await goToLine(3);
    await page.keyboard.press('Shift+End');
    await page.keyboard.insertText(MY_LINE);
    await page.keyboard.press('Control+S');
    await disk('the edit to be saved', (t) => t === MINE.replace('  // TODO: add up the items', MY_LINE));
    assert.match(await editorText('total.ts'), /for \(const item of items\) sum \+= item;/);
    await shot(wb, 'round-trip-5-edited-meanwhile');

    // 6. The file's Explorer context menu offers both ways to hand it to Den.
    await clickActivityBar(page, 'Explorer');
    await treeItem(page, 'total.ts').click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.locator('.action-label', { hasText: /^Attach to Den…$/ }).waitFor({ state: 'visible' });
    const entries = (await menu.locator('.action-item .action-label').allInnerTexts()).map((t) => t.trim());
    assert.ok(entries.includes('Attach to Den…'), `the Explorer menu shows ${JSON.stringify(entries)}`);
    assert.ok(
      entries.includes('Ask Agent About File…'),
      `the Explorer menu shows ${JSON.stringify(entries)}`,
    );
    await shot(wb, 'round-trip-6-explorer-menu');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // 7. The Sessions tree: the session's Files group says what applying each file would do.
    await clickActivityBar(page, 'Den');
    await runCommand(page, 'Den: Refresh Sessions');
    await treeItem(page, SESSION).locator('.monaco-tl-twistie').click();
    await treeItem(page, 'Turns').click();
    await treeItem(page, TASK).waitFor();
    await treeItem(page, 'Files').click();
    const totalRow = page.locator('.part.sidebar [role="treeitem"][aria-label^="total.ts,"]');
    const notesRow = page.locator('.part.sidebar [role="treeitem"][aria-label^="total.ts.notes.md,"]');
    const description = (row: typeof totalRow) => row.locator('.label-description').innerText();
    await waitFor('the state of total.ts', () => description(totalRow), {
      ...UI_WAIT,
      until: (d) => d.startsWith('conflicts · 1 hunk'),
    });
    await waitFor('the state of the notes file', () => description(notesRow), {
      ...UI_WAIT,
      until: (d) => /^new · \+\d+/.test(d),
    });
    await shot(wb, 'round-trip-7-tree-file-states');

    // 8. The Session panel's file list of the turn: the same states, Review Changes and Apply.
    await sessionTab().click();
    const files = frame.locator('.rows > .row.files', { hasText: 'total.ts.notes.md' }).last();
    await files.waitFor();
    /** A file of the list, by the end of its path. */
    const fileItem = (end: string) =>
      files.locator(`li.file-item:has(> button.file-change[data-path$="${end}"])`);
    const totalState = fileItem('src/total.ts').locator('.file-state');
    const notesState = fileItem('src/total.ts.notes.md').locator('.file-state');
    await waitFor('the panel to show the states', () => totalState.getAttribute('data-state'), {
      ...UI_WAIT,
      until: (s) => s === 'conflicts',
    });
    assert.match(await totalState.innerText(), /^conflicts · 1 hunk/);
    assert.equal(await notesState.getAttribute('data-state'), 'new');
    assert.match(await notesState.innerText(), /^new · \+\d+/);
    // The letter before each path is its state against the workspace: C conflicts, A new.
    const badge = (end: string) => fileItem(end).locator('button.file-change .file-badge');
    assert.equal(await badge('src/total.ts').innerText(), 'C');
    assert.equal(await badge('src/total.ts.notes.md').innerText(), 'A');
    await files.getByRole('button', { name: 'Review this turn’s changes against the workspace' }).waitFor();
    assert.equal(await files.locator('button[data-command="den.reviewTurn"]').innerText(), 'Review Changes');
    assert.equal(await files.locator('button[data-command="den.applyTurn"]').innerText(), 'Apply');
    assert.equal(
      await fileItem('src/total.ts').locator('button[data-command="den.compareWithWorkspace"]').innerText(),
      'Compare',
    );
    await scrollRowToTop(files);
    await panelShot(wb, frame, 'round-trip-8-panel-file-states');

    // 9. Review Changes from the turn's row: the multi-file diff of the workspace and the agent.
    await contextMenuAction(page, TASK, 'Review Changes');
    const reviewTab = page.locator('.part.editor .tab', {
      hasText: `Den: Changes of “${TASK}” — ${SESSION}`,
    });
    await reviewTab.waitFor();
    const review = page.locator('.part.editor .editor-instance .multiDiffEditor');
    // the entry of src/total.ts (not implement-total.ts): the workspace's line beside the agent's
    const totalEntry = review
      .locator('.multiDiffEntry', {
        has: page.locator('.header .file-path .label-name', { hasText: /^total\.ts$/ }),
      })
      .first();
    await totalEntry
      .locator('.view-line', { hasText: /Done:\s+add\s+up\s+the\s+items/ })
      .first()
      .waitFor();
    await totalEntry
      .locator('.view-line', { hasText: /for\s+\(const\s+item\s+of\s+items\)/ })
      .first()
      .waitFor();
    // Apply and Discard in the review's title bar
    const titleAction = (label: string) =>
      page.locator(`.part.editor .action-label[aria-label^="${label}"]`).first();
    await titleAction('Apply What This Review Shows').waitFor({ state: 'visible' });
    await titleAction('Discard Review').waitFor({ state: 'visible' });
    await shot(wb, 'round-trip-9-review-changes');

    // 10. Apply from the panel's file list: the summary, modal, names the conflict's line.
    await sessionTab().click();
    await files.locator('button[data-command="den.applyTurn"]').click();
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible' });
    const summary = await modal.innerText();
    assert.match(summary, /Apply the changes of “Implement the total” in “Refactor auth middleware/);
    assert.match(summary, /1 conflict in src\/total\.ts \(line 3\)/);
    await modal.getByRole('button', { name: 'Apply with Conflict Markers' }).waitFor();
    await shot(wb, 'round-trip-10-summary');

    // 11. Review…: the diffs of what Apply would write; the question comes back as a notification.
    await modal.getByRole('button', { name: 'Review…' }).click();
    await modal.waitFor({ state: 'hidden' });
    await page.locator('.part.editor .tab', { hasText: 'Den: What Apply Writes' }).waitFor();
    const again = page.locator('.notifications-toasts .notification-toast', {
      hasText: `Apply the changes of “${TASK}”`,
    });
    await again.waitFor({ state: 'visible' });
    // the diff answers the same question (Apply, Discard) in its title bar
    await titleAction('Apply What This Review Shows').waitFor({ state: 'visible' });
    await shot(wb, 'round-trip-11-what-apply-writes');

    // 12. Apply with Conflict Markers, from the notification.
    await again.getByRole('button', { name: 'Apply with Conflict Markers' }).click();
    const marked = await disk(
      'the conflict markers',
      (t) => t.includes('<<<<<<< Workspace') && t.endsWith('return `Total for ${name}`;\n}\n'),
    );
    assert.ok(marked.startsWith('// Reviewed by the agent\n'), marked);
    assert.match(marked, /<<<<<<< Workspace\n {2}for \(const item of items\) sum \+= item;\n/);
    assert.match(marked, /=======\n {2}\/\/ Done: add up the items\n>>>>>>> Agent\n/);
    await page
      .locator('.notifications-toasts .notification-list-item-message', { hasText: /conflict markers in/ })
      .waitFor();
    await fileTab('total.ts').click();
    await waitFor('the editor to show the markers', () => editorText('total.ts'), {
      ...UI_WAIT,
      until: (t) => t.includes('<<<<<<< Workspace') && t.includes('>>>>>>> Agent'),
    });
    // the built-in Merge Conflict extension offers its actions above the block
    const acceptBoth = page
      .locator('.part.editor .editor-instance .monaco-editor .codelens-decoration a', {
        hasText: /^Accept Both Changes$/,
      })
      .first();
    await acceptBoth.waitFor();
    await shot(wb, 'round-trip-12-conflict-markers');

    // 13. The person keeps both lines: Accept Both Changes, then saves.
    await acceptBoth.click();
    const both = ['// Reviewed by the agent', ...MINE.split('\n')]
      .join('\n')
      .replace('  // TODO: add up the items', `${MY_LINE}\n  // Done: add up the items`);
    await waitFor('the editor to show both lines', () => editorText('total.ts'), {
      ...UI_WAIT,
      until: (t) => !t.includes('<<<<<<<') && t.includes(`${MY_LINE}\n  // Done: add up the items`),
    });
    const shown = await editorText('total.ts');
    assert.doesNotMatch(shown, /^(<{7}|\|{7}|={7}|>{7})/m);
    await page.locator('.part.editor .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+S');
    // (the file is written in place: a read may catch it empty or half written, so wait for all of it)
    assert.equal(await disk('the resolution to be saved', (t) => t === both), both);
    // (the TypeScript service then drops the markers' errors: no stale squiggles in the screenshot)
    await page
      .locator('.part.editor .editor-instance .monaco-editor .squiggly-error')
      .first()
      .waitFor({ state: 'detached', timeout: 60_000 });
    await shot(wb, 'round-trip-13-accepted-both');

    // 14. One Ctrl+Z: the editor is back at what Apply wrote, markers and all (saved to read it on disk).
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Escape');
    await waitFor('the undo to show', () => editorText('total.ts'), {
      ...UI_WAIT,
      until: (t) => t.includes('<<<<<<< Workspace'),
    });
    await shot(wb, 'round-trip-14-undone');
    await page.keyboard.press('Control+S');
    assert.equal(await disk('the undone text to be saved', (t) => t === marked), marked);
  });
});
