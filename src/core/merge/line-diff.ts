/**
 * A line diff: which ranges of `a` become which ranges of `b`. Myers' O(ND) algorithm in linear
 * space (the divide-and-conquer "middle snake" of GNU diff's `analyze.c`, without its heuristics),
 * on lines mapped to integers. Two exact speed-ups come first: the common prefix and suffix are
 * trimmed, and a line that occurs only on one side is marked changed before the search (it can
 * never be part of a common subsequence, so the result is still minimal). A work budget bounds the
 * search: when it runs out, the part still unsolved is reported as one changed range. That diff is
 * still correct (it turns `a` into `b`), only coarser, so a merge built on it conflicts more often
 * and never merges wrongly. Pure; no imports.
 */

/** One change: lines `[aStart, aEnd)` of `a` are replaced by lines `[bStart, bEnd)` of `b`. */
export interface Hunk {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

export interface DiffOptions {
  /**
   * Work budget, in steps of the search (default 20,000,000: well under a second). Deterministic,
   * not a time limit, so the same inputs always give the same diff.
   */
  budget?: number;
}

const DEFAULT_BUDGET = 20_000_000;
const NONE = -1;
const FAR = 0x7fffffff;

/**
 * The hunks that turn `a` into `b`, in order; lines compare as exact strings. Between two hunks
 * there is at least one unchanged line.
 */
export function diffLines(a: readonly string[], b: readonly string[], options: DiffOptions = {}): Hunk[] {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const x = Int32Array.from(a, idOf);
  const y = Int32Array.from(b, idOf);
  const xChanged = new Uint8Array(x.length);
  const yChanged = new Uint8Array(y.length);
  markChanges(x, y, xChanged, yChanged, options.budget ?? DEFAULT_BUDGET);
  return hunksOf(xChanged, yChanged);
}

/** Marks the lines of `x` and `y` that are not part of the common subsequence found. */
function markChanges(x: Int32Array, y: Int32Array, xc: Uint8Array, yc: Uint8Array, budget: number): void {
  // Lines with no counterpart on the other side are changes whatever else happens.
  const inY = new Uint8Array(countIds(x, y));
  for (const id of y) inY[id] = 1;
  const inX = new Uint8Array(inY.length);
  for (const id of x) inX[id] = 1;
  const xi = keep(x, inY, xc);
  const yi = keep(y, inX, yc);
  const xs = xi.map((i) => x[i]);
  const ys = yi.map((i) => y[i]);
  const xcs = new Uint8Array(xs.length);
  const ycs = new Uint8Array(ys.length);
  new Search(xs, ys, xcs, ycs, budget).run();
  for (let i = 0; i < xi.length; i++) if (xcs[i]) xc[xi[i]] = 1;
  for (let i = 0; i < yi.length; i++) if (ycs[i]) yc[yi[i]] = 1;
}

function countIds(x: Int32Array, y: Int32Array): number {
  let max = -1;
  for (const id of x) if (id > max) max = id;
  for (const id of y) if (id > max) max = id;
  return max + 1;
}

/** The indices of `seq` whose line occurs on the other side; the others are marked changed. */
function keep(seq: Int32Array, other: Uint8Array, changed: Uint8Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < seq.length; i++) {
    if (other[seq[i]]) out.push(i);
    else changed[i] = 1;
  }
  return Int32Array.from(out);
}

class Search {
  /** Furthest x reached on each diagonal k = x - y, forward and backward, offset by `off`. */
  readonly #fd: Int32Array;
  readonly #bd: Int32Array;
  readonly #off: number;

  readonly #x: Int32Array;
  readonly #y: Int32Array;
  readonly #xc: Uint8Array;
  readonly #yc: Uint8Array;
  #budget: number;
  constructor(x: Int32Array, y: Int32Array, xc: Uint8Array, yc: Uint8Array, budget: number) {
    this.#x = x;
    this.#y = y;
    this.#xc = xc;
    this.#yc = yc;
    this.#budget = budget;
    const size = x.length + y.length + 3;
    this.#fd = new Int32Array(size);
    this.#bd = new Int32Array(size);
    this.#off = y.length + 1;
  }

