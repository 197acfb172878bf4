/**
 * A streaming `multipart/form-data` parser: fed chunk by chunk, it never holds more than one
 * chunk plus a delimiter's length, and finds delimiters split across chunks.
 */

/** Headers of one part, names lower-cased. */
export type PartHeaders = Record<string, string>;

export interface MultipartHandlers {
  onPartBegin(headers: PartHeaders): void;
  onPartData(chunk: Buffer): void;
  onPartEnd(): void;
}

type State = 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done';

const MAX_HEADER_BYTES = 16 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');

/** The boundary parameter of a `multipart/form-data` content type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** `name` and `filename` of a `Content-Disposition: form-data` header. */
export function dispositionOf(header: string | undefined): { name?: string; filename?: string } {
  if (!header) return {};
  const param = (key: string): string | undefined => {
    const m =
      new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ??
      new RegExp(`(?:^|;)\\s*${key}=([^;\\s]+)`, 'i').exec(header);
    return m ? m[1].replace(/\\(.)/g, '$1') : undefined;
  };
  const star = /filename\*=(?:UTF-8|utf-8)''([^;\s]+)/.exec(header);
  let filename = param('filename');
  if (star) {
    try {
      filename = decodeURIComponent(star[1]);
    } catch {
      // keep the plain filename
    }
  }
  return { name: param('name'), filename };
}

export class MultipartParser {
  private readonly delimiter: Buffer;
  private state: State = 'preamble';
  private buf: Buffer;

  constructor(
    boundary: string,
    private readonly handlers: MultipartHandlers,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // The first delimiter may sit at the very start, without the CRLF before it.
    this.buf = Buffer.from('\r\n');
  }

  get finished(): boolean {
    return this.state === 'done';
  }

  write(chunk: Buffer): void {
    if (this.state === 'done') return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    this.process();
  }

  /** Throws when the body ended before the closing delimiter. */
  end(): void {
    if (this.state !== 'done') throw new Error('multipart body ended before its closing boundary');
  }

  private process(): void {
    for (;;) {
      switch (this.state) {
        case 'preamble': {
          const i = this.buf.indexOf(this.delimiter);
          if (i < 0) {
            this.keepTail();
            return;
          }
          this.buf = this.buf.subarray(i + this.delimiter.length);
          this.state = 'afterDelimiter';
          break;
        }
        case 'afterDelimiter': {
          if (this.buf.length < 2) return;
          if (this.buf[0] === 0x2d && this.buf[1] === 0x2d) {
            this.state = 'done';
            this.buf = Buffer.alloc(0);
            return;
          }
          // Transport padding may follow a delimiter; the line ends with CRLF.
          const eol = this.buf.indexOf('\r\n');
          if (eol < 0) {
            if (this.buf.length > 256) throw new Error('malformed multipart delimiter line');
            return;
          }
          this.buf = this.buf.subarray(eol + 2);
          this.state = 'headers';
          break;
        }
        case 'headers': {
          // A part without headers starts with the blank line directly.
          const i = this.buf.subarray(0, 2).toString() === '\r\n' ? -2 : this.buf.indexOf(CRLFCRLF);
          if (i === -1) {
            if (this.buf.length > MAX_HEADER_BYTES) throw new Error('multipart part headers too large');
            return;
          }
          const text = i === -2 ? '' : this.buf.subarray(0, i).toString('utf8');
          this.buf = this.buf.subarray(i === -2 ? 2 : i + 4);
          const headers: PartHeaders = {};
          for (const line of text.split('\r\n')) {
            const c = line.indexOf(':');
            if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
          }
          this.handlers.onPartBegin(headers);
          this.state = 'body';
          break;
        }
        case 'body': {
          const i = this.buf.indexOf(this.delimiter);
          if (i < 0) {
            const keep = Math.min(this.buf.length, this.delimiter.length - 1);
            const emit = this.buf.length - keep;
            if (emit > 0) this.handlers.onPartData(this.buf.subarray(0, emit));
            this.buf = Buffer.from(this.buf.subarray(emit));
            return;
          }
          if (i > 0) this.handlers.onPartData(this.buf.subarray(0, i));
          this.handlers.onPartEnd();
          this.buf = this.buf.subarray(i + this.delimiter.length);
          this.state = 'afterDelimiter';
          break;
        }
        case 'done':
          return;
      }
    }
  }

  /** Keeps only what could be the start of a delimiter. */
  private keepTail(): void {
    const keep = Math.min(this.buf.length, this.delimiter.length - 1);
    this.buf = Buffer.from(this.buf.subarray(this.buf.length - keep));
  }
}
