/**
 * The workbench benchmark (`npm run bench -- workbench`, issue 13): the packaged `.vsix` in
 * code-server with Chromium against the emulator, measured where a person sees it, each figure with
 * a floor measured in the same run:
 * - live event → painted at 200 events/s (quiet, and with a second CPU-heavy process running), and
 *   in a 10,000-event burst; the floor is a bare `ws` client on the same session socket;
 * - reopening that 10,000-event session (from Den's cache: click → first paint → caught up);
 * - switching the preview panel to it from another session (`switch`, needs `burst`: the same page
 *   gets its `init`, no new webview; click → first paint → caught up);
 * - opening a 20,000-event session Den never saw (no cache: click → first paint → the last chunk);
 *   the floor of both is a bare `fetch` + `JSON.parse` of the session's history;
 * - the Sessions tree's first page with 10,000 sessions after a window reload (answer → first row;
 *   floor: a bare extension beside Den in the same reload, `floor-tree-extension/`, its answer → its
 *   first row; `floor`: that extension alone, Den not activated), and after a refresh;
 * - the extension host's heap (after GC, through the inspector) after opening and closing 100
 *   sessions, against before;
 * - host → webview posts per second and bytes per post during the live run.
 * "Painted" is the first animation frame after a chunk's mark entered the webview's DOM
 * (`workbench-probe.ts`); emit times are the emulator's event timestamps; one wall clock throughout.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../test/emulator';
import { repoRoot } from '../test/harness/paths';
import {
  clickActivityBar,
  openWorkbench,
  runCommand,
  answerInputBox,
  sideBarPane,
  type Workbench,
} from '../test/harness/workbench';
import { countPosts, installProbe, type ProbeState } from './workbench-probe';
import { Inspector, ReloadTrace, TurnTrace, type ReloadSummary } from './workbench-trace';

const LIVE_EVENTS = 2000;
const LIVE_RATE = 200;
const BURST_EVENTS = 10_000;
const OPEN_EVENTS = 20_000;
const TREE_SESSIONS = 10_000;
const HEAP_SESSIONS = 100;
/** `DEN_BENCH_HEAP_SNAPSHOTS=1`: also writes the extension host's heap snapshots to dist/bench/heap-*. */
const HEAP_SNAPSHOTS = process.env.DEN_BENCH_HEAP_SNAPSHOTS === '1';
const RUNS = Number(process.env.DEN_BENCH_RUNS ?? 3);
/** Which parts run (default all): `DEN_BENCH_PARTS=live,burst`. */
const PARTS = new Set((process.env.DEN_BENCH_PARTS ?? 'tree,floor,live,burst,switch,open,heap').split(','));
/** `DEN_BENCH_TRACE=1`: each live turn also traces the extension host and Chromium (`workbench-trace.ts`). */
const TRACE = process.env.DEN_BENCH_TRACE === '1';
/** `DEN_BENCH_PROFILE=1` (with the trace): the tree part's reload trace also samples the workbench's JS. */
const PROFILE = process.env.DEN_BENCH_PROFILE === '1';
/**
 * `DEN_BENCH_FLOOR_HOLD=1`: the tree part's proxy holds the floor extension's answer until Den's has
 * gone, so both lists reach a workbench in the same state (by default each is answered when it asks).
 */
const FLOOR_HOLD = process.env.DEN_BENCH_FLOOR_HOLD === '1';
/** `DEN_BENCH_FLOOR_SECRET=1`: the floor extension reads SecretStorage before its request, as Den does. */
const FLOOR_SECRET = process.env.DEN_BENCH_FLOOR_SECRET === '1';
/** Every wait here is bounded. */
const WAIT_MS = 120_000;

export interface Spread {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
}
export interface LiveRun {
  painted: Spread;
  /** Emit → the post carrying it reached the page (before the page's own work). */
  arrived: Spread;
  floor: Spread;
  /** Marks the server sent that the page never painted (0 when nothing was lost or windowed away). */
  missing: number;
  postsPerSecond: number;
  bytesPerPost: number;
  /** Where emit → painted goes, mark by mark (see {@link splitMarks}). */
  split: LiveSplit;
}
/**
 * Emit → painted in three parts. The marks of one post reach the page together; the newest of them
 * waited for no later event, so its emit → reached the page is the way there without the batching
 * (the socket, the extension host's event and post, code-server's connection, the workbench and the
 * iframe's `postMessage`; it also holds up to one event gap, 5 ms at 200 events/s, before the post).
 */
