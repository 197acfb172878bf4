/**
 * A file's bytes as lines: UTF-8 decoding that refuses binary content, and a split into lines that
 * keeps each line's own ending, so a merge can compare line contents and still write every line
 * back as the file had it. Pure; no imports.
 */

/** A line's content and the ending that follows it (`''` only on a last line without one). */
export interface Line {
  text: string;
  eol: '' | '\n' | '\r\n';
}

/** A text split into lines, with its byte order mark (kept apart so it never counts as an edit). */
export interface Lines {
  bom: boolean;
  lines: Line[];
}

/** The line ending style of a text: the one its lines use, `mixed`, or `none` (no line ends). */
export type EolStyle = '\n' | '\r\n' | 'mixed' | 'none';

const BOM = '\uFEFF';

/**
 * The text of UTF-8 bytes (a byte order mark stays, as U+FEFF), or undefined when they are not
 * text: not valid UTF-8, or with a NUL byte. A string is checked for NUL only.
 */
export function decodeText(data: Uint8Array | string): string | undefined {
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
    } catch {
      return undefined;
    }
  }
  return text.includes('\0') ? undefined : text;
}

/**
 * Splits at `\n` and `\r\n`. A lone `\r` is part of a line's content, not an ending (classic Mac
 * endings are not recognised: such a file is one long line, which merges conservatively). An
 * empty text has no lines; `a\n` has one.
 */
export function splitLines(text: string): Lines {
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      lines.push({ text: text.slice(start), eol: '' });
      break;
    }
    const crlf = nl > start && text.charCodeAt(nl - 1) === 13;
    lines.push({ text: text.slice(start, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' });
    start = nl + 1;
  }
  return { bom, lines };
}

/** The ending style of `lines` (the last line's missing ending does not count). */
export function eolStyle(lines: readonly Line[]): EolStyle {
  let style: EolStyle = 'none';
  for (const l of lines) {
    if (l.eol === '') continue;
    if (style === 'none') style = l.eol;
    else if (style !== l.eol) return 'mixed';
  }
  return style;
}

/** Whether the text's last line ends with a line ending (false for an empty text). */
export function endsWithNewline(lines: readonly Line[]): boolean {
  return lines.length > 0 && lines[lines.length - 1].eol !== '';
}

/** Joins lines back; `bom` puts a byte order mark first. */
export function joinLines(lines: readonly Line[], bom = false): string {
  let out = bom ? BOM : '';
  for (const l of lines) out += l.text + l.eol;
  return out;
}

/** The contents of the lines, for comparing (endings left out). */
export function contents(lines: readonly Line[]): string[] {
  return lines.map((l) => l.text);
}
