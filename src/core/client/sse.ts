import { l10n } from '../shared/l10n';
import { DenError } from './errors';

/** One dispatched server-sent event. */
export interface SseEvent {
  /** The `event:` field; absent means the default type ("message"). */
  event?: string;
  /** `data:` lines joined with `\n`. */
  data: string;
  /** The last event ID seen so far in the stream (it persists across events, per the spec). */
  id?: string;
}

export interface SseOptions {
  /**
   * Dispatch an event still pending when the stream ends (no blank line after it), including a
   * final line without a line break. Default true: the WHATWG rules discard it, but the task-run
   * endpoint's stream "ends when the body ends", and servers that stop without the closing blank
   * line would otherwise lose their final (usually most important) state.
   */
  dispatchAtEof?: boolean;
  /** A line longer than this (in UTF-16 units) is a `protocol` error. Default 8 Mi. */
  maxLineLength?: number;
}

/**
 * Incremental server-sent-events parser following the WHATWG event-stream rules: lines end in
 * CRLF, LF or CR; chunks may split anywhere (inside a CRLF or a multi-byte UTF-8 character); a
 * leading BOM is dropped; `:` lines are comments; one space after the colon is removed; `data`
 * lines are joined with `\n`; a blank line dispatches; `retry` and unknown fields are ignored.
 */
export async function* parseSse(
  chunks: AsyncIterable<Uint8Array | string>,
  options: SseOptions = {},
): AsyncGenerator<SseEvent> {
  const dispatchAtEof = options.dispatchAtEof ?? true;
  const maxLine = options.maxLineLength ?? 8 * 1024 * 1024;
  // ignoreBOM keeps the BOM in the text so that string and byte chunks strip it in one place.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let buffer = '';
  let first = true;
  let skipLf = false;
  let data: string[] = [];
  let type = '';
  let lastId = '';

  const line = (text: string): SseEvent | undefined => {
    if (text === '') {
      if (data.length === 0) {
        type = '';
        return undefined;
      }
      const ev: SseEvent = { data: data.join('\n') };
      if (type !== '') ev.event = type;
      if (lastId !== '') ev.id = lastId;
      data = [];
      type = '';
      return ev;
    }
    if (text.charCodeAt(0) === 0x3a) return undefined;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') type = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    return undefined;
  };

  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (!skipLf && nextBreak(text, 0) < 0) {
      // No line ends in this chunk: append without rescanning the buffer (long lines stay linear).
      buffer += text;
      checkLength(buffer.length, maxLine);
      continue;
    }
    buffer += text;
    let start = 0;
    for (;;) {
      if (skipLf && start < buffer.length) {
        if (buffer.charCodeAt(start) === 0x0a) start++;
        skipLf = false;
      }
      const end = nextBreak(buffer, start);
      if (end < 0) break;
      const ev = line(buffer.slice(start, end));
      if (ev) yield ev;
      skipLf = buffer.charCodeAt(end) === 0x0d;
      start = end + 1;
    }
    buffer = buffer.slice(start);
    checkLength(buffer.length, maxLine);
  }
  const tail = decoder.decode();
  if (tail.length > 0) buffer += first && tail.charCodeAt(0) === 0xfeff ? tail.slice(1) : tail;
  if (!dispatchAtEof) return;
  if (buffer.length > 0) {
    const ev = line(buffer);
    if (ev) yield ev;
  }
  const ev = line('');
  if (ev) yield ev;
}

function checkLength(length: number, max: number): void {
  if (length > max) {
    throw new DenError({
      code: 'protocol',
      message: l10n.t('Unreadable event stream: a line exceeds {0} characters', max),
    });
  }
}

function nextBreak(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i;
  }
  return -1;
}
