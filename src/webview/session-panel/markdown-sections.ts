/**
 * Splits a growing Markdown text into sections that can be rendered (and windowed) on their own, so a
 * streamed answer of 50,000 chunks is never re-parsed whole: finished sections render once, only the
 * trailing one is re-rendered as text arrives. Cuts are made after a blank line outside fenced code,
 * when the next line starts at column 0 (not a list continuation); a section that grows past `max`
 * is cut at a line end regardless, re-opening the code fence it was in.
 */

/** Where a section starts (after the first), and text to put before it when rendering. */
export interface SectionCut {
  at: number;
  /** The code fence opener to re-open a fenced block cut in two ('' usually). */
  prefix: string;
}

/** Incremental scan state of one block's text. Only ever advanced over appended text. */
export interface SectionState {
  cuts: SectionCut[];
  /** Start of the first line not scanned yet. */
  pos: number;
  /** The opener line of the fenced code block the scan is in. */
  fence?: string;
  /** End of the last blank line, while the line after it has not been seen yet. */
  blankAt?: number;
}

/** One section's range of the text. */
export interface Section {
  start: number;
  end: number;
  prefix: string;
}

export interface SectionLimits {
  /** A section is only cut at a blank line once it is at least this long. */
  min: number;
  /** A section longer than this is cut at the next line end whatever it holds. */
  max: number;
}

export const DEFAULT_LIMITS: SectionLimits = { min: 1500, max: 12_000 };

const FENCE_OPEN = /^ *(`{3,}|~{3,})([^`]*)$/;

export function newSectionState(): SectionState {
  return { cuts: [], pos: 0 };
}

function lastCut(s: SectionState): number {
  return s.cuts.length > 0 ? s.cuts[s.cuts.length - 1].at : 0;
}

function closes(fence: string, line: string): boolean {
  const open = FENCE_OPEN.exec(fence);
  if (!open) return true;
  const m = /^ *(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1][0] === open[1][0] && m[1].length >= open[1].length;
}

/** Scans the text appended since the last call; returns whether new cuts were made. */
export function advanceSections(
  s: SectionState,
  text: string,
  limits: SectionLimits = DEFAULT_LIMITS,
): boolean {
  const before = s.cuts.length;
  for (;;) {
    const nl = text.indexOf('\n', s.pos);
    if (nl < 0) break;
    const line = text.slice(s.pos, nl);
    const end = nl + 1;
    const blank = line.trim() === '';
    if (s.blankAt !== undefined && !blank) {
      if (s.fence === undefined && !/^[ \t]/.test(line) && s.blankAt - lastCut(s) >= limits.min) {
        s.cuts.push({ at: s.blankAt, prefix: '' });
      }
      s.blankAt = undefined;
    }
    if (s.fence !== undefined) {
      if (closes(s.fence, line)) s.fence = undefined;
    } else if (FENCE_OPEN.test(line)) {
      s.fence = line.trimStart();
    } else if (blank) s.blankAt = end;
    if (end - lastCut(s) >= limits.max) {
      s.cuts.push({ at: end, prefix: s.fence !== undefined ? `${s.fence}\n` : '' });
      s.blankAt = undefined;
    }
    s.pos = end;
  }
  // The first character of the unfinished line is enough to decide a cut after a blank line.
  if (s.blankAt !== undefined && s.fence === undefined && s.pos < text.length && /\S/.test(text[s.pos])) {
    if (s.blankAt - lastCut(s) >= limits.min) s.cuts.push({ at: s.blankAt, prefix: '' });
    s.blankAt = undefined;
  }
  // One endless line: cut it at a space (or anywhere) so the re-rendered tail stays bounded.
  const cut = lastCut(s);
  if (text.length - cut >= 2 * limits.max) {
    const space = text.lastIndexOf(' ', text.length - 1);
    const at = space > cut + limits.max ? space + 1 : text.length;
    s.cuts.push({ at, prefix: s.fence !== undefined ? `${s.fence}\n` : '' });
  }
  return s.cuts.length !== before;
}

/** The sections of the text as scanned so far (the last one runs to the end of the text). */
export function sectionsOf(s: SectionState, textLength: number): Section[] {
  const out: Section[] = [];
  let start = 0;
  let prefix = '';
  for (const c of s.cuts) {
    out.push({ start, end: c.at, prefix });
    start = c.at;
    prefix = c.prefix;
  }
  out.push({ start, end: textLength, prefix });
  return out;
}
