import assert from 'node:assert/strict';
import type { Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import { IndexFeeder, type CachedTranscripts } from '../../../../src/model/search/index-feeder';
import { memoryStore } from '../../../../src/model/search/search-store';
import { SessionSearchIndex } from '../../../../src/model/search/session-index';
import { eventFactory } from '../../../support/events';
import { FakeClock } from '../shared/fake-clock';

function transcript(id: string, word: string): Transcript {
  const t = createTranscript(id, `Title ${id}`);
  beginTurn(t, { agentMessageId: `m-${id}`, text: `request of ${id}` });
  const ev = eventFactory();
  applyEvent(t, `m-${id}`, ev('text', { text: `the answer says ${word}` }));
  return t;
}

async function sessionsWith(index: SessionSearchIndex, word: string): Promise<string[]> {
  const r = await index.search(word);
  assert.ok(r.ok);
  return r.sessions.map((s) => s.sessionId);
}

function cacheOf(entries: Record<string, { usedAt: number; t: Transcript }>) {
  const reads: string[] = [];
  const cache: CachedTranscripts = {
    list: () =>
      Promise.resolve(Object.entries(entries).map(([sessionId, e]) => ({ sessionId, usedAt: e.usedAt }))),
    read: (id, options) => {
      assert.equal(options.touch, false, 'the feeder reads without marking the session used');
      reads.push(id);
      return Promise.resolve(entries[id]?.t);
    },
  };
  return { cache, reads };
}

describe('model/search/index-feeder', () => {
  it('indexes a changed session once changes pause, not on every change', async () => {
    const clock = new FakeClock();
    const index = new SessionSearchIndex({ store: memoryStore() });
    let t = transcript('s1', 'alpha');
    let asked = 0;
    const feeder = new IndexFeeder({
      index,
      clock,
      debounceMs: 100,
      maxWaitMs: 1_000,
      transcriptOf: () => {
        asked++;
        return t;
      },
    });
    feeder.changed('s1');
    clock.advance(50);
    feeder.changed('s1');
    clock.advance(60);
    assert.equal(asked, 0, 'still changing: not indexed yet');
    t = transcript('s1', 'bravo');
    clock.advance(100);
    assert.equal(asked, 1);
    await feeder.flush();
    assert.deepEqual(await sessionsWith(index, 'bravo'), ['s1']);
    assert.deepEqual(await sessionsWith(index, 'alpha'), []);
  });

  it('indexes a session that keeps changing at the latest after maxWaitMs', async () => {
    const clock = new FakeClock();
    const index = new SessionSearchIndex({ store: memoryStore() });
    let asked = 0;
    const feeder = new IndexFeeder({
      index,
      clock,
      debounceMs: 100,
      maxWaitMs: 300,
      transcriptOf: () => {
        asked++;
        return transcript('s1', 'charlie');
      },
    });
    for (let i = 0; i < 10; i++) {
      feeder.changed('s1');
      clock.advance(50);
    }
    assert.equal(asked, 1);
  });

  it('flush indexes what is pending at once; dispose drops it', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    const feeder = new IndexFeeder({
      index,
      clock: new FakeClock(),
      transcriptOf: (id) => transcript(id, 'delta'),
    });
    feeder.changed('a');
    await feeder.flush();
    assert.deepEqual(await sessionsWith(index, 'delta'), ['a']);
    feeder.changed('b');
    feeder.dispose();
    feeder.changed('c');
    await feeder.flush();
    assert.deepEqual(await sessionsWith(index, 'delta'), ['a']);
  });

  it('indexes the cached sessions written since they were indexed, and only those', async () => {
    let now = 1_000;
    const index = new SessionSearchIndex({ store: memoryStore(), now: () => now });
    await index.putTranscript(transcript('old', 'echo'));
    await index.putTranscript(transcript('fresh', 'echo'));
    now = 2_000;
    const { cache, reads } = cacheOf({
      old: { usedAt: 500, t: transcript('old', 'foxtrot') },
      fresh: { usedAt: 1_500, t: transcript('fresh', 'foxtrot') },
      new: { usedAt: 1_200, t: transcript('new', 'foxtrot') },
    });
    const feeder = new IndexFeeder({ index, cache, transcriptOf: () => undefined });
    assert.equal(await feeder.indexCache(), 2);
    assert.deepEqual(reads, ['fresh', 'new'], 'newest first, the one indexed after its write skipped');
    assert.deepEqual((await sessionsWith(index, 'foxtrot')).sort(), ['fresh', 'new']);
    assert.equal(await feeder.indexCache(), 0, 'a second pass has nothing to do');
  });

  it('a cache that fails to list is logged, not thrown', async () => {
    const warnings: string[] = [];
    const feeder = new IndexFeeder({
      index: new SessionSearchIndex({ store: memoryStore() }),
      cache: { list: () => Promise.reject(new Error('EACCES')), read: () => Promise.resolve(undefined) },
      transcriptOf: () => undefined,
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (m: string) => void warnings.push(m),
        error: () => undefined,
      },
    });
    assert.equal(await feeder.indexCache(), 0);
    assert.match(warnings.join('\n'), /EACCES/);
  });

  it('fetches and indexes the sessions the index lacks, counting failures, until cancelled', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.putTranscript(transcript('here', 'golf'));
    const feeder = new IndexFeeder({ index, transcriptOf: () => undefined });
    const loaded: string[] = [];
    const progress: number[] = [];
    const r = await feeder.fetchAndIndex(
      ['here', 'a', 'broken', 'b', 'c'],
      (id) => {
        loaded.push(id);
        return id === 'broken' ? Promise.reject(new Error('404')) : Promise.resolve(transcript(id, 'golf'));
      },
      { progress: (done) => progress.push(done), cancelled: () => progress.length >= 3 },
    );
    assert.deepEqual(loaded, ['a', 'broken', 'b'], 'one at a time, never the one indexed, stops on cancel');
    assert.deepEqual(r, { indexed: 2, failed: 1 });
    assert.deepEqual((await sessionsWith(index, 'golf')).sort(), ['a', 'b', 'here']);
  });
});
