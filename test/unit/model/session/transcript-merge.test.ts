import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import { DeltaBatcher } from '../../../../src/model/session/delta-batcher';
import { mergeFresh, reconcileTurn } from '../../../../src/model/session/transcript-merge';
import type { Delta } from '../../../../src/protocol/session-panel/messages';
import type { Block } from '../../../../src/core/transcript/model';
import { transcriptViews } from '../../../../src/model/session/turn-view';
import { SESSION, loadFixture } from '../../core/transcript/helpers';
import { FakeClock } from '../shared/fake-clock';
import { ViewMirror } from './view-mirror';

/** A transcript with turns `ids`, each folded from the first `upTo` events of the coding fixture. */
function build(ids: string[], upTo = Infinity): Transcript {
  const events = loadFixture('coding-turn.jsonl');
  const t = createTranscript(SESSION, 'Merge');
  for (const id of ids) {
    beginTurn(t, { agentMessageId: id, text: `task ${id}`, createdAt: 1 });
    for (const ev of events.slice(0, upTo)) applyEvent(t, id, ev as AgentEvent);
  }
  return t;
}

/** Shows `before` in a mirror, merges `fresh` in through a batcher, returns the mirror. */
function showMerge(
  before: Transcript,
  fresh: Transcript,
): { mirror: ViewMirror; merged: Transcript; inits: number } {
  const clock = new FakeClock();
  const mirror = new ViewMirror();
  let current = before;
  const batcher = new DeltaBatcher({
    transcript: () => current,
    init: () => ({
      session: { sessionId: SESSION, title: '', service: '' },
      turns: transcriptViews(current),
      composer: { mode: 'auto', effort: 'fast', attachments: [], running: false, queued: 0, sending: false },
      connection: { state: 'idle' },
      notice: null,
      l10n: null,
    }),
    post: (m) => mirror.apply(m),
    clock,
  });
  batcher.setVisible(true, 'init');
  const r = mergeFresh(before, fresh);
  current = r.transcript;
  if (r.changes) for (const cs of r.changes) batcher.push(cs);
  else batcher.invalidate();
  clock.advance(100);
  return { mirror, merged: current, inits: mirror.count('init') };
}

describe('mergeFresh', () => {
  it('brings a cached view up to date with deltas: a grown turn and a new one', () => {
    const cached = build(['a1'], 10);
    const fresh = build(['a1', 'a2']);
    const { mirror, merged, inits } = showMerge(cached, fresh);
    assert.equal(inits, 1, 'repainted instead of updated');
    mirror.assertShows(merged);
    assert.deepEqual(JSON.parse(JSON.stringify(merged.turns)), JSON.parse(JSON.stringify(fresh.turns)));
  });

  it('reports no change when the fresh copy equals what is shown', () => {
    const t = build(['a1', 'a2']);
    const r = mergeFresh(t, build(['a1', 'a2']));
    assert.ok(r.changes);
    for (const cs of r.changes) {
      assert.deepEqual(
        [
          cs.blocksCreated,
          cs.blocksUpdated,
          cs.statusChanged,
          cs.turnInfoChanged,
          cs.planChanged,
          cs.filesChanged,
        ],
        [[], [], false, false, false, false],
      );
    }
  });

  it('keeps a live turn that is ahead of the fresh copy, and a just-started turn the copy lacks', () => {
    const live = build(['a1', 'a2']);
    beginTurn(live, { agentMessageId: 'a3', text: 'just sent', status: 'queued' });
    const stale = build(['a1', 'a2'], 5);
    const r = mergeFresh(live, stale);
    assert.equal(r.transcript.turns[1], live.turns[1]);
    assert.equal(r.transcript.turns.length, 3);
    assert.equal(r.transcript.turns[2].agentMessageId, 'a3');
  });

  it('asks for a repaint when the shown turns are not a prefix of the fresh ones', () => {
    const { mirror, merged, inits } = showMerge(build(['a1', 'a2']), build(['a2']));
    assert.equal(inits, 2);
    mirror.assertShows(merged);
  });

  it('updates turns in place, so whoever holds a turn sees its fresh content', () => {
    const shown = build(['a1'], 3);
    const held = shown.turns[0];
    const fresh = build(['a1']);
    const r = mergeFresh(shown, fresh);
    assert.equal(r.transcript.turns[0], held);
    assert.equal(held.status, 'completed');
    assert.deepEqual(JSON.parse(JSON.stringify(held)), JSON.parse(JSON.stringify(fresh.turns[0])));
  });

  it('keeps the fast/think choice and mode the stored turn lacks: the badges read the same after the turn ends', () => {
    const live = createTranscript(SESSION, 'Merge');
    beginTurn(live, { agentMessageId: 'a1', text: 'task a1', mode: 'plan', effort: 'fast', createdAt: 1 });
    const events = loadFixture('coding-turn.jsonl');
    for (const ev of events.slice(0, 3)) applyEvent(live, 'a1', ev as AgentEvent);
    const stored = build(['a1']);
    // The service stores the mode (`inputMode`) but never the fast/think choice.
    stored.turns[0].userMessage.mode = 'plan';
    const { mirror, merged } = showMerge(live, stored);
    const u = merged.turns[0].userMessage;
    assert.equal(u.effort, 'fast');
    assert.equal(u.mode, 'plan');
    assert.equal(merged.turns[0].status, 'completed');
    mirror.assertShows(merged);
    // A stored mode wins over the shown one; a turn never seen here has no effort to keep.
    const other = build(['a1', 'a2']);
    other.turns[0].userMessage.mode = 'code';
    const again = mergeFresh(merged, other).transcript;
    assert.equal(again.turns[0].userMessage.mode, 'code');
    assert.equal(again.turns[0].userMessage.effort, 'fast');
    assert.equal(again.turns[1].userMessage.effort, undefined);
  });

  it('takes the title of the fresh copy', () => {
    const fresh = build(['a1']);
    fresh.title = 'Renamed';
    assert.equal(mergeFresh(build(['a1']), fresh).transcript.title, 'Renamed');
  });

  it('updates a turn whose blocks were removed, moved or added in between with deltas, never a repaint', () => {
    const fresh = build(['a1']);
    const shown = build(['a1']);
    const blocks = shown.turns[0].blocks;
    // a summary that lacked some blocks, had one of its own and another order
    blocks.splice(1, 2);
    blocks.reverse();
    blocks.push({ type: 'generic', id: 'focus:7', kind: 'block.create', payload: { type: 'focus' } });
    const { mirror, merged, inits } = showMerge(shown, fresh);
    assert.equal(inits, 1, 'repainted instead of updated');
    mirror.assertShows(merged);
  });
});

