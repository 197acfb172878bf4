/**
 * What a regular expression's matches must contain, as sets of lower-cased trigrams: every match
 * holds at least one trigram of each set. It reaches further than `requiredLiteral` (a run of plain
 * characters) by spelling out small character classes and fixed repeats: `[0-9]{3}zz` gives
 * `{0zz … 9zz}` and `{00z … 99z}`, so an index of trigram filters can skip the sessions holding none
 * of them instead of reading every one. Sound or silent: anything it does not understand (an
 * alternation outside a group, a negated or large class, `\w`, a group) breaks the run, never adds a
 * set that a match could lack. Browser-safe.
 *
 * Digits also come folded: the index adds, for each trigram of a text that holds a digit, the same
 * trigram with every digit as `DIGIT_MARK` (`foldDigits`). So `\d{4}zz`, whose plain sets would be a
 * thousand trigrams, needs `##z` and `#zz` (`#` the mark): a set of one.
 */

/** Largest character class spelled out. */
const MAX_CLASS = 16;
/** Largest set of trigrams (the product of three classes) kept. */
export const MAX_SET = 100;
/** Sets kept at most (the smallest). */
const MAX_SETS = 8;

const DIGITS = [...'0123456789'];

/** Stands for any digit in a folded trigram (a character no text holds: the index's texts are fields). */
export const DIGIT_MARK = '\u0001';

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** `text` with every ASCII digit as `DIGIT_MARK`. */
export function foldDigits(text: string): string {
  return text.replace(/[0-9]/g, DIGIT_MARK);
}

/** A set of characters as folded trigrams see it: its digits, if any, as the one mark. */
function foldSet(atom: string[]): string[] {
  const rest = atom.filter((c) => !isDigit(c));
  return rest.length === atom.length ? atom : [...rest, DIGIT_MARK];
}

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
    // More repeats than kept, or a number not known: the run ends; what follows still comes right
    // after the last (up to two) repeats, so a new run starts with them.
    if (min > 3 || !fixed) {
      end();
      for (let k = 0; k < Math.min(min, 2); k++) run.push(atom);
    }
  }
  end();
  return runs;
}

/**
 * Sets of lower-cased trigrams a match of the regex `source` must hold one of each (none: nothing is
 * known): at most `MAX_SETS` plain sets and `MAX_SETS / 2` folded ones (digits as `DIGIT_MARK`, which
 * the index holds beside the plain trigrams), the smallest first, each at most `MAX_SET` trigrams.
 */
export function requiredTrigramSets(source: string): string[][] {
  const plain = new Map<string, string[]>();
  const folded = new Map<string, string[]>();
  const add = (to: Map<string, string[]>, [a, b, c]: string[][]): void => {
    if (a.length * b.length * c.length > MAX_SET) return;
    const set: string[] = [];
    for (const x of a) for (const y of b) for (const z of c) set.push(x + y + z);
    to.set(set.join('\n'), set);
  };
  for (const run of requiredRuns(source)) {
    for (let i = 0; i + 3 <= run.length; i++) {
      const window = run.slice(i, i + 3);
      add(plain, window);
      const fold = window.map(foldSet);
      if (fold.some((atom, k) => atom !== window[k])) add(folded, fold);
    }
  }
  const smallest = (m: Map<string, string[]>, n: number): string[][] =>
    [...m.values()].sort((x, y) => x.length - y.length).slice(0, n);
  return [...smallest(plain, MAX_SETS), ...smallest(folded, MAX_SETS / 2)];
}