export interface LiveSplit {
  /** Reached the page after the newest mark of its post: the wait for the batch to go. */
  batchWait: Spread;
  /** Emit → reached the page of each post's newest mark. */
  way: Spread;
  /** Reached the page → painted: the page's own work and its wait for the frame. */
  page: Spread;
  /** Of the page's part: each animation-frame callback's wait for its frame (from the request). */
  frameWait: Spread;
  /** Of the page's part: each animation-frame callback's own time (Den's DOM work). */
  frameRun: Spread;
}
/** Where a click on a session's row spends its time before the first paint (ms after the click). */
export interface OpenSteps {
  /** The workbench added the webview's iframe (VS Code ran the command, opened the editor). */
  frameMs: number;
  /** VS Code created the panel and wrote Den's page into its frame. */
  pageMs: number;
  /** The first post from the host (Den's `init`, after the page said `ready`) reached the page. */
  initMs: number;
  initBytes: number;
}
export interface WorkbenchResult {
  /** Empty when the part did not run (`DEN_BENCH_PARTS`). */
  quiet: LiveRun[];
  loaded: LiveRun[];
  burst?: LiveRun & { allPaintedMs: number };
  /** One per run (`DEN_BENCH_RUNS`), each a click on the same cached session. */
  reopen?: ({ firstPaintMs: number; caughtUpMs: number; floorMs: number } & OpenSteps)[];
  /**
   * One per run: the preview panel showing another session, then a click on the cached 10,000-event
   * session (the same page gets its `init`; `newFrame`: VS Code made a webview after all).
   */
  switch?: {
    /** From the workbench's `mousedown` on the row (the click as the page gets it). */
    firstPaintMs: number;
    /** The same from before Playwright's click (its checks that the row is visible and still). */
    harnessFirstPaintMs: number;
    caughtUpMs: number;
    initMs: number;
    initBytes: number;
    newFrame: boolean;
    floorMs: number;
    /** Back to the short session: click → its (small) `init` reached the page, and its size. */
    shortInitMs: number;
    shortInitBytes: number;
  }[];
  /** One per run, each a session Den never saw. */
  open?: ({ firstPaintMs: number; lastChunkMs: number; floorMs: number } & OpenSteps)[];
  /**
   * One per run: the first row after a window reload (Den's answer → its first row; the floor
   * extension's answer → its first row, in the same reload; each answer and row after the reload
   * began), a new session's row after a refresh, a bare fetch of the page, the load average (1 min).
   */
  tree?: {
    firstRowMs: number;
    floorRowMs: number;
    answeredMs: number;
    floorAnsweredMs: number;
    shownMs: number;
    floorShownMs: number;
    refreshRowMs: number;
    floorMs: number;
    load: number;
    /** The floor's answer was held until Den's had gone (`DEN_BENCH_FLOOR_HOLD=1`). */
    floorHeld: boolean;
    /** The floor read SecretStorage before its request (`DEN_BENCH_FLOOR_SECRET=1`). */
    floorReadSecret: boolean;
    /** `DEN_BENCH_TRACE=1`: what the workbench did from Den's answer to its first row. */
    trace?: ReloadSummary;
  }[];
  /**
   * One per run (`floor`): the floor extension's first row after a window reload with the Explorer
   * shown, in which Den does not activate (`denAsked`: it asked for the page after all).
   */
  treeFloorAlone?: {
    floorRowMs: number;
    floorAnsweredMs: number;
    floorShownMs: number;
    denAsked: boolean;
    load: number;
  }[];
  /** After 0, half and all of the sessions: growth that slows shows bounded caches, not a leak. */
  heap?: { beforeMb: number; halfMb: number; afterMb: number };
}

/** Prints a figure as soon as it is measured (stderr), and passes it on. */
function note<T>(what: string, value: T): T {
  console.error(`workbench ${what}: ${JSON.stringify(value)}`);
  return value;
}

function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s.at(-1) ?? NaN, n: s.length };
}

/** Emit → painted split into the batch's wait, the way to the page and the page (`LiveSplit`). */
function splitMarks(
  emitted: Map<number, number>,
  arrivedAt: Record<number, number> | undefined,
  paintedAt: Record<number, number>,
): Omit<LiveSplit, 'frameWait' | 'frameRun'> {
  const newest = new Map<number, number>(); // reached-the-page time → the newest emit among its marks
  for (const [i, at] of emitted) {
    const a = arrivedAt?.[i];
    if (a !== undefined) newest.set(a, Math.max(newest.get(a) ?? Number.NEGATIVE_INFINITY, at));
  }
  const batchWait: number[] = [];
  const page: number[] = [];
  for (const [i, at] of emitted) {
    const a = arrivedAt?.[i];
    if (a === undefined) continue;
    batchWait.push((newest.get(a) ?? at) - at);
    const p = paintedAt[i];
    if (p !== undefined) page.push(p - a);
  }
  return {
    batchWait: spread(batchWait),
    way: spread([...newest].map(([a, e]) => a - e)),
    page: spread(page),
  };
}

/** Polls `probe` every 100 ms until it returns a value (bounded). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = WAIT_MS): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`workbench bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The shown Den webview's inner frame: a closed panel's frame can linger, hidden, with its page.
 */
async function denFrame(page: Page): Promise<Frame> {
  return until('the Session panel', async () => {
    for (const f of page.frames().reverse()) {
      if (!f.url().includes('/fake.html')) continue;
      const outer = await f
        .parentFrame()
        ?.frameElement()
        .catch(() => undefined);
      if (!outer || !(await outer.isVisible().catch(() => false))) continue;
      const ok = await f.evaluate(() => !!document.querySelector('#composer-input')).catch(() => false);
      if (ok) return f;
    }
    return undefined;
  });
}

async function probeState(frame: Frame): Promise<ProbeState> {
  return frame.evaluate(() => (window as unknown as { __denBench: ProbeState }).__denBench);
}

