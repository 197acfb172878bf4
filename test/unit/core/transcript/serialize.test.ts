import assert from 'node:assert/strict';
import {
  deserializeTranscript,
  fromSnapshot,
  serializeTranscript,
  toSnapshot,
} from '../../../../src/core/transcript/serialize';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import { eventFactory } from '../../../support/events';
import { AGENT, fold, loadFixture } from './helpers';

const FIXTURES = [
  'coding-turn.jsonl',
  'plan-turn.jsonl',
  'error-turn.jsonl',
  'aborted-turn.jsonl',
  'garbage-turn.jsonl',
];

describe('transcript snapshots', () => {
  for (const name of FIXTURES) {
    it(`round-trips a transcript through JSON text (${name})`, () => {
      const { t } = fold(loadFixture(name));
      assert.deepEqual(deserializeTranscript(serializeTranscript(t)), t);
    });
  }

  it('shares nothing with the live transcript', () => {
    const { t } = fold(loadFixture('coding-turn.jsonl'));
    const snap = toSnapshot(t);
    snap.transcript.turns[0].blocks.length = 0;
    assert.ok(t.turns[0].blocks.length > 0);
  });

  it('keeps folding after a round trip exactly as the original does', () => {
    const events = loadFixture('coding-turn.jsonl');
    const original = fold(events.slice(0, 20)).t;
    const restored = fromSnapshot(toSnapshot(original));
    assert.ok(restored);
    for (const ev of events.slice(15)) {
      assert.deepEqual(applyEvent(restored, AGENT, ev), applyEvent(original, AGENT, ev));
    }
    assert.deepEqual(restored, original);
    const more = eventFactory({ start: 100 })('markdown.chunk', { delta: '!' }, 'answer:main');
    assert.deepEqual(applyEvent(restored, AGENT, more).appends, [{ blockId: 'answer:main', text: '!' }]);
  });

  it('reads anything that is not a snapshot of this version as undefined', () => {
    const good = toSnapshot(fold(loadFixture('plan-turn.jsonl')).t);
    const broken: unknown[] = [
      null,
      'text',
      { ...good, version: 2 },
      { version: 1 },
      { version: 1, transcript: { sessionId: 's', turns: [{}] } },
      JSON.parse(JSON.stringify(good).replace('"status":"completed"', '"status":"finished"')),
      JSON.parse(JSON.stringify(good).replace('"type":"thought"', '"type":"hologram"')),
    ];
    for (const value of broken)
      assert.equal(fromSnapshot(value), undefined, JSON.stringify(value)?.slice(0, 80));
    assert.equal(deserializeTranscript('{"version":1,'), undefined);
    assert.ok(fromSnapshot(good));
  });

  it('refuses a null plan and a generic block without its payload key, without throwing', () => {
    const good = toSnapshot(fold(loadFixture('plan-turn.jsonl')).t);
    const withPlan = (plan: unknown): unknown => {
      const copy = JSON.parse(JSON.stringify(good));
      copy.transcript.turns[0].plan = plan;
      return copy;
    };
    const withBlock = (block: unknown): unknown => {
      const copy = JSON.parse(JSON.stringify(good));
      copy.transcript.turns[0].blocks.push(block);
      return copy;
    };
    assert.equal(fromSnapshot(withPlan(null)), undefined);
    assert.equal(fromSnapshot(withPlan([])), undefined);
    assert.ok(fromSnapshot(withPlan({ todos: [] })));
    assert.equal(fromSnapshot(withBlock({ type: 'generic', id: 'g', kind: 'x' })), undefined);
    assert.ok(fromSnapshot(withBlock({ type: 'generic', id: 'g', kind: 'x', payload: null })));
  });
});
