/**
 * Windowed rendering math, pure: given every row's height (measured, or estimated until it has been
 * rendered once) and the scroll position, which rows belong in the DOM and how tall the spacers
 * above and below them must be so the scrollbar stays right.
 */

/** The rows to render: indexes [start, end) and the spacer heights around them. */
export interface WindowRange {
  start: number;
  end: number;
  /** Height of the rows above `start`. */
  top: number;
  /** Height of the rows from `end` on. */
  bottom: number;
}

/**
 * Prefix sums: `offsets[i]` is the top of row i, `offsets[n]` the total height. Written into `into`
 * when it has the right length (a scroll recomputes them every frame: no garbage each time).
 */
export function prefixSums(heights: ArrayLike<number>, into?: Float64Array): Float64Array {
  const out = into?.length === heights.length + 1 ? into : new Float64Array(heights.length + 1);
  out[0] = 0;
  for (let i = 0; i < heights.length; i++) out[i + 1] = out[i] + heights[i];
  return out;
}

/** The row containing vertical position `y` (clamped to [0, n-1]; -1 when there are no rows). */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The rows overlapping [scrollTop - overscan, scrollTop + viewport + overscan], at most `maxRows`
 * of them (the ones nearest the viewport's top are kept).
 */
export function computeWindow(
  offsets: Float64Array,
  scrollTop: number,
  viewport: number,
  overscan: number,
  maxRows = 400,
): WindowRange {
  const n = offsets.length - 1;
  const total = offsets[n] ?? 0;
  if (n <= 0) return { start: 0, end: 0, top: 0, bottom: 0 };
  const from = Math.max(0, scrollTop - overscan);
  const to = Math.min(total, scrollTop + Math.max(0, viewport) + overscan);
  const start = rowAt(offsets, from);
  let end = rowAt(offsets, to) + 1;
  // A row starting exactly at `to` is not visible; never render zero rows while some exist.
  if (end - 1 > start && offsets[end - 1] >= to) end--;
  end = Math.max(start + 1, Math.min(n, end));
  end = Math.min(end, start + Math.max(1, maxRows));
  return { start, end, top: offsets[start], bottom: total - offsets[end] };
}

/**
 * Where to scroll so that the row `anchor`, which was `delta` px above the viewport top, stays put
 * after heights changed (scroll anchoring done by hand, since spacers confuse the browser's own).
 */
export function anchoredScrollTop(offsets: Float64Array, anchor: number, delta: number): number {
  if (anchor < 0 || anchor >= offsets.length) return 0;
  return Math.max(0, offsets[anchor] + delta);
}

/** Estimated height of a text row before it was ever measured. */
export function estimateTextHeight(
  chars: number,
  lines: number,
  charsPerLine: number,
  lineHeight: number,
): number {
  const perLine = Math.max(10, charsPerLine);
  const wrapped = Math.ceil(chars / perLine);
  return Math.max(1, Math.max(lines, wrapped)) * lineHeight;
}
