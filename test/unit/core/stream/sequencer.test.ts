import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import { Sequencer, type SequencerOptions } from '../../../../src/core/stream/sequencer';

type Step =
  | { push: number; at?: number; noSid?: boolean }
  | { expire: number; ended?: boolean; closed?: boolean }
  | { reconnect: true }
  | { snapshot: number; sid?: string; at?: number; final?: boolean };

interface Case {
  name: string;
  options?: SequencerOptions;
  steps: Step[];
  /** One entry per push (its outcome) or expire (its action). */
  outcomes: string[];
  delivered: number[];
  cursor: string;
  lastEventId: number;
}

function ev(id: number, withSid = true): AgentEvent {
  const e: AgentEvent = { event_id: id, kind: 'markdown.chunk', payload: { delta: `#${id}` }, timestamp: id };
  if (withSid) e.stream_entry_id = `1000-${id}`;
  return e;
}

/** Runs a case; `next` tries `pushNext` before each `push`, as `SessionStream` does. */
function run(c: Case, next = false): { outcomes: string[]; delivered: number[]; seq: Sequencer } {
  const seq = new Sequencer({ windowMs: 1000, ...c.options });
  const outcomes: string[] = [];
  const delivered: number[] = [];
  for (const s of c.steps) {
    if ('push' in s && next && seq.pushNext(ev(s.push, !s.noSid), s.at ?? 0)) {
      outcomes.push('delivered');
      delivered.push(s.push);
    } else if ('push' in s) {
      const r = seq.push(ev(s.push, !s.noSid), s.at ?? 0);
      outcomes.push(r.outcome);
      delivered.push(...r.ready.map((e) => e.event_id));
    } else if ('expire' in s) {
      const r = seq.expire(s.expire, s.ended, s.closed);
      outcomes.push(r.action);
      if (r.action === 'baseline' || r.action === 'snapshot')
        delivered.push(...r.ready.map((e) => e.event_id));
    } else if ('reconnect' in s) {
      seq.beginConnection();
    } else {
      seq.applySnapshot(s.snapshot, s.sid, s.at ?? 0, s.final);
    }
  }
  return { outcomes, delivered, seq };
}

