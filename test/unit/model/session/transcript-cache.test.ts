import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Transcript } from '../../../../src/core/transcript/model';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { serializeTranscript } from '../../../../src/core/transcript/serialize';
import { JOIN_EVERY } from '../../../../src/core/transcript/streamed-text';
import { eventFactory } from '../../../support/events';
import { TranscriptCache } from '../../../../src/model/session/transcript-cache';
import { AGENT, fold, liveTranscript, loadFixture } from '../../core/transcript/helpers';
import { FakeClock } from '../shared/fake-clock';

/** A transcript of a recorded coding turn, for session `id`. */
function transcript(id: string, title = 'Cached'): Transcript {
  const { t } = fold(loadFixture('coding-turn.jsonl'));
  return { ...t, sessionId: id, title };
}

const sizeOf = (t: Transcript): number => Buffer.byteLength(serializeTranscript(t));

describe('TranscriptCache', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-cache-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads back exactly what it wrote, from <dir>/<sessionId>.json', async () => {
    const cache = new TranscriptCache({ dir: path.join(dir, 'transcripts') });
    const t = transcript('4f1c2d6e-0000-4000-8000-000000000001');
    await cache.write(t.sessionId, t);
    assert.ok(fs.existsSync(path.join(dir, 'transcripts', `${t.sessionId}.json`)));
    assert.deepEqual(await cache.read(t.sessionId), JSON.parse(JSON.stringify(t)));
    // A second instance (another window, after a reload) reads it too.
    assert.deepEqual(
      await new TranscriptCache({ dir: path.join(dir, 'transcripts') }).read(t.sessionId),
      await cache.read(t.sessionId),
    );
  });

  it('answers undefined for a session it never saw, and when its folder does not exist', async () => {
    const cache = new TranscriptCache({ dir: path.join(dir, 'missing') });
    assert.equal(await cache.read('nope'), undefined);
    assert.equal(await cache.totalBytes(), 0);
  });

  const corrupt: [string, string][] = [
    ['not JSON', '{"version":1,"transcript":'],
    ['another version', JSON.stringify({ version: 99, transcript: { sessionId: 's1', turns: [] } })],
    [
      'a wrong shape',
      JSON.stringify({ version: 1, transcript: { sessionId: 's1', turns: [{ nope: true }] } }),
    ],
    ['another session', JSON.stringify({ version: 1, transcript: { sessionId: 'other', turns: [] } })],
  ];
  for (const [what, text] of corrupt) {
    it(`ignores and removes a cached file with ${what}`, async () => {
      const cache = new TranscriptCache({ dir });
      fs.writeFileSync(path.join(dir, 's1.json'), text);
      assert.equal(await cache.read('s1'), undefined);
      assert.equal(fs.existsSync(path.join(dir, 's1.json')), false);
    });
  }

  it('keeps a session id with slashes or dots inside its folder', async () => {
    const cache = new TranscriptCache({ dir });
    for (const id of ['../escape', '..', 'a/b']) {
      await cache.write(id, transcript(id));
      assert.equal((await cache.read(id))?.sessionId, id);
    }
    assert.deepEqual(
      fs.readdirSync(path.dirname(dir)).filter((f) => f.includes('escape')),
      [],
    );
    assert.equal(fs.readdirSync(dir).length, 3);
  });

  it('lists the sessions the folder holds (ids decoded, also those another window wrote), with their last use', async () => {
    const cache = new TranscriptCache({ dir });
    for (const id of ['plain', '../escape', 'a/b']) await cache.write(id, transcript(id));
    await new TranscriptCache({ dir }).write('other-window', transcript('other-window'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a transcript');
    const listed = await cache.list();
    assert.deepEqual(listed.map((e) => e.sessionId).sort(), ['../escape', 'a/b', 'other-window', 'plain']);
    for (const e of listed) assert.ok(e.usedAt > 0);
  });

  it("a read with touch: false leaves the file's last use as it was", async () => {
    const cache = new TranscriptCache({ dir });
    await cache.write('s', transcript('s'));
    const file = path.join(dir, 's.json');
    const old = new Date(2020, 0, 1);
    fs.utimesSync(file, old, old);
    assert.equal((await cache.read('s', { touch: false }))?.sessionId, 's');
    assert.equal(fs.statSync(file).mtimeMs, old.getTime());
    await cache.read('s');
    assert.ok(fs.statSync(file).mtimeMs > old.getTime());
  });

  it('evicts the least recently used files when the total exceeds the cap, keeping the newest write', async () => {
    const one = sizeOf(transcript('s0'));
    const cache = new TranscriptCache({ dir, maxBytes: Math.floor(one * 3.5) });
    for (const id of ['s0', 's1', 's2']) {
      await cache.write(id, transcript(id));
      // distinct modification times, older first
      const when = new Date(Date.now() - 60_000 + Number(id.slice(1)) * 1000);
      fs.utimesSync(path.join(dir, `${id}.json`), when, when);
    }
    // Reading s0 makes it the most recently used.
    const fresh = new TranscriptCache({ dir, maxBytes: Math.floor(one * 3.5) });
    assert.ok(await fresh.read('s0'));
    await fresh.write('s3', transcript('s3'));
    const left = fs.readdirSync(dir).sort();
    assert.deepEqual(left, ['s0.json', 's2.json', 's3.json']);
    assert.ok((await fresh.totalBytes()) <= one * 3.5);
  });

  describe('kept in memory (a host that closed hands its transcript over)', () => {
    it('a read takes the kept transcript itself, without the file; the next read is the file', async () => {
      const cache = new TranscriptCache({ dir });
      const t = transcript('s');
      await cache.write('s', t, { keep: true });
      assert.deepEqual(cache.keptInMemory, ['s']);
      fs.writeFileSync(path.join(dir, 's.json'), 'not JSON');
      assert.equal(await cache.read('s'), t);
      assert.deepEqual(cache.keptInMemory, []);
      // taken out: the next read is the file's (here unreadable: removed)
      assert.equal(await cache.read('s'), undefined);
    });

    it('a read with touch: false (the search index) gets the file, and leaves the kept one', async () => {
      const cache = new TranscriptCache({ dir });
      const t = transcript('s', 'kept');
      await cache.write('s', t, { keep: true });
      const copy = await cache.read('s', { touch: false });
      assert.notEqual(copy, t);
      assert.equal(copy?.title, 'kept');
      assert.deepEqual(cache.keptInMemory, ['s']);
    });

    it('keeps the newest few (keepInMemory), none with 0, and not what is too big to cache', async () => {
      const cache = new TranscriptCache({ dir, keepInMemory: 2 });
      for (const id of ['a', 'b', 'c']) await cache.write(id, transcript(id), { keep: true });
      assert.deepEqual(cache.keptInMemory, ['b', 'c']);
      // keeping one again makes it the newest (another object, or the same one)
      await cache.write('b', transcript('b'), { keep: true });
      assert.deepEqual(cache.keptInMemory, ['c', 'b']);
      const c = transcript('c');
      await cache.write('c', c, { keep: true });
      await cache.write('b', transcript('b'), { keep: true });
      await cache.write('c', c, { keep: true });
      assert.deepEqual(cache.keptInMemory, ['b', 'c']);
      const none = new TranscriptCache({ dir: path.join(dir, 'none'), keepInMemory: 0 });
      await none.write('a', transcript('a'), { keep: true });
      assert.deepEqual(none.keptInMemory, []);
      const small = new TranscriptCache({ dir: path.join(dir, 'small'), maxBytes: 1000 });
      await small.write('big', transcript('big'), { keep: true });
      assert.deepEqual(small.keptInMemory, []);
    });

    it('a write of another transcript, a removal and dispose drop the kept one', async () => {
      const cache = new TranscriptCache({ dir });
      const old = transcript('s', 'old');
      await cache.write('s', old, { keep: true });
      // the closed host's own scheduled write, landing after its close, keeps it
      await cache.write('s', old);
      assert.deepEqual(cache.keptInMemory, ['s']);
      await cache.write('s', transcript('s', 'new'));
      assert.deepEqual(cache.keptInMemory, []);
      assert.equal((await cache.read('s'))?.title, 'new');
      await cache.write('s', transcript('s'), { keep: true });
      await cache.remove('s');
      assert.equal(await cache.read('s'), undefined);
      await cache.write('t', transcript('t'), { keep: true });
      await cache.dispose();
      assert.deepEqual(cache.keptInMemory, []);
    });
  });

  it('does not cache a transcript bigger than the whole cap', async () => {
    const cache = new TranscriptCache({ dir, maxBytes: 1000 });
    await cache.write('big', transcript('big'));
    assert.equal(await cache.read('big'), undefined);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('debounces scheduled writes and writes the latest state once quiet', async () => {
    const clock = new FakeClock();
    const cache = new TranscriptCache({ dir, debounceMs: 1000, maxWaitMs: 5000, clock });
    let calls = 0;
    let t = transcript('s1', 'first');
    const get = (): Transcript => {
      calls++;
      return t;
    };
    for (let i = 0; i < 10; i++) {
      cache.schedule('s1', get);
      clock.advance(500);
    }
    // Changes kept coming for 5 s: the max wait forced one write meanwhile.
    assert.equal(calls, 1);
    t = transcript('s1', 'latest');
    cache.schedule('s1', get);
    clock.advance(999);
    assert.equal(calls, 1);
    clock.advance(1);
    assert.equal(calls, 2);
    await cache.flush();
    assert.equal((await cache.read('s1'))?.title, 'latest');
  });

  it('writes what is scheduled on flush, without waiting for the timer', async () => {
    const clock = new FakeClock();
    const cache = new TranscriptCache({ dir, debounceMs: 60_000, clock });
    cache.schedule('s1', () => transcript('s1', 'flushed'));
    await cache.flush();
    assert.equal(clock.pending, 0);
    assert.equal((await cache.read('s1'))?.title, 'flushed');
  });

  it('never leaves a partial file behind: writes go through a temporary file', async () => {
    const cache = new TranscriptCache({ dir });
    await Promise.all([1, 2, 3, 4, 5].map((n) => cache.write('s1', transcript('s1', `v${n}`))));
    assert.equal((await cache.read('s1'))?.title, 'v5');
    assert.deepEqual(fs.readdirSync(dir), ['s1.json']);
  });

  it('keeps a streaming answer’s text whole through a write and a read, chunks not yet joined included', async () => {
    const cache = new TranscriptCache({ dir: path.join(dir, 'transcripts') });
    const t = liveTranscript();
    const ev = eventFactory();
    const chunks = Array.from({ length: JOIN_EVERY * 2 + 7 }, (_, i) => `chunk ${i}, `);
    for (const delta of chunks) applyEvent(t, AGENT, ev('markdown.chunk', { delta }, 'answer:main'));
    await cache.write(t.sessionId, t);
    const back = await cache.read(t.sessionId);
    assert.ok(back);
    assert.deepEqual(back.turns[0].blocks, [
      { type: 'markdown', id: 'answer:main', text: chunks.join(''), final: false },
    ]);
    // Reopened from the cache, the answer goes on streaming where it stopped.
    applyEvent(back, AGENT, ev('markdown.chunk', { delta: 'the end.' }, 'answer:main'));
    const b = back.turns[0].blocks[0];
    assert.ok(b.type === 'markdown');
    assert.equal(b.text, `${chunks.join('')}the end.`);
  });
});
