/**
 * The hash that tells attachments with the same content apart (`UploadIndex`): SHA-256, hex.
 * Streams are hashed chunk by chunk, so a big file never sits in memory. No `vscode` here.
 * (`src/core/files/hash.ts` is to take this over once it lands: callers only use `contentHash`.)
 */
import { createHash } from 'node:crypto';

/** The SHA-256 of text (as UTF-8), bytes, or a stream of chunks; rejects when `signal` aborts. */
export async function contentHash(
  data: string | Uint8Array | AsyncIterable<Uint8Array | string>,
  signal?: AbortSignal,
): Promise<string> {
  const hash = createHash('sha256');
  if (typeof data === 'string' || data instanceof Uint8Array) {
    hash.update(data);
  } else {
    for await (const chunk of data) {
      signal?.throwIfAborted();
      hash.update(chunk);
    }
  }
  signal?.throwIfAborted();
  return hash.digest('hex');
}
