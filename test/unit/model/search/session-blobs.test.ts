import assert from 'node:assert/strict';
import { foldDigits } from '../../../../src/core/search/trigram-sets';
import {
  decodeFilter,
  decodeText,
  encodeFilter,
  encodeText,
  joinFields,
  mayHold,
  trigramFilter,
} from '../../../../src/model/search/session-blobs';

describe('model/search/session-blobs', () => {
  it('the trigram filter never rules out text it holds', () => {
    const text = 'The quick brown Fox jumps over the lazy dog; ÉCOLE résumé';
    const bloom = trigramFilter(text);
    for (let i = 0; i + 3 <= text.length; i++) assert.ok(mayHold(bloom, text.slice(i, i + 5)));
    assert.ok(mayHold(bloom, 'QUICK BROWN'));
    assert.ok(mayHold(bloom, 'ab'), 'too short to rule out');
    assert.equal(mayHold(trigramFilter(''), 'xyz'), false);
    // Digits also as the mark: any digit where the text has one.
    const digits = trigramFilter('ticket-937 failed');
    assert.ok(mayHold(digits, foldDigits('et-000 fa')));
    assert.ok(mayHold(digits, 'et-937 fa'));
  });

  it('reads back what it wrote, and nothing else', () => {
    const joined = joinFields('s1', [
      { address: { turnId: 't1', blockId: 'answer:main', kind: 'answer', index: 0 }, text: 'hello' },
      { address: { turnId: 't1', kind: 'tool-name', index: 0 }, text: 'run_command' },
    ]);
    assert.equal(joined.text, 'hello\u0000run_command');
    assert.deepEqual(decodeText(encodeText(joined)), joined);
    const meta = { sessionId: 's1', usedAt: 5, textBytes: 11 };
    const bloom = trigramFilter(joined.text);
    assert.deepEqual(decodeFilter(encodeFilter(meta, bloom)), { meta, bloom });
    const filter = encodeFilter(meta, bloom);
    filter[4] = 1; // a version 1 filter: rebuilt, not read
    assert.equal(decodeFilter(filter), undefined);
    assert.equal(decodeText(new TextEncoder().encode('{"v":1}\nx')), undefined);
  });
});
