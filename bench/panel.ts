/**
 * The Session panel end to end in headless Chromium (the real webview bundle, fed the way the host
 * feeds it): reopen from the local cache, event → visible latency through the real DeltaBatcher at
 * 200 events/s, and a 50,000-event transcript's heap and scrolling. One browser for the whole run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '../src/core/client/types';
import type { Transcript } from '../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../src/core/transcript/reducer';
import { DeltaBatcher, type InitBody } from '../src/model/session/delta-batcher';
import type { HostMessage } from '../src/protocol/session-panel/messages';
import { TranscriptCache } from '../src/model/session/transcript-cache';
import { transcriptViews } from '../src/model/session/turn-view';
import { eventFactory } from '../test/support/events';
import { closeBrowser, openHarness, type Harness } from '../test/unit/webview/session-panel/browser-harness';

const SESSION = '11111111-2222-4333-8444-555555555555';

const WORDS = ['the', 'normalizer', '`trim()`', 'returns', '**input**', 'unchanged', 'when', 'tests', 'pass'];
/** A markdown chunk: words, now and then inline code, a list item or a paragraph break. */
function chunk(i: number, token = ''): string {
  const w = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}${token ? ` ${token}` : ''}`;
  if (i % 40 === 0) return `\n\n- ${w} `;
  if (i % 15 === 0) return ` ${w}.\n\n`;
  return ` ${w},`;
}

/**
 * A coding-like turn of `count` events: a thought, tool blocks with parameters and logs, markdown
 * answer chunks (`answerShare` of them), more thoughts, a terminal event.
 */
function codingTurn(messageId: string, count: number, toolEvery = 60): AgentEvent[] {
  const ev = eventFactory({ messageId });
  const out: AgentEvent[] = [ev('task.phase', { phase: 'running', eta_seconds: 30 })];
  let tool = 0;
  let toolLeft = 0;
  for (let i = 1; out.length < count - 1; i++) {
    if (toolLeft > 0) {
      toolLeft--;
      const id = `tool:run_command:${tool}`;
      if (toolLeft === 0)
        out.push(ev('tool.result', { status: 'success', output: 'ok', finalize: true }, id));
      else
        out.push(
          ev(
            'tool.log',
            {
              stream: i % 9 ? 'stdout' : 'stderr',
              data: `\x1b[32m✓\x1b[0m step ${i}: compiled src/m${i % 97}.ts\n`,
            },
            id,
          ),
        );
    } else if (i % toolEvery === 0) {
      const id = `tool:run_command:${++tool}`;
      out.push(ev('tool.start', { tool_name: 'run_command' }, id));
      out.push(ev('tool.parameters', { parameters: { command: `npm test -- --grep case${tool}` } }, id));
      toolLeft = 12;
    } else if (i % 25 === 0) {
      out.push(
        ev(
          'thought',
          { thought: `Checking case ${i}: the edge with tabs and CRLF. `, finalize: i % 50 === 0 },
          `thought:${Math.floor(i / 50)}`,
        ),
      );
    } else out.push(ev('markdown.chunk', { delta: chunk(i) }, `answer:${Math.floor(i / 500)}`));
  }
  out.push(ev('task.completed', {}));
  return out;
}

/** A transcript folded from `turns` coding turns of `perTurn` events each. */
export function foldedTranscript(turns: number, perTurn: number, make = codingTurn): Transcript {
  const t = createTranscript(SESSION);
  for (let k = 0; k < turns; k++) {
    const id = `agent-${k}`;
    beginTurn(t, {
      agentMessageId: id,
      userMessageId: `user-${k}`,
      text: `Step ${k}: fix the whitespace normalizer`,
      createdAt: 1_700_000_000_000 + k,
    });
    for (const e of make(id, perTurn)) applyEvent(t, id, e);
  }
  return t;
}

function initBody(t: Transcript): InitBody {
  return {
    session: { sessionId: t.sessionId, title: 'Benchmark session', service: 'agents.example.test' },
    turns: transcriptViews(t),
    composer: { mode: 'code', effort: 'fast', attachments: [], running: false, queued: 0, sending: false },
    connection: { state: 'live' },
    notice: null,
    l10n: null,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

/** Posts one message and resolves, in the page, two animation frames after the webview handled it. */
function postAndPaint(h: Harness, msg: HostMessage): Promise<number> {
  return h.page.evaluate(
    (m) =>
      new Promise<number>((resolve) => {
        const t1 = performance.now();
        // Added after the bundle's own listener, so it runs once the webview has taken the message in.
        const onMessage = (): void => {
          window.removeEventListener('message', onMessage);
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t1)));
        };
        window.addEventListener('message', onMessage);
        window.postMessage(m, '*');
      }),
    msg,
  );
}

export interface ReopenResult {
  events: number;
  cacheBytes: number;
  /** Medians over the runs: whole span, Node part (read + deserialize + build), page part. */
  totalMs: number;
  nodeMs: number;
  pageMs: number;
  runs: number[];
}

/** Reopen a 10,000-event session: cache file → deserialize → init → webview painted. */
export async function benchReopen(runs = 5): Promise<ReopenResult> {
  const events = 10_000;
  const t = foldedTranscript(20, events / 20);
  const dir = await mkdtemp(join(tmpdir(), 'den-bench-cache-'));
  try {
    const cache = new TranscriptCache({ dir, maxBytes: 200 * 1024 * 1024 });
    await cache.write(SESSION, t);
    const cacheBytes = await cache.totalBytes();
    const total: number[] = [];
    const node: number[] = [];
    const page: number[] = [];
    for (let r = 0; r <= runs; r++) {
      const h = await openHarness();
      try {
        const t0 = performance.now();
        const read = await cache.read(SESSION);
        if (!read) throw new Error('the cache file did not read back');
        const msg: HostMessage = { type: 'init', seq: 1, ...initBody(read) };
        const t1 = performance.now();
        const inPage = await postAndPaint(h, msg);
        const t2 = performance.now();
        const rows = (await h.probe()).renderedBlocks;
        if (rows === 0) throw new Error('nothing rendered');
        // run 0 warms up the JIT and the file cache
        if (r === 0) continue;
        total.push(t2 - t0);
        node.push(t1 - t0);
        page.push(inPage);
      } finally {
        await h.close();
      }
    }
    return {
      events,
      cacheBytes,
      totalMs: median(total),
      nodeMs: median(node),
      pageMs: median(page),
      runs: total,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface LiveResult {
  events: number;
  measured: number;
  missing: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  postsPerSecond: number;
  maxPostsInOneSecond: number;
}

/** page clock − Node clock (epoch ms), from the round trip with the smallest time. */
async function clockOffset(h: Harness): Promise<number> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 20; i++) {
    const a = performance.timeOrigin + performance.now();
    const p = await h.page.evaluate(() => performance.timeOrigin + performance.now());
    const b = performance.timeOrigin + performance.now();
    if (b - a < best.rtt) best = { rtt: b - a, offset: p - (a + b) / 2 };
  }
  return best.offset;
}

/** Live events at `rate`/s through the real DeltaBatcher into the webview; per-event latency to the DOM. */
export async function benchLive(count = 2_000, rate = 200): Promise<LiveResult> {
  const h = await openHarness();
  try {
    const id = 'agent-live';
    const t = createTranscript(SESSION);
    const make = eventFactory({ messageId: id });
    const postTimes: number[] = [];
    let chain: Promise<unknown> = Promise.resolve();
    const batcher = new DeltaBatcher({
      transcript: () => t,
      init: () => initBody(t),
      post: (m) => {
        postTimes.push(performance.now());
        // Serialized like VS Code's channel: each post is delivered after the previous one.
        const json = JSON.parse(JSON.stringify(m)) as HostMessage;
        chain = chain.then(() => h.page.evaluate((x) => window.postMessage(x, '*'), json));
      },
    });
    batcher.push(
      beginTurn(t, { agentMessageId: id, userMessageId: 'user-live', text: 'Fix it', createdAt: Date.now() }),
    );
    batcher.setVisible(true, 'init');
    await chain;
    const offset = await clockOffset(h);
    // In the page: after each DOM change, note when the next expected tokens became present.
    await h.page.evaluate(() => {
      const w = window as unknown as { __seen: Record<number, number>; __next: number };
      w.__seen = {};
      w.__next = 0;
      const root = document.getElementById('transcript')!;
      new MutationObserver(() => {
        const now = performance.timeOrigin + performance.now();
        const text = root.textContent ?? '';
        while (text.includes(`zq${w.__next}q`)) w.__seen[w.__next++] = now;
      }).observe(root, { subtree: true, childList: true, characterData: true });
    });
    const sent: number[] = [];
    const start = performance.now();
    let token = 0;
    for (let i = 0; i < count; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      let e: AgentEvent;
      if (i === 5) e = make('tool.start', { tool_name: 'run_command' }, 'tool:live');
      else if (i > 5 && i % 25 === 0)
        e = make('tool.log', { stream: 'stdout', data: `line ${i}: ok\n` }, 'tool:live');
      else if (i % 40 === 0) e = make('thought', { thought: `step ${i}. ` }, 'thought:live');
      else {
        e = make('markdown.chunk', { delta: chunk(i, `zq${token}q`) }, 'answer:live');
        sent[token++] = performance.timeOrigin + performance.now();
      }
      batcher.push(applyEvent(t, id, e));
    }
    const feedSeconds = (performance.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 100));
    await chain;
    await h.page
      .waitForFunction((n) => (window as unknown as { __next: number }).__next >= n, token, { timeout: 5000 })
      .catch(() => undefined);
    const seen = await h.page.evaluate(
      () => (window as unknown as { __seen: Record<number, number> }).__seen,
    );
    batcher.dispose();
    const lat: number[] = [];
    for (let k = 0; k < token; k++) if (seen[k] !== undefined) lat.push(seen[k] - offset - sent[k]);
    let maxPosts = 0;
    for (let i = 0, j = 0; i < postTimes.length; i++) {
      while (postTimes[i] - postTimes[j] >= 1000) j++;
      maxPosts = Math.max(maxPosts, i - j + 1);
    }
    return {
      events: count,
      measured: lat.length,
      missing: token - lat.length,
      p50Ms: pct(lat, 50),
      p99Ms: pct(lat, 99),
      maxMs: Math.max(...lat),
      postsPerSecond: batcher.stats.posts / feedSeconds,
      maxPostsInOneSecond: maxPosts,
    };
  } finally {
    await h.close();
  }
}

/** One long answer of `count` chunks, with a tool block every 2,500 events around it. */
function longAnswer(messageId: string, count: number): AgentEvent[] {
  const ev = eventFactory({ messageId });
  const out: AgentEvent[] = [];
  for (let i = 1; i <= count; i++) {
    if (i % 2500 === 0) {
      const id = `tool:run_command:${i}`;
      out.push(ev('tool.start', { tool_name: 'run_command' }, id));
      out.push(ev('tool.log', { stream: 'stdout', data: `ran step ${i}\n`.repeat(20) }, id));
      out.push(ev('tool.result', { status: 'success', output: 'ok', finalize: true }, id));
    }
    out.push(ev('markdown.chunk', { delta: chunk(i) }, 'answer:main'));
  }
  out.push(ev('task.completed', {}));
  return out;
}

export interface LargeResult {
  events: number;
  heapMb: number;
  domNodes: number;
  scrollSteps: number;
  scrollMs: number;
  maxFrameMs: number;
  p95FrameMs: number;
}

/** A 50,000-chunk answer rendered: heap after GC, then a stepped scroll from top to bottom. */
export async function benchLarge(count = 50_000): Promise<LargeResult> {
  const t = foldedTranscript(1, count, longAnswer);
  const h = await openHarness();
  try {
    await postAndPaint(h, { type: 'init', seq: 1, ...initBody(t) });
    await h.frames(5);
    const cdp = await h.page.context().newCDPSession(h.page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? NaN;
    const scroll = await h.page.evaluate(async () => {
      const el = document.getElementById('transcript')!;
      const frame = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
      el.scrollTop = 0;
      for (let i = 0; i < 5; i++) await frame();
      const frames: number[] = [];
      let last = await frame();
      const t0 = performance.now();
      let steps = 0;
      // bounded: the page is far shorter than 5,000 steps of most of a viewport
      while (steps < 5000 && el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
        el.scrollTop += Math.floor(el.clientHeight * 0.8);
        steps++;
        const now = await frame();
        frames.push(now - last);
        last = now;
      }
      return {
        steps,
        ms: performance.now() - t0,
        frames,
        atBottom: el.scrollTop + el.clientHeight >= el.scrollHeight - 1,
      };
    });
    if (!scroll.atBottom) throw new Error(`scroll did not reach the bottom in ${scroll.steps} steps`);
    return {
      events: count,
      heapMb: metric('JSHeapUsedSize') / 1024 / 1024,
      domNodes: metric('Nodes'),
      scrollSteps: scroll.steps,
      scrollMs: scroll.ms,
      maxFrameMs: Math.max(...scroll.frames),
      p95FrameMs: pct(scroll.frames, 95),
    };
  } finally {
    await h.close();
  }
}

/** All three, with the browser closed at the end whatever happens. */
export async function benchPanel(): Promise<{ reopen: ReopenResult; live: LiveResult; large: LargeResult }> {
  try {
    const reopen = await benchReopen();
    const live = await benchLive();
    const large = await benchLarge();
    return { reopen, live, large };
  } finally {
    await closeBrowser();
  }
}
