import assert from 'node:assert/strict';
import type { HostMessage } from '../../../../src/protocol/session-panel/messages';
import { isHostMessage } from '../../../../src/protocol/session-panel/messages';
import { shortTokens, usageTexts } from '../../../../src/webview/session-panel/context-meter';
import { Store } from '../../../../src/webview/session-panel/state';
import { liveTranscript } from '../../core/transcript/helpers';
import { header, initMessage } from './helpers';

describe('webview: the context window meter’s texts', () => {
  it('writes token counts short', () => {
    assert.deepEqual(
      [0, 950, 1000, 1200, 9_960, 18_432, 200_000, 999_499, 999_500, 1_500_000, 10_000_000].map(shortTokens),
      ['0', '950', '1k', '1.2k', '10k', '18k', '200k', '999k', '1M', '1.5M', '10M'],
    );
  });

  it('says the reading in words, with its level', () => {
    assert.deepEqual(usageTexts({ used: 18_432, max: 200_000, fraction: 0.09216 }), {
      short: '18k of 200k tokens',
      label: `Context window: ${(18_432).toLocaleString()} of ${(200_000).toLocaleString()} tokens used (9%)`,
      percent: '9%',
      level: 'ok',
    });
    assert.equal(usageTexts({ fraction: 0.79 }).level, 'ok');
    assert.equal(usageTexts({ fraction: 0.8 }).level, 'warning');
    assert.equal(usageTexts({ fraction: 0.95 }).level, 'full');
    assert.deepEqual(usageTexts({ fraction: 0.42 }), {
      short: '42% of context',
      label: 'Context window: 42% used',
      percent: '42%',
      level: 'ok',
    });
  });
});

describe('webview store: the context window', () => {
  const seeded = (): Store => {
    const store = new Store({ post: () => undefined });
    const t = liveTranscript('a');
    t.turns.push(...liveTranscript('b').turns);
    store.receive(initMessage(t, 1));
    return store;
  };
  const turn = (id: string, contextUsage?: { used?: number; max?: number; fraction: number }) => {
    const h = header(liveTranscript(id).turns[0]);
    return { type: 'turn' as const, turn: contextUsage ? { ...h, contextUsage } : h };
  };

  it('has none until a turn reports it, then the latest turn’s that did', () => {
    const store = seeded();
    assert.equal(store.contextUsage(), undefined);
    store.receive({ type: 'batch', seq: 2, deltas: [turn('a', { used: 5, max: 10, fraction: 0.5 })] });
    assert.deepEqual(store.contextUsage(), { used: 5, max: 10, fraction: 0.5 });
    assert.ok(store.takeChanges().turns.has('a'), 'the view is told a header changed');
    store.receive({ type: 'batch', seq: 3, deltas: [turn('b', { fraction: 0.9 })] });
    assert.deepEqual(store.contextUsage(), { fraction: 0.9 });
    store.receive({ type: 'batch', seq: 4, deltas: [turn('a', { used: 6, max: 10, fraction: 0.6 })] });
    assert.deepEqual(store.contextUsage(), { fraction: 0.9 }, 'an older turn does not win');
  });

  it('comes with the turns of an init', () => {
    const store = new Store({ post: () => undefined });
    const t = liveTranscript('a');
    t.turns[0].contextUsage = { used: 1, max: 4, fraction: 0.25 };
    store.receive(initMessage(t, 1));
    assert.deepEqual(store.contextUsage(), { used: 1, max: 4, fraction: 0.25 });
  });

  it('the protocol refuses a reading the meter cannot draw', () => {
    const post = (contextUsage: unknown): HostMessage =>
      ({
        type: 'batch',
        seq: 2,
        deltas: [{ type: 'turn', turn: { ...turn('a').turn, contextUsage } }],
      }) as HostMessage;
    assert.ok(isHostMessage(post({ used: 1, max: 2, fraction: 0.5 })));
    assert.ok(isHostMessage(post({ fraction: 1 })));
    for (const bad of [
      { fraction: 1.5 },
      { fraction: -0.1 },
      { used: -1, max: 2, fraction: 0 },
      { used: '1', fraction: 0 },
      {},
      null,
      'x',
    ])
      assert.equal(isHostMessage(post(bad)), false, JSON.stringify(bad));
  });
});
