/**
 * What a person sees in the Session panel's webview, read for the e2e tests: the newest turn, a walk
 * through the windowed transcript, an in-webview recorder of streaming, and settled screenshots.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { clickActivityBar, contextMenuAction, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { UI_WAIT, sessionTitles, shot, showAllSessions } from './sessions-view';

/** How long a scripted turn may take to reach a status. */
export const TURN_TIMEOUT_MS = 30_000;

/** One sample of the newest turn, taken by the in-webview recorder at every DOM change. */
export interface TurnSample {
  title: string;
  status: string;
  answer: number;
  log: number;
  tools: string;
}

/** An in-place change of a todo's `data-status` (same element, attribute rewritten). */
export interface TodoChange {
  id: string;
  from: string | null;
  to: string | null;
}

type RecorderWindow = Window & { __denSamples?: TurnSample[]; __denTodos?: TodoChange[] };

/**
 * Starts recording, inside the webview, the newest turn after every DOM change (status, answer and
 * log lengths) and every todo status rewrite, so fast streaming is observed without polling races.
 */
export async function startRecorder(frame: FrameLocator): Promise<void> {
  await frame.locator('body').evaluate(() => {
    const w = window as RecorderWindow;
    w.__denSamples = [];
    w.__denTodos = [];
    let last = '';
    const sample = (): void => {
      const headers = document.querySelectorAll('.rows > .turn-header');
      const head = headers[headers.length - 1] as HTMLElement | undefined;
      if (!head) return;
      const id = head.dataset.turnId ?? '';
      const rows = [...document.querySelectorAll<HTMLElement>('.rows > .row')].filter(
        (r) => r.dataset.turnId === id,
      );
      const s = {
        title: head.querySelector('.turn-title')?.textContent ?? '',
        status: rows.find((r) => r.classList.contains('turn-status'))?.dataset.status ?? '',
        answer: rows
          .filter((r) => r.dataset.blockType === 'markdown')
          .reduce((n, r) => n + (r.textContent?.length ?? 0), 0),
        // An open card's log, or what a running call's one line says of it (its log's last line).
        log: rows.reduce(
          (n, r) =>
            n +
            (r.querySelector('pre.tool-log')?.textContent?.length ?? 0) +
            (r.dataset.status === 'running'
              ? [...r.querySelectorAll('.tool-outcome')]
                  .slice(1)
                  .reduce((m, o) => m + (o.textContent?.length ?? 0), 0)
              : 0),
          0,
        ),
        tools: rows
          .filter((r) => r.dataset.blockType === 'tool')
          .map((r) => r.dataset.status)
          .join(','),
      };
      const key = JSON.stringify(s);
      if (key !== last && w.__denSamples!.length < 20_000) w.__denSamples!.push(s);
      last = key;
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as HTMLElement;
        if (r.type === 'attributes' && el.classList.contains('todo') && w.__denTodos!.length < 1000) {
          w.__denTodos!.push({
            id: el.dataset.todoId ?? '',
            from: r.oldValue,
            to: el.dataset.status ?? null,
          });
        }
      }
      sample();
    }).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeOldValue: true,
    });
    sample();
  });
}

/** What the recorder saw since `startRecorder`. */
export async function recorded(frame: FrameLocator): Promise<{ samples: TurnSample[]; todos: TodoChange[] }> {
  return frame.locator('body').evaluate(() => {
    const w = window as RecorderWindow;
    return { samples: w.__denSamples ?? [], todos: w.__denTodos ?? [] };
  });
}

/**
 * Types `task` into the composer, picks `mode`, presses Enter once Send is enabled (the panel has its
 * composer state); resolves once the composer took the task (it clears the draft when it sends).
 * The composer drops a second send within 800 ms of the one before (a double Enter), so a test
 * sends once per panel or waits for the first turn to show before sending again.
 */
export async function sendTask(frame: FrameLocator, task: string, mode = 'code'): Promise<void> {
  await frame.locator('#mode').selectOption(mode);
  const input = frame.locator('#composer-input');
  await input.fill(task);
  await frame.locator('#send:enabled').waitFor();
  await input.press('Enter');
  await waitFor('the composer to take the task', () => input.inputValue(), {
    ...UI_WAIT,
    until: (v) => v === '',
  });
}

/**
 * The status text of the newest turn once its request shows `task` and its status matches `status`.
 * Watches the webview's DOM from inside (every change is checked, none is missed between polls).
 */
