import assert from 'node:assert/strict';
import {
  frameText,
  parseFrame,
  terminalKind,
  terminalPhase,
  type StreamFrame,
} from '../../../../src/core/stream/frames';

describe('parseFrame', () => {
  const cases: { name: string; text: string; expected: StreamFrame }[] = [
    {
      name: 'reads the ack with its resume point',
      text: '{"type":"ack","resume_from":"171-0"}',
      expected: { type: 'ack', resumeFrom: '171-0' },
    },
    { name: 'reads an ack without a resume point', text: '{"type":"ack"}', expected: { type: 'ack' } },
    {
      name: 'reads the older variant snapshot with its resume facts',
      text: '{"kind":"state.snapshot","payload":{"status":{"phase":"running"},"blocks":[],"last_event_id":4,"last_stream_entry_id":"9-1"}}',
      expected: {
        type: 'snapshot',
        payload: { status: { phase: 'running' }, blocks: [], last_event_id: 4, last_stream_entry_id: '9-1' },
        lastEventId: 4,
        lastStreamEntryId: '9-1',
        phase: 'running',
      },
    },
    {
      name: 'reads a snapshot that says nothing about where it stands',
      text: '{"kind":"state.snapshot","payload":{"blocks":[]}}',
      expected: { type: 'snapshot', payload: { blocks: [] } },
    },
    {
      name: 'reads an event with every field',
      text: '{"event_id":3,"stream_entry_id":"5-0","kind":"markdown.chunk","block_id":"answer:main","message_id":"m1","payload":{"delta":"hi"},"timestamp":17}',
      expected: {
        type: 'event',
        event: {
          event_id: 3,
          stream_entry_id: '5-0',
          kind: 'markdown.chunk',
          block_id: 'answer:main',
          message_id: 'm1',
          payload: { delta: 'hi' },
          timestamp: 17,
        },
      },
    },
    {
      name: 'reads an event id sent as a string of digits',
      text: '{"event_id":"12","kind":"focus","payload":{},"timestamp":1}',
      expected: { type: 'event', event: { event_id: 12, kind: 'focus', payload: {}, timestamp: 1 } },
    },
    {
      name: 'rejects text that is not JSON',
      text: 'garbage{',
      expected: { type: 'malformed', reason: 'not JSON' },
    },
    {
      name: 'rejects a JSON array',
      text: '[1,2]',
      expected: { type: 'malformed', reason: 'not a JSON object' },
    },
    { name: 'rejects JSON null', text: 'null', expected: { type: 'malformed', reason: 'not a JSON object' } },
    {
      name: 'rejects an event without an id',
      text: '{"kind":"x","payload":{}}',
      expected: { type: 'malformed', reason: 'no integer event_id' },
    },
    {
      name: 'rejects a fractional event id',
      text: '{"event_id":1.5,"kind":"x","payload":{}}',
      expected: { type: 'malformed', reason: 'no integer event_id' },
    },
    {
      name: 'rejects an event without a kind',
      text: '{"event_id":1,"payload":{}}',
      expected: { type: 'malformed', reason: 'no kind' },
    },
    {
      name: 'rejects an event whose payload is not an object',
      text: '{"event_id":1,"kind":"x","payload":"text"}',
      expected: { type: 'malformed', reason: 'no payload object' },
    },
    {
      name: 'rejects a snapshot without a payload',
      text: '{"kind":"state.snapshot"}',
      expected: { type: 'malformed', reason: 'snapshot without payload object' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(parseFrame(c.text), c.expected));
  }

  it('fills a missing timestamp and drops fields Den does not model', () => {
    const realNow = Date.now;
    Date.now = () => 1_700_000_000_123;
    let f: ReturnType<typeof parseFrame>;
    try {
      f = parseFrame('{"event_id":1,"kind":"x","payload":{},"extra":true,"stream_entry_id":""}');
    } finally {
      Date.now = realNow;
    }
    assert.equal(f.type, 'event');
    if (f.type !== 'event') return;
    assert.equal(f.event.timestamp, 1_700_000_000_123);
    assert.deepEqual(Object.keys(f.event).sort(), ['event_id', 'kind', 'payload', 'timestamp']);
  });

  // The fast path hands over the parsed object itself; every other frame is copied field by field.
  const full = {
    event_id: 7,
    kind: 'k',
    payload: { a: 1 },
    timestamp: 5,
    stream_entry_id: '9-0',
    block_id: 'b',
    message_id: 'm',
  };
  const variants: { name: string; frame: Record<string, unknown>; expected: Record<string, unknown> }[] = [
    { name: 'a clean event whole', frame: full, expected: full },
    {
      name: 'a clean event without its optional fields',
      frame: { event_id: 1, kind: 'k', payload: {}, timestamp: 2 },
      expected: { event_id: 1, kind: 'k', payload: {}, timestamp: 2 },
    },
    { name: 'an event id sent as digits, as a number', frame: { ...full, event_id: '7' }, expected: full },
    { name: 'an event without an extra field', frame: { ...full, extra: [1] }, expected: full },
    {
      name: 'an event without an ill-typed block id',
      frame: { ...full, block_id: 3 },
      expected: { ...full, block_id: undefined },
    },
    {
      name: 'an event without an ill-typed message id',
      frame: { ...full, message_id: null },
      expected: { ...full, message_id: undefined },
    },
  ];
  for (const v of variants) {
    it(`reads ${v.name}`, () => {
      const f = parseFrame(JSON.stringify(v.frame));
      assert.equal(f.type, 'event');
      if (f.type !== 'event') return;
      const expected = Object.fromEntries(Object.entries(v.expected).filter(([, x]) => x !== undefined));
      assert.deepEqual(f.event, expected);
    });
  }
});

describe('terminalKind and terminalPhase', () => {
  const kinds: [string, string | undefined][] = [
    ['task.completed', 'completed'],
    ['task.aborted', 'aborted'],
    ['task.error', 'error'],
    ['task.phase', undefined],
    ['markdown.chunk', undefined],
  ];
  for (const [kind, expected] of kinds) {
    it(`says ${String(expected)} for the event kind ${kind}`, () =>
      assert.equal(terminalKind(kind), expected));
  }
  const phases: [string | undefined, string | undefined][] = [
    ['completed', 'completed'],
    ['aborted', 'aborted'],
    ['error', 'error'],
    ['failed', 'error'],
    ['running', undefined],
    [undefined, undefined],
  ];
  for (const [phase, expected] of phases) {
    it(`says ${String(expected)} for the snapshot phase ${String(phase)}`, () =>
      assert.equal(terminalPhase(phase), expected));
  }
});

describe('frameText', () => {
  it('reads a buffer, fragments and an ArrayBuffer alike', () => {
    const b = Buffer.from('héllo');
    assert.equal(frameText(b), 'héllo');
    assert.equal(frameText([b.subarray(0, 2), b.subarray(2)]), 'héllo');
    assert.equal(frameText(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)), 'héllo');
  });
});
