/**
 * The webview bundle in real (headless) Chromium with a fake VS Code API: rendering of a recorded turn (and its files' states against the workspace, with their buttons), the XSS corpus executing nothing, windowing and streaming.
 * Needs Debian's Chromium (scripts/setup-code-server.sh installs it; DEN_CHROMIUM overrides the path).
 */
import assert from 'node:assert/strict';
import type { Block } from '../../../../src/core/transcript/model';
import type { Delta } from '../../../../src/protocol/session-panel/messages';
import { eventFactory } from '../../../support/events';
import { waitFor } from '../../../support/wait';
import {
  closeBrowser,
  openHarness,
  recordDialogs,
  openToolCards,
  started,
  toolBlock,
  type Harness,
} from './browser-harness';
import { AGENT, loadFixture, scenario } from './helpers';
import { XSS_CORPUS } from './xss-corpus';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

describe('webview in Chromium', function () {
  // A hang guard: Chromium on a busy two-core machine can take several seconds per test.
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('renders a recorded coding turn streamed as batches', async () => {
    h = await openHarness();
    const s = scenario(loadFixture('coding-turn.jsonl'), 2);
    await h.send(s.init, ...s.batches);
    const d = await h.probe();
    assert.equal(d.lastSeq, s.batches[s.batches.length - 1].seq);
    assert.equal(d.turns[0].status, 'completed');
    assert.equal(d.turns[0].blocks.length, s.transcript.turns[0].blocks.length);
    assert.equal(d.turns[0].files, 2);
    assert.ok(d.renderedBlocks > 0);
    const page = h.page;
    // The two write_file calls are one group line; the run_command after a thought, one line.
    assert.equal(await page.locator('.block[data-block-type="tool"]').count(), 1);
    assert.equal(await page.locator('.tool-group .group-text').innerText(), '2 tool calls · under 1 s');
    const run = page.locator('.block-tool .tool-summary');
    assert.equal(await run.locator('.tool-name').innerText(), 'run_command');
    assert.equal(await run.locator('.tool-subject').innerText(), 'npm test');
    assert.deepEqual(await run.locator('.tool-outcome').allTextContents(), [' · exit 0', ' · 2 passing']);

    await openToolCards(h);
    assert.equal(await page.locator('.block[data-block-type="tool"]').count(), 3);
    assert.match(await page.locator('.turn-status').innerText(), /Completed/);
    assert.equal(await page.locator('#session-title').innerText(), 'Whitespace normalizer');
    assert.ok((await page.locator('.tool-log .log-stderr').count()) > 0, 'stderr told apart');
    assert.ok((await page.locator('.tool-log .ansi-fg-green').count()) > 0, 'ANSI colours as classes');
    assert.equal(
      await page
        .locator('.tool-log')
        .first()
        .evaluate((e) => /\x1b/.test(e.textContent ?? '')),
      false,
    );
    assert.equal(
      await page.locator('.block-markdown strong').first().innerText(),
      'Add a whitespace normalizer with tests',
    );
    assert.equal(
      await page
        .locator('.block-thought')
        .first()
        .evaluate((e) => (e as HTMLDetailsElement).open),
      false,
    );
    assert.equal(await page.locator('.block-thought summary').first().innerText(), 'Thought');
    await page.locator('.file-change').first().click();
    assert.deepEqual(
      (await h.posted()).find((m) => m.type === 'openFile'),
      {
        type: 'openFile',
        turnId: AGENT,
        path: 'src/add-whitespace-normalizer.ts',
      },
    );
  });

  it('shows “The agent needs your input: …” under a turn that waits, and takes it away when it moves on', async () => {
    h = await openHarness();
    const e = eventFactory();
    const s = scenario(
      [
        e('task.phase', { phase: 'running' }),
        e('plan.approval_request', { message: 'Approve the plan to go on.' }),
        e('markdown.chunk', { delta: 'Going on.' }, 'answer:main'),
      ],
      1,
    );
    await h.send(s.init, s.batches[0], s.batches[1]);
    const line = h.page.locator('.turn-status .needs-input');
    await waitFor('the line', async () => (await line.count()) === 1);
    assert.equal(
      await line.locator('.needs-input-question').innerText(),
      'The agent needs your input: Approve the plan to go on.',
    );
    await h.send(s.batches[2]);
    await waitFor('the line to go', async () => (await line.count()) === 0);
    assert.match(await h.page.locator('.turn-status').innerText(), /Running/);
  });

  it('shows each file’s state and counts, follows fileStatus deltas, and posts the file and turn commands', async () => {
    h = await openHarness();
    const s = scenario(loadFixture('coding-turn.jsonl'), 50);
    const [src, test] = s.transcript.turns[0].files.map((f) => f.path);
    const sessionId = s.init.session.sessionId;
    const last = s.batches[s.batches.length - 1].seq;
    await h.send(s.init, ...s.batches, {
      type: 'batch',
      seq: last + 1,
      deltas: [
        {
          type: 'fileStatus',
          files: [
            { path: src, state: 'modified', added: 3, removed: 1 },
            { path: test, state: 'conflicts', added: 4, removed: 0, conflicts: 2, reason: 'Both changed' },
          ],
        },
      ],
    });
    const page = h.page;
    const state = (path: string) => page.locator(`.file-item:has([data-path="${path}"]) .file-state`);
    const letter = (path: string) => page.locator(`.file-change[data-path="${path}"]`);
    await waitFor('the states shown', async () => (await state(src).count()) > 0);
    // The letter is the state against the workspace, in words for screen readers (both were added
    // by the agent: the letter said A for both before).
    assert.equal(await letter(src).locator('.file-badge').textContent(), 'M');
    assert.equal(await letter(src).locator('.file-words').textContent(), ' (modified against the workspace)');
    assert.equal(await letter(test).locator('.file-badge').textContent(), 'C');
    assert.equal(await letter(test).getAttribute('data-state'), 'conflicts');
    assert.equal(await state(src).getAttribute('data-state'), 'modified');
    assert.match(await state(src).innerText(), /^modified · \+3 −1/);
    assert.equal(
      await state(src).locator('.visually-hidden').textContent(),
      ', against the workspace: modified, 3 lines added, 1 line removed',
    );
    assert.match(await state(test).innerText(), /^conflicts · 2 hunks/);
    assert.match((await state(test).getAttribute('title')) ?? '', /^Both changed\nconflicts · 2 hunks/);

    await h.send({
      type: 'batch',
      seq: last + 2,
      deltas: [{ type: 'fileStatus', files: [{ path: src, state: 'identical', added: 0, removed: 0 }] }],
    });
    await waitFor('the new state', async () => (await state(src).getAttribute('data-state')) === 'identical');
    assert.equal(await state(test).count(), 0, 'a file not listed has no state');
    assert.equal(await letter(src).locator('.file-badge').textContent(), '=');
    // Without a state, the letter says what the agent did, and the words say so.
    assert.equal(await letter(test).locator('.file-badge').textContent(), 'A');
    assert.equal(await letter(test).locator('.file-words').textContent(), ' (added by the agent)');

    await page.getByRole('button', { name: `Compare ${src} with the workspace file` }).click();
    await page.getByRole('button', { name: 'Review this turn’s changes against the workspace' }).click();
    await page.getByRole('button', { name: 'Apply this turn’s files to the workspace' }).press('Enter');
    const commands = await waitFor('the commands posted', async () => {
      const posted = (await h.posted()).filter((m) => m.type === 'runCommand');
      return posted.length === 3 && posted;
    });
    assert.deepEqual(
      commands.map((m) => [m.command, m.args]),
      [
        ['den.compareWithWorkspace', [sessionId, src, { turn: AGENT }]],
        ['den.reviewTurn', [sessionId, AGENT]],
        ['den.applyTurn', [sessionId, AGENT]],
      ],
    );
  });

  it('shows each file’s reviewed toggle and the turn’s “n of m reviewed”, follows reviewed deltas, and posts the toggle', async () => {
    h = await openHarness();
    const s = scenario(loadFixture('coding-turn.jsonl'), 50);
    const [srcFile, testFile] = s.transcript.turns[0].files;
    const sessionId = s.init.session.sessionId;
    const last = s.batches[s.batches.length - 1].seq;
    const version = (f: typeof srcFile) => `${f.key}@${f.updatedAt ?? ''}`;
    await h.send(s.init, ...s.batches, {
      type: 'batch',
      seq: last + 1,
      // The test file is marked at another version (a later turn changed it): not this turn's.
      deltas: [
        {
          type: 'reviewed',
          files: [
            { path: srcFile.path, versions: [version(srcFile)] },
            { path: testFile.path, versions: ['other@1'] },
          ],
        },
      ],
    });
    const page = h.page;
    const toggle = (path: string) => page.getByRole('button', { name: `Reviewed: ${path}` });
    const count = page.locator('.files-reviewed');
    await waitFor('the count', async () => (await count.textContent()) === '1 of 2 reviewed');
    assert.equal(await toggle(srcFile.path).getAttribute('aria-pressed'), 'true');
    assert.equal(await toggle(srcFile.path).getAttribute('title'), `Mark ${srcFile.path} as not reviewed`);
    assert.equal(await toggle(testFile.path).getAttribute('aria-pressed'), 'false');
    assert.equal(await toggle(testFile.path).getAttribute('title'), `Mark ${testFile.path} as reviewed`);

    await toggle(testFile.path).press('Enter');
    await toggle(srcFile.path).click();
    const posted = await waitFor('the toggles posted', async () => {
      const p = (await h.posted()).filter((m) => m.type === 'runCommand');
      return p.length === 2 && p;
    });
    const at = (f: typeof srcFile) => ({
      key: f.key,
      ...(f.updatedAt !== undefined ? { updatedAt: f.updatedAt } : {}),
    });
    assert.deepEqual(
      posted.map((m) => [m.command, m.args]),
      [
        ['den.setReviewed', [sessionId, testFile.path, at(testFile), true]],
        ['den.setReviewed', [sessionId, srcFile.path, at(srcFile), false]],
      ],
    );

    await h.send({
      type: 'batch',
      seq: last + 2,
      deltas: [
        {
          type: 'reviewed',
          files: [{ path: `/${testFile.path}`, versions: [version(testFile)] }],
        },
      ],
    });
    await waitFor(
      'the new marks',
      async () => (await toggle(testFile.path).getAttribute('aria-pressed')) === 'true',
    );
    assert.equal(await toggle(srcFile.path).getAttribute('aria-pressed'), 'false');
    assert.equal(await count.textContent(), '1 of 2 reviewed');
  });

  it('keeps the files row’s buttons across its updates: the focus stays, a press released after an update still clicks, a toggle acts on the mark shown', async () => {
    h = await openHarness();
    const s = scenario(loadFixture('coding-turn.jsonl'), 50);
    const [srcFile, testFile] = s.transcript.turns[0].files;
    const sessionId = s.init.session.sessionId;
    let seq = s.batches[s.batches.length - 1].seq;
    await h.send(s.init, ...s.batches);
    const page = h.page;
    const toggle = page.getByRole('button', { name: `Reviewed: ${testFile.path}` });
    const apply = page.getByRole('button', { name: 'Apply this turn’s files to the workspace' });
    const state = page.locator(`.file-item:has([data-path="${srcFile.path}"]) .file-state`);
    const status = (st: 'modified' | 'identical') =>
      h.send({
        type: 'batch',
        seq: ++seq,
        deltas: [{ type: 'fileStatus', files: [{ path: srcFile.path, state: st, added: 1, removed: 1 }] }],
      });
    const marked = (versions: string[]) =>
      h.send({
        type: 'batch',
        seq: ++seq,
        deltas: [{ type: 'reviewed', files: [{ path: testFile.path, versions }] }],
      });
    const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    const commands = async () =>
      (await h.posted()).filter((m) => m.type === 'runCommand').map((m) => [m.command, m.args]);
    // (a property set on the element: still there only if the element is the same one)
    await apply.evaluate((e) => ((e as unknown as { mark: number }).mark = 1));

    // 1. The focus on a toggle stays through a state change of another file.
    await toggle.focus();
    await status('modified');
    await waitFor('the state', async () => (await state.getAttribute('data-state')) === 'modified');
    assert.equal(await focusedLabel(), `Reviewed: ${testFile.path}`);

    // 2. Pressed, the row updated, released: one click, the command run.
    const box = (await apply.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await status('identical');
    await waitFor('the new state', async () => (await state.getAttribute('data-state')) === 'identical');
    await page.mouse.up();
    await waitFor('Apply posted', async () => (await commands()).length === 1);
    assert.equal(await apply.evaluate((e) => (e as unknown as { mark?: number }).mark), 1, 'the same button');

    // 3. Enter on the toggle, the mark arrives, Enter again: marked, then unmarked, the focus kept.
    await toggle.press('Enter');
    await marked([`${testFile.key}@${testFile.updatedAt ?? ''}`]);
    await waitFor('marked', async () => (await toggle.getAttribute('aria-pressed')) === 'true');
    assert.equal(await focusedLabel(), `Reviewed: ${testFile.path}`);
    await page.keyboard.press('Enter');
    const at = {
      key: testFile.key,
      ...(testFile.updatedAt !== undefined ? { updatedAt: testFile.updatedAt } : {}),
    };
    const turnRef = AGENT;
    assert.deepEqual(
      await waitFor('three commands', async () => (await commands()).length === 3 && commands()),
      [
        ['den.applyTurn', [sessionId, turnRef]],
        ['den.setReviewed', [sessionId, testFile.path, at, true]],
        ['den.setReviewed', [sessionId, testFile.path, at, false]],
      ],
    );
  });

  it('runs nothing from the XSS corpus and never navigates on a link click', async () => {
    h = await openHarness({ height: 1600 });
    const dialogs = recordDialogs(h.page);
    const next = await started(h, {
      session: {
        sessionId: 's',
        title: '<img src=x onerror=alert(1)>',
        service: '<script>alert(1)</script>',
      },
      notice: {
        level: 'error',
        message: '<svg onload=alert(1)>',
        actions: [{ title: '<b onclick=alert(1)>x</b>', command: 'den.x' }],
      },
    });
    const blocks: Block[] = XSS_CORPUS.map((c, i) => ({
      type: 'markdown',
      id: `answer:${i}`,
      text: c.md,
      final: true,
    }));
    blocks.push(
      { type: 'thought', id: 'thought:x', text: XSS_CORPUS.map((c) => c.md).join('\n\n'), final: true },
      { type: 'text', id: 'text:x', text: '<script>alert(1)</script>' },
      toolBlock('tool:x', '<img src=x onerror=alert(1)>\x1b]8;;javascript:alert(1)\x1b\\link\x1b]8;;\x1b\\'),
      {
        type: 'generic',
        id: 'g',
        kind: '<svg onload=alert(1)>',
        payload: { html: '<iframe src=javascript:alert(1)>' },
      },
    );
    await h.send(next(blocks.map((block) => ({ type: 'block', turnId: AGENT, block }))));
    await h.page.locator('.block-thought summary').click();
    await h.frames(3);
    const url = h.page.url();
    const seenLinks = new Set<string>();
    for (let step = 0; step < 40; step++) {
      const report = await h.page.evaluate(() => {
        const app = document.getElementById('app')!;
        const bad = [
          ...app.querySelectorAll(
            'script, iframe, img, svg, object, embed, form, style, math, template, meta, base, link',
          ),
        ].filter((e) => e.id !== 'composer');
        const handlers = [...app.querySelectorAll('*')].flatMap((e) =>
          [...e.attributes]
            .filter((a) => /^on/i.test(a.name) || (a.name === 'style' && /url|expression/i.test(a.value)))
            .map((a) => `${e.tagName}[${a.name}]`),
        );
        const hrefs = [...app.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');
        const links = [...app.querySelectorAll('a[href]')].map(
          (a) => `${a.closest('[data-block-id]')?.getAttribute('data-block-id')}|${a.textContent}`,
        );
        const t = document.getElementById('transcript')!;
        const atEnd = t.scrollTop + t.clientHeight >= t.scrollHeight - 2;
        t.scrollTop += t.clientHeight;
        return { bad: bad.length, handlers, hrefs, links, atEnd };
      });
      assert.equal(report.bad, 0);
      assert.deepEqual(report.handlers, []);
      for (const href of report.hrefs) assert.match(href, /^(?:https?:\/\/|mailto:)/);
      for (const l of report.links) if (l.startsWith('answer:')) seenLinks.add(l);
      if (report.atEnd) break;
      await h.frames(2);
    }
    assert.equal(
      seenLinks.size,
      XSS_CORPUS.reduce((n, c) => n + c.links, 0),
      'every answer was rendered',
    );
    const link = h.page.locator('.block-markdown a[href]').last();
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await link.click({ button: 'middle' });
    await link.focus();
    await h.page.keyboard.press('Enter');
    await h.frames(2);
    assert.equal(h.page.url(), url, 'the webview did not navigate');
    assert.equal(h.page.context().pages().length, 1, 'no window opened');
    const opened = (await h.posted()).filter((m) => m.type === 'openLink');
    assert.equal(opened.length, 2, 'one openLink per click or Enter, none for the middle click');
    assert.equal(
      await h.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
      undefined,
    );
    assert.deepEqual(dialogs, []);
    assert.equal(await h.page.locator('#session-title').innerText(), '<img src=x onerror=alert(1)>');
  });

  it('keeps only the rows near the viewport in the DOM and jumps back to the latest', async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    const deltas: Delta[] = [];
    for (let i = 0; i < 2000; i++)
      deltas.push({ type: 'block', turnId: AGENT, block: toolBlock(`tool:run:${i}`, `line ${i}\n`) });
    await h.send(next(deltas));
    // 2000 consecutive calls are one group, one line: opened, each call is a row of its own.
    assert.match(await h.page.locator('.group-line').innerText(), /2000 tool calls/);
    await h.page.locator('.group-line').click();
    await h.frames(2);
    let d = await h.probe();
    assert.equal(d.turns[0].blocks.length, 2000);
    assert.ok(d.renderedBlocks > 0 && d.renderedBlocks < 60, `${d.renderedBlocks} blocks in the DOM`);
    assert.equal(await h.page.locator('[data-block-id="tool:run:1999"]').count(), 1, 'following the bottom');
    assert.equal(await h.page.locator('#jump-to-latest').isHidden(), true);
    await h.page.locator('#transcript').hover();
    await h.page.mouse.wheel(0, -400);
    await h.page.evaluate(() => (document.getElementById('transcript')!.scrollTop = 0));
    await h.frames(3);
    assert.equal(await h.page.locator('[data-block-id="tool:run:0"]').count(), 1);
    assert.equal(await h.page.locator('[data-block-id="tool:run:1999"]').count(), 0);
    await h.send(
      next([{ type: 'append', turnId: AGENT, blockId: 'tool:run:1999', text: 'more\n', stream: 'stdout' }]),
    );
    await h.frames(2);
    assert.equal(
      await h.page.evaluate(() => document.getElementById('transcript')!.scrollTop),
      0,
      'not dragged down',
    );
    assert.equal(await h.page.locator('#jump-to-latest').isVisible(), true);
    await h.page.locator('#jump-to-latest').click();
    await h.frames(3);
    assert.equal(await h.page.locator('[data-block-id="tool:run:1999"]').count(), 1);
    assert.equal(await h.page.locator('#jump-to-latest').isHidden(), true);
    d = await h.probe();
    assert.ok(d.renderedBlocks < 60);
  });

  it('re-renders only the tail of a streamed answer', async () => {
    h = await openHarness({ height: 1600 });
    const next = await started(h);
    await h.send(
      next([
        {
          type: 'block',
          turnId: AGENT,
          block: { type: 'markdown', id: 'answer:main', text: '', final: false },
        },
      ]),
    );
    const para = (i: number): string => `Paragraph ${i}: ${'some streamed words '.repeat(12)}\n\n`;
    for (let i = 0; i < 20; i++) {
      const chunks = para(i).match(/.{1,7}/gs)!;
      await h.send(
        next(chunks.map((text) => ({ type: 'append', turnId: AGENT, blockId: 'answer:main', text }))),
      );
    }
    await h.frames(2);
    await h.page.evaluate(() => {
      const first = document.querySelector('.md-part[data-part="0"]') as HTMLElement & { __mark?: boolean };
      first.__mark = true;
    });
    for (let i = 20; i < 30; i++)
      await h.send(next([{ type: 'append', turnId: AGENT, blockId: 'answer:main', text: para(i) }]));
    await h.frames(2);
    const parts = await h.page.evaluate(() => {
      const el = document.querySelector('.md-part[data-part="0"]') as
        (HTMLElement & { __mark?: boolean }) | null;
      return { kept: el?.__mark === true, count: document.querySelectorAll('.md-part').length };
    });
    assert.ok(parts.count > 1, 'split into sections');
    const d = await h.probe();
    assert.equal(d.turns[0].blocks[0].text, Array.from({ length: 30 }, (_, i) => para(i)).join(''));
    await h.page.evaluate(() => (document.getElementById('transcript')!.scrollTop = 0));
    await h.frames(2);
    assert.equal(parts.kept, true, 'a finished section is never re-rendered');
  });

  it('applies a reconciliation (blocks removed, moved, replaced) without rebuilding untouched rows or moving the view', async () => {
    h = await openHarness({ height: 600 });
    const next = await started(h);
    const blocks: Delta[] = [];
    for (let i = 0; i < 300; i++)
      blocks.push({ type: 'block', turnId: AGENT, block: toolBlock(`tool:run:${i}`, `line ${i}\n`) });
    await h.send(next(blocks));
    await h.frames(2);
    await h.page.locator('.group-line').click(); // the calls' rows, each its own
    await h.frames(2);
    // the person scrolled up to the middle and reads the block at the top of the view
    await h.page.locator('#transcript').hover();
    await h.page.mouse.wheel(0, -400);
    await h.page.evaluate(() => {
      const t = document.getElementById('transcript')!;
      t.scrollTop = Math.floor(t.scrollHeight / 2);
    });
    await h.frames(3);
    const reading = await h.page.evaluate(() => {
      const top = document.getElementById('transcript')!.getBoundingClientRect().top;
      const rows = [...document.querySelectorAll('.block-tool')] as HTMLElement[];
      return rows.find((r) => r.getBoundingClientRect().top >= top)?.dataset.blockId;
    });
    assert.ok(reading && Number(reading.split(':')[2]) > 60, `reading ${reading}`);
    const mark = (): Promise<{ top: number; kept: boolean } | undefined> =>
      h.page.evaluate((id) => {
        const el = document.querySelector(`[data-block-id="${id}"]`) as
          (HTMLElement & { __mark?: boolean }) | null;
        if (!el) return undefined;
        const kept = el.__mark === true;
        el.__mark = true;
        return { top: el.getBoundingClientRect().top, kept };
      }, reading);
    const before = await mark();
    assert.ok(before, `${reading} is not in view`);
    const ids = Array.from({ length: 300 }, (_, i) => `tool:run:${i}`);
    // the stored turn lacks 10..19, has one more block at the start, and a changed block 40
    const order = ['generic:new', ...ids.filter((id) => !/^tool:run:1\d$/.test(id))];
    await h.send(
      next([
        {
          type: 'block',
          turnId: AGENT,
          block: { type: 'generic', id: 'generic:new', kind: 'focus', payload: {} },
        },
        { type: 'block', turnId: AGENT, block: toolBlock('tool:run:40', 'line 40, longer now\n') },
        { type: 'blockOrder', turnId: AGENT, blockIds: order },
      ]),
    );
    await h.frames(3);
    const after = await mark();
    assert.ok(after, `${reading} left the view`);
    assert.equal(after.kept, true, 'an untouched row was rebuilt');
    assert.ok(Math.abs(after.top - before.top) <= 1, `the view moved: ${before.top} → ${after.top}`);
    const d = await h.probe();
    assert.deepEqual(
      d.turns[0].blocks.map((b) => b.id),
      order,
    );
    assert.equal(await h.page.locator('#jump-to-latest').isVisible(), true);
  });
});
