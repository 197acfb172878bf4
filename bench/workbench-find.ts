/**
 * Find and scrolling in long sessions, in the real workbench (`npm run bench -- workbench-find`,
 * issue 25): the packaged `.vsix` in code-server with Chromium against the emulator.
 *
 * - **Find in a 50,000-event session** (`50000 events with 2000 tools`): each key typed into the
 *   find bar → the frame painted with its count and current match; then next (Enter) and previous
 *   (Shift+Enter) → the frame painted with the new current match (scrolled into view). Timed inside
 *   the webview: from the key event's `timeStamp` to the first task after the animation frame that
 *   follows Den's handling (that task runs after the frame's paint, as in `workbench-probe.ts`). The
 *   floor, in the same run and the same page: the same keys typed into a bare `<input>` that does
 *   nothing (the workbench's key → paint).
 * - **Scrolling a 20,000-event session with 2,000 tool calls** top to bottom, a fling (80 % of a
 *   viewport per animation frame) and a fast wheel (240 px per frame), with a Chromium trace
 *   (`devtools.timeline`): the renderer main thread's long tasks (≥ 50 ms), the
 *   longest, where their time went (GC, style and layout, paint, script by function), and the frame
 *   intervals. Re-run it after a change to how rows render. The raw traces are written to
 *   `dist/bench/trace-{fling,wheel}-N-chromium.json` (open them in DevTools). `DEN_BENCH_PROFILE=1`
 *   adds the V8 sampler (script by function), which slows the page.
 *
 * `DEN_BENCH_RUNS=N` repeats each (default 3). Timings are reported, never asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator } from '../test/emulator';
import { openWorkbench, runCommand, webviewFrame, type Workbench } from '../test/harness/workbench';
import { currentFindMatch, openSessionFromTree, panelSettled } from '../test/e2e/panel-view';
import { attribute, type Attribution, type TraceEvent } from './workbench-trace';

const RUNS = Number(process.env.DEN_BENCH_RUNS ?? 3);
/** `DEN_BENCH_PROFILE=1`: the scroll's trace also samples JS (script by function; the sampler slows the page). */
const PROFILE = process.env.DEN_BENCH_PROFILE === '1';
const FIND_TASK = '50000 events with 2000 tools: find bench';
const SCROLL_TASK = '20000 events with 2000 tools: scroll bench';
const FIND_ID = '5e5510a0-0000-4000-8000-00000000f100';
const SCROLL_ID = '5e5510a0-0000-4000-8000-00000000f200';
/** Queries typed key by key: rare (answer text), common (answer text), in the tool logs. */
const QUERIES = ['migration', 'tests', 'compiled src/m4'];
const STEPS = 20;

export interface KeyTimes {
  /** Key event → painted, per key, Den and the bare input. */
  den: number[];
  floor: number[];
}

export interface FindRun {
  query: string;
  count: string;
  /** Every key of the query typed. */
  typing: KeyTimes;
  /** Next and previous (`STEPS` each). */
  next: KeyTimes;
  previous: KeyTimes;
  /** Steps whose current match was not highlighted inside the transcript's view once painted. */
  notShown: number;
}

export interface ScrollRun {
  /** `fling-…` (80 % of a viewport a frame) or `wheel-…` (240 px a frame). */
  label: string;
  px: number;
  frames: number;
  frameP95: number;
  frameMax: number;
  longTasks: number;
  /** The five longest main-thread tasks (ms), longest first. */
  longest: number[];
  /** Where the long tasks' time went. */
  attribution: Attribution;
  /** PerformanceObserver `longtask` entries seen in the webview frame (its own view). */
  observed: number[];
}

export interface FindBenchResult {
  find: FindRun[];
  scroll: ScrollRun[];
}

type BenchWindow = Window & {
  __findBench?: { times: number[]; pending: number; mode: 'den' | 'floor'; waitFor: 'count' | 'current' };
};

/**
 * Installs in the webview: on each keydown (capture), notes its `timeStamp`; once Den has handled
 * the key (the count or the current match changed, or at once for the bare input), waits for the
 * next animation frame and the first task after it, and records key → then.
 */
