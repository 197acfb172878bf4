import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { MarkdownBlock, Transcript } from '../../../../src/core/transcript/model';
import { applyEvent } from '../../../../src/core/transcript/reducer';
import {
  deserializeTranscript,
  fromSnapshot,
  serializeTranscript,
  toSnapshot,
} from '../../../../src/core/transcript/serialize';
import {
  appendText,
  JOIN_EVERY,
  pendingChunks,
  streamedBlock,
} from '../../../../src/core/transcript/streamed-text';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript, seededRandom } from './helpers';

/** Chunks of varied length and script (some empty-looking, some astral), enough for several joins. */
function chunks(count: number, seed = 7): string[] {
  const rnd = seededRandom(seed);
  const words = ['the ', 'naïve ', 'café, ', '日本語 ', '𝒳 ', '\n\n', '`code` ', '**bold** ', ' '];
  return Array.from({ length: count }, (_, i) => `${words[Math.floor(rnd() * words.length)]}${i} `);
}

/** A live transcript and an event maker for its turn. */
function live(): { t: Transcript; ev: ReturnType<typeof eventFactory> } {
  return { t: liveTranscript(), ev: eventFactory() };
}

function block(t: Transcript, id = 'answer:main'): MarkdownBlock {
  const b = t.turns[0].blocks.find((x) => x.id === id);
  assert.ok(b && b.type === 'markdown', `no markdown block ${id}`);
  return b;
}

const chunk = (ev: ReturnType<typeof eventFactory>, delta: string): AgentEvent =>
  ev('markdown.chunk', { delta }, 'answer:main');

describe('core/transcript/streamed-text', () => {
  const parts = chunks(JOIN_EVERY * 3 + 5);

  it('a streamed block reads as every chunk joined, at every read', () => {
    const { t, ev } = live();
    let expected = '';
    for (const c of parts) {
      applyEvent(t, AGENT, chunk(ev, c));
      expected += c;
      assert.equal(block(t).text, expected);
    }
  });

  it('reads taken at random moments, or none, see the same text', () => {
    const rnd = seededRandom(11);
    const { t, ev } = live();
    const quiet = live();
    let expected = '';
    for (const c of parts) {
      applyEvent(t, AGENT, chunk(ev, c));
      applyEvent(quiet.t, AGENT, chunk(quiet.ev, c));
      expected += c;
      if (rnd() < 0.1) assert.equal(block(t).text, expected);
    }
    assert.equal(block(t).text, expected);
    assert.equal(block(quiet.t).text, expected);
  });

  it('joins its chunks as they come, even when nobody reads (they do not pile up)', () => {
    const b = streamedBlock('markdown', 'answer:main', 'start ');
    for (const c of parts) {
      appendText(b, c);
      assert.ok(pendingChunks(b) < JOIN_EVERY, `${pendingChunks(b)} chunks held apart`);
    }
    assert.ok(pendingChunks(b) > 0, 'the last chunks wait for a read');
    assert.equal(b.text, `start ${parts.join('')}`);
    assert.equal(pendingChunks(b), 0);
  });

  it('posts each chunk as an append, as before (the webview’s deltas do not change)', () => {
    const { t, ev } = live();
    applyEvent(t, AGENT, chunk(ev, 'first '));
    for (const c of parts.slice(0, JOIN_EVERY + 2)) {
      const cs = applyEvent(t, AGENT, chunk(ev, c));
      assert.deepEqual(cs.appends, [{ blockId: 'answer:main', text: c }]);
      assert.deepEqual(cs.blocksUpdated, ['answer:main']);
    }
  });

  it('is plain data to JSON, spreads, structuredClone and deep equality', () => {
    const { t, ev } = live();
    for (const c of parts) applyEvent(t, AGENT, chunk(ev, c));
    const b = block(t);
    const plain = { type: 'markdown', id: 'answer:main', text: parts.join(''), final: false };
    assert.deepEqual(b, plain);
    assert.equal(JSON.stringify(b), JSON.stringify(plain));
    assert.deepEqual(Object.keys(b), ['type', 'id', 'text', 'final']);
    assert.deepEqual(structuredClone(b), plain);
    const copy = { ...b };
    assert.deepEqual(Object.getOwnPropertyDescriptor(copy, 'text')?.value, plain.text);
    applyEvent(t, AGENT, chunk(ev, 'later'));
    assert.equal(copy.text, plain.text, 'a copy does not follow the block');
    assert.equal(b.text, `${plain.text}later`);
  });

  it('round-trips through a snapshot and keeps streaming on the restored block', () => {
    const { t, ev } = live();
    const half = Math.floor(parts.length / 2);
    for (const c of parts.slice(0, half)) applyEvent(t, AGENT, chunk(ev, c));
    const json = serializeTranscript(t);
    const restored = deserializeTranscript(json);
    assert.ok(restored);
    assert.equal(block(restored).text, parts.slice(0, half).join(''));
    assert.equal(serializeTranscript(restored), json);
    // The stream goes on in both: the live one and the one reopened from the snapshot.
    const again = fromSnapshot(toSnapshot(t));
    assert.ok(again);
    for (const c of parts.slice(half)) {
      const e = chunk(ev, c);
      applyEvent(t, AGENT, e);
      applyEvent(again, AGENT, e);
    }
    assert.equal(block(again).text, parts.join(''));
    assert.deepEqual(again, t);
    assert.equal(serializeTranscript(again), serializeTranscript(t));
    assert.deepEqual(Object.keys(block(again)), ['type', 'id', 'text', 'final']);
  });

  it('a replace drops the chunks not yet read; appends go on from the new text', () => {
    const { t, ev } = live();
    for (const c of parts.slice(0, JOIN_EVERY + 3)) applyEvent(t, AGENT, chunk(ev, c));
    applyEvent(t, AGENT, ev('block.update', { patch: { text: 'Rewritten.' } }, 'answer:main'));
    assert.equal(block(t).text, 'Rewritten.');
    applyEvent(t, AGENT, chunk(ev, ' More.'));
    assert.equal(block(t).text, 'Rewritten. More.');
    block(t).text = 'Set by hand';
    assert.equal(block(t).text, 'Set by hand');
  });

  it('a thought grows the same way; a plain block becomes streamed on its first append', () => {
    const { t, ev } = live();
    for (const c of parts) applyEvent(t, AGENT, ev('thought', { thought: c }, 'thought:1'));
    const th = t.turns[0].blocks.find((b) => b.id === 'thought:1');
    assert.ok(th && th.type === 'thought');
    assert.equal(th.text, parts.join(''));
    const plain = { type: 'text', id: 'text:main', text: 'abc' };
    appendText(plain, 'def');
    assert.deepEqual(plain, { type: 'text', id: 'text:main', text: 'abcdef' });
    assert.deepEqual(Object.keys(plain), ['type', 'id', 'text']);
  });
});
