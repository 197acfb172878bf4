/**
 * The delta batcher alone on a fake clock (`npm run bench -- batcher`): a stream of marked chunks
 * through the real `DeltaBatcher`, its timers made late as a busy extension host makes them. Per
 * stream: posts per second, the most posts in any second (from the stream's first 250 ms on, when a
 * burst has shown as one), and each event's wait for the post that
 * carries it (p50 / p99 / max). Deterministic: no wall clock, the same figures every run.
 */
import { applyEvent } from '../src/core/transcript/reducer';
import { BURST_SPAN_MS, DeltaBatcher, type InitBody } from '../src/model/session/delta-batcher';
import type { HostMessage } from '../src/protocol/session-panel/messages';
import { transcriptViews } from '../src/model/session/turn-view';
import { eventFactory } from '../test/support/events';
import { AGENT, liveTranscript } from '../test/unit/core/transcript/helpers';
import { LateClock } from '../test/unit/model/shared/fake-clock';

export interface BatcherRow {
  stream: string;
  postsPerSecond: number;
  /** The most posts in any second once the stream has run for {@link BURST_SPAN_MS} (a burst shows by then). */
  mostInASecond: number;
  waitP50: number;
  waitP99: number;
  waitMax: number;
}

const LATE_PATTERN = [4, 0, 9, 2, 12, 5, 1];

/** Each stream: a name, the lateness of the n-th timer, the gap between events (ms), how many. */
const STREAMS: [string, (n: number) => number, number, number][] = [
  ['200 events/s, timers on time', () => 0, 5, 2000],
  ['200 events/s, timers 4 ms late', () => 4, 5, 2000],
  ['200 events/s, timers 0-12 ms late (mean 4.7)', (n) => LATE_PATTERN[n % 7], 5, 2000],
  ['sparse: an event every 100 ms, timers 1 ms late', () => 1, 100, 100],
  ['an event every 40 ms, timers 1 ms late', () => 1, 40, 250],
  ['400 events/s (a burst), timers 0-12 ms late', (n) => LATE_PATTERN[n % 7], 2.5, 2000],
  ['a dense burst: an event every ms for 3 s, timers 0-12 ms late', (n) => LATE_PATTERN[n % 7], 1, 3000],
];

function run(stream: string, late: (n: number) => number, gapMs: number, events: number): BatcherRow {
  const clock = new LateClock(late);
  const t = liveTranscript();
  const ev = eventFactory();
  const posts: { at: number; text: string }[] = [];
  const init = (): InitBody => ({
    session: { sessionId: t.sessionId, title: 'T', service: 'example.test' },
    turns: transcriptViews(t),
    composer: { mode: 'code', effort: 'fast', attachments: [], running: true, queued: 0, sending: false },
    connection: { state: 'live' },
    notice: null,
    l10n: null,
  });
  const batcher = new DeltaBatcher({
    transcript: () => t,
    init,
    post: (m: HostMessage) => posts.push({ at: clock.now(), text: JSON.stringify(m) }),
    clock,
  });
  batcher.setVisible(true, 'init');
  batcher.push(applyEvent(t, AGENT, ev('block.create', { type: 'markdown' }, 'answer:main')));
  clock.advance(200);
  const first = posts.length;
  const emitted: number[] = [];
  for (let i = 0; i < events; i++) {
    emitted.push(clock.now());
    batcher.push(applyEvent(t, AGENT, ev('markdown.chunk', { delta: `⟦${i}⟧ ` }, 'answer:main')));
    clock.advance(gapMs);
  }
  clock.advance(500);
  const sent = posts.slice(first);
  const waits: number[] = [];
  for (const p of sent) for (const m of p.text.matchAll(/⟦(\d+)⟧/g)) waits.push(p.at - emitted[Number(m[1])]);
  waits.sort((a, b) => a - b);
  const at = (q: number): number => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))] ?? NaN;
  const times = sent.map((p) => p.at);
  const span = (times[times.length - 1] - times[0]) / 1000;
  return {
    stream,
    postsPerSecond: (times.length - 1) / span,
    mostInASecond: Math.max(
      ...times
        .filter((t0) => t0 >= emitted[0] + BURST_SPAN_MS)
        .map((t0) => times.filter((x) => x >= t0 && x < t0 + 1000).length),
    ),
    waitP50: at(0.5),
    waitP99: at(0.99),
    waitMax: waits[waits.length - 1] ?? NaN,
  };
}

export function benchBatcher(): BatcherRow[] {
  return STREAMS.map(([name, late, gap, n]) => run(name, late, gap, n));
}