async function installTimer(frame: FrameLocator): Promise<void> {
  await frame.locator('body').evaluate(() => {
    const w = window as BenchWindow;
    if (w.__findBench) return;
    const state = (w.__findBench = {
      times: [] as number[],
      pending: 0,
      mode: 'den' as 'den' | 'floor',
      waitFor: 'count' as 'count' | 'current',
    });
    const channel = new MessageChannel();
    let started = 0;
    channel.port1.onmessage = () => {
      state.times.push(performance.now() - started);
      state.pending--;
    };
    const painted = (t0: number): void => {
      requestAnimationFrame(() => {
        started = t0;
        channel.port2.postMessage(0);
      });
    };
    document.addEventListener(
      'keydown',
      (e) => {
        const key = e.key;
        if (key === 'Shift' || key === 'Control') return;
        state.pending++;
        const t0 = e.timeStamp;
        if (state.mode === 'floor') {
          // a bare input: nothing to wait for but the frame
          setTimeout(() => painted(t0), 0);
          return;
        }
        // Den handles the key synchronously (input/keydown handlers): check right after the task.
        setTimeout(() => painted(t0), 0);
      },
      true,
    );
  });
}

async function takeTimes(frame: FrameLocator, n: number): Promise<number[]> {
  return frame.locator('body').evaluate(async (_b, want) => {
    const w = window as BenchWindow;
    const s = w.__findBench!;
    const deadline = performance.now() + 30_000;
    while ((s.pending > 0 || s.times.length < want) && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const out = s.times.splice(0);
    return out;
  }, n);
}

async function setMode(frame: FrameLocator, mode: 'den' | 'floor'): Promise<void> {
  await frame.locator('body').evaluate((_b, m) => {
    (window as BenchWindow).__findBench!.mode = m;
  }, mode);
}

/** A bare input added to the webview page, for the floor (removed after). */
async function floorInput(frame: FrameLocator, add: boolean): Promise<void> {
  await frame.locator('body').evaluate((body, on) => {
    let el = document.getElementById('bench-floor');
    if (on && !el) {
      el = document.createElement('input');
      el.id = 'bench-floor';
      el.setAttribute('style', 'position:fixed;top:0;left:0;width:120px;z-index:9');
      body.appendChild(el);
    } else if (!on) el?.remove();
  }, add);
}

/** Presses each key (`Enter`, `Shift+Enter`) or types each character, at a person's pace. */
async function typeKeys(page: Page, keys: string[]): Promise<void> {
  for (const k of keys) {
    if (k.length === 1) await page.keyboard.type(k);
    else await page.keyboard.press(k);
    // a person's pace: the next key after this one is painted
    await new Promise((r) => setTimeout(r, 120));
  }
}

async function findRun(page: Page, frame: FrameLocator, query: string): Promise<FindRun> {
  const keys = [...query];
  // floor: the same keys into a bare input in the same page
  await setMode(frame, 'floor');
  await floorInput(frame, true);
  await frame.locator('#bench-floor').focus();
  await typeKeys(page, keys);
  const typingFloor = await takeTimes(frame, keys.length);
  const enters = Array.from({ length: STEPS }, () => 'Enter');
  await typeKeys(page, enters);
  const nextFloor = await takeTimes(frame, STEPS);
  await typeKeys(
    page,
    enters.map(() => 'Shift+Enter'),
  );
  const prevFloor = await takeTimes(frame, STEPS);
  await floorInput(frame, false);

  // Den: open the bar with the real key from the transcript, type, step
  await setMode(frame, 'den');
  await frame.locator('main#transcript').focus();
  await page.keyboard.press('Control+f');
  await takeTimes(frame, 1);
  const input = frame.locator('.find-bar input.find-input');
  await input.fill('');
  await takeTimes(frame, 0);
  await typeKeys(page, keys);
  const typing = await takeTimes(frame, keys.length);
  const count = (await frame.locator('.find-bar .find-count').textContent()) ?? '';
  let notShown = 0;
  const stepTimes = async (key: string): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      await typeKeys(page, [key]);
      out.push(...(await takeTimes(frame, 1)));
      if ((await currentFindMatch(frame))?.visible !== true) notShown++;
    }
    return out;
  };
  const next = await stepTimes('Enter');
  const previous = await stepTimes('Shift+Enter');
  await page.keyboard.press('Escape');
  await takeTimes(frame, 1);
  return {
    query,
    count,
    typing: { den: typing, floor: typingFloor },
    next: { den: next, floor: nextFloor },
    previous: { den: previous, floor: prevFloor },
    notShown,
  };
}

/**
 * Scrolls the transcript top to bottom under a Chromium trace, `step` of the viewport (a fraction)
 * or `step` pixels per animation frame.
 */
