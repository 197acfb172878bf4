/**
 * What a regular expression's matches must contain, as sets of lower-cased trigrams: every match
 * holds at least one trigram of each set. It reaches further than `requiredLiteral` (a run of plain
 * characters) by spelling out small character classes and fixed repeats: `[0-9]{3}zz` gives
 * `{0zz … 9zz}` and `{00z … 99z}`, so an index of trigram filters can skip the sessions holding none
 * of them instead of reading every one. Sound or silent: anything it does not understand (an
 * alternation outside a group, a negated or large class, `\w`, a group) breaks the run, never adds a
 * set that a match could lack. Browser-safe.
 */

/** Largest character class spelled out. */
const MAX_CLASS = 16;
/** Largest set of trigrams (the product of three classes) kept. */
export const MAX_SET = 100;
/** Sets kept at most (the smallest). */
const MAX_SETS = 8;

const DIGITS = [...'0123456789'];

/** One character as the filter sees it (lower case, one UTF-16 unit), or undefined. */
function unit(c: string): string | undefined {
  const l = c.toLowerCase();
  return l.length === 1 ? l : undefined;
}

function setOf(chars: Iterable<string>): string[] | undefined {
  const out = new Set<string>();
  for (const c of chars) {
    const u = unit(c);
    if (u === undefined) return undefined;
    out.add(u);
    if (out.size > MAX_CLASS) return undefined;
  }
  return [...out];
}

/** A class body `[...]` from `i` (after `[`): its characters, and where it ends (after `]`). */
function parseClass(src: string, i: number): { set?: string[]; end: number } {
  const chars: string[] = [];
  let ok = src[i] !== '^';
  let prev: string | undefined;
  for (; i < src.length && src[i] !== ']'; i++) {
    let c = src[i];
    if (c === '\\') {
      const n = src[++i] ?? '';
      if (n === 'd') {
        chars.push(...DIGITS);
        prev = undefined;
        continue;
      }
      if (/[\p{L}\p{N}\s]/u.test(n) || n === '') ok = false;
      c = n;
    } else if (c === '-' && prev !== undefined && src[i + 1] !== ']' && i + 1 < src.length) {
      let to = src[++i];
      if (to === '\\') to = src[++i] ?? '';
      const a = prev.codePointAt(0) ?? 0;
      const b = to.codePointAt(0) ?? 0;
      if (b < a || b - a > MAX_CLASS) ok = false;
      else for (let k = a + 1; k <= b; k++) chars.push(String.fromCodePoint(k));
      prev = undefined;
      continue;
    }
    chars.push(c);
    prev = c;
  }
  const set = ok ? setOf(chars) : undefined;
  return set ? { set, end: i + 1 } : { end: i + 1 };
}

/** Where the group opened at `i` ends (after its `)`). */
function skipGroup(src: string, i: number): number {
  let depth = 0;
  let inClass = false;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return i;
}

/**
 * The runs of character sets every match holds in order (one set a character), as the pattern's
 * top level spells them; [] when there is an alternation at the top level.
 */
export function requiredRuns(source: string): string[][][] {
  const runs: string[][][] = [];
  let run: string[][] = [];
  const end = (): void => {
    if (run.length) runs.push(run);
    run = [];
  };
  for (let i = 0; i < source.length;) {
    const c = source[i];
    let atom: string[] | undefined;
    let zeroWidth = false;
    if (c === '|') return [];
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      i += 2;
      if (n === 'd') atom = DIGITS;
      else if (n === 'b' || n === 'B') zeroWidth = true;
      else if (n !== '' && !/[\p{L}\p{N}\s]/u.test(n)) atom = setOf(n);
    } else if (c === '[') {
      const cls = parseClass(source, i + 1);
      atom = cls.set;
      i = cls.end;
    } else if (c === '(') {
      i = skipGroup(source, i);
    } else if (c === '^' || c === '$') {
      zeroWidth = true;
      i++;
    } else {
      i++;
      if (c !== '.' && c !== ')' && c !== '*' && c !== '+' && c !== '?' && c !== '{') atom = setOf(c);
    }
    // The quantifier after the atom: how many times it is sure to be there, and whether more may follow.
    let min = 1;
    let fixed = true;
    const q = source[i];
    if (q === '?' || q === '*') {
      min = 0;
      i++;
    } else if (q === '+') {
      fixed = false;
      i++;
    } else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (m) {
        min = Number(m[1]);
        fixed = m[2] === undefined || Number(m[3]) === min;
        i += m[0].length;
      }
    }
    if (source[i] === '?' && q !== undefined && '?*+{'.includes(q)) i++; // lazy
    if (zeroWidth && min > 0) continue;
    if (!atom || min === 0) {
      end();
      continue;
    }
    for (let k = 0; k < Math.min(min, 3); k++) run.push(atom);
    if (min > 3 || !fixed) end();
  }
  end();
  return runs;
}

/**
 * Sets of lower-cased trigrams a match of the regex `source` must hold one of each (none: nothing is
 * known). At most `MAX_SETS` sets, the smallest first, each at most `MAX_SET` trigrams.
 */
export function requiredTrigramSets(source: string): string[][] {
  const sets: string[][] = [];
  for (const run of requiredRuns(source)) {
    for (let i = 0; i + 3 <= run.length; i++) {
      const [a, b, c] = run.slice(i, i + 3);
      if (a.length * b.length * c.length > MAX_SET) continue;
      const set: string[] = [];
      for (const x of a) for (const y of b) for (const z of c) set.push(x + y + z);
      sets.push(set);
    }
  }
  return sets.sort((x, y) => x.length - y.length).slice(0, MAX_SETS);
}
