/** `PUT /media/upload` (streamed multipart) and `GET /media/{key}`. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { EmulatorContext } from './context';
import { HttpError } from './http-util';
import { boundaryOf, dispositionOf, MultipartParser } from './multipart';
import type { JsonReply } from './session-routes';
import { guessContentType, type KeyOwner, type MediaEntry } from './store';

/** Uploads up to this size keep their content (to serve it back); bigger ones keep their size only. */
export const KEEP_CONTENT_BYTES = 1024 * 1024;
const MAX_FIELD_BYTES = 4096;

export async function upload(
  ctx: EmulatorContext,
  req: IncomingMessage,
  owner: KeyOwner,
): Promise<JsonReply> {
  const boundary = boundaryOf(req.headers['content-type']);
  if (!boundary) {
    req.resume();
    throw new HttpError(400, 'bad_request', 'Expected multipart/form-data with a boundary');
  }
  let key: string | undefined;
  let file: { filename: string; contentType: string; size: number; chunks: Buffer[] | undefined } | undefined;
  let current: { name?: string; field: Buffer[]; isFile: boolean } | undefined;
  const parser = new MultipartParser(boundary, {
    onPartBegin(headers) {
      const d = dispositionOf(headers['content-disposition']);
      const isFile = d.name === 'file' || (d.filename !== undefined && d.name !== 'key');
      current = { name: d.name, field: [], isFile };
      if (isFile && !file) {
        const filename = d.filename || 'upload.bin';
        file = {
          filename,
          contentType: headers['content-type'] || guessContentType(filename),
          size: 0,
          chunks: [],
        };
      }
    },
    onPartData(chunk) {
      if (!current) return;
      if (current.isFile && file) {
        file.size += chunk.length;
        if (file.chunks && file.size <= KEEP_CONTENT_BYTES) file.chunks.push(Buffer.from(chunk));
        else file.chunks = undefined;
      } else if (current.field.reduce((n, b) => n + b.length, 0) < MAX_FIELD_BYTES) {
        current.field.push(Buffer.from(chunk));
      }
    },
    onPartEnd() {
      if (current?.name === 'key' && !current.isFile)
        key = Buffer.concat(current.field).toString('utf8').trim();
      current = undefined;
    },
  });
  try {
    for await (const chunk of req) parser.write(chunk as Buffer);
    parser.end();
  } catch (err) {
    req.resume();
    throw new HttpError(400, 'bad_request', `Malformed multipart body: ${(err as Error).message}`);
  }
  if (!file) throw new HttpError(400, 'bad_request', 'A `file` part is required');
  const finalKey = key || `uploads/${randomUUID()}/${file.filename}`;
  const entry: MediaEntry = {
    key: finalKey,
    filename: file.filename,
    contentType: file.contentType,
    size: file.size,
    content: file.chunks ? Buffer.concat(file.chunks) : undefined,
    ownerUserId: owner.userId,
    uploadedAt: Date.now(),
    generated: false,
  };
  ctx.store.media.set(finalKey, entry);
  return {
    status: 200,
    body: {
      key: entry.key,
      size: entry.size,
      contentType: entry.contentType,
      filename: entry.filename,
      uploadedAt: entry.uploadedAt,
    },
  };
}

/**
 * The stored content of an uploaded or generated file. With `downloads: 'absolute-url'` generated
 * files behave like pre-signed URLs (no key needed); with `'none'` they are not served at all.
 */
export function mediaEntry(ctx: EmulatorContext, key: string, owner: KeyOwner | undefined): MediaEntry {
  const entry = ctx.store.media.get(key);
  const hidden = entry?.generated && ctx.opts.downloads === 'none';
  if (!entry || hidden) throw new HttpError(404, 'not_found', `No file stored under ${key}`);
  const presigned = entry.generated && ctx.opts.downloads === 'absolute-url';
  if (!presigned) {
    if (!owner) throw new HttpError(401, 'unauthorized', 'Missing or invalid API key');
    if (owner.userId !== entry.ownerUserId)
      throw new HttpError(403, 'forbidden', 'This key cannot read this file');
  }
  if (!entry.content) throw new HttpError(404, 'not_found', `The content of ${key} was not kept (too large)`);
  return entry;
}
