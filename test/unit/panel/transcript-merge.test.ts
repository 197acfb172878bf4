import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/api/types';
import type { Transcript } from '../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../src/core/transcript/reducer';
import { DeltaBatcher } from '../../../src/panel/delta-batcher';
import { mergeFresh } from '../../../src/panel/transcript-merge';
import { transcriptViews } from '../../../src/panel/turn-view';
import { SESSION, loadFixture } from '../transcript/helpers';
import { FakeClock } from './fake-clock';
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

  it('takes the title of the fresh copy', () => {
    const fresh = build(['a1']);
    fresh.title = 'Renamed';
    assert.equal(mergeFresh(build(['a1']), fresh).transcript.title, 'Renamed');
  });
});
