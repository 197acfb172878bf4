import assert from 'node:assert/strict';
import { memoryStore } from '../../../../src/model/search/search-store';
import {
  fieldKindWords,
  foldLine,
  partialViewResults,
  queryErrorWords,
  searchRows,
  viewResults,
} from '../../../../src/model/search/result-rows';
import { SessionSearchIndex } from '../../../../src/model/search/session-index';

describe('model/search/result-rows', () => {
  it('groups hits under their session (last indexed first), marks where each turn begins, one line each', async () => {
    let now = 1;
    const index = new SessionSearchIndex({ store: memoryStore(), now: () => now++ });
    await index.put(
      's1',
      [
        { address: { turnId: 't1', blockId: 'b', kind: 'answer', index: 0 }, text: 'first kiwi\nnext line' },
        { address: { turnId: 't1', blockId: 'c', kind: 'tool-log', index: 0 }, text: 'log   kiwi   here' },
        { address: { turnId: 't2', kind: 'user', index: 0 }, text: 'kiwi again' },
      ],
      'Fruit session',
    );
    await index.put('s2', [{ address: { turnId: 'u1', kind: 'error', index: 0 }, text: 'no kiwi' }]);
    const rows = searchRows(await index.search('kiwi'), 2);
    const shape = rows.map((r) =>
      r.kind === 'session'
        ? `# ${r.title}`
        : r.kind === 'hit'
          ? `${r.firstOfTurn ? '>' : ' '} ${r.line} (${r.where})`
          : r.text,
    );
    assert.deepEqual(shape, [
      '# Untitled session',
      '> no kiwi (error)',
      '# Fruit session',
      '> first kiwi (answer)',
      '  log kiwi here (tool log)',
      '> kiwi again (request)',
    ]);
  });

  it('says when nothing matches, when the list is capped, and words every query error', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.put('s1', [{ address: { turnId: 't', kind: 'answer', index: 0 }, text: 'aaa aaa aaa' }]);
    assert.deepEqual(searchRows(await index.search('zzz'), 1), [
      { kind: 'note', text: 'No match in the 1 session indexed on this machine.' },
    ]);
    const capped = searchRows(await index.search('aaa', {}, { maxHits: 2 }), 1);
    const last = capped.at(-1);
    assert.match(last?.kind === 'note' ? last.text : '', /first 2 matches/);
    const bad = searchRows(await index.search('(', { regex: true }), 1);
    assert.equal(bad.length, 1);
    assert.match(bad[0].kind === 'note' ? bad[0].text : '', /^Not a valid regular expression: .+/);
    assert.match(queryErrorWords({ ok: false, code: 'too-costly', detail: '' }), /too long to run/);
    assert.match(queryErrorWords({ ok: false, code: 'too-long', detail: '' }), /1,000/);
    assert.match(queryErrorWords({ ok: false, code: 'empty', detail: '' }), /Type text/);
    assert.equal(fieldKindWords('tool-params'), 'tool parameters');
  });

  it('folds a line of context and keeps the match where it is', () => {
    const f = foldLine({ text: '  a\t\t b  kiwi   c ', start: 9, end: 13 });
    assert.deepEqual(f, { text: 'a b kiwi c', start: 4, end: 8 });
    assert.equal(f.text.slice(f.start, f.end), 'kiwi');
  });

  it("gives the view groups with each hit's address and offset, a count to announce, and errors as notes", async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.put(
      's1',
      [
        { address: { turnId: 't1', blockId: 'b', kind: 'answer', index: 0 }, text: 'one kiwi,\n two  kiwi' },
        { address: { turnId: 't2', kind: 'user', index: 0 }, text: 'kiwi' },
      ],
      'Fruit',
    );
    const v = viewResults(await index.search('kiwi'), 1);
    assert.equal(v.error, false);
    assert.equal(v.summary, '3 matches in 1 session');
    assert.equal(v.note, undefined);
    assert.deepEqual(
      v.groups.map((g) => ({
        title: g.title,
        hits: g.hits.map((h) => [
          h.turnId,
          h.line.slice(h.matchStart, h.matchEnd),
          h.start,
          h.firstOfTurn,
          h.where,
        ]),
      })),
      [
        {
          title: 'Fruit',
          hits: [
            ['t1', 'kiwi', 4, true, 'answer'],
            ['t1', 'kiwi', 16, false, 'answer'],
            ['t2', 'kiwi', 0, true, 'request'],
          ],
        },
      ],
    );
    assert.equal(v.groups[0].hits[1].line, 'two kiwi');
    const none = viewResults(await index.search('pear'), 1);
    assert.deepEqual([none.groups.length, none.error], [0, false]);
    assert.equal(none.summary, none.note);
    const bad = viewResults(await index.search('([', { regex: true }), 1);
    assert.equal(bad.error, true);
    assert.match(bad.note ?? '', /regular expression/);
    const empty = viewResults(await index.search(''), 1);
    assert.deepEqual([empty.error, empty.summary], [false, '']);
  });

  it('says how far a search still reading is', async () => {
    const index = new SessionSearchIndex({ store: memoryStore() });
    await index.put('s1', [{ address: { turnId: 't', kind: 'user', index: 0 }, text: 'kiwi' }], 'Fruit');
    const r = await index.search('kiwi');
    assert.ok(r.ok);
    const p = partialViewResults(r, { done: 40, total: 1_000 });
    assert.equal(p.summary, 'Searching… 40 of 1,000 sessions read, 1 match so far');
    assert.equal(p.groups.length, 1);
    const none = partialViewResults(
      { ok: true, sessions: [], count: 0, capped: false },
      { done: 3, total: 9 },
    );
    assert.equal(none.summary, 'Searching… 3 of 9 sessions read');
  });
});
