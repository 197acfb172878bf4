import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { DenError } from '../../../../src/core/client/errors';
import { encodeMultipart, escapeQuoted, type MultipartPart } from '../../../../src/core/client/multipart';

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

function filePart(content: Buffer, extra: Partial<MultipartPart> = {}): MultipartPart {
  return {
    name: 'file',
    filename: 'notes.txt',
    contentType: 'text/plain',
    size: content.length,
    body: Readable.from([content.subarray(0, 3), content.subarray(3)]),
    ...extra,
  } as MultipartPart;
}

describe('encodeMultipart', () => {
  it('encodes the key part then the file part in form-data syntax', async () => {
    const content = Buffer.from('hello world');
    const body = encodeMultipart([{ name: 'key', value: 's1/notes.txt' }, filePart(content)], {
      boundary: 'B',
    });
    const text = (await drain(body.chunks)).toString('utf8');
    assert.equal(
      text,
      '--B\r\nContent-Disposition: form-data; name="key"\r\n\r\ns1/notes.txt\r\n' +
        '--B\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n' +
        'Content-Type: text/plain\r\n\r\nhello world\r\n--B--\r\n',
    );
    assert.equal(body.contentType, 'multipart/form-data; boundary=B');
  });

  it('computes a Content-Length equal to the bytes produced, with multi-byte names', async () => {
    const content = Buffer.from('données ✓');
    const body = encodeMultipart([
      { name: 'key', value: 'sess/résumé.txt' },
      filePart(content, { filename: 'résumé "v2".txt' }),
    ]);
    const all = await drain(body.chunks);
    assert.equal(body.contentLength, all.length);
    assert.match(all.toString('utf8'), /filename="résumé %22v2%22.txt"/);
  });

  it('leaves the length unknown when a file size is not given', async () => {
    const body = encodeMultipart([{ ...filePart(Buffer.from('abc')), size: undefined } as MultipartPart]);
    assert.equal(body.contentLength, undefined);
    assert.match((await drain(body.chunks)).toString(), /\r\nabc\r\n--/);
  });

  it('passes file chunks through without copying them', async () => {
    const chunk = Buffer.alloc(1024, 7);
    const body = encodeMultipart([
      { name: 'file', filename: 'f', contentType: 'x/y', size: 2048, body: Readable.from([chunk, chunk]) },
    ]);
    const seen: Uint8Array[] = [];
    for await (const c of body.chunks) seen.push(c);
    assert.equal(seen.filter((c) => c === chunk).length, 2);
  });

  it('reports file bytes as they are handed on, and takes a body factory', async () => {
    const counts: number[] = [];
    const body = encodeMultipart(
      [
        {
          name: 'file',
          filename: 'f',
          contentType: 'x/y',
          size: 6,
          body: () => Readable.from([Buffer.from('abc'), Buffer.from('def')]),
        },
      ],
      { onFileBytes: (n) => counts.push(n) },
    );
    await drain(body.chunks);
    assert.deepEqual(counts, [3, 3]);
  });

  const mismatches = [
    { title: 'fewer bytes than announced', size: 10, content: 'short' },
    { title: 'more bytes than announced', size: 2, content: 'too long' },
  ];
  for (const m of mismatches) {
    it(`fails with a bad_request DenError when the file yields ${m.title}`, async () => {
      const body = encodeMultipart([
        {
          name: 'file',
          filename: 'f.txt',
          contentType: 'text/plain',
          size: m.size,
          body: Readable.from([m.content]),
        },
      ]);
      await assert.rejects(drain(body.chunks), (err: unknown) => {
        assert.ok(err instanceof DenError);
        assert.equal(err.code, 'bad_request');
        assert.match(err.message, /f\.txt/);
        return true;
      });
    });
  }

  it('escapes quotes and line breaks in names and strips them from the content type', async () => {
    assert.equal(escapeQuoted('a"b\r\nc\nd\re'), 'a%22b%0D%0Ac%0Ad%0De');
    const body = encodeMultipart([
      {
        name: 'file',
        filename: 'x',
        contentType: 'text/plain\r\nX-Evil: 1',
        size: 0,
        body: Readable.from([]),
      },
    ]);
    const text = (await drain(body.chunks)).toString();
    assert.doesNotMatch(text, /\r\nX-Evil/);
  });

  it('uses a fresh random boundary per body', () => {
    const a = encodeMultipart([{ name: 'key', value: 'k' }]).boundary;
    const b = encodeMultipart([{ name: 'key', value: 'k' }]).boundary;
    assert.notEqual(a, b);
    assert.match(a, /^----DenFormBoundary[0-9a-f]{32}$/);
  });
});