const cases: Case[] = [
  {
    name: 'delivers events that arrive in order at once',
    steps: [{ push: 1 }, { push: 2 }, { push: 3 }],
    outcomes: ['delivered', 'delivered', 'delivered'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
  {
    name: 'drops duplicates of delivered events',
    steps: [{ push: 1 }, { push: 2 }, { push: 2 }, { push: 1 }, { push: 3 }],
    outcomes: ['delivered', 'delivered', 'duplicate', 'duplicate', 'delivered'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
  {
    name: 'drops a duplicate of an event held back',
    steps: [{ push: 1 }, { push: 3 }, { push: 3 }, { push: 2 }],
    outcomes: ['delivered', 'buffered', 'duplicate', 'delivered'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
  {
    name: 'holds events after a gap and releases them in order when it fills',
    steps: [{ push: 1 }, { push: 3 }, { push: 4 }, { push: 2 }],
    outcomes: ['delivered', 'buffered', 'buffered', 'delivered'],
    delivered: [1, 2, 3, 4],
    cursor: '1000-4',
    lastEventId: 4,
  },
  {
    name: 'keeps the cursor at the last delivered event while events are held',
    steps: [{ push: 1 }, { push: 3 }, { push: 4 }],
    outcomes: ['delivered', 'buffered', 'buffered'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'keeps the last known cursor when delivered events carry no stream_entry_id',
    steps: [{ push: 1 }, { push: 2, noSid: true }, { push: 3, noSid: true }],
    outcomes: ['delivered', 'delivered', 'delivered'],
    delivered: [1, 2, 3],
    cursor: '1000-1',
    lastEventId: 3,
  },
  {
    name: 'asks for a replay when a gap outlives the window, and not before',
    steps: [{ push: 1 }, { push: 3, at: 10 }, { expire: 500 }, { expire: 1010 }],
    outcomes: ['delivered', 'buffered', 'none', 'resync'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'after a replay request, delivers the replayed gap once',
    steps: [
      { push: 1 },
      { push: 3 },
      { expire: 1000 },
      { reconnect: true },
      { push: 2 },
      { push: 3 },
      { push: 3 },
    ],
    outcomes: ['delivered', 'buffered', 'resync', 'delivered', 'delivered', 'duplicate'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
  {
    name: 'gives a remaining gap a fresh window after progress',
    steps: [
      { push: 1 },
      { push: 3, at: 0 },
      { push: 5, at: 0 },
      { push: 2, at: 900 },
      { expire: 1500 },
      { expire: 1900 },
    ],
    outcomes: ['delivered', 'buffered', 'buffered', 'delivered', 'none', 'resync'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
  {
    name: 'reports an overflow instead of holding more than the bound',
    options: { maxBuffered: 2 },
    steps: [{ push: 1 }, { push: 3 }, { push: 4 }, { push: 5 }],
    outcomes: ['delivered', 'buffered', 'buffered', 'overflow'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'skips events up to a lastEventId given by the caller',
    options: { lastEventId: 10 },
    steps: [{ push: 5 }, { push: 10 }, { push: 11 }],
    outcomes: ['duplicate', 'duplicate', 'delivered'],
    delivered: [11],
    cursor: '1000-11',
    lastEventId: 11,
  },
  {
    name: 'accepts swapped first events from the start without any baseline guess',
    steps: [{ push: 2 }, { push: 1 }],
    outcomes: ['buffered', 'delivered'],
    delivered: [1, 2],
    cursor: '1000-2',
    lastEventId: 2,
  },
  {
    name: 'without a cursor, takes a later first event as the start once a fresh replay agrees',
    steps: [
      { push: 5 },
      { push: 6 },
      { expire: 1000 },
      { reconnect: true },
      { push: 5, at: 1100 },
      { push: 6, at: 1100 },
      { expire: 2100 },
      { push: 7, at: 2100 },
    ],
    outcomes: ['buffered', 'buffered', 'resync', 'buffered', 'buffered', 'baseline', 'delivered'],
    delivered: [5, 6, 7],
    cursor: '1000-7',
    lastEventId: 7,
  },
  {
    name: 'without a cursor, prefers the lower first event a later replay shows',
    steps: [
      { push: 5 },
      { expire: 1000 },
      { reconnect: true },
      { push: 4, at: 1100 },
      { push: 5, at: 1100 },
      { expire: 2100 },
      { reconnect: true },
      { push: 4, at: 2200 },
      { push: 5, at: 2200 },
      { expire: 3200 },
    ],
    outcomes: ['buffered', 'resync', 'buffered', 'buffered', 'resync', 'buffered', 'buffered', 'baseline'],
    delivered: [4, 5],
    cursor: '1000-5',
    lastEventId: 5,
  },
  {
    name: 'without a cursor, stops guessing after the bounded number of replays',
    options: { maxBaselineAttempts: 2 },
    steps: [{ push: 9 }, { expire: 1000 }, { reconnect: true }, { push: 8, at: 1000 }, { expire: 2000 }],
    outcomes: ['buffered', 'resync', 'buffered', 'baseline'],
    delivered: [8],
    cursor: '1000-8',
    lastEventId: 8,
  },
  {
    name: 'with a cursor but no event id, takes the first event after the cursor as the start',
    options: { cursor: '1000-30' },
    steps: [{ push: 32 }, { push: 31 }, { expire: 1000 }, { push: 33 }],
    outcomes: ['buffered', 'buffered', 'baseline', 'delivered'],
    delivered: [31, 32, 33],
    cursor: '1000-33',
    lastEventId: 33,
  },
  {
    name: 'with a cursor but no event id, decides at once when the connection ends',
    options: { cursor: '1000-30' },
    steps: [{ push: 31 }, { push: 32 }, { expire: 5, ended: true }],
    outcomes: ['buffered', 'buffered', 'baseline'],
    delivered: [31, 32],
    cursor: '1000-32',
    lastEventId: 32,
  },
  {
    name: 'from the start, counts a connection end as one replay observed',
    steps: [
      { push: 5 },
      { expire: 5, ended: true },
      { reconnect: true },
      { push: 5, at: 10 },
      { push: 6, at: 10 },
      { expire: 20, ended: true },
    ],
    outcomes: ['buffered', 'resync', 'buffered', 'buffered', 'baseline'],
    delivered: [5, 6],
    cursor: '1000-6',
    lastEventId: 6,
  },
  {
    name: 'has nothing to decide on a connection end without held events',
    steps: [{ push: 1 }, { expire: 5, ended: true }],
    outcomes: ['delivered', 'none'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'takes a snapshot as a summary: the replay from before it is delivered in full',
    options: { lastEventId: 0 },
    steps: [{ snapshot: 5, sid: '1000-5' }, ...[1, 2, 3, 4, 5, 6, 7].map((push) => ({ push }))],
    outcomes: Array<string>(7).fill('delivered'),
    delivered: [1, 2, 3, 4, 5, 6, 7],
    cursor: '1000-7',
    lastEventId: 7,
  },
  {
    name: 'keeps the cursor and the last event id at what was delivered, not at what a snapshot claims',
    steps: [{ push: 1 }, { snapshot: 5, sid: '1000-5' }, { push: 3 }],
    outcomes: ['delivered', 'buffered'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'after a cut right after a snapshot, delivers the next connection’s replay from before it',
    steps: [
      { push: 1 },
      { push: 2 },
      { snapshot: 6, sid: '1000-6' },
      { reconnect: true },
      { snapshot: 6, sid: '1000-6' },
      ...[2, 3, 4, 5, 6].map((push) => ({ push })),
    ],
    outcomes: ['delivered', 'delivered', 'duplicate', 'delivered', 'delivered', 'delivered', 'delivered'],
    delivered: [1, 2, 3, 4, 5, 6],
    cursor: '1000-6',
    lastEventId: 6,
  },
  {
    name: 'takes a snapshot as covering the events up to its last_event_id only once they fail to come',
    options: { lastEventId: 0 },
    steps: [
      { snapshot: 5, sid: '1000-5', at: 0 },
      { push: 6, at: 10 },
      { push: 7, at: 10 },
      { expire: 500 },
      { expire: 1010 },
      { push: 4, at: 1010 },
      { push: 8, at: 1010 },
    ],
    outcomes: ['buffered', 'buffered', 'none', 'snapshot', 'duplicate', 'delivered'],
    delivered: [6, 7, 8],
    cursor: '1000-8',
    lastEventId: 8,
  },
  {
    name: 'waits for a snapshot’s events with no event after it, then takes the snapshot',
    options: { lastEventId: 2 },
    steps: [{ snapshot: 5, sid: '1000-5', at: 0 }, { expire: 999 }, { expire: 1000 }],
    outcomes: ['none', 'snapshot'],
    delivered: [],
    cursor: '1000-5',
    lastEventId: 5,
  },
  {
    name: 'gives a snapshot’s events a fresh window while the replay makes progress',
    steps: [
      { snapshot: 3, at: 0 },
      { push: 1, at: 900 },
      { expire: 1500 },
      { push: 2, at: 1800 },
      { push: 3, at: 1800 },
      { expire: 5000 },
    ],
    outcomes: ['delivered', 'none', 'delivered', 'delivered', 'none'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
  {
    name: 'on a connection end, waits for the replay a running turn’s snapshot promises',
    steps: [{ push: 1 }, { snapshot: 4, sid: '1000-4' }, { expire: 5, ended: true }],
    outcomes: ['delivered', 'none'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'takes a finished turn’s snapshot when the service closes without its events, not on a cut',
    steps: [
      { push: 1 },
      { snapshot: 4, sid: '1000-4', final: true },
      { expire: 5, ended: true },
      { reconnect: true },
      { snapshot: 4, sid: '1000-4', final: true },
      { expire: 10, ended: true, closed: true },
    ],
    outcomes: ['delivered', 'none', 'snapshot'],
    delivered: [1],
    cursor: '1000-4',
    lastEventId: 4,
  },
  {
    name: 'on a connection end, takes a snapshot when events after it came without the ones it claims',
    options: { lastEventId: 0 },
    steps: [{ snapshot: 3, sid: '1000-3' }, { push: 4 }, { push: 5 }, { expire: 5, ended: true }],
    outcomes: ['buffered', 'buffered', 'snapshot'],
    delivered: [4, 5],
    cursor: '1000-5',
    lastEventId: 5,
  },
  {
    name: 'on a connection end, does not take a snapshot while events it claims are missing in between',
    options: { lastEventId: 0 },
    steps: [{ snapshot: 3, sid: '1000-3' }, { push: 1 }, { push: 3 }, { expire: 5, ended: true }],
    outcomes: ['delivered', 'buffered', 'resync'],
    delivered: [1],
    cursor: '1000-1',
    lastEventId: 1,
  },
  {
    name: 'forgets a snapshot’s claim on a new connection (that connection sends its own)',
    steps: [{ push: 1 }, { snapshot: 4, at: 0 }, { reconnect: true }, { expire: 5000 }, { push: 2 }],
    outcomes: ['delivered', 'none', 'delivered'],
    delivered: [1, 2],
    cursor: '1000-2',
    lastEventId: 2,
  },
  {
    name: 'a new message followed from the session’s cursor falls back to 0-0 when its first event does not come',
    options: { lastEventId: 0, cursor: '1000-50', cursorIsHint: true },
    steps: [{ push: 2 }, { expire: 1000 }],
    outcomes: ['buffered', 'resync'],
    delivered: [],
    cursor: '0-0',
    lastEventId: 0,
  },
  {
    name: 'keeps the session’s cursor once the message’s first event came',
    options: { lastEventId: 0, cursor: '1000-50', cursorIsHint: true },
    steps: [{ push: 1, noSid: true }, { push: 3 }, { expire: 1000 }],
    outcomes: ['delivered', 'buffered', 'resync'],
    delivered: [1],
    cursor: '1000-50',
    lastEventId: 1,
  },
  {
    name: 'ignores a snapshot behind what was delivered',
    steps: [{ push: 1 }, { push: 2 }, { snapshot: 1, sid: '1000-1' }, { push: 3 }],
    outcomes: ['delivered', 'delivered', 'delivered'],
    delivered: [1, 2, 3],
    cursor: '1000-3',
    lastEventId: 3,
  },
];

describe('Sequencer', () => {
  for (const c of cases) {
    it(c.name, () => {
      const { outcomes, delivered, seq } = run(c);
      assert.deepEqual(outcomes, c.outcomes);
      assert.deepEqual(delivered, c.delivered);
      assert.equal(seq.cursor, c.cursor);
      assert.equal(seq.lastEventId, c.lastEventId);
    });
    it(`${c.name} (with pushNext first, the same)`, () => {
      const { outcomes, delivered, seq } = run(c, true);
      assert.deepEqual(outcomes, c.outcomes);
      assert.deepEqual(delivered, c.delivered);
      assert.equal(seq.cursor, c.cursor);
      assert.equal(seq.lastEventId, c.lastEventId);
      assert.equal(seq.gapDeadline, run(c).seq.gapDeadline);
    });
  }

  it('pushNext takes only the next event with nothing held back, and otherwise changes nothing', () => {
    const seq = new Sequencer({ windowMs: 50 });
    assert.equal(seq.pushNext(ev(2), 0), false, 'a gap');
    assert.equal(seq.lastEventId, 0);
    assert.equal(seq.buffered, 0);
    assert.equal(seq.pushNext(ev(1), 0), true);
    assert.equal(seq.pushNext(ev(1), 0), false, 'a duplicate');
    assert.deepEqual([seq.lastEventId, seq.cursor], [1, '1000-1']);
    seq.push(ev(3), 10);
    assert.equal(seq.pushNext(ev(2), 20), false, 'event 3 is held: push releases it with 2');
    assert.deepEqual([seq.lastEventId, seq.buffered, seq.gapDeadline], [1, 1, 60]);
    assert.deepEqual(
      seq.push(ev(2), 20).ready.map((e) => e.event_id),
      [2, 3],
    );
    assert.equal(seq.gapDeadline, undefined);
  });

  it('pushNext keeps a snapshot claim waiting with a fresh window, as push does', () => {
    const seq = new Sequencer({ windowMs: 50 });
    seq.applySnapshot(3, '1000-3', 0);
    assert.equal(seq.pushNext(ev(1), 30), true);
    assert.equal(seq.gapDeadline, 80);
    assert.equal(seq.snapshotPending, true);
    assert.equal(seq.pushNext(ev(2), 40), true);
    assert.equal(seq.pushNext(ev(3, false), 45), true);
    assert.equal(seq.snapshotPending, false);
    assert.equal(seq.gapDeadline, undefined);
    assert.equal(seq.cursorBehind, true, 'event 3 came without a stream_entry_id');
  });

  it('starts from 0-0 with nothing delivered', () => {
    const seq = new Sequencer();
    assert.equal(seq.cursor, '0-0');
    assert.equal(seq.lastEventId, 0);
    assert.equal(seq.gapDeadline, undefined);
  });

  it('clears held events and the gap deadline on a new connection', () => {
    const seq = new Sequencer({ windowMs: 50 });
    seq.push(ev(1), 0);
    seq.push(ev(3), 10);
    assert.equal(seq.gapDeadline, 60);
    assert.equal(seq.buffered, 1);
    seq.beginConnection();
    assert.equal(seq.gapDeadline, undefined);
    assert.equal(seq.buffered, 0);
  });

  it('delivers 100,000 shuffled-in-pairs events exactly once, in order', () => {
    const seq = new Sequencer();
    const out: number[] = [];
    for (let i = 1; i <= 100_000; i += 2) {
      for (const id of [i + 1, i, i]) out.push(...seq.push(ev(id), i).ready.map((e) => e.event_id));
    }
    assert.equal(out.length, 100_000);
    for (let i = 0; i < out.length; i++) assert.equal(out[i], i + 1);
  });
});