export async function turnEnds(frame: FrameLocator, task: string, status: RegExp): Promise<string> {
  const result = await frame.locator('body').evaluate(
    (body, a) =>
      new Promise<{ text?: string; seen: string }>((resolve) => {
        const wanted = new RegExp(a.source, a.flags);
        let seen = '';
        const check = (): { text?: string; seen: string } | undefined => {
          const heads = body.querySelectorAll('.rows > .turn-header');
          const lines = body.querySelectorAll<HTMLElement>('.rows > .turn-status');
          const head = heads[heads.length - 1];
          const line = lines[lines.length - 1];
          const title = head?.textContent ?? '';
          const st = line?.getAttribute('data-status') ?? null;
          seen = `${title} → ${st}`;
          if (!line || !title.includes(a.task) || !wanted.test(st ?? '')) return undefined;
          return { text: (line.querySelector<HTMLElement>('.status-text')?.innerText ?? '').trim(), seen };
        };
        const observer = new MutationObserver(() => {
          const r = check();
          if (r) finish(r);
        });
        const timer = setTimeout(() => finish({ seen }), a.timeoutMs);
        function finish(r: { text?: string; seen: string }): void {
          observer.disconnect();
          clearTimeout(timer);
          resolve(r);
        }
        const now = check();
        if (now) finish(now);
        else
          observer.observe(body, { subtree: true, childList: true, characterData: true, attributes: true });
      }),
    { task, source: status.source, flags: status.flags, timeoutMs: TURN_TIMEOUT_MS },
  );
  if (result.text === undefined) {
    assert.fail(`the turn "${task}" did not reach ${status}; last seen: ${result.seen}`);
  }
  return result.text;
}

/** The rows of the newest turn currently in the DOM. */
export async function newestTurnRows(frame: FrameLocator): Promise<{ type: string; status: string }[]> {
  return frame.locator('.rows').evaluate((rows) => {
    const headers = rows.querySelectorAll<HTMLElement>(':scope > .turn-header');
    const id = headers[headers.length - 1]?.dataset.turnId;
    return [...rows.querySelectorAll<HTMLElement>(':scope > .row')]
      .filter((r) => r.dataset.turnId === id)
      .map((r) => ({
        type: r.dataset.blockType ?? r.classList[1] ?? '',
        status: r.dataset.status ?? '',
      }));
  });
}

/** One transcript row as seen while scrolling through the whole transcript. */
interface SeenRow {
  kind: string;
  turnId: string;
  /** The block a block row shows ('' for other rows; a markdown block's sections share it). */
  blockId: string;
  status: string;
  text: string;
}

/**
 * Scrolls the transcript from top to bottom half a viewport at a time and returns every distinct row
 * that was in the DOM on the way, in order (the DOM only ever holds a window of them), opening every
 * group of tool calls and tool line it passes. Also reports
 * the most rows the DOM held at once. (How long a scroll step takes is measured by the benchmarks.)
 */
export async function scanTranscript(frame: FrameLocator): Promise<SeenRow[] & { maxInDom: number }> {
  const seen = await frame.locator('main#transcript').evaluate(async (el) => {
    const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
    const rows = new Map<
      string,
      { kind: string; turnId: string; blockId: string; status: string; text: string }
    >();
    let maxInDom = 0;
    el.scrollTop = 0;
    await raf();
    for (let i = 0; i < 1000; i++) {
      // Every closed group of tool calls and every closed tool line is opened on the way: the
      // walk reads each call's whole card (everything stays reachable from the calm one-line view).
      const closed = el.querySelectorAll<HTMLButtonElement>(
        '.group-line[aria-expanded="false"], .tool-line[aria-expanded="false"]',
      );
      if (closed.length > 0) {
        closed.forEach((b) => b.click());
        await raf();
        await raf();
      }
      const dom = el.querySelectorAll<HTMLElement>('.rows > .row');
      maxInDom = Math.max(maxInDom, dom.length);
      dom.forEach((r) => {
        const key = `${r.className}|${r.dataset.turnId}|${r.dataset.blockId}|${r.dataset.part}`;
        if (rows.has(key)) return;
        rows.set(key, {
          kind: r.dataset.blockType ?? r.classList[1] ?? '',
          turnId: r.dataset.turnId ?? '',
          blockId: r.dataset.blockId ?? '',
          status: r.dataset.status ?? '',
          text: (r.querySelector('.turn-title') ?? r).textContent ?? '',
        });
      });
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
      el.scrollTop += el.clientHeight / 2;
      await raf();
    }
    return { rows: [...rows.values()], maxInDom };
  });
  return Object.assign(seen.rows, { maxInDom: seen.maxInDom });
}

