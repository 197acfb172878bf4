import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ContentHasher, contentHash, hashChunks, isContentHash } from '../../../../src/core/merge/hash';

const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('content hash', () => {
  it('is SHA-256 in lowercase hex (standard test vectors)', () => {
    assert.equal(contentHash(''), EMPTY);
    assert.equal(contentHash(new Uint8Array()), EMPTY);
    assert.equal(contentHash('abc'), ABC);
    assert.equal(contentHash(Uint8Array.of(0x61, 0x62, 0x63)), ABC);
  });

  it('hashes text as UTF-8', () => {
    assert.equal(contentHash('é'), contentHash(Uint8Array.of(0xc3, 0xa9)));
  });

  it('gives the same hash chunk by chunk, however the content is cut', () => {
    const data = new Uint8Array(100_000).map((_, i) => (i * 31) & 0xff);
    const whole = contentHash(data);
    for (const size of [1, 7, 4096, 65_536, 100_000]) {
      const h = new ContentHasher();
      for (let at = 0; at < data.length; at += size) h.update(data.subarray(at, at + size));
      assert.equal(h.size, data.length);
      assert.equal(h.digest(), whole, `chunks of ${size}`);
    }
  });

  it('hashes a stream and an iterable of chunks', async () => {
    assert.equal(await hashChunks(['a', 'b', Uint8Array.of(0x63)]), ABC);
    assert.equal(await hashChunks(Readable.from([Buffer.from('ab'), Buffer.from('c')])), ABC);
    assert.equal(await hashChunks([]), EMPTY);
  });

  it('refuses updates after the digest', () => {
    const h = new ContentHasher().update('a');
    h.digest();
    assert.throws(() => h.update('b'), /after digest/);
  });

  it('recognises the form of a hash', () => {
    assert.equal(isContentHash(ABC), true);
    for (const bad of [ABC.toUpperCase(), ABC.slice(1), `${ABC}0`, `../${ABC.slice(3)}`, 42, undefined]) {
      assert.equal(isContentHash(bad), false, String(bad));
    }
  });
});
