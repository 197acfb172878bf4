/**
 * ANSI escapes in tool logs: SGR styles (bold, dim, italic, underline, strike, 16 foreground and
 * background colours) become class names; every other escape (cursor moves, erase, OSC titles and
 * links, DCS, charset switches) and stray control characters are removed. Feeding is incremental: an
 * escape split across chunks is carried over to the next one.
 */

/** A run of text with one style. */
export interface AnsiSegment {
  text: string;
  /** Space-separated `ansi-*` classes ('' for the default style). */
  classes: string;
}

const COLORS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The 16 colour names, as used in class names (`ansi-fg-bright-red`). */
export const ANSI_COLOR_NAMES: readonly string[] = [...COLORS, ...COLORS.map((c) => `bright-${c}`)];

interface Style {
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  fg?: number;
  bg?: number;
}

// A complete escape at the start of the input: CSI, OSC, DCS/SOS/PM/APC strings, or a short ESC form.
const ESCAPE =
  /^(?:\x1b\[|\x9b)([0-?]*)[ -/]*([@-~])|^(?:\x1b[\]PX^_]|[\x90\x9d\x98\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c)|^\x1b(?:[ -/]+[0-~]|[0-OQ-WYZ\\`a-~])/;
// An unfinished escape: what the next chunk may complete.
const PREFIX =
  /^(?:\x1b(?:\[[0-?]*[ -/]*|[\]PX^_][^\x07\x1b\x9c]*\x1b?|[ -/]*)?|\x9b[0-?]*[ -/]*|[\x90\x9d\x98\x9e\x9f][^\x07\x1b\x9c]*\x1b?)$/;
const MAX_CARRY = 4096;
// C0/C1 controls other than tab and newline, removed from text.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g;

function plain(): Style {
  return { bold: false, dim: false, italic: false, underline: false, strike: false };
}

/** Incremental ANSI parser: keeps the current style and an unfinished escape between chunks. */
export class AnsiParser {
  private style: Style = plain();
  private carry = '';

  /** Parses the next chunk of a stream. */
  push(chunk: string): AnsiSegment[] {
    let input = this.carry + chunk;
    this.carry = '';
    // A CR at the end may be the first half of CRLF.
    if (input.endsWith('\r')) {
      this.carry = '\r';
      input = input.slice(0, -1);
    }
    const out: AnsiSegment[] = [];
    let i = 0;
    let textStart = 0;
    while (i < input.length) {
      const c = input.charCodeAt(i);
      if (c !== 0x1b && (c < 0x90 || c > 0x9f)) {
        i++;
        continue;
      }
      if (i > textStart) this.emit(out, input.slice(textStart, i));
      const rest = input.slice(i, i + MAX_CARRY);
      const m = ESCAPE.exec(rest);
      if (m) {
        if (m[2] === 'm') this.sgr(m[1]);
        i += m[0].length;
      } else if (input.length - i < MAX_CARRY && PREFIX.test(rest)) {
        this.carry = rest + this.carry;
        textStart = i = input.length;
        break;
      } else {
        // A lone ESC, or an escape too long to be real: drop the byte.
        i++;
      }
      textStart = i;
    }
    if (input.length > textStart) this.emit(out, input.slice(textStart));
    return out;
  }

  /** Forgets the style and any unfinished escape (a new stream). */
  reset(): void {
    this.style = plain();
    this.carry = '';
  }

  private emit(out: AnsiSegment[], raw: string): void {
    const t = raw.replace(/\r\n?/g, '\n').replace(CONTROLS, '');
    if (!t) return;
    const classes = classesOf(this.style);
    const last = out[out.length - 1];
    if (last && last.classes === classes) last.text += t;
    else out.push({ text: t, classes });
  }

  private sgr(params: string): void {
    if (/[^0-9;:]/.test(params)) return;
    const codes = params === '' ? [0] : params.split(/[;:]/).map((p) => (p === '' ? 0 : parseInt(p, 10)));
    let s = this.style;
    for (let k = 0; k < codes.length; k++) {
      const n = codes[k];
      if (n === 0) s = this.style = plain();
      else if (n === 1) s.bold = true;
      else if (n === 2) s.dim = true;
      else if (n === 3) s.italic = true;
      else if (n === 4) s.underline = true;
      else if (n === 9) s.strike = true;
      else if (n === 22) s.bold = s.dim = false;
      else if (n === 23) s.italic = false;
      else if (n === 24) s.underline = false;
      else if (n === 29) s.strike = false;
      else if (n >= 30 && n <= 37) s.fg = n - 30;
      else if (n >= 90 && n <= 97) s.fg = n - 90 + 8;
      else if (n === 39) delete s.fg;
      else if (n >= 40 && n <= 47) s.bg = n - 40;
      else if (n >= 100 && n <= 107) s.bg = n - 100 + 8;
      else if (n === 49) delete s.bg;
      else if (n === 38 || n === 48) {
        // 38;5;n (256 colours: only the first 16 are theme colours) or 38;2;r;g;b (skipped).
        const mode = codes[k + 1];
        if (mode === 5) {
          const idx = codes[k + 2];
          if (idx !== undefined && idx < 16) {
            if (n === 38) s.fg = idx;
            else s.bg = idx;
          }
          k += 2;
        } else if (mode === 2) k += 4;
        else k += 1;
      }
    }
  }
}

function classesOf(s: Style): string {
  const c: string[] = [];
  if (s.bold) c.push('ansi-bold');
  if (s.dim) c.push('ansi-dim');
  if (s.italic) c.push('ansi-italic');
  if (s.underline) c.push('ansi-underline');
  if (s.strike) c.push('ansi-strike');
  if (s.fg !== undefined) c.push(`ansi-fg-${ANSI_COLOR_NAMES[s.fg]}`);
  if (s.bg !== undefined) c.push(`ansi-bg-${ANSI_COLOR_NAMES[s.bg]}`);
  return c.join(' ');
}

/** Parses a whole text at once. */
export function parseAnsi(s: string): AnsiSegment[] {
  return new AnsiParser().push(s);
}