async function scrollRun(
  wb: Workbench,
  frame: FrameLocator,
  label: string,
  step: { viewport?: number; px?: number },
): Promise<ScrollRun> {
  const transcript = frame.locator('main#transcript');
  await transcript.evaluate(async (el) => {
    el.scrollTop = 0;
    // let the top settle (rows measured)
    for (let i = 0; i < 30; i++) await new Promise((r) => requestAnimationFrame(r));
  });
  await panelSettled(frame);
  await wb.browser.startTracing(wb.page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'toplevel',
      'v8',
      ...(PROFILE ? ['disabled-by-default-v8.cpu_profiler'] : []),
    ],
  });
  const seen = await transcript.evaluate(async (el, by) => {
    const observed: number[] = [];
    let obs: PerformanceObserver | undefined;
    try {
      obs = new PerformanceObserver((l) => {
        for (const e of l.getEntries()) observed.push(Math.round(e.duration));
      });
      obs.observe({ type: 'longtask', buffered: false });
    } catch {
      // no longtask entries in this frame
    }
    const raf = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
    const frames: number[] = [];
    let last = await raf();
    // bounded: 20,000 frames at most, and a scroll that gains nothing for 120 frames has stalled
    let stalled = 0;
    for (let i = 0; i < 20_000 && stalled < 120; i++) {
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
      const before = el.scrollTop;
      el.scrollTop += by.px ?? el.clientHeight * (by.viewport ?? 0.8);
      const now = await raf();
      frames.push(now - last);
      last = now;
      stalled = el.scrollTop > before ? 0 : stalled + 1;
    }
    if (stalled >= 120) console.warn(`the scroll stalled at ${el.scrollTop} of ${el.scrollHeight} px`);
    const px = el.scrollHeight;
    // the last frames settle
    for (let i = 0; i < 10; i++) await raf();
    obs?.disconnect();
    frames.sort((a, b) => a - b);
    return {
      px,
      frames: frames.length,
      p95: frames[Math.floor(frames.length * 0.95)] ?? 0,
      max: frames.at(-1) ?? 0,
      observed,
    };
  }, step);
  const buf = await wb.browser.stopTracing();
  const out = path.join('dist', 'bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `trace-${label}-chromium.json`), buf);
  const ev = (JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = new Set(
    ev
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = ev
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`))
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
  const long = tasks.filter((t) => (t.dur ?? 0) >= 50_000);
  return {
    label,
    px: seen.px,
    frames: seen.frames,
    frameP95: seen.p95,
    frameMax: seen.max,
    longTasks: long.length,
    longest: tasks.slice(0, 5).map((t) => Math.round((t.dur ?? 0) / 1000)),
    attribution: attribute(ev, long),
    observed: seen.observed,
  };
}

export async function benchWorkbenchFind(): Promise<FindBenchResult> {
  const emu = await startEmulator({ seed: false });
  const result: FindBenchResult = { find: [], scroll: [] };
  emu.seedTurn(FIND_ID, FIND_TASK);
  emu.seedTurn(SCROLL_ID, SCROLL_TASK);
  const wb = await openWorkbench({
    settings: { 'den.baseUrl': emu.url, 'den.showWalkthroughOnFirstRun': false },
    env: { DEN_API_KEY: emu.keys.primary },
  });
  try {
    const { page } = wb;
    const frame = webviewFrame(page);
    await openSessionFromTree(page, frame, FIND_TASK);
    await frame.locator('.rows > .row[data-block-type="markdown"]').last().waitFor({ timeout: 120_000 });
    await panelSettled(frame);
    await installTimer(frame);
    for (let r = 0; r < RUNS; r++) for (const q of QUERIES) result.find.push(await findRun(page, frame, q));
    await runCommand(page, 'View: Close All Editors');
    await openSessionFromTree(page, frame, SCROLL_TASK);
    await frame.locator('.rows > .row[data-block-type="tool"]').last().waitFor({ timeout: 120_000 });
    await panelSettled(frame);
    for (let r = 0; r < RUNS; r++) {
      result.scroll.push(await scrollRun(wb, frame, `fling-${r}`, { viewport: 0.8 }));
      // three wheel notches a frame: a fast wheel, about 14,000 px/s
      result.scroll.push(await scrollRun(wb, frame, `wheel-${r}`, { px: 240 }));
    }
  } finally {
    await wb.close();
    await emu.close();
  }
  return result;
}
