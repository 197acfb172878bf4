import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SearchField } from '../../../../src/core/search/fields';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import { folderStore, memoryStore } from '../../../../src/model/search/search-store';
import {
  indexSessions,
  SessionSearchIndex,
  type SearchResults,
} from '../../../../src/model/search/session-index';
import { eventFactory } from '../../../support/events';

const answer = (turnId: string, text: string, blockId = 'answer:main'): SearchField => ({
  address: { turnId, blockId, kind: 'answer', index: 0 },
  text,
});

function clockFrom(start = 1_000) {
  let now = start;
  return () => now++;
}

async function found(index: SessionSearchIndex, query: string, maxHits?: number): Promise<SearchResults> {
  const r = await index.search(query, {}, { maxHits });
  assert.ok(r.ok, 'the query compiles');
  return r;
}

const sessionsOf = (r: SearchResults) => r.sessions.map((s) => s.sessionId);

describe('model/search/session-index', () => {
  it('finds text grouped by session and turn, with a line of context and the address', async () => {
    const index = new SessionSearchIndex({ store: memoryStore(), now: clockFrom() });
    await index.put(
      's1',
      [
        answer('turn-1', 'first\nwhere the migration is explained\nlast'),
        answer('turn-1', 'nothing', 'text:main'),
        answer('turn-2', 'the migration again'),
      ],
      'Session one',
    );
    await index.put('s2', [answer('turn-9', 'no match here')]);
    const r = await found(index, 'Migration');
    assert.equal(r.count, 2);
    assert.equal(r.capped, false);
    assert.deepEqual(
      r.sessions.map((s) => ({ id: s.sessionId, title: s.title, turns: s.turns.map((t) => t.turnId) })),
      [{ id: 's1', title: 'Session one', turns: ['turn-1', 'turn-2'] }],
    );
    const hit = r.sessions[0].turns[0].hits[0];
    assert.deepEqual(hit.address, { turnId: 'turn-1', blockId: 'answer:main', kind: 'answer', index: 0 });
    assert.equal(hit.line.text, 'where the migration is explained');
    assert.equal(hit.line.text.slice(hit.line.start, hit.line.end), 'migration');
    assert.equal(hit.start, 'first\nwhere the '.length, 'where the match starts in its field');
    assert.equal(r.sessions[0].turns[1].hits[0].start, 'the '.length);
  });

  /** Indexes one answer per session, then runs the regex: the sessions found, and the texts read. */
  async function regexOver(texts: Record<string, string>, regex: string) {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store });
    for (const [id, text] of Object.entries(texts)) await index.put(id, [answer('t', text)]);
    const reads: string[] = [];
    const read = store.read.bind(store);
    store.read = (name) => {
      reads.push(name);
      return read(name);
    };
    const r = await index.search(regex, { regex: true });
    assert.ok(r.ok);
    return { found: sessionsOf(r), reads };
  }

  it('skips the sessions whose filter holds none of a regex class trigrams, and still finds the rest', async () => {
    const { found, reads } = await regexOver(
      { yes: 'code 123zz here', no: 'nothing of the kind, only zz and 123' },
      '[0-9]{3}zz',
    );
    assert.deepEqual(found, ['yes']);
    assert.deepEqual(reads, ['yes.txt'], 'the other session is ruled out by its filter');
  });

  it('rules out by digits folded: a run of digits no plain set can spell out (\\d{3} is 1,000 trigrams)', async () => {
    const { found, reads } = await regexOver(
      {
        yes: 'exit 127: 4096 bytes',
        letters: 'exit code one twenty seven, no number here',
        short: 'exit 12 and 7',
      },
      '\\d{3}',
    );
    assert.deepEqual(found, ['yes']);
    assert.deepEqual(reads, ['yes.txt'], 'the sessions without three digits in a row are ruled out');
  });

  it('answers what it found so far while it reads, and stops when a newer search cancels it', async () => {
    const index = new SessionSearchIndex({ store: memoryStore(), now: clockFrom() });
    for (let i = 0; i < 5; i++) await index.put(`s${i}`, [answer('t', i % 2 ? 'kiwi' : 'pear')]);
    let ms = 0;
    const partials: [string[], number, number][] = [];
    const r = await index.search(
      'kiwi',
      {},
      {
        clock: () => (ms += 100),
        partialEveryMs: 150,
        onPartial: (p, progress) => partials.push([sessionsOf(p), progress.done, progress.total]),
      },
    );
    assert.ok(r.ok);
    assert.deepEqual(sessionsOf(r), ['s3', 's1'], 'most recently used first');
    // The clock moves 100 ms a look (two a partial): a partial every other session, none at the end.
    assert.deepEqual(partials, [
      [['s3'], 2, 5],
      [['s3', 's1'], 4, 5],
    ]);
    let reads = 0;
    const stopped = await index.search('kiwi', {}, { cancelled: () => reads++ >= 2 });
    assert.ok(stopped.ok);
    assert.deepEqual(sessionsOf(stopped), ['s3'], 'cancelled after two sessions: what it had');
  });

  it('takes a new size now: a smaller one evicts the least recently used, a session over it goes', async () => {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store, now: clockFrom() });
    for (const id of ['a', 'b', 'c']) await index.put(id, [answer('t', 'z'.repeat(1_000))]);
    const one = (await index.stats()).bytes / 3;
    await index.setMaxBytes(one * 2 + 10);
    assert.equal(index.maxBytes, one * 2 + 10);
    assert.deepEqual([index.has('a'), index.has('b'), index.has('c')], [false, true, true]);
    assert.equal(store.blobs.size, 4);
    await index.setMaxBytes(one - 1);
    assert.equal((await index.stats()).sessions, 0, 'sessions bigger than the cap are dropped');
    await index.setMaxBytes(one * 10);
    await index.put('d', [answer('t', 'z'.repeat(1_000))]);
    assert.ok(index.has('d'), 'a bigger cap keeps sessions again');
  });

  it('passes the options and returns a bad regex as an error value', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.put('s1', [answer('t', 'Exit 1 and exit 2')]);
    const r = await index.search('exit \\d', { regex: true, matchCase: true });
    assert.ok(r.ok && r.count === 1);
    const bad = await index.search('([', { regex: true });
    assert.ok(!bad.ok && bad.code === 'invalid-regex');
  });

  it('never joins two fields into one match', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.put('s1', [answer('t', 'ab'), answer('t', 'cd', 'b2')]);
    assert.equal((await index.search('b.c', { regex: true })).ok && (await found(index, 'b')).count, 1);
    const r = await index.search('b[^x]c', { regex: true });
    assert.ok(r.ok && r.count === 0);
  });

  it('replacing a session replaces its text', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.put('s1', [answer('t', 'old words')]);
    await index.put('s1', [answer('t', 'new words')]);
    assert.equal((await found(index, 'old')).count, 0);
    assert.equal((await found(index, 'new')).count, 1);
    assert.equal((await index.stats()).sessions, 1);
  });

  it('lists the most recently used sessions first and caps the hits', async () => {
    const index = new SessionSearchIndex({ store: memoryStore(), now: clockFrom() });
    for (const id of ['a', 'b', 'c']) await index.put(id, [answer('t', 'word word word')]);
    await index.touch('a');
    const r = await found(index, 'word', 5);
    assert.deepEqual(sessionsOf(r), ['a', 'c']);
    assert.equal(r.count, 5);
    assert.equal(r.capped, true);
  });

  it('evicts the least recently used sessions beyond its bytes', async () => {
    const store = memoryStore();
    const one = new SessionSearchIndex({ store: memoryStore() });
    await one.put('x', [answer('t', 'z'.repeat(1_000))]);
    const size = (await one.stats()).bytes;
    const index = new SessionSearchIndex({ store, maxBytes: size * 2 + 10, now: clockFrom() });
    for (const id of ['a', 'b', 'c']) await index.put(id, [answer('t', 'z'.repeat(1_000))]);
    assert.deepEqual([index.has('a'), index.has('b'), index.has('c')], [false, true, true]);
    await index.touch('b');
    await index.put('d', [answer('t', 'z'.repeat(1_000))]);
    assert.deepEqual([index.has('b'), index.has('c'), index.has('d')], [true, false, true]);
    assert.ok((await index.stats()).bytes <= size * 2 + 10);
    assert.equal(store.blobs.size, 4, 'two blobs a session, none left of evicted ones');
    // A session bigger than the whole bound is not kept.
    await index.put('huge', [answer('t', 'z'.repeat(30_000))]);
    assert.equal(index.has('huge'), false);
  });

  it('is kept across restarts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'den-search-'));
    try {
      const first = new SessionSearchIndex({ store: folderStore(dir) });
      await first.put('sess/1', [answer('t', 'persisted needle')], 'Kept');
      const again = new SessionSearchIndex({ store: folderStore(dir) });
      const r = await found(again, 'needle');
      assert.deepEqual(sessionsOf(r), ['sess/1']);
      assert.equal(r.sessions[0].title, 'Kept');
      assert.deepEqual(await again.stats(), await first.stats());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a failed write leaves the session out, with no rejection and no half', async () => {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store });
    const write = store.write;
    store.write = (name, data) =>
      name.endsWith('.tri') ? Promise.reject(new Error('ENOSPC')) : write(name, data);
    await index.put('s', [answer('t', 'needle')]);
    assert.equal(index.has('s'), false);
    assert.equal(store.blobs.size, 0);
  });

  it('reopens many sessions (read in batches) to the same state', async () => {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store, now: clockFrom() });
    for (let i = 0; i < 70; i++) await index.put(`s${i}`, [answer('t', `needle number ${i}`)]);
    const again = new SessionSearchIndex({ store });
    assert.deepEqual(await again.stats(), await index.stats());
    const r = await found(again, 'number 69');
    assert.deepEqual(sessionsOf(r), ['s69']);
  });

  it('drops corrupt or orphaned blobs on open, without a throw', async () => {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store });
    await index.put('good', [answer('t', 'needle')]);
    await index.put('bad-filter', [answer('t', 'needle')]);
    await index.put('bad-text', [answer('t', 'needle')]);
    store.blobs.set('bad-filter.tri', new Uint8Array([1, 2, 3]));
    store.blobs.set('bad-text.txt', new TextEncoder().encode('{"v":1,"sessionId":"bad-text"'));
    store.blobs.set('orphan.txt', new Uint8Array([1]));
    const reopened = new SessionSearchIndex({ store });
    const r = await found(reopened, 'needle');
    assert.deepEqual(sessionsOf(r), ['good']);
    await reopened.put('later', [answer('t', 'x')]); // waits for the queued drop
    assert.deepEqual([...store.blobs.keys()].sort(), ['good.tri', 'good.txt', 'later.tri', 'later.txt']);
  });

  it('a text of the wrong shape (schema) is dropped', async () => {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store });
    await index.put('s', [answer('t', 'needle')]);
    store.blobs.set(
      's.txt',
      new TextEncoder().encode(`${JSON.stringify({ v: 1, sessionId: 's', fields: [[1]] })}\nneedle`),
    );
    assert.equal((await found(new SessionSearchIndex({ store }), 'needle')).count, 0);
  });

  it('clear forgets everything, in memory and in the store', async () => {
    const store = memoryStore();
    const index = new SessionSearchIndex({ store });
    await index.put('s1', [answer('t', 'needle')]);
    await index.put('s2', [answer('t', 'needle')]);
    await index.clear();
    assert.equal((await found(index, 'needle')).count, 0);
    assert.equal(store.blobs.size, 0);
    assert.deepEqual(await index.stats(), { sessions: 0, bytes: 0 });
  });

  it('indexes transcripts one at a time, with progress and a cancel', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    const transcript = (id: string) => {
      const t = createTranscript(id, `Title ${id}`);
      beginTurn(t, { agentMessageId: `m-${id}`, text: `request of ${id}` });
      applyEvent(
        t,
        `m-${id}`,
        eventFactory()('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1'),
      );
      return t;
    };
    const progress: number[] = [];
    let stop = false;
    const n = await indexSessions(
      index,
      ['a', 'missing', 'b', 'c'],
      (id) => Promise.resolve(id === 'missing' ? undefined : transcript(id)),
      {
        progress: (done) => {
          progress.push(done);
          if (done === 3) stop = true;
        },
        cancelled: () => stop,
      },
    );
    assert.equal(n, 2);
    assert.deepEqual(progress, [1, 2, 3]);
    const r = await found(index, 'run_command');
    assert.deepEqual(sessionsOf(r).sort(), ['a', 'b']);
    assert.equal(r.sessions[0].turns[0].hits[0].address.kind, 'tool-name');
  });
});