/** The newest socket's session and message, once Den has opened one beyond `seen` sockets. */
async function nextSocket(emu: Emulator, seen: number): Promise<{ sessionId: string; messageId: string }> {
  return until('Den to open the turn socket', async () => {
    const s = emu.sockets().slice(seen);
    return s.length ? { sessionId: s[0].sessionId, messageId: s[0].messageId } : undefined;
  });
}

/** A bare client on the same session socket: the time each mark arrives. */
function floorClient(
  emu: Emulator,
  sessionId: string,
  messageId: string,
): { marks: Map<number, number>; close(): void } {
  const marks = new Map<number, number>();
  const q = new URLSearchParams({
    token: emu.keys.primary,
    message_id: messageId,
    last_stream_entry_id: '0-0',
  });
  const ws = new WebSocket(`${emu.url.replace(/^http/, 'ws')}/ws/sessions/${sessionId}?${q.toString()}`, {
    perMessageDeflate: false,
  });
  ws.on('message', (data) => {
    const now = Date.now();
    for (const m of data.toString().matchAll(/⟦(\d+)⟧/g))
      if (!marks.has(Number(m[1]))) marks.set(Number(m[1]), now);
  });
  ws.on('error', () => undefined);
  return { marks, close: () => ws.terminate() };
}

function emitTimes(emu: Emulator, sessionId: string, messageId: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of emu.storedEvents(sessionId, messageId)) {
    if (e.kind !== 'markdown.chunk') continue;
    const m = /⟦(\d+)⟧/.exec(String(e.payload.delta));
    if (m) out.set(Number(m[1]), e.timestamp);
  }
  return out;
}

async function closeEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
}

/** The first task of a measured session, which names it: 5 plain events (the task's words out). */
function warmUpTask(task: string): string {
  return `5 events before ${task.replace(/\b(events|rate|burst|marked)\b/g, '·')}`;
}

/**
 * Measures one turn live: a new session's panel is opened first (a short turn), the probe made sure
 * of in its page, then `task` is sent from the panel's composer.
 */
async function liveTurn(
  wb: Workbench,
  emu: Emulator,
  task: string,
  events: number,
  label: string,
): Promise<LiveRun & { allPaintedMs: number }> {
  const { page } = wb;
  await closeEditors(page);
  let seen = emu.sockets().length;
  // With its ellipsis: "Den: New Session" alone also starts "Den: New Session as Attempts…".
  await runCommand(page, 'Den: New Session…');
  // The session's title: a short first turn (no marks, no pacing), named after the measured one.
  await answerInputBox(page, 'Den: New Session', warmUpTask(task));
  const warmUp = await nextSocket(emu, seen);
  await emu.turnEnded(warmUp.sessionId, warmUp.messageId);
  const frame = await denFrame(page);
  await frame.evaluate(installProbe).catch(() => undefined);
  await frame.evaluate(countPosts);
  await frame.evaluate(() => {
    const w = window as unknown as { __denBench?: ProbeState };
    if (!w.__denBench) throw new Error('the probe is not in the panel');
    w.__denBench.marks = {};
    w.__denBench.arrived = {};
    w.__denBench.posts = { count: 0, bytes: 0, first: 0, last: 0 };
    w.__denBench.frames = { wait: [], run: [] };
  });
  seen = emu.sockets().length;
  const input = frame.locator('#composer-input');
  await input.fill(task);
  const inspector = TRACE ? await Inspector.open(extensionHostPid(wb.codeServer.pid), until) : undefined;
  const trace = inspector ? await TurnTrace.start(label, inspector, wb.browser, page) : undefined;
  await input.press('Enter');
  const { sessionId, messageId } = await nextSocket(emu, seen);
  const floor = floorClient(emu, sessionId, messageId);
  await emu.turnEnded(sessionId, messageId);
  // The page catches up after the server's last event: wait for every mark, or for it to stop moving.
  let last = -1;
  let still = 0;
  const state = await until('the page to catch up', async () => {
    const s = await probeState(frame);
    const n = Object.keys(s.marks).length;
    still = n === last ? still + 1 : 0;
    last = n;
    return n >= events || still >= 30 ? s : undefined;
  });
  floor.close();
  if (Object.keys(state.marks).length === 0) {
    for (const f of page.frames()) {
      const info = await f
        .evaluate(() => ({
          marks: Object.keys((window as unknown as { __denBench?: ProbeState }).__denBench?.marks ?? {})
            .length,
          composer: !!document.querySelector('#composer-input'),
          marked: document.body?.innerText.includes('⟦'),
        }))
        .catch((e: unknown) => String(e).slice(0, 80));
      note(`no marks painted; frame ${f.url().slice(-60)} (${f === frame ? 'measured' : 'other'})`, info);
    }
  }
  const emitted = emitTimes(emu, sessionId, messageId);
  const painted: number[] = [];
  const arrived: number[] = [];
  const floorMs: number[] = [];
  let missing = 0;
  for (const [i, at] of emitted) {
    const p = state.marks[i];
    if (p === undefined) missing++;
    else painted.push(p - at);
    const a = state.arrived?.[i];
    if (a !== undefined) arrived.push(a - at);
    const f = floor.marks.get(i);
    if (f !== undefined) floorMs.push(f - at);
  }
  if (trace) {
    const slow = [...emitted]
      .map(([i, emit]) => ({ emit, painted: state.marks[i] }))
      .filter((m) => m.painted !== undefined && m.painted - m.emit >= 100);
    note(`trace ${label}`, await trace.stop(slow));
    inspector?.close();
  }
  const seconds = Math.max(0.001, (state.posts.last - state.posts.first) / 1000);
  const paintTimes = Object.values(state.marks);
  return {
    painted: spread(painted),
    arrived: spread(arrived),
    floor: spread(floorMs),
    missing,
    postsPerSecond: state.posts.count / seconds,
    bytesPerPost: state.posts.bytes / Math.max(1, state.posts.count),
    split: {
      ...splitMarks(emitted, state.arrived, state.marks),
      frameWait: spread(state.frames?.wait ?? []),
      frameRun: spread(state.frames?.run ?? []),
    },
    allPaintedMs: Math.max(...paintTimes) - Math.min(...emitted.values()),
  };
}