/** The deltas a batcher posts for one ChangeSet on a transcript already shown. */
function deltasOf(t: Transcript, apply: () => ReturnType<typeof reconcileTurn>): Delta[] {
  const clock = new FakeClock();
  const posted: Delta[] = [];
  const batcher = new DeltaBatcher({
    transcript: () => t,
    init: () => ({
      session: { sessionId: SESSION, title: '', service: '' },
      turns: transcriptViews(t),
      composer: { mode: 'auto', effort: 'fast', attachments: [], running: false, queued: 0, sending: false },
      connection: { state: 'idle' },
      notice: null,
      l10n: null,
    }),
    post: (m) => {
      if (m.type === 'batch') posted.push(...m.deltas);
    },
    clock,
  });
  batcher.setVisible(true, 'init');
  const cs = apply();
  if (cs) batcher.push(cs);
  clock.advance(100);
  return posted;
}

describe('reconcileTurn', () => {
  const events = loadFixture('coding-turn.jsonl') as AgentEvent[];

  function shownAndStored(): { shown: Transcript; stored: Transcript } {
    const shown = build(['a1']);
    const stored = build(['a1']);
    return { shown, stored };
  }

  it('changes nothing and sends nothing when the shown turn equals the stored one', () => {
    const { shown, stored } = shownAndStored();
    const deltas = deltasOf(shown, () => reconcileTurn(shown.turns[0], stored.turns[0]));
    assert.deepEqual(deltas, []);
  });

  it('sends only the blocks that differ: appended text as appends, others whole, then the order', () => {
    const { shown, stored } = shownAndStored();
    const turn = shown.turns[0];
    const answer = turn.blocks.find((b) => b.type === 'markdown') as Extract<Block, { type: 'markdown' }>;
    answer.text = answer.text.slice(0, 20);
    const tool = turn.blocks.findIndex((b) => b.type === 'tool');
    const removedTool = turn.blocks.splice(tool, 1)[0];
    turn.blocks.push({ type: 'generic', id: 'x#fields', kind: 'block.fields', payload: { a: 1 } });
    turn.files = [];
    const deltas = deltasOf(shown, () => reconcileTurn(turn, stored.turns[0]));
    const stored0 = stored.turns[0];
    assert.deepEqual(
      deltas.map((d) =>
        d.type === 'block' ? `block ${d.block.id}` : d.type === 'append' ? `append ${d.blockId}` : d.type,
      ),
      [`block ${removedTool.id}`, `append ${answer.id}`, 'blockOrder', 'files'],
    );
    const order = deltas.find((d) => d.type === 'blockOrder');
    assert.deepEqual(
      order?.type === 'blockOrder' && order.blockIds,
      stored0.blocks.map((b) => b.id),
    );
    assert.deepEqual(JSON.parse(JSON.stringify(turn)), JSON.parse(JSON.stringify(stored0)));
  });

  it('keeps the request as shown and takes everything the events make from the stored turn', () => {
    const { shown, stored } = shownAndStored();
    const turn = shown.turns[0];
    turn.userMessage.effort = 'think';
    stored.turns[0].userMessage.createdAt = 99;
    const held = turn;
    reconcileTurn(turn, stored.turns[0]);
    assert.equal(shown.turns[0], held);
    assert.equal(turn.userMessage.effort, 'think');
    assert.equal(turn.userMessage.createdAt, 1);
    assert.equal(turn.lastEventId, events.length);
    assert.equal(turn.lastStreamEntryId, stored.turns[0].lastStreamEntryId);
  });
});
