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
import type { Browser, Page } from 'playwright-core';
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

/** Main-thread tasks of 16 ms or more in each renderer, on the wall clock. */
function longTasks(trace: { traceEvents: TraceEvent[] }): LongTask[] {
  const ev = trace.traceEvents;
  // ts (µs, trace clock) → wall ms, from the den-sync stamps.
  const sync = ev
    .filter((e) => e.name === 'TimeStamp' && e.args?.data?.message?.startsWith('den-sync '))
    .map((e) => Number(e.args!.data!.message!.slice(9)) - e.ts / 1000);
  const offset = sync.length ? sync.reduce((a, b) => a + b, 0) / sync.length : 0;
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
  const workbenchPid = ev.find(
    (e) => e.name === 'TimeStamp' && e.args?.data?.message?.startsWith('den-sync'),
  )?.pid;
  const out: LongTask[] = [];
  for (const e of ev) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    const ms = (e.dur ?? 0) / 1000;
    if (ms < 16) continue;
    const start = e.ts / 1000 + offset;
    const renderer =
      e.pid === workbenchPid ? 'workbench' : webviewPids.has(e.pid) ? 'webview' : `renderer ${e.pid}`;
    out.push({ start, end: start + ms, ms, renderer });
  }
  return out;
}