/** A bare fetch + JSON.parse of a session's history (the floor of opening it). */
async function historyFloor(emu: Emulator, sessionId: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${emu.url}/sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${emu.keys.primary}` },
  });
  await res.json();
  return performance.now() - t;
}

/** A session's row in the Sessions tree, shown (its day group expanded). */
async function sessionRow(wb: Workbench, title: string): Promise<Locator> {
  const { page } = wb;
  await clickActivityBar(page, 'Den');
  const pane = sideBarPane(page, 'Sessions');
  const row = pane.locator('[role="treeitem"][aria-level="2"]', { hasText: title }).first();
  // Its day group may be collapsed: expand groups until the row shows (bounded).
  for (let i = 0; i < 10 && !(await row.isVisible()); i++) {
    const collapsed = pane.locator('[role="treeitem"][aria-level="1"][aria-expanded="false"]').first();
    if (await collapsed.count()) await collapsed.click();
    else await row.waitFor({ timeout: WAIT_MS });
  }
  await row.waitFor({ timeout: WAIT_MS });
  return row;
}

/** Clicks a session's row in the Sessions tree; times the first painted mark and mark `lastMark`. */
async function openFromTree(
  wb: Workbench,
  title: string,
  lastMark: number,
): Promise<{ firstPaintMs: number; lastMs: number } & OpenSteps> {
  const { page } = wb;
  await closeEditors(page);
  const row = await sessionRow(wb, title);
  await page.evaluate(noteNextFrame);
  const clicked = Date.now();
  await row.click();
  const frame = await denFrame(page);
  const frameAt = await page.evaluate(() => (window as unknown as { __denFrameAt?: number }).__denFrameAt);
  const state = await until(`mark ${lastMark} painted`, async () => {
    const s = await probeState(frame);
    return s.marks[lastMark] !== undefined ? s : undefined;
  });
  const times = Object.values(state.marks);
  return {
    firstPaintMs: Math.min(...times) - clicked,
    lastMs: state.marks[lastMark] - clicked,
    frameMs: (frameAt ?? NaN) - clicked,
    pageMs: (state.pageAt ?? NaN) - clicked,
    initMs: (state.firstPostAt ?? NaN) - clicked,
    initBytes: state.firstPostBytes ?? NaN,
  };
}

/** Waits until the workbench is idle: 20 animation frames in a row, each within 25 ms of the last. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    (limit) =>
      new Promise<void>((resolve, reject) => {
        const started = performance.now();
        let last = started;
        let calm = 0;
        const tick = (now: number): void => {
          calm = now - last <= 25 ? calm + 1 : 0;
          last = now;
          if (calm >= 20) resolve();
          else if (now - started > limit) reject(new Error('workbench bench: the window never settled'));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    WAIT_MS,
  );
}

/** In the workbench's page: notes (`__denFrameAt`) when the next iframe is added (a webview's). */
function noteNextFrame(): void {
  const w = window as unknown as { __denFrameAt?: number };
  w.__denFrameAt = undefined;
  const mo = new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes)
        if (n instanceof HTMLIFrameElement || (n instanceof Element && n.querySelector('iframe'))) {
          w.__denFrameAt = Date.now();
          mo.disconnect();
          return;
        }
  });
  mo.observe(document.body, { childList: true, subtree: true });
}

/** No row's hover left over the Sessions view (it would cover the next row to click). */
async function noHover(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.keyboard.press('Escape');
  await page.locator('.context-view .rendered-markdown').waitFor({ state: 'detached', timeout: WAIT_MS });
}

/** Clicks a session's row in the Sessions view, with no hover left over it, and moves away. */
async function clickRow(wb: Workbench, title: string): Promise<void> {
  await noHover(wb.page);
  await (await sessionRow(wb, title)).click();
  await wb.page.mouse.move(0, 0);
}

/** The probe in a page that stays starts over: marks, and the next post as the first. */
async function resetFirstPost(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const s = (window as unknown as { __denBench: ProbeState }).__denBench;
    s.marks = {};
    s.firstPostAt = undefined;
    s.firstPostBytes = undefined;
  });
}

/** Notes when the workbench gets the next `mousedown` (the click, as the page sees it). */
function notePress(): void {
  const w = window as unknown as { __denPressedAt?: number };
  w.__denPressedAt = undefined;
  window.addEventListener('mousedown', () => (w.__denPressedAt = Date.now()), { capture: true, once: true });
}

/** The extension host's process (code-server's child running `--type=extensionHost`). */
function extensionHostPid(root: number): number {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = out
    .trim()
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const inTree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows)
      if (inTree.has(r.ppid) && !inTree.has(r.pid)) {
        inTree.add(r.pid);
        grew = true;
      }
  }
  // The newest: the window was reloaded, and the first window's host can linger for a while (a
  // first version took that one, idle, and its profile and heap said nothing of Den).
  const host = rows
    .filter((r) => inTree.has(r.pid) && r.args.includes('extensionHost'))
    .sort((a, b) => b.pid - a.pid)[0];
  if (!host) throw new Error('workbench bench: no extension host process under code-server');
  return host.pid;
}

/** The extension host's JS heap after a full GC, through the inspector SIGUSR1 opens on :9229. */
async function hostHeapMb(pid: number, label: string): Promise<number> {
  const inspector = await Inspector.open(pid, until);
  try {
    await inspector.call('HeapProfiler.collectGarbage');
    await inspector.call('HeapProfiler.collectGarbage');
    if (HEAP_SNAPSHOTS) {
      const file = path.join('dist', 'bench', `heap-${label}.heapsnapshot`);
      await inspector.snapshot(file);
      console.error(`workbench heap snapshot: ${file}`);
    }
    const usage = await inspector.call('Runtime.getHeapUsage');
    return Number(usage.usedSize) / 1e6;
  } finally {
    inspector.close();
  }
}

function cpuBurner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) { Math.sqrt(Math.random()); }'], { stdio: 'ignore' });
}

async function withWorkbench<T>(
  emu: Emulator,
  run: (wb: Workbench) => Promise<T>,
  baseUrl = emu.url,
  extraExtensions: string[] = [],
): Promise<T> {
  const wb = await openWorkbench({
    settings: { 'den.baseUrl': baseUrl, 'den.showWalkthroughOnFirstRun': false },
    env: { DEN_API_KEY: emu.keys.primary, ...(FLOOR_SECRET ? { DEN_FLOOR_READ_SECRET: '1' } : {}) },
    ...(extraExtensions.length ? { extraExtensions } : {}),
  });
  try {
    await wb.context.addInitScript(installProbe);
    // The probe applies to pages and frames loaded from now on: reload once.
    await wb.page.reload();
    await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: WAIT_MS });
    return await run(wb);
  } finally {
    await wb.close();
  }
}

export async function benchWorkbench(): Promise<WorkbenchResult> {
  const vsix = path.join(repoRoot(), 'dist', 'den.vsix');
  if (!fs.existsSync(vsix)) throw new Error('dist/den.vsix is missing: run `npm run package` first');
  const result: WorkbenchResult = { quiet: [], loaded: [] };
  if (PARTS.has('tree')) result.tree = await treeFirstPage();
  if (PARTS.has('floor')) result.treeFloorAlone = await treeFloorAlone();
  const emu = await startEmulator({ seed: false });
  try {
    await withWorkbench(emu, async (wb) => {
      // The sessions seeded below were not started from this workspace.
      await showAllSessions(wb.page);
      if (PARTS.has('live')) await liveRuns(wb, emu, result);
      if (PARTS.has('burst')) await burstAndReopen(wb, emu, result);
      if (PARTS.has('open')) {
        result.open = [];
        for (let i = 0; i < RUNS; i++) result.open.push(note('open', await openUncached(wb, emu, i)));
      }
      if (PARTS.has('heap')) result.heap = note('heap', await heapAfterSessions(wb, emu));
    });
  } finally {
    await emu.close();
  }
  return result;
}

/** The floor of the tree's first row: a bare extension beside Den, in Den's container (bench/floor-tree-extension). */
const FLOOR_EXTENSION = path.join(repoRoot(), 'bench', 'floor-tree-extension');

/** A pane's first row (`text`: a row holding it) shown: the time of the frame that shows it. */
async function rowShown(page: Page, pane: string, text?: string): Promise<number> {
  const handle = await page.waitForFunction(
    ([title, t]) => {
      for (const p of document.querySelectorAll('.part.sidebar .pane')) {
        const h = (p.querySelector('.pane-header h3.title')?.textContent ?? '').trim().toLowerCase();
        if (h !== title.toLowerCase()) continue;
        if ([...p.querySelectorAll('[role="treeitem"]')].some((e) => !t || (e.textContent ?? '').includes(t)))
          return Date.now();
      }
      return 0;
    },
    [pane, text ?? ''] as const,
    { polling: 'raf', timeout: WAIT_MS },
  );
  return Number(await handle.jsonValue());
}

/**
 * The Sessions tree's first page of 10,000 sessions, `RUNS` times: from the moment the service has
 * answered the first page (seen by a pass-through proxy in front of the emulator) to the frame that
 * shows the view's first row, in a window reloaded with Den's view open (Den activates and loads the
 * page while the workbench starts); then, in the settled window, from the answer to a refresh to the
 * frame showing the row of a session that was new in it. The floor, in the same reload: a bare
 * extension's view in Den's container, which fetches the same page on activation and lists it at
 * once, measured the same way (its own answer → its first row). `DEN_BENCH_TRACE=1`: a Chromium
 * trace of each reload (`ReloadTrace`: what the workbench's main thread did from Den's answer to
 * Den's first row).
 */
async function treeFirstPage(): Promise<NonNullable<WorkbenchResult['tree']>> {
  const answeredBy = (times: number[], shownAt: number): number => {
    const at = times.filter((t) => t <= shownAt).at(-1);
    if (at === undefined) throw new Error('workbench bench: the first page was not requested');
    return at;
  };
  return withTreeWorkbench(FLOOR_HOLD, async (wb, emu, proxy) => {
    await showAllSessions(wb.page);
    await wb.page.locator('.part.sidebar [role="treeitem"]').first().waitFor({ timeout: WAIT_MS });
    const runs: NonNullable<WorkbenchResult['tree']> = [];
    for (let i = 0; i < RUNS; i++) {
      proxy.answered.length = 0;
      proxy.floorAnswered.length = 0;
      const trace = TRACE ? await ReloadTrace.start(wb.browser, wb.page, PROFILE) : undefined;
      const reloadAt = Date.now();
      await wb.page.reload();
      const [shownAt, floorShownAt] = await Promise.all([
        rowShown(wb.page, 'Sessions'),
        rowShown(wb.page, 'Floor Sessions'),
      ]);
      const answeredAt = answeredBy(proxy.answered, shownAt);
      const floorAnsweredAt = answeredBy(proxy.floorAnswered, floorShownAt);
      const traced = await trace?.stop(`tree-reload-${i}`, answeredAt, shownAt);
      if (traced) note('tree trace', traced);
      await settle(wb.page);
      const title = `tree refresh ${i} ${Date.now()}`;
      emu.seedTurn(`5e5510a0-0000-4000-8000-0000000300${String(i).padStart(2, '0')}`, title);
      proxy.answered.length = 0;
      await runCommand(wb.page, 'Den: Refresh Sessions');
      const refreshedAt = await rowShown(wb.page, 'Sessions', title);
      const t = performance.now();
      const res = await fetch(`${emu.url}/sessions?page=1&limit=50&sort=updatedAt&order=desc`, {
        headers: { authorization: `Bearer ${emu.keys.primary}` },
      });
      await res.json();
      const run = note('tree', {
        firstRowMs: shownAt - answeredAt,
        floorRowMs: floorShownAt - floorAnsweredAt,
        answeredMs: answeredAt - reloadAt,
        floorAnsweredMs: floorAnsweredAt - reloadAt,
        shownMs: shownAt - reloadAt,
        floorShownMs: floorShownAt - reloadAt,
        refreshRowMs: refreshedAt - answeredBy(proxy.answered, refreshedAt),
        floorMs: performance.now() - t,
        load: os.loadavg()[0],
        floorHeld: FLOOR_HOLD,
        floorReadSecret: FLOOR_SECRET,
      });
      runs.push(traced ? { ...run, trace: traced } : run);
    }
    note('tree: the panes, after the runs', await wb.screenshot('bench-tree-panes'));
    return runs;
  });
}

/**
 * A workbench over 10,000 sessions, through the answer-timing proxy, with the floor extension
 * installed beside Den (`holdFloor`: see {@link answerTimes}).
 */
async function withTreeWorkbench<T>(
  holdFloor: boolean,
  run: (wb: Workbench, emu: Emulator, proxy: Awaited<ReturnType<typeof answerTimes>>) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator({ seed: false, extraSessions: TREE_SESSIONS });
  const proxy = await answerTimes(emu.url, holdFloor);
  try {
    return await withWorkbench(emu, (wb) => run(wb, emu, proxy), proxy.url, [FLOOR_EXTENSION]);
  } finally {
    await proxy.close();
    await emu.close();
  }
}

/**
 * The floor extension alone, `RUNS` times: its first row after a window reload (its answer → its
 * row), the Explorer shown instead of Den's container, so that Den does not activate: the workbench
 * starting without Den's activation, its views or its requests.
 */
async function treeFloorAlone(): Promise<NonNullable<WorkbenchResult['treeFloorAlone']>> {
  return withTreeWorkbench(false, async (wb, _emu, proxy) => {
    await clickActivityBar(wb.page, 'Explorer');
    // the Explorer's own views stay as they are; the floor's is expanded once (kept on reload)
    const header = sideBarPane(wb.page, 'Floor Alone').locator('.pane-header');
    await header.waitFor({ timeout: WAIT_MS });
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await rowShown(wb.page, 'Floor Alone').catch(async (err: unknown) => {
      note('floor alone: no row; screenshot', await wb.screenshot('bench-floor-alone'));
      throw err;
    });
    const runs: NonNullable<WorkbenchResult['treeFloorAlone']> = [];
    for (let i = 0; i < RUNS; i++) {
      proxy.answered.length = 0;
      proxy.floorAnswered.length = 0;
      const reloadAt = Date.now();
      await wb.page.reload();
      const shownAt = await rowShown(wb.page, 'Floor Alone');
      const answeredAt = proxy.floorAnswered.filter((t) => t <= shownAt).at(-1);
      if (answeredAt === undefined) throw new Error('workbench bench: the floor did not ask for the page');
      await settle(wb.page);
      runs.push(
        note('tree floor alone', {
          floorRowMs: shownAt - answeredAt,
          floorAnsweredMs: answeredAt - reloadAt,
          floorShownMs: shownAt - reloadAt,
          denAsked: proxy.answered.length > 0,
          load: os.loadavg()[0],
        }),
      );
    }
    return runs;
  });
}

/**
 * A loopback pass-through proxy that notes when each first-page answer of the session list ended,
 * Den's and the floor extension's (its request says `floor=1`) apart. `holdFloor`: the floor's
 * answer is held until Den's has gone (when Den has not answered yet since `answered` was
 * emptied), so that both reach the workbench at the same moment.
 */
async function answerTimes(
  target: string,
  holdFloor: boolean,
): Promise<{ url: string; answered: number[]; floorAnswered: number[]; close(): Promise<void> }> {
  const answered: number[] = [];
  const floorAnswered: number[] = [];
  const held: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const firstPage = /^\/sessions\?(?=.*\bpage=1\b)/.test(req.url ?? '');
    const floor = /\bfloor=1\b/.test(req.url ?? '');
    const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
      const send = (): void => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      };
      if (firstPage)
        res.on('finish', () => {
          (floor ? floorAnswered : answered).push(Date.now());
          if (!floor) for (const release of held.splice(0)) release();
        });
      if (firstPage && floor && holdFloor && answered.length === 0) held.push(send);
      else send();
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('upgrade', (_req, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    floorAnswered,
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of held.splice(0)) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `RUNS` live turns at 200 events/s on a quiet machine, then as many with a CPU-heavy process. */
async function liveRuns(wb: Workbench, emu: Emulator, result: WorkbenchResult): Promise<void> {
  const task = (i: number) => `${LIVE_EVENTS} events rate ${LIVE_RATE} marked run ${i}`;
  for (let i = 0; i < RUNS; i++)
    result.quiet.push(note('quiet', await liveTurn(wb, emu, task(i), LIVE_EVENTS, `quiet-${i}`)));
  const burner = cpuBurner();
  try {
    for (let i = 0; i < RUNS; i++) {
      result.loaded.push(note('loaded', await liveTurn(wb, emu, task(RUNS + i), LIVE_EVENTS, `loaded-${i}`)));
    }
  } finally {
    burner.kill();
  }
}

/** A 10,000-event burst, live; then that session reopened (Den has it in its cache). */
async function burstAndReopen(wb: Workbench, emu: Emulator, result: WorkbenchResult): Promise<void> {
  const burstTask = `${BURST_EVENTS} events burst marked`;
  result.burst = note('burst', await liveTurn(wb, emu, burstTask, BURST_EVENTS, 'burst'));
  const burstId = emu.sockets().at(-1)!.sessionId;
  result.reopen = [];
  for (let i = 0; i < RUNS; i++) {
    const { lastMs, ...reopened } = await openFromTree(wb, warmUpTask(burstTask), BURST_EVENTS - 1);
    result.reopen.push(
      note('reopen', { ...reopened, caughtUpMs: lastMs, floorMs: await historyFloor(emu, burstId) }),
    );
  }
  if (PARTS.has('switch'))
    result.switch = await switchPreview(wb, emu, warmUpTask(burstTask), burstId, BURST_EVENTS - 1);
}

/** More than Den's double-click time (500 ms) between two clicks on one session row. */
const DOUBLE_CLICK_SPACING_MS = 600;

/**
 * The preview panel switching sessions, `RUNS` times: a click shows a short session in a new preview
 * panel; then, timed, a click on the cached 10,000-event session `title` shows it in the same page
 * (click → the first painted mark, and its last mark).
 */
async function switchPreview(
  wb: Workbench,
  emu: Emulator,
  title: string,
  sessionId: string,
  lastMark: number,
): Promise<NonNullable<WorkbenchResult['switch']>> {
  const { page } = wb;
  const fromTitle = '40 events (the preview before the switch)';
  emu.seedTurn('5e5510a0-0000-4000-8000-000000030000', fromTitle);
  await runCommand(page, 'Den: Refresh Sessions');
  const out: NonNullable<WorkbenchResult['switch']> = [];
  const inspector = TRACE ? await Inspector.open(extensionHostPid(wb.codeServer.pid), until) : undefined;
  // Den takes two clicks on one session within 500 ms for a double-click (it pins the panel:
  // session-panels.ts), so a click on the short session comes at least that long after the last one.
  let fromClickedAt = 0;
  const spacedFromClick = async (): Promise<void> => {
    const wait = fromClickedAt + DOUBLE_CLICK_SPACING_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    fromClickedAt = Date.now();
  };
  for (let i = 0; i < RUNS; i++) {
    await closeEditors(page);
    await spacedFromClick();
    await clickRow(wb, fromTitle);
    const frame = await denFrame(page);
    await until('the first session in the preview', () =>
      frame.evaluate(
        (t) => (document.getElementById('session-title')?.textContent === t ? true : undefined),
        fromTitle,
      ),
    );
    await resetFirstPost(frame);
    await noHover(page);
    const row = await sessionRow(wb, title);
    await settle(page);
    await page.evaluate(noteNextFrame);
    await page.evaluate(notePress);
    const trace = inspector ? await TurnTrace.start(`switch-${i}`, inspector, wb.browser, page) : undefined;
    const asked = Date.now();
    await row.click();
    await page.mouse.move(0, 0);
    const state = await until(`mark ${lastMark} painted after the switch`, async () => {
      const st = await probeState(frame).catch(() => undefined);
      return st && st.marks[lastMark] !== undefined ? st : undefined;
    });
    const { frameAt, pressedAt } = await page.evaluate(() => {
      const w = window as unknown as { __denFrameAt?: number; __denPressedAt?: number };
      return { frameAt: w.__denFrameAt, pressedAt: w.__denPressedAt };
    });
    const clicked = pressedAt ?? NaN;
    const painted = Math.min(...Object.values(state.marks));
    if (trace) note(`trace switch-${i}`, await trace.stop([{ emit: clicked, painted }]));
    // The same way back to the short session: what VS Code's click → command → post → page costs
    // with a small `init` (the title shows once it is in).
    // (after the whole init that follows a short one)
    await noHover(page);
    const backRow = await sessionRow(wb, fromTitle);
    await settle(page);
    await resetFirstPost(frame);
    await page.evaluate(notePress);
    await spacedFromClick();
    await backRow.click();
    await page.mouse.move(0, 0);
    await until('the short session back in the preview', () =>
      frame.evaluate(
        (t) => (document.getElementById('session-title')?.textContent === t ? true : undefined),
        fromTitle,
      ),
    );
    const back = await probeState(frame);
    const backPressed = await page.evaluate(
      () => (window as unknown as { __denPressedAt?: number }).__denPressedAt,
    );
    out.push(
      note('switch', {
        firstPaintMs: painted - clicked,
        harnessFirstPaintMs: painted - asked,
        caughtUpMs: state.marks[lastMark] - clicked,
        initMs: (state.firstPostAt ?? NaN) - clicked,
        initBytes: state.firstPostBytes ?? NaN,
        newFrame: frameAt !== undefined,
        floorMs: await historyFloor(emu, sessionId),
        shortInitMs: (back.firstPostAt ?? NaN) - (backPressed ?? NaN),
        shortInitBytes: back.firstPostBytes ?? NaN,
      }),
    );
  }
  inspector?.close();
  return out;
}

/** A 20,000-event session Den never saw: click → first paint → its last chunk (`run`: a new one each). */
async function openUncached(
  wb: Workbench,
  emu: Emulator,
  run: number,
): Promise<NonNullable<WorkbenchResult['open']>[number]> {
  const openId = `5e5510a0-0000-4000-8000-0000000200${String(run).padStart(2, '0')}`;
  const openTask = `${OPEN_EVENTS} events marked (never opened, ${run})`;
  emu.seedTurn(openId, openTask);
  await runCommand(wb.page, 'Den: Refresh Sessions');
  const { lastMs, ...opened } = await openFromTree(wb, openTask, OPEN_EVENTS - 1);
  return { ...opened, lastChunkMs: lastMs, floorMs: await historyFloor(emu, openId) };
}

/** The extension host's heap before and after opening and closing 100 sessions. */
async function heapAfterSessions(
  wb: Workbench,
  emu: Emulator,
): Promise<NonNullable<WorkbenchResult['heap']>> {
  const pid = extensionHostPid(wb.codeServer.pid);
  const before = await hostHeapMb(pid, 'before');
  let half = NaN;
  for (let i = 0; i < HEAP_SESSIONS; i++) {
    if (i === HEAP_SESSIONS / 2) half = await hostHeapMb(pid, 'half');
    // Each is the newest when it is opened, so the pick lists it.
    const title = `heap ${i} 200 events marked`;
    emu.seedTurn(`5e5510a0-0000-4000-8000-${String(i).padStart(12, '0')}`, title);
    await runCommand(wb.page, 'Den: Refresh Sessions');
    await runCommand(wb.page, 'Den: Open Session');
    await answerQuickPick(wb.page, title);
    await denFrame(wb.page);
    await closeEditors(wb.page);
  }
  return { beforeMb: before, halfMb: half, afterMb: await hostHeapMb(pid, 'after') };
}

/** Opens Den's view and switches it to All Sessions with its title action, once Den shows it. */
async function showAllSessions(page: Page): Promise<void> {
  await clickActivityBar(page, 'Den');
  const action = sideBarPane(page, 'Sessions').locator(
    '.actions .action-label[aria-label^="Show All Sessions"]',
  );
  // Title actions show while the pointer is over the view's header.
  await action.waitFor({ state: 'attached', timeout: WAIT_MS });
  await sideBarPane(page, 'Sessions').locator('.pane-header').hover();
  await action.click();
  await action.waitFor({ state: 'detached', timeout: WAIT_MS });
}

/** Types `text` into the open quick pick and picks the first match. */
async function answerQuickPick(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: text })
    .first()
    .waitFor({ timeout: WAIT_MS });
  await input.press('Enter');
}
