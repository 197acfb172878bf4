import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import { parseSse, type SseEvent, type SseOptions } from '../../../../src/core/client/sse';

async function* fromChunks(chunks: (Uint8Array | string)[]): AsyncGenerator<Uint8Array | string> {
  for (const c of chunks) yield c;
}

async function collect(chunks: (Uint8Array | string)[], options?: SseOptions): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const ev of parseSse(fromChunks(chunks), options)) out.push(ev);
  return out;
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

interface Case {
  title: string;
  stream: string;
  expected: SseEvent[];
  options?: SseOptions;
}

const cases: Case[] = [
  {
    title: 'dispatches one event per blank line with LF endings',
    stream: 'data: a\n\ndata: b\n\n',
    expected: [{ data: 'a' }, { data: 'b' }],
  },
  {
    title: 'accepts CRLF line endings',
    stream: 'data: a\r\n\r\ndata: b\r\n\r\n',
    expected: [{ data: 'a' }, { data: 'b' }],
  },
  {
    title: 'accepts bare CR line endings',
    stream: 'data: a\r\rdata: b\r\r',
    expected: [{ data: 'a' }, { data: 'b' }],
  },
  {
    title: 'joins multi-line data with a line feed',
    stream: 'data: one\ndata: two\ndata:\ndata: four\n\n',
    expected: [{ data: 'one\ntwo\n\nfour' }],
  },
  {
    title: 'ignores comment lines',
    stream: ': keep-alive\ndata: x\n: another\n\n:\n\n',
    expected: [{ data: 'x' }],
  },
  {
    title: 'removes only one space after the colon, and none when there is no space',
    stream: 'data:tight\n\ndata:  two spaces\n\n',
    expected: [{ data: 'tight' }, { data: ' two spaces' }],
  },
  {
    title: 'treats a field name without a colon as an empty value',
    stream: 'data\n\n',
    expected: [{ data: '' }],
  },
  {
    title: 'carries the event type and the persisting last event id',
    stream: 'event: state\nid: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n',
    expected: [{ event: 'state', id: '7', data: 'a' }, { id: '7', data: 'b' }, { data: 'c' }],
  },
  {
    title: 'ignores an id that contains a NUL, retry fields and unknown fields',
    stream: 'id: 1\n\ndata: a\n\nid: 2\0x\nretry: 100\nfoo: bar\ndata: b\n\n',
    expected: [
      { id: '1', data: 'a' },
      { id: '1', data: 'b' },
    ],
  },
  {
    title: 'does not dispatch an event with no data lines, and resets its type',
    stream: 'event: lonely\n\ndata: a\n\n',
    expected: [{ data: 'a' }],
  },
  {
    title: 'drops a leading byte-order mark',
    stream: '\ufeffdata: bom\n\n',
    expected: [{ data: 'bom' }],
  },
  {
    title: 'keeps a second byte-order mark as part of the field name',
    stream: '\ufeff\ufeffdata: x\n\ndata: y\n\n',
    expected: [{ data: 'y' }],
  },
  {
    title: 'keeps multi-byte UTF-8 characters intact',
    stream: 'data: café 日本 🦊\n\n',
    expected: [{ data: 'café 日本 🦊' }],
  },
  {
    title: 'dispatches a final event without a trailing blank line at the end of the body',
    stream: 'data: a\n\ndata: {"last":true}',
    expected: [{ data: 'a' }, { data: '{"last":true}' }],
  },
  {
    title: 'dispatches a final event whose line ended but no blank line followed',
    stream: 'data: a\n\ndata: b\r\n',
    expected: [{ data: 'a' }, { data: 'b' }],
  },
  {
    title: 'discards a pending final event when asked to follow the WHATWG rule',
    stream: 'data: a\n\ndata: b\n',
    options: { dispatchAtEof: false },
    expected: [{ data: 'a' }],
  },
  {
    title: 'yields nothing for an empty stream',
    stream: '',
    expected: [],
  },
];

describe('parseSse', () => {
  for (const c of cases) {
    it(`${c.title} (whole, every two-way split, byte by byte)`, async () => {
      const all = bytes(c.stream);
      assert.deepEqual(await collect([all], c.options), c.expected, 'whole stream');
      for (let at = 0; at <= all.length; at++) {
        const got = await collect([all.subarray(0, at), all.subarray(at)], c.options);
        assert.deepEqual(got, c.expected, `split at byte ${at}`);
      }
      const single = Array.from(all, (b) => Uint8Array.of(b));
      assert.deepEqual(await collect(single, c.options), c.expected, 'one byte per chunk');
    });
  }

  it('parses a sample stream identically when split at every pair of byte offsets', async () => {
    const sample = bytes('\ufeff: hi\r\nevent: s\r\ndata: é1\r\ndata: 🦊\r\r\ndata: x\rid: 9\n\ndata: end');
    const expected = [
      { event: 's', data: 'é1\n🦊' },
      { data: 'x', id: '9' },
      { data: 'end', id: '9' },
    ];
    for (let i = 0; i <= sample.length; i++) {
      for (let j = i; j <= sample.length; j++) {
        const parts = [sample.subarray(0, i), sample.subarray(i, j), sample.subarray(j)];
        assert.deepEqual(await collect(parts), expected, `split at ${i} and ${j}`);
      }
    }
  });

  it('accepts string chunks, splitting a CRLF across them', async () => {
    const got = await collect(['\ufeffdata: a\r', '\ndata: b\r', '\n\r', '\n']);
    assert.deepEqual(got, [{ data: 'a\nb' }]);
  });

  it('raises a protocol DenError when a line grows past the limit', async () => {
    const chunks = Array.from({ length: 10 }, () => 'x'.repeat(100));
    await assert.rejects(collect(['data: ', ...chunks], { maxLineLength: 500 }), (err: unknown) => {
      assert.ok(err instanceof DenError);
      assert.equal(err.code, 'protocol');
      return true;
    });
  });

  it('stays linear on one long line delivered in many chunks', async () => {
    const chunks = ['data: ', ...Array.from({ length: 20_000 }, () => 'y'.repeat(50)), '\n\n'];
    const [ev] = await collect(chunks);
    assert.equal(ev.data.length, 1_000_000);
  });
});