/**
 * Waits until the panel is still: no DOM change and no scroll in the webview for a few animation
 * frames in a row (after a scroll the transcript re-windows and re-measures its rows).
 */
export async function panelSettled(frame: FrameLocator): Promise<void> {
  const still = await frame.locator('main#transcript').evaluate(
    (el, a) =>
      new Promise<boolean>((resolve) => {
        let changes = 0;
        const count = (): void => {
          changes++;
        };
        const observer = new MutationObserver(count);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
        el.addEventListener('scroll', count, { passive: true });
        const deadline = performance.now() + a.timeoutMs;
        let quiet = 0;
        let top = el.scrollTop;
        const tick = (): void => {
          quiet = changes === 0 && el.scrollTop === top ? quiet + 1 : 0;
          changes = 0;
          top = el.scrollTop;
          if (quiet < a.frames && performance.now() < deadline) {
            requestAnimationFrame(tick);
            return;
          }
          observer.disconnect();
          el.removeEventListener('scroll', count);
          resolve(quiet >= a.frames);
        };
        requestAnimationFrame(tick);
      }),
    { frames: 3, timeoutMs: 10_000 },
  );
  assert.ok(still, 'the panel kept changing for 10 s');
}

/**
 * Checks that the webview page itself cannot scroll (only the transcript does: header and composer
 * stay put), then, once the panel is still, saves the screenshot.
 */
export async function panelShot(wb: Workbench, frame: FrameLocator, name: string): Promise<void> {
  await panelSettled(frame);
  const page = await frame.locator('body').evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement;
    return { top: doc.scrollTop, overflow: doc.scrollHeight - doc.clientHeight };
  });
  assert.deepEqual(page, { top: 0, overflow: 0 }, 'the webview page scrolls as a whole');
  await shot(wb, name);
}

/** The transcript's scroll position before and after streamed text arrived, and how much arrived. */
export interface HeldPosition {
  before: number;
  after: number;
  /** Characters of streamed text (`append` deltas) the panel received and rendered in between. */
  arrived: number;
}

/**
 * Once a scroll (e.g. a wheel, which may animate) has come to rest, notes the transcript's position,
 * waits until the host has posted at least `chars` characters of streamed text and the panel has
 * rendered them (two animation frames later), and notes the position again.
 */
export async function positionWhileTextArrives(frame: FrameLocator, chars: number): Promise<HeldPosition> {
  return frame.locator('main#transcript').evaluate(
    (el, a) =>
      new Promise<HeldPosition>((resolve) => {
        const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
        const deadline = performance.now() + a.timeoutMs;
        void (async () => {
          // at rest: the same position for three frames in a row
          for (let still = 0, top = el.scrollTop; still < 3 && performance.now() < deadline;) {
            await raf();
            still = el.scrollTop === top ? still + 1 : 0;
            top = el.scrollTop;
          }
          const before = el.scrollTop;
          let arrived = 0;
          await new Promise<void>((enough) => {
            const onMessage = (ev: MessageEvent<unknown>): void => {
              const m = ev.data as { type?: string; deltas?: { type?: string; text?: unknown }[] } | null;
              if (m?.type !== 'batch' || !Array.isArray(m.deltas)) return;
              for (const d of m.deltas)
                if (d.type === 'append' && typeof d.text === 'string') arrived += d.text.length;
              if (arrived >= a.chars) stop();
            };
            const timer = setTimeout(stop, Math.max(0, deadline - performance.now()));
            function stop(): void {
              window.removeEventListener('message', onMessage);
              clearTimeout(timer);
              enough();
            }
            window.addEventListener('message', onMessage);
          });
          // the panel applies what the host posts in the next animation frame
          await raf();
          await raf();
          resolve({ before, after: el.scrollTop, arrived });
        })();
      }),
    { chars, timeoutMs: 15_000 },
  );
}

/** The find bar's current match as the page shows it. */
export interface FindMatch {
  text: string;
  /** Highlighted inside the transcript's view (not scrolled away, not clipped). */
  visible: boolean;
  /** The row holding it: `<block id>|<part>`. */
  rowKey: string;
}

