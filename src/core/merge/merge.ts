/**
 * Line-wise three-way merge of a workspace file ("ours") and the agent's version ("theirs") against
 * what the agent saw ("base"), like `diff3 -m` / `git merge-file --diff3`, plus line counts of a
 * change. In-house on `line-diff.ts` (docs/decisions/2026-11-24-three-way-merge.md). Pure; no
 * vscode, no Node.
 *
 * Rules:
 * - Lines compare by content; line endings and a byte order mark are the file's style, not edits.
 *   The result keeps the workspace file's style: its own lines keep their endings, and lines taken
 *   from the base or the agent get the workspace's ending when it uses one kind (`\n` or `\r\n`);
 *   in a file of mixed endings they keep their own. A workspace file with no line ending at all
 *   takes the agent's style, then the base's, then `\n`. The byte order mark follows the workspace.
 * - The trailing newline is merged as a three-way choice of its own: the workspace's presence,
 *   unless only the agent changed it (an empty version has no say).
 * - A region where both sides changed the same base lines, or lines next to each other (an
 *   insertion where the other side changed the line after it counts), is a conflict unless both
 *   made the very same change. Conflicts are written with `<<<<<<< Workspace`, `||||||| Base`,
 *   `=======`, `>>>>>>> Agent`.
 * - Content that is not UTF-8 text or holds a NUL byte is binary: no merge.
 */
import { diffLines, type Hunk } from './line-diff';
import {
  contents,
  decodeText,
  endsWithNewline,
  eolStyle,
  joinLines,
  splitLines,
  type Line,
  type Lines,
} from './text';

/** File content: bytes as read, or text already decoded. */
export type Content = Uint8Array | string;

/** Lines `[start, end)`, counted from 0. */
export interface LineRange {
  start: number;
  end: number;
}

/** One conflict of a merge. */
export interface Conflict {
  /** The workspace file's lines in conflict. */
  oursRange: LineRange;
  /** The base lines both sides changed. */
  baseRange: LineRange;
  /** The agent's lines in conflict. */
  theirsRange: LineRange;
  /** Where the conflict block, markers included, stands in the merged text. */
  resultRange: LineRange;
}

export type Merge3Result =
  | { binary: false; clean: true; text: string }
  | { binary: false; clean: false; text: string; conflicts: Conflict[] }
  | { binary: true; clean: false };

export const CONFLICT_MARKERS = {
  ours: '<<<<<<< Workspace',
  base: '||||||| Base',
  separator: '=======',
  theirs: '>>>>>>> Agent',
} as const;

export interface Merge3Input {
  base: Content;
  /** The workspace file now. */
  ours: Content;
  /** The agent's version. */
  theirs: Content;
}

/** Three-way merge of `ours` and `theirs` against `base` (see the rules above). */
export function merge3(input: Merge3Input): Merge3Result {
  const base = asLines(input.base);
  const ours = asLines(input.ours);
  const theirs = asLines(input.theirs);
  if (!base || !ours || !theirs) return { binary: true, clean: false };
  const style = outputStyle(ours, theirs, base);
  const merger = new Merger(base.lines, ours.lines, theirs.lines, style);
  const out = merger.run();
  finishEndings(out, style.eol, trailingNewline(base.lines, ours.lines, theirs.lines));
  const text = joinLines(out, ours.bom);
  if (merger.conflicts.length === 0) return { binary: false, clean: true, text };
  return { binary: false, clean: false, text, conflicts: merger.conflicts };
}

export interface LineStats {
  added: number;
  removed: number;
}

/**
 * How many lines `b` adds to `a` and removes from it (a changed line counts once each way); line
 * endings and the trailing newline are not counted. Undefined when either side is binary.
 */
export function lineStats(a: Content, b: Content): LineStats | undefined {
  const x = asLines(a);
  const y = asLines(b);
  if (!x || !y) return undefined;
  const stats: LineStats = { added: 0, removed: 0 };
  for (const h of diffLines(contents(x.lines), contents(y.lines))) {
    stats.removed += h.aEnd - h.aStart;
    stats.added += h.bEnd - h.bStart;
  }
  return stats;
}

