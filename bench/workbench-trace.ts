/**
 * Traces for the workbench benchmark (`DEN_BENCH_TRACE=1`): where the time goes between the socket
 * and the paint during a live turn.
 * - The extension host, through the inspector (`SIGUSR1`): a CPU profile (self time by function,
 *   Den's own code apart) and its event loop's stalls (a 5 ms interval that fired late).
 * - Chromium: a `devtools.timeline` trace of the whole browser; every main-thread task of 16 ms or
 *   more, by renderer process (the workbench's or the webview's), on the wall clock.
 * Each slow mark (painted ≥ 100 ms after its emit) is then attributed to what overlapped its way.
 * The raw profile and trace are written to `dist/bench/` for DevTools.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page, WebSocket as WebSocketOfPage } from 'playwright-core';
import WebSocket from 'ws';

const INSPECTOR_PORT = 9229;
/** An event-loop tick later than this (ms) counts as a stall. */
const STALL_MS = 16;

/** One DevTools-protocol connection to a Node process opened with SIGUSR1. */
export class Inspector {
  #id = 0;
  private constructor(private readonly ws: WebSocket) {}

  static async open(pid: number, until: <T>(what: string, f: () => Promise<T | undefined>) => Promise<T>) {
    process.kill(pid, 'SIGUSR1');
    const list = await until('the inspector', async () => {
      try {
        const r = await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`);
        return (await r.json()) as { webSocketDebuggerUrl: string }[];
      } catch {
        return undefined;
      }
    });
    const ws = new WebSocket(list[0].webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 0 });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new Inspector(ws);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const my = ++this.#id;
      const on = (data: WebSocket.RawData): void => {
        const msg = JSON.parse(data.toString()) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: { message: string };
        };
        if (msg.id !== my) return;
        this.ws.off('message', on);
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
        else resolve(msg.result ?? {});
      };
      this.ws.on('message', on);
      this.ws.send(JSON.stringify({ id: my, method, params }));
    });
  }

  /** Evaluates an expression in the process; returns its JSON value. */
  async eval<T>(expression: string): Promise<T> {
    const r = await this.call('Runtime.evaluate', { expression, returnByValue: true });
    return (r.result as { value: T }).value;
  }

  /** Writes a heap snapshot of the process to `file` (for DevTools' Memory tab, or a comparison). */
  async snapshot(file: string): Promise<void> {
    const out = fs.createWriteStream(file);
    const on = (data: WebSocket.RawData): void => {
      const msg = JSON.parse(data.toString()) as { method?: string; params?: { chunk: string } };
      if (msg.method === 'HeapProfiler.addHeapSnapshotChunk' && msg.params) out.write(msg.params.chunk);
    };
    this.ws.on('message', on);
    try {
      await this.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      this.ws.off('message', on);
      await new Promise<void>((resolve, reject) =>
        out.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
    }
  }

  close(): void {
    this.ws.close();
  }
}

/** A stall: when it ended (wall clock) and how late the tick was. */
type Stall = [endAt: number, ms: number];

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** One event of a Chromium trace (`devtools.timeline`), the fields read here. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { message?: string; frames?: { url?: string }[]; url?: string } };
}

/** A main-thread task of a renderer: when it started and ended (wall clock), and whose it is. */
export interface LongTask {
  start: number;
  end: number;
  ms: number;
  renderer: 'workbench' | 'webview' | string;
}

export interface TraceSummary {
  label: string;
  host: {
    /** Sampled CPU time during the turn, all and Den's own (its extension's files). */
    cpuMs: number;
    denCpuMs: number;
    gcMs: number;
    top: { fn: string; ms: number }[];
    stalls: { count: number; p50: number; max: number; totalMs: number };
  };
  renderers: { renderer: string; longTasks: number; totalMs: number; max: number }[];
  /** Marks painted ≥ 100 ms after their emit, and what overlapped their way there. */
  slow: {
    marks: number;
    hostStall: number;
    workbenchTask: number;
    webviewTask: number;
    none: number;
  };
}

export class TurnTrace {
  private constructor(
    private readonly label: string,
    private readonly host: Inspector,
    private readonly browser: Browser,
    private readonly page: Page,
  ) {}

  static async start(label: string, host: Inspector, browser: Browser, page: Page): Promise<TurnTrace> {
    await host.call('Profiler.enable');
    await host.call('Profiler.setSamplingInterval', { interval: 250 });
    await host.call('Profiler.start');
    await host.eval(`(() => {
      clearInterval(globalThis.__denLagTimer);
      const stalls = (globalThis.__denStalls = []);
      let last = performance.now();
      globalThis.__denLagTimer = setInterval(() => {
        const now = performance.now();
        const late = now - last - 5;
        if (late >= ${STALL_MS}) stalls.push([Date.now(), Math.round(late)]);
        last = now;
      }, 5);
      return true;
    })()`);
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8'],
    });
    // The trace's clock is not the wall clock: a stamp with Date.now() ties the two.
    await page.evaluate(() => console.timeStamp(`den-sync ${Date.now()}`));
    return new TurnTrace(label, host, browser, page);
  }

  /** Stops both traces; attributes each slow mark (emit → painted ≥ 100 ms). */
  async stop(slowMarks: { emit: number; painted: number }[]): Promise<TraceSummary> {
    await this.page.evaluate(() => console.timeStamp(`den-sync ${Date.now()}`));
    const buf = await this.browser.stopTracing();
    const { profile } = (await this.host.call('Profiler.stop')) as unknown as { profile: CpuProfile };
    const stalls = await this.host.eval<Stall[]>(
      `(() => { clearInterval(globalThis.__denLagTimer); return globalThis.__denStalls; })()`,
    );
    const out = path.join('dist', 'bench');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, `trace-${this.label}-host.cpuprofile`), JSON.stringify(profile));
    fs.writeFileSync(path.join(out, `trace-${this.label}-chromium.json`), buf);
    const tasks = longTasks(JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] });
    const overlaps = (a: number, b: number, s: number, e: number): boolean => s < b && e > a;
    const slow = { marks: slowMarks.length, hostStall: 0, workbenchTask: 0, webviewTask: 0, none: 0 };
    for (const m of slowMarks) {
      const host = stalls.some(([end, ms]) => overlaps(m.emit, m.painted, end - ms, end));
      const wb = tasks.some((t) => t.renderer === 'workbench' && overlaps(m.emit, m.painted, t.start, t.end));
      const wv = tasks.some((t) => t.renderer === 'webview' && overlaps(m.emit, m.painted, t.start, t.end));
      if (host) slow.hostStall++;
      if (wb) slow.workbenchTask++;
      if (wv) slow.webviewTask++;
      if (!host && !wb && !wv) slow.none++;
    }
    const byRenderer = new Map<string, LongTask[]>();
    for (const t of tasks) {
      const list = byRenderer.get(t.renderer) ?? [];
      list.push(t);
      byRenderer.set(t.renderer, list);
    }
    const stallMs = stalls.map(([, ms]) => ms).sort((a, b) => a - b);
    return {
      label: this.label,
      host: {
        ...profileSummary(profile),
        stalls: {
          count: stallMs.length,
          p50: stallMs[Math.floor(stallMs.length / 2)] ?? 0,
          max: stallMs.at(-1) ?? 0,
          totalMs: stallMs.reduce((a, b) => a + b, 0),
        },
      },
      renderers: [...byRenderer].map(([renderer, ts]) => ({
        renderer,
        longTasks: ts.length,
        totalMs: Math.round(ts.reduce((a, t) => a + t.ms, 0)),
        max: Math.round(Math.max(...ts.map((t) => t.ms))),
      })),
      slow,
    };
  }
}

/** Self time by function; Den's own is what its extension's files ran. */
function profileSummary(p: CpuProfile): Omit<TraceSummary['host'], 'stalls'> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let cpu = 0;
  let den = 0;
  let gc = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]);
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    cpu += dt;
    if (functionName === '(garbage collector)') gc += dt;
    const mine = /den[^/]*\/dist\//.test(url);
    if (mine) den += dt;
    const key = `${functionName || '(anonymous)'} ${mine ? 'den:' : ''}${url.split('/').slice(-1)[0]}:${lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([fn, ms]) => ({ fn, ms: Math.round(ms) }));
  return { cpuMs: Math.round(cpu), denCpuMs: Math.round(den), gcMs: Math.round(gc), top };
}

/** ts (µs, trace clock) → wall ms: the offset the den-sync stamps give. */
function wallOffset(ev: TraceEvent[]): number {
  const sync = ev
    .filter((e) => e.name === 'TimeStamp' && e.args?.data?.message?.startsWith('den-sync '))
    .map((e) => Number(e.args!.data!.message!.slice(9)) - e.ts / 1000);
  return sync.length ? sync.reduce((a, b) => a + b, 0) / sync.length : 0;
}

/**
 * Main-thread tasks of `minMs` (default 16 ms) or more in each renderer, on the wall clock. The
 * workbench's renderer is the one that stamped the last den-sync (a reload may start another).
 */
function longTasks(trace: { traceEvents: TraceEvent[] }, minMs = 16): LongTask[] {
  const ev = trace.traceEvents;
  const offset = wallOffset(ev);
  const mainThreads = new Set(
    ev
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // Which renderer is which: the webview's frames load VS Code's webview `index.html`/`fake.html`.
  const webviewPids = new Set<number>();
  for (const e of ev) {
    const urls = [e.args?.data?.url, ...(e.args?.data?.frames ?? []).map((f) => f.url)];
    if (urls.some((u) => u && /webview|fake\.html|vscode-webview/.test(u))) webviewPids.add(e.pid);
  }
  const workbenchPid = ev
    .filter((e) => e.name === 'TimeStamp' && e.args?.data?.message?.startsWith('den-sync'))
    .at(-1)?.pid;
  const out: LongTask[] = [];
  for (const e of ev) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    const ms = (e.dur ?? 0) / 1000;
    if (ms < minMs) continue;
    const start = e.ts / 1000 + offset;
    const renderer =
      e.pid === workbenchPid ? 'workbench' : webviewPids.has(e.pid) ? 'webview' : `renderer ${e.pid}`;
    out.push({ start, end: start + ms, ms, renderer });
  }
  return out;
}

/** Where the long tasks' time went: GC, style and layout, paint, and script by function (self time). */
export interface Attribution {
  gcMs: number;
  styleLayoutMs: number;
  paintMs: number;
  /** Self time of the functions sampled inside long tasks, the heaviest first (`name file`). */
  script: { fn: string; ms: number }[];
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url?: string };
}

/** GC, style/layout and paint time inside the long tasks, and their script's self time by function. */
export function attribute(ev: TraceEvent[], long: TraceEvent[]): Attribution {
  const inLong = (e: { pid: number; tid: number; ts: number }): boolean =>
    long.some((t) => t.pid === e.pid && t.tid === e.tid && e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0));
  // Only the outermost of nested events (a Paint inside a Paint, a GC phase inside a GC) counts.
  const sum = (names: RegExp): number => {
    let ms = 0;
    const until = new Map<string, number>();
    for (const e of ev
      .filter((x) => x.ph === 'X' && names.test(x.name) && inLong(x))
      .sort((a, b) => a.ts - b.ts)) {
      const thread = `${e.pid}:${e.tid}`;
      if (e.ts < (until.get(thread) ?? -1)) continue;
      until.set(thread, e.ts + (e.dur ?? 0));
      ms += (e.dur ?? 0) / 1000;
    }
    return ms;
  };
  // CPU profile samples (disabled-by-default-v8.cpu_profiler): chunks of nodes, samples, time deltas.
  const nodes = new Map<string, ProfileNode>();
  const self = new Map<string, number>();
  const profiles = new Map<string, { pid: number; tid: number; t: number }>();
  for (const e of ev as (TraceEvent & { id?: string; args?: { data?: Record<string, unknown> } })[]) {
    if (e.name === 'Profile')
      profiles.set(`${e.pid}:${String(e.id)}`, {
        pid: e.pid,
        tid: e.tid,
        t: Number((e.args?.data as { startTime?: number })?.startTime ?? e.ts),
      });
    if (e.name !== 'ProfileChunk') continue;
    const data = e.args?.data as
      { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(`${e.pid}:${n.id}`, n);
    const p = profiles.get(`${e.pid}:${String(e.id)}`);
    if (!p) continue;
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      p.t += deltas[i] ?? 0;
      if (!inLong({ pid: p.pid, tid: p.tid, ts: p.t })) continue;
      const n = nodes.get(`${e.pid}:${samples[i]}`);
      if (!n || ['(idle)', '(program)', '(root)'].includes(n.callFrame.functionName)) continue;
      const key = `${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url ?? '').split('/').pop() ?? ''}`;
      self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
    }
  }
  return {
    gcMs: Math.round(sum(/^(MajorGC|MinorGC|V8\.GCIncrementalMarking|V8\.GCScavenger)$/)),
    styleLayoutMs: Math.round(sum(/^(UpdateLayoutTree|Layout|RecalculateStyles)$/)),
    paintMs: Math.round(sum(/^(Paint|PrePaint|Layerize|Commit)$/)),
    script: [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([fn, ms]) => ({ fn, ms: Math.round(ms) })),
  };
}

/** The reload's summary keeps VS Code's marks from this long before the window on. */
const MARKS_BEFORE_MS = 2000;

/** What a window reload's renderer did between two moments (the tree part, `DEN_BENCH_TRACE=1`). */
export interface ReloadSummary {
  label: string;
  /** The window: the service answered Den's first page → Den's first row shown (ms). */
  windowMs: number;
  /** The workbench's main thread in the window: time in tasks (clipped to the window), tasks ≥ 16 ms. */
  busyMs: number;
  longTasks: number;
  /** The longest tasks overlapping the window: ms after its start, length, what ran most in each. */
  longest: { atMs: number; ms: number; top: string }[];
  /** What the main thread ran in the window (top-level pieces of its tasks, clipped), the most first. */
  ran: { what: string; ms: number }[];
  /** GC, style and layout, paint, and (sampled) script by function, in the tasks overlapping the window. */
  attribution: Attribution;
  /**
   * VS Code's own start-up marks (`code/…`) in the reloaded page, ms after the window's start, from
   * 2 s before it to its end (but each workbench contribution's; all of them in `…-marks.json`).
   */
  marks: { name: string; atMs: number }[];
  /** Webviews (iframes) in the workbench when the first row showed: Den's panels restored, if any. */
  iframes: number;
  /**
   * The server's WebSocket frames the workbench received (the extension host's messages among them),
   * in the window and from the reload to its end; those naming Den (`den.…`, `den-dev.den`) or the
   * floor extension (`denFloor`) apart: an upper bound of each one's part (a frame can carry
   * several messages).
   */
  frames: { window: FrameCount; reload: FrameCount };
}

export interface FrameCount {
  frames: number;
  kb: number;
  den: number;
  denKb: number;
  floor: number;
  /** Frames naming Den of 20 KB or more: size, and the text around Den's first name. */
  bigDen: { kb: number; around: string }[];
}

/** A frame the workbench received from code-server: when, its size, whose names it carries. */
interface Frame {
  at: number;
  bytes: number;
  den: boolean;
  floor: boolean;
  around?: string;
}

/** A frame naming Den this large (bytes) keeps a sample of its text (`FrameCount.bigDen`). */
const BIG_FRAME = 20_000;

function countFrames(frames: Frame[], from: number, to: number): FrameCount {
  const inside = frames.filter((f) => f.at >= from && f.at <= to);
  const kb = (fs: Frame[]): number => Math.round(fs.reduce((a, f) => a + f.bytes, 0) / 100) / 10;
  const den = inside.filter((f) => f.den);
  return {
    frames: inside.length,
    kb: kb(inside),
    den: den.length,
    denKb: kb(den),
    floor: inside.filter((f) => f.floor).length,
    bigDen: den
      .filter((f) => f.around !== undefined)
      .map((f) => ({ kb: Math.round(f.bytes / 1000), around: f.around ?? '' })),
  };
}

/** The name of a trace event as read here: what ran, with its script's file or its event's type. */
function pieceName(e: TraceEvent & { args?: { data?: Record<string, unknown> } }): string {
  const d = e.args?.data ?? {};
  const file = typeof d.url === 'string' && d.url ? d.url.split('?')[0].split('/').pop() : undefined;
  const fn = typeof d.functionName === 'string' && d.functionName ? d.functionName : undefined;
  const type = typeof d.type === 'string' ? d.type : undefined;
  if (/^(MajorGC|MinorGC|V8\.GC)/.test(e.name)) return 'GC';
  if (/^(UpdateLayoutTree|Layout|RecalculateStyles)$/.test(e.name)) return 'style and layout';
  if (/^(Paint|PrePaint|Layerize|Commit|UpdateLayer)$/.test(e.name)) return 'paint';
  return [e.name, type, file ?? fn].filter(Boolean).join(' ');
}

/**
 * A Chromium trace over a window reload: started before the reload, stopped once the rows showed;
 * then the workbench renderer's main thread in a window of it (what the rows waited behind), with
 * VS Code's own start-up marks. The raw trace goes to `dist/bench/trace-<label>-chromium.json`.
 */
export class ReloadTrace {
  readonly #frames: Frame[] = [];
  readonly #startedAt = Date.now();
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {
    page.on('websocket', this.#onSocket);
  }

  readonly #onSocket = (ws: WebSocketOfPage): void => {
    ws.on('framereceived', ({ payload }) => {
      if (this.#stopped) return;
      const text = typeof payload === 'string' ? payload : payload.toString('latin1');
      const den = /\bden(-dev\.den)?\.[a-z]/i.exec(text);
      this.#frames.push({
        at: Date.now(),
        bytes: payload.length,
        den: !!den,
        floor: text.includes('denFloor'),
        // what a large frame naming Den carries: the printable text around the first name
        ...(den && payload.length >= BIG_FRAME
          ? {
              around: text.slice(Math.max(0, den.index - 80), den.index + 80).replace(/[^\x20-\x7e]+/g, '·'),
            }
          : {}),
      });
    });
  };
  #stopped = false;

  /** `profile`: also samples JS (script by function in `attribution`; the sampler slows the page). */
  static async start(browser: Browser, page: Page, profile: boolean): Promise<ReloadTrace> {
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'toplevel',
        'v8',
        ...(profile ? ['disabled-by-default-v8.cpu_profiler'] : []),
      ],
    });
    await page.evaluate(() => console.timeStamp(`den-sync ${Date.now()}`));
    return new ReloadTrace(browser, page);
  }

  /** Stops the trace; what the workbench's main thread did from `from` to `to` (wall clock). */
  async stop(label: string, from: number, to: number): Promise<ReloadSummary> {
    await this.page.evaluate(() => console.timeStamp(`den-sync ${Date.now()}`));
    const { marks, iframes } = await this.page.evaluate(() => ({
      marks: performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('code/'))
        .map((m) => ({ name: m.name, at: performance.timeOrigin + m.startTime })),
      iframes: document.querySelectorAll('iframe').length,
    }));
    const buf = await this.browser.stopTracing();
    this.#stopped = true;
    this.page.off('websocket', this.#onSocket);
    const out = path.join('dist', 'bench');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, `trace-${label}-chromium.json`), buf);
    // every mark, ms after the window's start; the summary keeps those near the window
    const allMarks = marks.map((m) => ({ name: m.name, atMs: Math.round(m.at - from) }));
    fs.writeFileSync(path.join(out, `trace-${label}-marks.json`), JSON.stringify(allMarks, null, 1));
    const ev = (JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const offset = wallOffset(ev);
    const wall = (ts: number): number => ts / 1000 + offset;
    const tasks = longTasks({ traceEvents: ev }, 0).filter((t) => t.renderer === 'workbench');
    const clip = (s: number, e: number): number => Math.max(0, Math.min(e, to) - Math.max(s, from));
    const inWindow = tasks.filter((t) => clip(t.start, t.end) > 0);
    // The workbench's main thread: its tasks' top-level pieces (what each task ran first-hand).
    const pid = ev
      .filter((e) => e.name === 'TimeStamp' && e.args?.data?.message?.startsWith('den-sync'))
      .at(-1)?.pid;
    const thread = ev.find(
      (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === pid,
    );
    const pieces = ev
      .filter((e) => e.ph === 'X' && thread && e.pid === thread.pid && e.tid === thread.tid)
      .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    // Each task's top-level pieces, each named by what it ran and the longest script or event
    // dispatched inside it (a message from the server, a timer, an idle callback: whose code).
    const top: { task: number; e: TraceEvent; inner?: TraceEvent }[] = [];
    let task: TraceEvent | undefined;
    let until = -1;
    for (const e of pieces) {
      if (e.name === 'RunTask') {
        task = e;
        until = -1;
        continue;
      }
      if (!task || e.ts >= task.ts + (task.dur ?? 0)) continue;
      if (e.ts < until) {
        const piece = top.at(-1);
        if (piece && /^(FunctionCall|EventDispatch|EvaluateScript)$/.test(e.name))
          if (!piece.inner || (e.dur ?? 0) > (piece.inner.dur ?? 0)) piece.inner = e;
        continue;
      }
      // the scheduler's wrappers say nothing of what ran: look inside them
      if (/^(ThreadControllerImpl::|SequenceManager|TaskQueue|ThreadPool_)/.test(e.name)) continue;
      until = e.ts + (e.dur ?? 0);
      top.push({ task: task.ts, e });
    }
    const ran = new Map<string, number>();
    const topOf = new Map<number, Map<string, number>>(); // a task's start → its pieces' time by name
    for (const { task: at, e, inner } of top) {
      const s = wall(e.ts);
      const ms = clip(s, s + (e.dur ?? 0) / 1000);
      const name = inner ? `${pieceName(e)} → ${pieceName(inner)}` : pieceName(e);
      if (ms > 0) ran.set(name, (ran.get(name) ?? 0) + ms);
      const byName = topOf.get(at) ?? new Map<string, number>();
      byName.set(name, (byName.get(name) ?? 0) + (e.dur ?? 0) / 1000);
      topOf.set(at, byName);
    }
    const longIn = inWindow.filter((t) => t.ms >= 16);
    const longEv = ev.filter(
      (e) =>
        e.ph === 'X' &&
        e.name === 'RunTask' &&
        e.pid === thread?.pid &&
        e.tid === thread?.tid &&
        (e.dur ?? 0) >= 16_000 &&
        clip(wall(e.ts), wall(e.ts) + (e.dur ?? 0) / 1000) > 0,
    );
    const round = (n: number): number => Math.round(n);
    return {
      label,
      windowMs: round(to - from),
      busyMs: round(inWindow.reduce((a, t) => a + clip(t.start, t.end), 0)),
      longTasks: longIn.length,
      longest: longEv
        .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
        .slice(0, 8)
        .map((e) => {
          const top = [...(topOf.get(e.ts) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0];
          return {
            atMs: round(wall(e.ts) - from),
            ms: round((e.dur ?? 0) / 1000),
            top: top ? `${top[0]} (${round(top[1])} ms)` : '',
          };
        }),
      ran: [...ran]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([what, ms]) => ({ what, ms: round(ms) })),
      attribution: attribute(ev, longEv),
      marks: allMarks.filter(
        (m) =>
          m.atMs >= -MARKS_BEFORE_MS &&
          m.atMs <= to - from &&
          !/^code\/(will|did)CreateWorkbenchContribution\//.test(m.name),
      ),
      iframes,
      frames: {
        window: countFrames(this.#frames, from, to),
        reload: countFrames(this.#frames, this.#startedAt, to),
      },
    };
  }
}
