import assert from 'node:assert/strict';
import { readContextUsage } from '../../../../src/core/transcript/context-usage';
import type { ContextUsage, GenericBlock } from '../../../../src/core/transcript/model';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { deserializeTranscript, serializeTranscript } from '../../../../src/core/transcript/serialize';
import { eventFactory } from '../../../support/events';
import { AGENT, fold, liveTranscript } from './helpers';

const usage = (payload: unknown): ContextUsage | undefined => {
  const { t } = fold([eventFactory()('context.usage', payload)]);
  return t.turns[0].contextUsage;
};

describe('transcript: context window use (context.usage, shape assumed)', () => {
  const variants: [string, unknown, ContextUsage][] = [
    [
      'used_tokens / max_tokens',
      { used_tokens: 18_432, max_tokens: 200_000 },
      { used: 18_432, max: 200_000, fraction: 0.09216 },
    ],
    ['usedTokens / maxTokens', { usedTokens: 50, maxTokens: 200 }, { used: 50, max: 200, fraction: 0.25 }],
    ['used / max', { used: 10, max: 40 }, { used: 10, max: 40, fraction: 0.25 }],
    ['used / total', { used: 30, total: 40 }, { used: 30, max: 40, fraction: 0.75 }],
    [
      'input_tokens / context_window',
      { input_tokens: 64_000, context_window: 128_000 },
      { used: 64_000, max: 128_000, fraction: 0.5 },
    ],
    ['nested under usage', { usage: { used_tokens: 1, max_tokens: 4 } }, { used: 1, max: 4, fraction: 0.25 }],
    [
      'a percent with the window',
      { percent: 42, max_tokens: 1000 },
      { used: 420, max: 1000, fraction: 0.42 },
    ],
    [
      'a ratio with the tokens used',
      { ratio: 0.5, used_tokens: 300 },
      { used: 300, max: 600, fraction: 0.5 },
    ],
    ['a percent alone', { percent: 42 }, { fraction: 0.42 }],
    ['a ratio alone', { ratio: 0.9 }, { fraction: 0.9 }],
    [
      'more used than the window (full, counts kept)',
      { used: 210, max: 200 },
      { used: 210, max: 200, fraction: 1 },
    ],
    ['nothing used yet', { used_tokens: 0, max_tokens: 8000 }, { used: 0, max: 8000, fraction: 0 }],
  ];
  for (const [name, payload, expected] of variants) {
    it(`reads ${name}`, () => {
      assert.deepEqual(usage(payload), expected);
    });
  }

  const malformed: [string, unknown][] = [
    ['no numbers', {}],
    ['tokens used without the window', { used_tokens: 10 }],
    ['the window without the tokens used', { max_tokens: 10 }],
    ['a negative count', { used_tokens: -1, max_tokens: 10 }],
    ['a window of 0', { used_tokens: 0, max_tokens: 0 }],
    ['numbers as strings', { used_tokens: '10', max_tokens: '100' }],
    ['NaN (as JSON cannot carry it, but a caller might)', { used_tokens: NaN, max_tokens: 100 }],
    ['Infinity', { used_tokens: 1, max_tokens: Infinity }],
    ['a percent over 100', { percent: 140 }],
    ['a ratio over 1', { ratio: 42 }],
    ['null fields', { used: null, max: null }],
    ['a string payload', '18k of 200k'],
    ['an array payload', [1, 2]],
    ['no payload', null],
  ];
  for (const [name, payload] of malformed) {
    it(`keeps a payload with ${name} as a generic block, as before`, () => {
      const { t, changes } = fold([eventFactory()('context.usage', payload)]);
      const turn = t.turns[0];
      assert.equal(turn.contextUsage, undefined);
      assert.equal(turn.blocks.length, 1);
      const b = turn.blocks[0] as GenericBlock;
      assert.deepEqual(
        { type: b.type, id: b.id, kind: b.kind },
        { type: 'generic', id: 'context.usage#1', kind: 'context.usage' },
      );
      assert.deepEqual(b.payload, payload, 'the payload as received');
      assert.deepEqual(changes[0].blocksCreated, ['context.usage#1']);
      assert.equal(changes[0].turnInfoChanged, false);
    });
  }

  it('the latest reading wins, reported as turn info only when it changes', () => {
    const t = liveTranscript();
    const e = eventFactory();
    const first = applyEvent(t, AGENT, e('context.usage', { used_tokens: 1000, max_tokens: 10_000 }));
    assert.equal(first.turnInfoChanged, true);
    const same = applyEvent(t, AGENT, e('context.usage', { used: 1000, total: 10_000 }));
    assert.equal(same.turnInfoChanged, false, 'the same reading in another shape');
    const bad = applyEvent(t, AGENT, e('context.usage', { used_tokens: 'lots' }));
    assert.equal(bad.turnInfoChanged, false);
    assert.deepEqual(
      t.turns[0].contextUsage,
      { used: 1000, max: 10_000, fraction: 0.1 },
      'a bad one changes nothing',
    );
    const later = applyEvent(t, AGENT, e('context.usage', { used_tokens: 9000, max_tokens: 10_000 }));
    assert.equal(later.turnInfoChanged, true);
    assert.deepEqual(t.turns[0].contextUsage, { used: 9000, max: 10_000, fraction: 0.9 });
    assert.deepEqual(
      t.turns[0].blocks.map((b) => b.id),
      ['context.usage#3'],
      'only the one it could not read is a block',
    );
  });

  it('keeps each turn its own reading', () => {
    const t = liveTranscript('agent-a');
    applyEvent(t, 'agent-a', eventFactory()('context.usage', { used: 1, max: 10 }));
    applyEvent(t, 'agent-b', eventFactory()('context.usage', { used: 5, max: 10 }));
    assert.deepEqual(
      t.turns.map((x) => x.contextUsage?.used),
      [1, 5],
    );
  });

  it('survives the local cache', () => {
    const { t } = fold([eventFactory()('context.usage', { percent: 30 })]);
    assert.deepEqual(deserializeTranscript(serializeTranscript(t))?.turns[0].contextUsage, { fraction: 0.3 });
    // a cache whose reading no meter can draw is not a snapshot of this version: refetched
    t.turns[0].contextUsage = { fraction: 5 };
    assert.equal(deserializeTranscript(serializeTranscript(t)), undefined);
  });

  it('says which fields it read (a legacy block keeps the others apart)', () => {
    assert.deepEqual(readContextUsage({ used_tokens: 1, max_tokens: 2, model: 'x' })?.keys, [
      'used_tokens',
      'max_tokens',
    ]);
    assert.deepEqual(readContextUsage({ usage: { used: 1, max: 2 }, model: 'x' })?.keys, ['usage']);
  });
});
