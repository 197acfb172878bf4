import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import WebSocket from 'ws';
import { SessionStream } from '../src/core/stream/session-stream';
import { applyEvent, beginTurn, createTranscript } from '../src/core/transcript/reducer';
import { makeFrames, startBlastServer, type BlastServer } from './blast-server';

/** One timed run: events delivered and the wall time from connect to the terminal event. */
export interface PipelineRun {
  events: number;
  ms: number;
  /** Performance-clock start of the run (to attribute garbage collections to it). */
  t0: number;
}

const SESSION = '11111111-2222-4333-8444-555555555555';
const MESSAGE = 'msg-bench';

/** Baseline: a bare `ws` client that only parses each frame. */
function bareLoop(server: BlastServer): Promise<PipelineRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let events = 0;
    const ws = new WebSocket(
      `${server.url.replace('http', 'ws')}/ws/sessions/${SESSION}?token=x&message_id=${MESSAGE}`,
    );
    ws.on('message', (data) => {
      const f = JSON.parse(data.toString());
      if (typeof f.event_id !== 'number') return;
      events++;
      if (f.kind === 'task.completed') {
        ws.terminate();
        resolve({ events, ms: performance.now() - t0, t0 });
      }
    });
    ws.on('error', reject);
  });
}

/** Den: the session stream (parse, sequence, de-duplicate) feeding the transcript reducer. */
function denPipeline(server: BlastServer): Promise<PipelineRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const t = createTranscript(SESSION);
    beginTurn(t, { agentMessageId: MESSAGE, text: 'bench', createdAt: 0 });
    let events = 0;
    const stream = new SessionStream(
      { baseUrl: server.url, apiKey: () => 'x', sessionId: SESSION, messageId: MESSAGE },
      {
        onEvent(ev) {
          events++;
          applyEvent(t, MESSAGE, ev);
        },
      },
    );
    void stream.done.then(() => {
      stream.close();
      resolve({ events, ms: performance.now() - t0, t0 });
    });
    stream.start();
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds of garbage collection (any kind) that started inside a run. */
function gcMs(gcs: readonly PerformanceEntry[], run: PipelineRun): number {
  let ms = 0;
  for (const e of gcs) if (e.startTime >= run.t0 && e.startTime < run.t0 + run.ms) ms += e.duration;
  return ms;
}

/** The medians of a pipeline benchmark: events/s, and ms of garbage collection per run. */
export interface PipelineResult {
  bare: number;
  den: number;
  ratio: number;
  bareGcMs: number;
  denGcMs: number;
  bareMs: number;
  denMs: number;
}

/** Runs both loops alternately `rounds` times over `count` events; returns events/s medians. */
export async function benchPipeline(count = 100_000, rounds = 5): Promise<PipelineResult> {
  const server = await startBlastServer(makeFrames(count, MESSAGE));
  const bare: number[] = [];
  const den: number[] = [];
  const bareRuns: PipelineRun[] = [];
  const denRuns: PipelineRun[] = [];
  const gcs: PerformanceEntry[] = [];
  const gcObserver = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
  gcObserver.observe({ entryTypes: ['gc'] });
  try {
    await bareLoop(server); // warm-up
    await denPipeline(server);
    for (let i = 0; i < rounds; i++) {
      const b = await bareLoop(server);
      const d = await denPipeline(server);
      if (b.events !== count || d.events !== count)
        throw new Error(`lost events: bare ${b.events}, den ${d.events} of ${count}`);
      bare.push((b.events / b.ms) * 1000);
      den.push((d.events / d.ms) * 1000);
      bareRuns.push(b);
      denRuns.push(d);
    }
  } finally {
    await server.close();
  }
  // GC entries are delivered after the fact: let the observer see the last ones.
  await new Promise((r) => setTimeout(r, 0));
  gcObserver.disconnect();
  const b = median(bare);
  const d = median(den);
  return {
    bare: b,
    den: d,
    ratio: d / b,
    bareGcMs: median(bareRuns.map((r) => gcMs(gcs, r))),
    denGcMs: median(denRuns.map((r) => gcMs(gcs, r))),
    bareMs: median(bareRuns.map((r) => r.ms)),
    denMs: median(denRuns.map((r) => r.ms)),
  };
}