  run(): void {
    // An explicit stack instead of recursion: the order of the parts does not matter for marking.
    const stack: number[] = [0, this.#x.length, 0, this.#y.length];
    while (stack.length > 0) {
      let ylim = stack.pop()!;
      let yoff = stack.pop()!;
      let xlim = stack.pop()!;
      let xoff = stack.pop()!;
      const [x, y] = [this.#x, this.#y];
      for (; xoff < xlim && yoff < ylim && x[xoff] === y[yoff]; xoff++) yoff++;
      for (; xoff < xlim && yoff < ylim && x[xlim - 1] === y[ylim - 1]; xlim--) ylim--;
      if (xoff === xlim || yoff === ylim) {
        this.#mark(xoff, xlim, yoff, ylim);
        continue;
      }
      const mid = this.#middleSnake(xoff, xlim, yoff, ylim);
      if (mid === undefined) {
        this.#mark(xoff, xlim, yoff, ylim);
        continue;
      }
      stack.push(xoff, mid[0], yoff, mid[1], mid[0], xlim, mid[1], ylim);
    }
  }

  #mark(xoff: number, xlim: number, yoff: number, ylim: number): void {
    this.#xc.fill(1, xoff, xlim);
    this.#yc.fill(1, yoff, ylim);
  }

  /**
   * A point on a shortest edit path of the box, found by searching from both corners until the
   * paths meet; undefined when the budget runs out first. The box's ends differ (trimmed).
   */
  #middleSnake(xoff: number, xlim: number, yoff: number, ylim: number): [number, number] | undefined {
    const [x, y] = [this.#x, this.#y];
    const [fd, bd, off] = [this.#fd, this.#bd, this.#off];
    const dmin = xoff - ylim;
    const dmax = xlim - yoff;
    const fmid = xoff - yoff;
    const bmid = xlim - ylim;
    const odd = ((fmid - bmid) & 1) !== 0;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    fd[off + fmid] = xoff;
    bd[off + bmid] = xlim;
    for (;;) {
      if (fmin > dmin) fd[off + --fmin - 1] = NONE;
      else ++fmin;
      if (fmax < dmax) fd[off + ++fmax + 1] = NONE;
      else --fmax;
      for (let d = fmax; d >= fmin; d -= 2) {
        const lo = fd[off + d - 1];
        const hi = fd[off + d + 1];
        let px = lo >= hi ? lo + 1 : hi;
        let py = px - d;
        const start = px;
        for (; px < xlim && py < ylim && x[px] === y[py]; px++) py++;
        this.#budget -= px - start + 1;
        fd[off + d] = px;
        if (odd && bmin <= d && d <= bmax && bd[off + d] <= px) return [px, py];
      }
      if (bmin > dmin) bd[off + --bmin - 1] = FAR;
      else ++bmin;
      if (bmax < dmax) bd[off + ++bmax + 1] = FAR;
      else --bmax;
      for (let d = bmax; d >= bmin; d -= 2) {
        const lo = bd[off + d - 1];
        const hi = bd[off + d + 1];
        let px = lo < hi ? lo : hi - 1;
        let py = px - d;
        const start = px;
        for (; px > xoff && py > yoff && x[px - 1] === y[py - 1]; px--) py--;
        this.#budget -= start - px + 1;
        bd[off + d] = px;
        if (!odd && fmin <= d && d <= fmax && px <= fd[off + d]) return [px, py];
      }
      if (this.#budget < 0) return undefined;
    }
  }
}

/** The hunks described by the two change maps (their unchanged lines pair up in order). */
function hunksOf(xc: Uint8Array, yc: Uint8Array): Hunk[] {
  const out: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < xc.length || j < yc.length) {
    if (i < xc.length && j < yc.length && !xc[i] && !yc[j]) {
      i++;
      j++;
      continue;
    }
    const aStart = i;
    const bStart = j;
    while (i < xc.length && xc[i]) i++;
    while (j < yc.length && yc[j]) j++;
    if (i === aStart && j === bStart) {
      // Only possible if the maps disagree on the unchanged count; end with the rest as changed.
      out.push({ aStart, aEnd: xc.length, bStart, bEnd: yc.length });
      break;
    }
    out.push({ aStart, aEnd: i, bStart, bEnd: j });
  }
  return out;
}
