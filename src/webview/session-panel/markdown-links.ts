/**
 * Scanners for the link forms of inline Markdown: the `(destination "title")` after link text,
 * `<autolinks>` and bare http(s) URLs. Pure and bounded: no scan goes further than a few thousand
 * characters, so floods of unclosed brackets stay linear.
 */

// Destinations and titles are bounded (as CommonMark bounds paren nesting), so a flood of unclosed
// "](" cannot make parsing quadratic.
const MAX_TAIL = 4096;
const MAX_AUTOLINK = 2100;
const URL_START = /^https?:\/\/[^\s<>]*/;

/** The destination of `(dest "title")` at `pos` (title dropped) and where it ends, or undefined. */
export function parseLinkTail(src: string, pos: number): { dest: string; end: number } | undefined {
  if (src[pos] !== '(') return undefined;
  const limit = Math.min(src.length, pos + MAX_TAIL);
  let i = pos + 1;
  const skipWs = (): void => {
    while (i < limit && /[ \t\n]/.test(src[i])) i++;
  };
  skipWs();
  let dest = '';
  if (src[i] === '<') {
    const start = i + 1;
    for (i = start; i < limit && src[i] !== '>' && src[i] !== '\n' && src[i] !== '<'; i++) {
      if (src[i] === '\\') i++;
    }
    if (src[i] !== '>') return undefined;
    dest = src.slice(start, i);
    i++;
  } else {
    let depth = 0;
    const start = i;
    for (; i < limit; i++) {
      const c = src[i];
      if (c === '\\') i++;
      else if (c === '(') {
        if (++depth > 32) return undefined;
      } else if (c === ')') {
        if (depth === 0) break;
        depth--;
      } else if (/[\s\u0000-\u001f]/.test(c)) break;
    }
    dest = src.slice(start, i);
  }
  skipWs();
  const q = src[i];
  if (q === '"' || q === "'" || q === '(') {
    const closeQ = q === '(' ? ')' : q;
    let j = i + 1;
    for (; j < limit && src[j] !== closeQ; j++) if (src[j] === '\\') j++;
    if (j >= limit) return undefined;
    i = j + 1;
    skipWs();
  }
  if (i >= limit || src[i] !== ')') return undefined;
  return { dest, end: i + 1 };
}

/** An `<scheme:…>` or `<email>` autolink at `pos`: its label, the href to check, its length. */
export function matchAutolink(
  src: string,
  pos: number,
): { label: string; href: string; length: number } | undefined {
  const rest = src.slice(pos, pos + MAX_AUTOLINK);
  const m =
    /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\u0000-\u0020]*)>/.exec(rest) ??
    /^<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*)>/.exec(rest);
  if (!m) return undefined;
  return { label: m[1], href: m[1].includes(':') ? m[1] : `mailto:${m[1]}`, length: m[0].length };
}

/** A bare http(s) URL at `pos`, without trailing punctuation or an unbalanced closing parenthesis. */
export function matchBareUrl(src: string, pos: number): string | undefined {
  if (!src.startsWith('http', pos)) return undefined;
  const m = URL_START.exec(src.slice(pos, pos + MAX_TAIL));
  if (!m) return undefined;
  let url = m[0];
  for (;;) {
    const last = url[url.length - 1];
    if (/[?!.,:;*_~'"]/.test(last)) url = url.slice(0, -1);
    else if (last === ')' && count(url, '(') < count(url, ')')) url = url.slice(0, -1);
    else break;
  }
  return url.length > 'https://'.length ? url : undefined;
}

/** The first value ≥ min of a sorted list (binary search). */
export function firstAtOrAfter(sorted: number[], min: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < min) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

function count(s: string, c: string): number {
  let n = 0;
  for (const x of s) if (x === c) n++;
  return n;
}