/** Reads the find bar's current highlight (a CSS Custom Highlight) from inside the webview. */
export async function currentFindMatch(frame: FrameLocator): Promise<FindMatch | undefined> {
  return frame.locator('main#transcript').evaluate((el) => {
    const reg = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights;
    const range = [...(reg.get('den-find-current') ?? [])][0];
    if (!range) return undefined;
    const box = el.getBoundingClientRect();
    const r = range.getBoundingClientRect();
    const row = range.startContainer.parentElement?.closest<HTMLElement>('.row');
    return {
      text: range.toString(),
      visible: r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
      rowKey: `${row?.dataset.blockId}|${row?.dataset.part}`,
    };
  });
}

/** Scrolls the transcript so `row` is at its top (not scrollIntoView: that moves the workbench's frames too). */
export async function scrollRowToTop(row: Locator): Promise<void> {
  await row.evaluate(async (el) => {
    const scroller = el.closest('main#transcript')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    await new Promise((r) => requestAnimationFrame(r));
  });
}

/** Scrolls up from the bottom until the request `title` is in the DOM, then puts it at the top. */
/** Opens every closed group of tool calls and tool line in the DOM, until none is left closed. */
export async function openToolLines(frame: FrameLocator): Promise<void> {
  await frame.locator('main#transcript').evaluate(async (el) => {
    const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
    for (let i = 0; i < 50; i++) {
      const closed = el.querySelectorAll<HTMLButtonElement>(
        '.group-line[aria-expanded="false"], .tool-line[aria-expanded="false"]',
      );
      if (closed.length === 0) return;
      closed.forEach((b) => b.click());
      await raf();
      await raf();
    }
  });
}

export async function scrollToTurn(frame: FrameLocator, title: string): Promise<void> {
  await frame.locator('main#transcript').evaluate(async (el, wanted) => {
    const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
    el.scrollTop = el.scrollHeight;
    await raf();
    for (let i = 0; i < 500; i++) {
      const head = [...el.querySelectorAll('.rows > .turn-header')].find((h) =>
        h.textContent?.includes(wanted),
      );
      if (head) {
        // not scrollIntoView: that also scrolls the workbench's frames around the webview
        el.scrollTop += head.getBoundingClientRect().top - el.getBoundingClientRect().top;
        await raf();
        return;
      }
      if (el.scrollTop === 0) break;
      el.scrollTop -= el.clientHeight / 2;
      await raf();
    }
    throw new Error(`no turn "${wanted}" in the transcript`);
  }, title);
}

/** Opens a session's panel from the Sessions tree's context menu, as a person does; waits for its composer. */
export async function openSessionFromTree(page: Page, frame: FrameLocator, title: string): Promise<void> {
  await clickActivityBar(page, 'Den');
  await showAllSessions(page);
  await waitFor('the seeded sessions', () => sessionTitles(page), {
    ...UI_WAIT,
    until: (t) => t.includes(title),
  });
  // Seen in CI: the menu's Open Session reached Den without its row, so Den asked which session
  // to open (VS Code forgets a row's handle when the tree redraws between the right-click and the
  // menu's click); and once the menu closed with no command run at all (no editor, no pick: the
  // menu closed under the tree's redraw). The pick is closed, and with neither a pick nor a new
  // editor tab within 10 s the row's menu is used again (at most three times, said in the log).
  const picker = page.locator('.quick-input-widget', { hasText: 'choose a session to open' });
  const tab = page.locator('.part.editor .tabs-container .tab');
  for (let attempt = 1; ; attempt++) {
    const tabsBefore = await tab.count();
    await contextMenuAction(page, title, 'Open Session');
    const outcome = await Promise.race([
      frame
        .locator('#session-title', { hasText: title })
        .waitFor()
        .then(() => 'opened' as const),
      picker.waitFor({ state: 'visible' }).then(
        () => 'asked' as const,
        () => new Promise<never>(() => undefined),
      ),
      waitFor('a new editor tab', () => tab.count(), {
        timeoutMs: 10_000,
        until: (n) => n > tabsBefore,
      }).then(
        () => new Promise<never>(() => undefined),
        () => 'nothing' as const,
      ),
    ]);
    if (outcome === 'opened') break;
    if (attempt === 3) throw new Error(`Open Session on "${title}" opened no panel three times (${outcome})`);
    console.log(
      `Open Session on "${title}": ${outcome === 'asked' ? 'Den asked which session' : 'no command ran'}; again`,
    );
    if (outcome === 'asked') {
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'hidden' });
    }
  }
  await frame.locator('#composer-input').waitFor({ state: 'visible' });
}
