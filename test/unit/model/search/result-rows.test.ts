import assert from 'node:assert/strict';
import { memoryStore } from '../../../../src/model/search/search-store';
import { fieldKindWords, queryErrorWords, searchRows } from '../../../../src/model/search/result-rows';
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
});
