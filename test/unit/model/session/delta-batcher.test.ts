import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn } from '../../../../src/core/transcript/reducer';
import {
  BURST_EVENTS,
  BURST_SPAN_MS,
  DeltaBatcher,
  MAX_POSTS_PER_SECOND,
  MAX_SPARSE_POSTS_PER_SECOND,
} from '../../../../src/model/session/delta-batcher';
import type { Delta, HostMessage } from '../../../../src/protocol/session-panel/messages';
import { transcriptViews } from '../../../../src/model/session/turn-view';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript, loadFixture } from '../../core/transcript/helpers';
import { FakeClock, LateClock } from '../shared/fake-clock';
import { ViewMirror } from './view-mirror';

interface Rig {
  t: Transcript;
  clock: FakeClock;
  batcher: DeltaBatcher;
  mirror: ViewMirror;
  posts: HostMessage[];
  /** Each post as delivered (a JSON copy taken when posted). */
  delivered: HostMessage[];
  /** Clock time of each post. */
  times: number[];
  /** Applies events to the transcript and hands the change sets to the batcher. */
  feed(events: AgentEvent[], agentMessageId?: string): void;
  /** Clock time of each event fed. */
  eventTimes: number[];
  batches(): Delta[][];
}

/** A live transcript, a batcher on a fake clock, shown and initialized, and a mirror of the view. */
function rig(
  opts: {
    initThreshold?: number;
    visible?: boolean;
    clock?: FakeClock;
    intervalMs?: number;
    sparseIntervalMs?: number;
    initTextBudget?: number;
  } = {},
): Rig {
  const clock = opts.clock ?? new FakeClock();
  const mirror = new ViewMirror();
  const posts: HostMessage[] = [];
  const delivered: HostMessage[] = [];
  const times: number[] = [];
  const r: Rig = {
    t: liveTranscript(),
    clock,
    mirror,
    posts,
    delivered,
    times,
    batcher: new DeltaBatcher({
      transcript: () => r.t,
      init: () => ({
        session: { sessionId: r.t.sessionId, title: 'T', service: 'example.test' },
        turns: transcriptViews(r.t),
        composer: { mode: 'code', effort: 'fast', attachments: [], running: true, queued: 0, sending: false },
        connection: { state: 'live' },
        notice: null,
        l10n: null,
      }),
      post: (m) => {
        posts.push(m);
        delivered.push(JSON.parse(JSON.stringify(m)) as HostMessage);
        times.push(clock.now());
        mirror.apply(m);
      },
      clock,
      initThreshold: opts.initThreshold,
      intervalMs: opts.intervalMs,
      sparseIntervalMs: opts.sparseIntervalMs,
      initTextBudget: opts.initTextBudget,
    }),
    feed(events, id = AGENT) {
      for (const ev of events) {
        r.eventTimes.push(clock.now());
        r.batcher.push(applyEvent(r.t, id, ev));
      }
    },
    eventTimes: [],
    batches: () => posts.flatMap((m) => (m.type === 'batch' ? [m.deltas] : [])),
  };
  if (opts.visible !== false) {
    r.batcher.setVisible(true, 'init');
  }
  return r;
}

function chunks(
  ev: ReturnType<typeof eventFactory>,
  n: number,
  blockId = 'answer:main',
  from = 0,
): AgentEvent[] {
  return Array.from({ length: n }, (_, i) => ev('markdown.chunk', { delta: `w${from + i} ` }, blockId));
}

/** The most posts in any second (any 1,000 ms from a post) among `times`. */
function mostInASecond(times: number[]): number {
  return Math.max(0, ...times.map((t0) => times.filter((t) => t >= t0 && t < t0 + 1000).length));
}

/**
 * When a burst began by the batcher's definition: the time of the first event with
 * {@link BURST_EVENTS} - 1 others within {@link BURST_SPAN_MS} before it (undefined: none did).
 */
function burstBegan(eventTimes: number[]): number | undefined {
  for (let i = BURST_EVENTS - 1; i < eventTimes.length; i++)
    if (eventTimes[i] - eventTimes[i - BURST_EVENTS + 1] < BURST_SPAN_MS) return eventTimes[i];
  return undefined;
}

/** The text of block `blockId` as the posts built it (`posts`: copies taken when posted), in order. */
function textPosted(posts: HostMessage[], blockId: string): string {
  let text = '';
  for (const m of posts) {
    if (m.type !== 'batch') continue;
    for (const d of m.deltas) {
      if (d.type === 'block' && d.block.id === blockId && 'text' in d.block) text = d.block.text;
      else if (d.type === 'append' && d.blockId === blockId) text += d.text;
    }
  }
  return text;
}

