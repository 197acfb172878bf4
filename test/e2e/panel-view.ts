/**
 * What a person sees in the Session panel's webview, read for the e2e tests: the newest turn, a walk
 * through the windowed transcript, an in-webview recorder of streaming, and settled screenshots.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Locator } from 'playwright-core';
import type { Workbench } from '../harness/workbench';
import { eventually, shot } from './sessions-view';

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
        log: rows.reduce((n, r) => n + (r.querySelector('pre.tool-log')?.textContent?.length ?? 0), 0),
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

/** The composer ignores a second send within 800 ms (a double Enter); a person types slower than that. */
const BETWEEN_SENDS_MS = 1000;
let lastSendAt = 0;

/** Types `task` into the composer, picks `mode`, presses Enter; resolves once the composer took it. */
export async function sendTask(frame: FrameLocator, task: string, mode = 'code'): Promise<void> {
  await frame.locator('#mode').selectOption(mode);
  const input = frame.locator('#composer-input');
  await input.fill(task);
  const wait = lastSendAt + BETWEEN_SENDS_MS - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  await input.press('Enter');
  lastSendAt = Date.now();
  await eventually(
    'the composer to take the task',
    () => input.inputValue(),
    (v) => v === '',
  );
}

/** The status of the newest turn once its request shows `task` and its status matches. */
export async function turnEnds(frame: FrameLocator, task: string, status: RegExp): Promise<string> {
  const head = frame.locator('.rows > .turn-header').last();
  const line = frame.locator('.rows > .turn-status').last();
  const deadline = Date.now() + TURN_TIMEOUT_MS;
  let seen = '';
  while (Date.now() < deadline) {
    const title = (await head.textContent()) ?? '';
    seen = `${title} → ${await line.getAttribute('data-status')}`;
    if (title.includes(task) && status.test((await line.getAttribute('data-status')) ?? '')) {
      return (await line.locator('.status-text').innerText()).trim();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return assert.fail(`the turn "${task}" did not reach ${status}; last seen: ${seen}`);
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
 * that was in the DOM on the way, in order (the DOM only ever holds a window of them). Also reports
 * the most rows the DOM held at once and the longest frame of the walk.
 */
export async function scanTranscript(
  frame: FrameLocator,
): Promise<SeenRow[] & { maxInDom: number; worstFrameMs: number }> {
  const seen = await frame.locator('main#transcript').evaluate(async (el) => {
    const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
    const rows = new Map<
      string,
      { kind: string; turnId: string; blockId: string; status: string; text: string }
    >();
    let maxInDom = 0;
    let worstFrameMs = 0;
    el.scrollTop = 0;
    let t = await raf();
    for (let i = 0; i < 1000; i++) {
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
      const now = await raf();
      worstFrameMs = Math.max(worstFrameMs, now - t);
      t = now;
    }
    return { rows: [...rows.values()], maxInDom, worstFrameMs };
  });
  return Object.assign(seen.rows, { maxInDom: seen.maxInDom, worstFrameMs: seen.worstFrameMs });
}

/**
 * Checks that the webview page itself cannot scroll (only the transcript does: header and composer
 * stay put), then saves the screenshot.
 */
export async function panelShot(wb: Workbench, frame: FrameLocator, name: string): Promise<void> {
  const page = await frame.locator('body').evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement;
    return { top: doc.scrollTop, overflow: doc.scrollHeight - doc.clientHeight };
  });
  assert.deepEqual(page, { top: 0, overflow: 0 }, 'the webview page scrolls as a whole');
  await shot(wb, name);
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
