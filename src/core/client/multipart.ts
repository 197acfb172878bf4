import { l10n } from '../shared/l10n';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DenError } from './errors';

/** Bytes of a file part: a stream, any async iterable of bytes, or a factory of a fresh stream. */
export type BodySource = Readable | AsyncIterable<Uint8Array> | (() => Readable | AsyncIterable<Uint8Array>);

/** A plain text field. */
export interface TextPart {
  name: string;
  value: string;
}

/** A file field, streamed. */
export interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  /** Exact byte count when known; then the body's length is known up front and checked. */
  size?: number;
  body: BodySource;
}

export type MultipartPart = TextPart | FilePart;

/** An encoded multipart/form-data body, produced chunk by chunk. */
export interface MultipartBody {
  boundary: string;
  /** The Content-Type header value, with the boundary. */
  contentType: string;
  /** Total bytes when every file part's size is known. */
  contentLength?: number;
  /** The body's chunks; file bytes pass through unbuffered. Iterate once. */
  chunks: AsyncIterable<Uint8Array>;
}

export interface EncodeOptions {
  boundary?: string;
  /** Called with each file chunk's length as it is handed on. */
  onFileBytes?: (bytes: number) => void;
}

const CRLF = '\r\n';

/** Escapes a name or filename inside a quoted header parameter, as browsers do for form data. */
export function escapeQuoted(s: string): string {
  return s
    .replace(/\r\n|\r|\n/g, (m) => (m === '\n' ? '%0A' : m === '\r' ? '%0D' : '%0D%0A'))
    .replace(/"/g, '%22');
}

function isFile(p: MultipartPart): p is FilePart {
  return 'body' in p;
}

function partHead(boundary: string, p: MultipartPart): string {
  let head = `--${boundary}${CRLF}Content-Disposition: form-data; name="${escapeQuoted(p.name)}"`;
  if (isFile(p)) {
    // Content-Type is user-supplied: CR/LF in it would inject headers.
    const type = p.contentType.replace(/[\r\n]/g, '') || 'application/octet-stream';
    head += `; filename="${escapeQuoted(p.filename)}"${CRLF}Content-Type: ${type}`;
  }
  return `${head}${CRLF}${CRLF}`;
}

/** A boundary that cannot plausibly occur inside the content. */
export function newBoundary(): string {
  return `----DenFormBoundary${randomBytes(16).toString('hex')}`;
}

/**
 * Encodes parts as multipart/form-data without holding any file in memory: file bytes are
 * yielded as they arrive. When a file part declares a size, the body length is computed up front
 * and the file is checked to have exactly that many bytes (a `bad_request` DenError otherwise,
 * e.g. when the file changed while being sent).
 */
export function encodeMultipart(parts: readonly MultipartPart[], options: EncodeOptions = {}): MultipartBody {
  const boundary = options.boundary ?? newBoundary();
  const heads = parts.map((p) => Buffer.from(partHead(boundary, p), 'utf8'));
  const tail = Buffer.from(`--${boundary}--${CRLF}`, 'utf8');
  let contentLength: number | undefined = tail.length;
  parts.forEach((p, i) => {
    if (contentLength === undefined) return;
    const bodyLength = isFile(p) ? p.size : Buffer.byteLength(p.value, 'utf8');
    contentLength = bodyLength === undefined ? undefined : contentLength + heads[i].length + bodyLength + 2;
  });

  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      yield heads[i];
      if (!isFile(p)) {
        yield Buffer.from(`${p.value}${CRLF}`, 'utf8');
        continue;
      }
      let sent = 0;
      const source = typeof p.body === 'function' ? p.body() : p.body;
      for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        if (bytes.length === 0) continue;
        sent += bytes.length;
        if (p.size !== undefined && sent > p.size) throw sizeMismatch(p, sent, true);
        options.onFileBytes?.(bytes.length);
        yield bytes;
      }
      if (p.size !== undefined && sent !== p.size) throw sizeMismatch(p, sent, false);
      yield Buffer.from(CRLF, 'utf8');
    }
    yield tail;
  }

  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    chunks: chunks(),
  };
}

function sizeMismatch(p: FilePart, sent: number, more: boolean): DenError {
  const size = p.size ?? '';
  return new DenError({
    code: 'bad_request',
    message: more
      ? l10n.t(
          'Upload of {0} stopped: it was announced as {1} bytes but produced more than {2}; did the file change while uploading?',
          p.filename,
          size,
          sent,
        )
      : l10n.t(
          'Upload of {0} stopped: it was announced as {1} bytes but produced only {2}; did the file change while uploading?',
          p.filename,
          size,
          sent,
        ),
    details: { expected: p.size, produced: sent },
  });
}