describe('DeltaBatcher', () => {
  describe('a long session goes short first', () => {
    /** A rig whose transcript's answer holds `paragraphs` paragraphs of about 100 characters. */
    function longRig(paragraphs: number, initTextBudget?: number, ev = eventFactory()): Rig {
      const r = rig({ visible: false, initTextBudget });
      r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
      for (let i = 0; i < paragraphs; i++)
        r.feed([ev('markdown.chunk', { delta: `Paragraph ${i} ${'x'.repeat(85)}.\n\n` }, 'answer:main')]);
      return r;
    }
    const answerOf = (m: HostMessage | undefined): string => {
      if (m?.type !== 'init') return '';
      const b = m.turns.at(-1)?.blocks.find((x) => x.id === 'answer:main');
      return b && 'text' in b ? b.text : '';
    };

    it('posts a short init (the newest paragraphs within the budget), then the whole one 34 ms later', () => {
      const r = longRig(400, 2_000);
      r.batcher.setVisible(true, 'init');
      assert.equal(r.posts.length, 1);
      const first = r.delivered[0];
      assert.equal(first.type === 'init' && first.partial, true);
      const short = answerOf(first);
      assert.ok(short.length > 0 && short.length <= 2_000, `${short.length} characters`);
      assert.ok(short.startsWith('Paragraph '), 'not cut at a paragraph');
      assert.ok(short.endsWith('Paragraph 399 ' + 'x'.repeat(85) + '.\n\n'), 'the newest text is not whole');
      // The whole one waits the burst window (34 ms), not a frame: the page paints the short one first.
      r.clock.advance(20);
      assert.equal(r.posts.length, 1, 'the whole init went within 20 ms');
      r.clock.advance(20);
      assert.equal(r.posts.length, 2);
      const whole = r.delivered[1];
      assert.equal(whole.type, 'init');
      assert.equal(whole.type === 'init' && whole.partial, undefined);
      assert.equal(answerOf(whole), (r.t.turns.at(-1)!.blocks[0] as { text: string }).text);
      assert.equal(r.batcher.stats.inits, 2);
      r.mirror.assertShows(r.t);
    });

    it('a change before the whole init is in it, not in a batch against the short one', () => {
      const ev = eventFactory();
      const r = longRig(400, 2_000, ev);
      r.batcher.setVisible(true, 'init');
      r.feed([ev('markdown.chunk', { delta: 'late words' }, 'answer:main')]);
      r.batcher.flush();
      assert.deepEqual(
        r.posts.map((m) => m.type),
        ['init', 'init'],
      );
      assert.ok(answerOf(r.delivered[1]).endsWith('late words'));
      r.clock.advance(100);
      assert.equal(r.posts.length, 2, 'the timer posted again');
      r.mirror.assertShows(r.t);
    });

    it('posts one whole init when the texts fit the budget, or with a budget of 0', () => {
      for (const [paragraphs, budget] of [
        [10, 2_000],
        [400, 0],
      ] as const) {
        const r = longRig(paragraphs, budget);
        r.batcher.setVisible(true, 'init');
        r.clock.advance(100);
        assert.equal(r.posts.length, 1, `${paragraphs} paragraphs, budget ${budget}`);
        assert.equal(r.delivered[0].type === 'init' && r.delivered[0].partial, undefined);
      }
    });
  });

  it('merges consecutive appends to the same block of one window into one append delta', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    r.clock.advance(100);
    r.feed(chunks(ev, 50));
    r.clock.advance(100);
    const last = r.batches().at(-1);
    assert.deepEqual(last, [
      {
        type: 'append',
        turnId: AGENT,
        blockId: 'answer:main',
        text: Array.from({ length: 50 }, (_, i) => `w${i} `).join(''),
      },
    ]);
    r.mirror.assertShows(r.t);
  });

  it('sends a block created and appended in the same window once, whole, without appends', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main'), ...chunks(ev, 20)]);
    r.clock.advance(50);
    const deltas = r.batches().flat();
    assert.equal(deltas.filter((d) => d.type === 'append').length, 0);
    const blocks = deltas.filter((d) => d.type === 'block');
    assert.equal(blocks.length, 1);
    const text = Array.from({ length: 20 }, (_, i) => `w${i} `).join('');
    assert.ok(blocks[0].type === 'block' && 'text' in blocks[0].block);
    assert.equal(blocks[0].block.text, text);
    r.mirror.assertShows(r.t);
  });

  it('collapses several header changes of one window into one turn delta with the latest values', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed([
      ev('task.phase', { phase: 'queued', eta_seconds: 30 }),
      ev('task.phase', { phase: 'running', eta_seconds: 20 }),
      ev('task.phase', { phase: 'writing', eta_seconds: 5 }),
    ]);
    r.clock.advance(50);
    const turns = r
      .batches()
      .flat()
      .filter((d) => d.type === 'turn');
    assert.equal(turns.length, 1);
    assert.ok(turns[0].type === 'turn');
    assert.equal(turns[0].turn.phase, 'writing');
    assert.equal(turns[0].turn.etaSeconds, 5);
    assert.equal(turns[0].turn.status, 'running');
  });

  it('posts a context.usage reading as a turn header delta, not as a block or a whole view', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed([ev('context.usage', { used_tokens: 18_432, max_tokens: 200_000 })]);
    r.clock.advance(100);
    const last = r.batches().at(-1);
    assert.deepEqual(
      last?.map((d) => (d.type === 'turn' ? ['turn', d.turn.contextUsage] : [d.type])),
      [['turn', { used: 18_432, max: 200_000, fraction: 0.09216 }]],
    );
    assert.equal(r.posts.filter((m) => m.type === 'init').length, 1, 'the first init only');
    r.feed([ev('context.usage', { used: 18_432, total: 200_000 })]);
    r.clock.advance(100);
    assert.equal(r.batches().length, 1, 'the same reading again posts nothing');
  });

  it('keeps tool log appends of different streams as separate runs, in order', () => {
    const r = rig();
    const ev = eventFactory();
    const id = 'tool:run_command:1';
    r.feed([ev('tool.start', { tool_name: 'run_command' }, id)]);
    r.clock.advance(50);
    r.feed([
      ev('tool.log', { stream: 'stdout', data: 'a' }, id),
      ev('tool.log', { stream: 'stdout', data: 'b' }, id),
      ev('tool.log', { stream: 'stderr', data: 'E' }, id),
      ev('tool.log', { stream: 'stdout', data: 'c' }, id),
    ]);
    r.clock.advance(50);
    assert.deepEqual(
      r
        .batches()
        .at(-1)
        ?.map((d) => (d.type === 'append' ? [d.stream, d.text] : d.type)),
      [
        ['stdout', 'ab'],
        ['stderr', 'E'],
        ['stdout', 'c'],
      ],
    );
    r.mirror.assertShows(r.t);
  });

  it('posts at most 30 times in any second of a burst of 1,000 events, and the view ends equal to the model', () => {
    const r = rig();
    const ev = eventFactory();
    const first = r.posts.length;
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    // 1,000 events over ~2 s, in uneven bursts: 1 to 9 events every 1 to 7 ms.
    let sent = 0;
    for (let step = 0; sent < 1000 && step < 5000; step++) {
      const n = Math.min(1000 - sent, 1 + (step % 9));
      r.feed(chunks(ev, n));
      sent += n;
      r.clock.advance(1 + (step % 7));
    }
    r.clock.advance(100);
    assert.equal(sent, 1000);
    const began = burstBegan(r.eventTimes) ?? Number.NaN;
    assert.ok(began < 200, `the burst began at ${began} ms`);
    const postTimes = r.times.slice(first);
    assert.ok(postTimes.length > 10, `only ${postTimes.length} posts`);
    for (const t0 of postTimes.filter((t) => t >= began)) {
      const inSecond = postTimes.filter((t) => t >= t0 && t < t0 + 1000).length;
      assert.ok(inSecond <= MAX_POSTS_PER_SECOND, `${inSecond} posts in the second from ${t0} ms`);
    }
    // Before the burst shows, a frame apart; after, the burst's window apart.
    for (let i = 1; i < postTimes.length; i++)
      assert.ok(postTimes[i] - postTimes[i - 1] >= (postTimes[i - 1] >= began ? 33 : 16));
    assert.ok(r.batcher.stats.posts < 100, `${r.batcher.stats.posts} posts for 1,000 events`);
    r.mirror.assertShows(r.t);
  });

  it('posts a change of a sparse stream at once, when the synchronous work that brought it ends, without waiting for the window', () => {
    const clock = new LateClock();
    const r = rig({ clock });
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    clock.advance(100);
    for (let i = 0; i < 10; i++) {
      const before = r.posts.length;
      // Three events handled in one go (one socket message), 60 ms after the last post.
      r.feed(chunks(ev, 3, 'answer:main', 3 * i));
      assert.equal(r.posts.length, before, 'posted before the synchronous work ended');
      clock.drain();
      assert.equal(r.posts.length, before + 1, `change ${i} waited for a timer`);
      assert.equal(r.times.at(-1), clock.now(), 'posted later than the change');
      assert.equal(r.batches().at(-1)?.length, 1, 'the three appends as one delta');
      clock.advance(60);
    }
    assert.equal(clock.pending, 0, 'a timer left behind');
    r.mirror.assertShows(r.t);
  });

  it('posts a sparse change at once on a clock without `defer` too, on its next turn (a 0 ms timer)', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    r.clock.advance(100);
    const before = r.posts.length;
    r.feed(chunks(ev, 2));
    r.clock.advance(0);
    assert.equal(r.posts.length, before + 1);
    assert.equal(r.times.at(-1), 100);
    r.mirror.assertShows(r.t);
  });

  it('coalesces what comes inside the window after a post into one post at its end', () => {
    const clock = new LateClock();
    const r = rig({ clock });
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    clock.advance(100);
    r.feed(chunks(ev, 1));
    clock.drain();
    const first = r.times.at(-1) ?? 0;
    for (let i = 1; i <= 3; i++) {
      clock.advance(5);
      r.feed(chunks(ev, 1, 'answer:main', i));
    }
    clock.advance(100);
    // A sparse stream: the window is a frame.
    assert.deepEqual(r.times.slice(-2), [first, first + 17]);
    assert.equal(textPosted(r.delivered, 'answer:main'), 'w0 w1 w2 w3 ');
    r.mirror.assertShows(r.t);
  });

  it('keeps a steady 200 events/s stream (not a burst) near a post a frame although its timers run late, never more than 60 in a second, losing, repeating and reordering nothing', () => {
    // Timers late by 0 to 12 ms, unevenly (an event loop busy with other work).
    const clock = new LateClock((n) => [4, 0, 9, 2, 12, 5, 1][n % 7]);
    const r = rig({ clock });
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    clock.advance(100);
    const start = r.posts.length;
    for (let i = 0; i < 1000; i++) {
      r.feed(chunks(ev, 1, 'answer:main', i));
      clock.advance(5);
    }
    clock.advance(200);
    assert.equal(burstBegan(r.eventTimes), undefined, '200 events/s counted as a burst');
    const times = r.times.slice(start);
    assert.ok(
      mostInASecond(times) <= MAX_SPARSE_POSTS_PER_SECOND,
      `${mostInASecond(times)} posts in a second`,
    );
    // 5 s of stream: a fixed 17 ms window after each post would sag to 1000 / (17 + 4.7) ≈ 46 posts/s;
    // a post late by less than half a window starts the next from when it was due (9 and 12 do not).
    const rate = (times.length - 1) / ((times.at(-1)! - times[0]) / 1000);
    assert.ok(rate >= 49, `${rate.toFixed(1)} posts/s`);
    const expected = Array.from({ length: 1000 }, (_, i) => `w${i} `).join('');
    assert.equal(textPosted(r.delivered, 'answer:main'), expected);
    r.mirror.assertShows(r.t);
  });

  it('never posts more than 60 times in a second while the stream is sparse, whatever the window', () => {
    // A 5 ms window would allow 200 posts a second: the cap holds it to one a frame.
    const clock = new LateClock((n) => n % 3);
    const r = rig({ clock, sparseIntervalMs: 5 });
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    clock.advance(100);
    const start = r.posts.length;
    for (let i = 0; i < 600; i++) {
      r.feed(chunks(ev, 1, 'answer:main', i));
      clock.advance(5);
    }
    clock.advance(200);
    assert.equal(burstBegan(r.eventTimes), undefined);
    const times = r.times.slice(start);
    assert.ok(
      mostInASecond(times) <= MAX_SPARSE_POSTS_PER_SECOND,
      `${mostInASecond(times)} posts in a second`,
    );
    assert.ok(times.length >= 150, `only ${times.length} posts in 3 s`);
    assert.equal(
      textPosted(r.delivered, 'answer:main'),
      Array.from({ length: 600 }, (_, i) => `w${i} `).join(''),
    );
    r.mirror.assertShows(r.t);
  });

  it('goes to the burst window at once when a sparse stream turns into a burst (no wait for the sparse posts to age), and back to a frame when it calms', () => {
    const clock = new LateClock();
    const r = rig({ clock });
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    clock.advance(100);
    let i = 0;
    // 1 s at 200 events/s: a post a frame, about 59 in the second.
    for (; i < 200; i++, clock.advance(5)) r.feed(chunks(ev, 1, 'answer:main', i));
    const sparseEnd = clock.now();
    // 1 s at 1,000 events/s.
    for (; i < 1200; i++, clock.advance(1)) r.feed(chunks(ev, 1, 'answer:main', i));
    const burstEnd = clock.now();
    // 1 s at 100 events/s.
    for (; i < 1300; i++, clock.advance(10)) r.feed(chunks(ev, 1, 'answer:main', i));
    clock.advance(100);
    const began = burstBegan(r.eventTimes) ?? Number.NaN;
    assert.ok(began >= sparseEnd && began < sparseEnd + BURST_SPAN_MS, `the burst began at ${began}`);
    const during = r.times.filter((t) => t >= began && t < burstEnd);
    const gaps = during.slice(1).map((t, k) => t - during[k]);
    assert.ok(Math.max(...gaps) <= 34, `a gap of ${Math.max(...gaps)} ms at the burst's start`);
    assert.ok(Math.min(...gaps) >= 33, `posts ${Math.min(...gaps)} ms apart in the burst`);
    assert.ok(mostInASecond(during) <= MAX_POSTS_PER_SECOND, `${mostInASecond(during)} posts in a second`);
    // Calm again (an event every 10 ms): a post a frame, not every other frame.
    const calm = r.times.filter((t) => t >= burstEnd + BURST_SPAN_MS);
    const calmGaps = calm.slice(1).map((t, k) => t - calm[k]);
    assert.ok(calm.length >= 40 && Math.max(...calmGaps) <= 20, `calm: ${calmGaps.join(', ')} ms apart`);
    assert.equal(
      textPosted(r.delivered, 'answer:main'),
      Array.from({ length: 1300 }, (_, k) => `w${k} `).join(''),
    );
    r.mirror.assertShows(r.t);
  });

  it('never posts more than 30 times in a second under a dense burst, whatever the lateness of its timers or the window', () => {
    const lateness = [
      (): number => 0,
      (n: number): number => (n % 3 === 0 ? 16 : 0),
      (n: number): number => n % 17,
    ];
    // A 20 ms window would allow 50 posts a second: the cap holds it to 30.
    for (const [late, intervalMs] of lateness.flatMap((l) => [[l, 34] as const, [l, 20] as const])) {
      const clock = new LateClock(late);
      const r = rig({ clock, intervalMs });
      const ev = eventFactory();
      r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
      const start = r.posts.length;
      // 3 s of an event every millisecond.
      for (let i = 0; i < 3000; i++) {
        r.feed(chunks(ev, 1, 'answer:main', i));
        clock.advance(1);
      }
      // The cap can hold the last post back until a second after the 30th before it.
      clock.advance(1000);
      const began = burstBegan(r.eventTimes) ?? Number.NaN;
      assert.ok(began < BURST_SPAN_MS, `the burst began at ${began} ms`);
      const times = r.times.slice(start);
      const inBurst = times.filter((t) => t >= began);
      assert.ok(
        mostInASecond(inBurst) <= MAX_POSTS_PER_SECOND,
        `${mostInASecond(inBurst)} posts in a second`,
      );
      // Before it showed as a burst, the stream had a post a frame at most.
      const before = times.length - inBurst.length;
      assert.ok(before <= Math.ceil(began / 16) + 1, `${before} posts before the burst showed`);
      assert.ok(times.length >= 80, `only ${times.length} posts in 3 s`);
      assert.equal(
        textPosted(r.delivered, 'answer:main'),
        Array.from({ length: 3000 }, (_, i) => `w${i} `).join(''),
      );
      r.mirror.assertShows(r.t);
    }
  });

  it('posts nothing for a sparse change once hidden, even one already on its way', () => {
    const clock = new LateClock();
    const r = rig({ clock });
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main')]);
    clock.advance(100);
    const shown = r.posts.length;
    r.feed(chunks(ev, 1));
    r.batcher.setVisible(false); // before the synchronous work ends
    clock.drain();
    for (let i = 1; i < 10; i++) {
      clock.advance(100);
      r.feed(chunks(ev, 1, 'answer:main', i));
      clock.drain();
    }
    clock.advance(1000);
    assert.equal(r.posts.length, shown, 'posted while hidden');
    assert.equal(clock.pending, 0, 'a timer runs while hidden');
    r.batcher.setVisible(true);
    assert.equal(r.posts.length, shown + 1);
    r.mirror.assertShows(r.t);
  });

  it('turns a synchronous burst of 1,000 events into a single post', () => {
    const r = rig();
    const ev = eventFactory();
    const before = r.batcher.stats.posts;
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main'), ...chunks(ev, 999)]);
    r.clock.advance(1000);
    assert.equal(r.batcher.stats.posts - before, 1);
    r.mirror.assertShows(r.t);
  });

  it('posts nothing while hidden and catches up with one post of current content when shown', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed([ev('block.create', { type: 'markdown' }, 'answer:main'), ...chunks(ev, 5)]);
    r.clock.advance(50);
    const shownPosts = r.batcher.stats.posts;
    r.batcher.setVisible(false);
    r.feed(chunks(ev, 500));
    r.feed(loadFixture('coding-turn.jsonl').map((e) => ({ ...e, event_id: e.event_id + 10_000 })));
    r.clock.advance(5_000);
    assert.equal(r.batcher.stats.posts, shownPosts, 'posted while hidden');
    assert.equal(r.clock.pending, 0, 'a timer runs while hidden');
    r.batcher.setVisible(true);
    assert.equal(r.batcher.stats.posts, shownPosts + 1);
    const catchUp = r.posts.at(-1);
    assert.equal(catchUp?.type, 'batch');
    // Only what changed was kept while hidden, not the appends themselves.
    assert.ok(catchUp?.type === 'batch' && catchUp.deltas.every((d) => d.type !== 'append'));
    r.mirror.assertShows(r.t);
  });

  it('catches up with an init when too much changed while hidden', () => {
    const r = rig({ initThreshold: 3 });
    const ev = eventFactory();
    r.batcher.setVisible(false);
    r.feed(['a', 'b', 'c', 'd', 'e'].map((x) => ev('text', { text: x }, `text:${x}`)));
    r.batcher.setVisible(true);
    assert.equal(r.posts.at(-1)?.type, 'init');
    r.mirror.assertShows(r.t);
  });

  it('sends a turn created in a window whole (header, blocks, plan) and later turns after it', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed(loadFixture('plan-turn.jsonl'), 'agent-plan');
    const cs = beginTurn(r.t, {
      agentMessageId: 'agent-next',
      text: 'next',
      status: 'queued',
      queuePosition: 1,
    });
    r.batcher.push(cs);
    r.feed([ev('task.phase', { phase: 'running' })], 'agent-next');
    r.clock.advance(50);
    r.mirror.assertShows(r.t);
    assert.equal(r.mirror.turns.at(-1)?.status, 'running');
  });

  it('keeps only the latest composer, connection and notice deltas of a window', () => {
    const r = rig();
    r.batcher.pushView({ type: 'connection', connection: { state: 'reconnecting' } });
    r.batcher.pushView({ type: 'notice', notice: { level: 'info', message: 'x', actions: [] } });
    r.batcher.pushView({ type: 'connection', connection: { state: 'live' } });
    r.clock.advance(50);
    assert.deepEqual(r.batches().at(-1), [
      { type: 'notice', notice: { level: 'info', message: 'x', actions: [] } },
      { type: 'connection', connection: { state: 'live' } },
    ]);
  });

  it('numbers every post, whatever its type, one more than the last', () => {
    const r = rig();
    const ev = eventFactory();
    r.feed(chunks(ev, 3));
    r.clock.advance(50);
    assert.ok(r.batcher.send({ type: 'probe', id: 'p1' }));
    r.batcher.sendInit();
    r.feed(chunks(ev, 3));
    r.clock.advance(50);
    assert.deepEqual(
      r.posts.map((m) => m.seq),
      r.posts.map((_, i) => i + 1),
    );
    assert.deepEqual(
      r.posts.map((m) => m.type),
      ['init', 'batch', 'probe', 'init', 'batch'],
    );
    assert.equal(r.batcher.seq, 5);
  });

  it('sends nothing, not even direct messages, before it is shown', () => {
    const r = rig({ visible: false });
    const ev = eventFactory();
    r.feed(chunks(ev, 3));
    assert.equal(r.batcher.send({ type: 'focusComposer' }), false);
    assert.equal(r.batcher.sendInit(), false);
    r.clock.advance(1000);
    assert.equal(r.posts.length, 0);
  });
});
