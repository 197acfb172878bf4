/**
 * Content hashes: SHA-256 as lowercase hex, of whole contents or of chunks as they stream in, so a
 * big file never has to be held at once. Text is hashed as its UTF-8 bytes. Node only (`node:crypto`).
 */
import { createHash, type Hash } from 'node:crypto';

export type HashInput = Uint8Array | string;

/** The SHA-256 of `data`, as 64 lowercase hex digits. */
export function contentHash(data: HashInput): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A hash fed chunk by chunk; `digest()` ends it. */
export class ContentHasher {
  readonly #hash: Hash = createHash('sha256');
  #done = false;
  #bytes = 0;

  update(chunk: HashInput): this {
    if (this.#done) throw new Error('ContentHasher: update after digest');
    this.#bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    this.#hash.update(chunk);
    return this;
  }

  /** Bytes hashed so far. */
  get size(): number {
    return this.#bytes;
  }

  digest(): string {
    this.#done = true;
    return this.#hash.digest('hex');
  }
}

/** The SHA-256 of a stream of chunks (a Node readable stream is one). */
export async function hashChunks(chunks: AsyncIterable<HashInput> | Iterable<HashInput>): Promise<string> {
  const hasher = new ContentHasher();
  for await (const chunk of chunks) hasher.update(chunk);
  return hasher.digest();
}

/** Whether `s` has the form of a content hash (so it is safe as a file name, too). */
export function isContentHash(s: unknown): s is string {
  return typeof s === 'string' && /^[0-9a-f]{64}$/.test(s);
}