/** Equal bytes, or texts equal but for line endings and a byte order mark. */
export function same(a: Content, b: Content): boolean {
  if (typeof a === 'string' && typeof b === 'string' && a === b) return true;
  if (typeof a !== 'string' && typeof b !== 'string' && equalBytes(a, b)) return true;
  const x = asLines(a);
  const y = asLines(b);
  if (!x || !y) return false;
  if (x.lines.length !== y.lines.length) return false;
  if (endsWithNewline(x.lines) !== endsWithNewline(y.lines)) return false;
  return x.lines.every((l, k) => l.text === y.lines[k].text);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** The lines of a content, or undefined when it is binary. */
export function asLines(content: Content): Lines | undefined {
  const text = decodeText(content);
  return text === undefined ? undefined : splitLines(text);
}

interface Style {
  /** The ending for lines that need one (markers, a last line that is no longer last, …). */
  eol: '\n' | '\r\n';
  /** Whether lines from the base and the agent take `eol` (false: they keep their own). */
  convert: boolean;
}

function outputStyle(ours: Lines, theirs: Lines, base: Lines): Style {
  for (const side of [ours, theirs, base]) {
    const s = eolStyle(side.lines);
    if (s === 'none') continue;
    if (s === 'mixed') return { eol: firstEol(side.lines), convert: false };
    return { eol: s, convert: true };
  }
  return { eol: '\n', convert: true };
}

function firstEol(lines: Line[]): '\n' | '\r\n' {
  for (const l of lines) if (l.eol !== '') return l.eol;
  return '\n';
}

/**
 * The three-way choice of the trailing newline: the workspace's, unless only the agent changed it.
 * An empty version has no last line and so no say.
 */
function trailingNewline(base: Line[], ours: Line[], theirs: Line[]): boolean {
  const flag = (lines: Line[]): boolean | undefined =>
    lines.length > 0 ? endsWithNewline(lines) : undefined;
  const b = flag(base);
  const o = flag(ours);
  const t = flag(theirs);
  if (o === b && t !== undefined) return t;
  return o ?? t ?? b ?? false;
}

/** Every line but the last gets an ending; the last one has one exactly when `final`. */
function finishEndings(out: Line[], eol: '\n' | '\r\n', final: boolean): void {
  for (let i = 0; i < out.length - 1; i++) if (out[i].eol === '') out[i] = { text: out[i].text, eol };
  const last = out[out.length - 1];
  if (!last) return;
  if (final && last.eol === '') out[out.length - 1] = { text: last.text, eol };
  if (!final && last.eol !== '') out[out.length - 1] = { text: last.text, eol: '' };
}

class Merger {
  readonly conflicts: Conflict[] = [];
  readonly #out: Line[] = [];
  readonly #oursHunks: Hunk[];
  readonly #theirsHunks: Hunk[];

  readonly #base: Line[];
  readonly #ours: Line[];
  readonly #theirs: Line[];
  readonly #style: Style;
  constructor(base: Line[], ours: Line[], theirs: Line[], style: Style) {
    this.#base = base;
    this.#ours = ours;
    this.#theirs = theirs;
    this.#style = style;
    // Hunks of base → side: `a*` are base lines, `b*` the side's.
    const b = contents(base);
    this.#oursHunks = diffLines(b, contents(ours));
    this.#theirsHunks = diffLines(b, contents(theirs));
  }

  run(): Line[] {
    const A = this.#oursHunks;
    const B = this.#theirsHunks;
    let i = 0;
    let j = 0;
    /** Base lines done, and the offset of each side's line numbers from the base's after them. */
    let pos = 0;
    let dOurs = 0;
    let dTheirs = 0;
    while (i < A.length || j < B.length) {
      const i0 = i;
      const j0 = j;
      const first = j >= B.length || (i < A.length && A[i].aStart <= B[j].aStart) ? A[i++] : B[j++];
      const start = first.aStart;
      let end = first.aEnd;
      // Take in every hunk of either side that starts inside the region or touches its end.
      for (;;) {
        if (i < A.length && A[i].aStart <= end) end = Math.max(end, A[i++].aEnd);
        else if (j < B.length && B[j].aStart <= end) end = Math.max(end, B[j++].aEnd);
        else break;
      }
      this.#keepOurs(pos + dOurs, start + dOurs);
      const o = sideRange(A, i0, i, start, end, dOurs);
      const t = sideRange(B, j0, j, start, end, dTheirs);
      dOurs = o.end - end;
      dTheirs = t.end - end;
      pos = end;
      if (j === j0) this.#keepOurs(o.start, o.end);
      else if (i === i0) this.#take(this.#theirs, t);
      else if (sameLines(this.#ours, o, this.#theirs, t)) this.#keepOurs(o.start, o.end);
      else this.#conflict(o, { start, end }, t);
    }
    this.#keepOurs(pos + dOurs, this.#ours.length);
    return this.#out;
  }

  #keepOurs(start: number, end: number): void {
    for (let k = start; k < end; k++) this.#out.push(this.#ours[k]);
  }

  /** Lines of the base or the agent, in the workspace's ending style. */
  #take(lines: Line[], r: LineRange): void {
    const { eol, convert } = this.#style;
    for (let k = r.start; k < r.end; k++) {
      const l = lines[k];
      this.#out.push(convert && l.eol !== '' && l.eol !== eol ? { text: l.text, eol } : l);
    }
  }

  #marker(text: string): void {
    this.#out.push({ text, eol: this.#style.eol });
  }

  #conflict(ours: LineRange, base: LineRange, theirs: LineRange): void {
    const start = this.#out.length;
    this.#marker(CONFLICT_MARKERS.ours);
    this.#keepOurs(ours.start, ours.end);
    this.#marker(CONFLICT_MARKERS.base);
    this.#take(this.#base, base);
    this.#marker(CONFLICT_MARKERS.separator);
    this.#take(this.#theirs, theirs);
    this.#marker(CONFLICT_MARKERS.theirs);
    const resultRange = { start, end: this.#out.length };
    this.conflicts.push({ oursRange: ours, baseRange: base, theirsRange: theirs, resultRange });
  }
}

/**
 * A side's lines for the base region `[start, end)`: from its hunks `[from, to)` in the region
 * (lines between them and the region's edges are unchanged), or, with none, the region shifted by
 * the side's offset `d`.
 */
export function sideRange(
  hunks: Hunk[],
  from: number,
  to: number,
  start: number,
  end: number,
  d: number,
): LineRange {
  if (from === to) return { start: start + d, end: end + d };
  const first = hunks[from];
  const last = hunks[to - 1];
  return { start: first.bStart - (first.aStart - start), end: last.bEnd + (end - last.aEnd) };
}

/** Whether two ranges of lines hold the same contents (endings aside). */
export function sameLines(a: Line[], ra: LineRange, b: Line[], rb: LineRange): boolean {
  if (ra.end - ra.start !== rb.end - rb.start) return false;
  for (let k = 0; k < ra.end - ra.start; k++) if (a[ra.start + k].text !== b[rb.start + k].text) return false;
  return true;
}
