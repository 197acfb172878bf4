import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn } from '../../../../src/core/transcript/reducer';
import { DeltaBatcher } from '../../../../src/model/session/delta-batcher';
import type { Delta, HostMessage } from '../../../../src/protocol/session-panel/messages';
import { transcriptViews } from '../../../../src/model/session/turn-view';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript, loadFixture } from '../../core/transcript/helpers';
import { FakeClock } from '../shared/fake-clock';
import { ViewMirror } from './view-mirror';

interface Rig {
  t: Transcript;
  clock: FakeClock;
  batcher: DeltaBatcher;
  mirror: ViewMirror;
  posts: HostMessage[];
  /** Clock time of each post. */
  times: number[];
  /** Applies events to the transcript and hands the change sets to the batcher. */
  feed(events: AgentEvent[], agentMessageId?: string): void;
  batches(): Delta[][];
}

/** A live transcript, a batcher on a fake clock, shown and initialized, and a mirror of the view. */
function rig(opts: { initThreshold?: number; visible?: boolean } = {}): Rig {
  const clock = new FakeClock();
  const mirror = new ViewMirror();
  const posts: HostMessage[] = [];
  const times: number[] = [];
  const r: Rig = {
    t: liveTranscript(),
    clock,
    mirror,
    posts,
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
        times.push(clock.now());
        mirror.apply(m);
      },
      clock,
      initThreshold: opts.initThreshold,
    }),
    feed(events, id = AGENT) {
      for (const ev of events) r.batcher.push(applyEvent(r.t, id, ev));
    },
    batches: () => posts.flatMap((m) => (m.type === 'batch' ? [m.deltas] : [])),
  };
  if (opts.visible !== false) {
    r.batcher.setVisible(true, 'init');
  }
  return r;
}

function chunks(ev: ReturnType<typeof eventFactory>, n: number, blockId = 'answer:main'): AgentEvent[] {
  return Array.from({ length: n }, (_, i) => ev('markdown.chunk', { delta: `w${i} ` }, blockId));
}

describe('DeltaBatcher', () => {
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

  it('posts at most 30 times in any second while 1,000 events stream in, and the view ends equal to the model', () => {
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
    const postTimes = r.times.slice(first);
    assert.ok(postTimes.length > 10, `only ${postTimes.length} posts`);
    for (const t0 of postTimes) {
      const inSecond = postTimes.filter((t) => t >= t0 && t < t0 + 1000).length;
      assert.ok(inSecond <= 30, `${inSecond} posts in the second from ${t0} ms`);
    }
    for (let i = 1; i < postTimes.length; i++) assert.ok(postTimes[i] - postTimes[i - 1] >= 33);
    assert.ok(r.batcher.stats.posts < 100, `${r.batcher.stats.posts} posts for 1,000 events`);
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
