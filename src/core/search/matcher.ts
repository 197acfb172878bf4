/**
 * The find matcher: a query with match case, whole word and regular expression options, compiled
 * once and run over many texts. Browser-safe (the Session panel's Find uses it). Compiling never
 * throws: a bad or too costly pattern is an error value to show. Work is bounded: at most
 * `maxPerText` matches are taken from one text and a `MatchBudget` caps the total across texts, so a
 * query matching everything (`e`, `.`) stops early instead of building millions of ranges.
 */
import { requiredTrigramSets } from './trigram-sets';

export interface MatchOptions {
  matchCase?: boolean;
  wholeWord?: boolean;
  /** The query is a JavaScript regular expression. */
  regex?: boolean;
}

/** A match in one text: `start` inclusive, `end` exclusive (UTF-16 offsets). */
export interface MatchRange {
  start: number;
  end: number;
}

/**
 * Why a query cannot run: the UI words it (l10n) from the code. `invalid-regex` carries the
 * engine's own words in `detail` (else ''); `too-costly`: nested repetition or a back-reference.
 */
export type QueryErrorCode = 'empty' | 'invalid-regex' | 'too-long' | 'too-costly';

export interface QueryError {
  ok: false;
  code: QueryErrorCode;
  detail: string;
}

export interface CompiledQuery {
  ok: true;
  source: string;
  options: Required<MatchOptions>;
  /**
   * Lower-cased literal text every match contains (the whole query when it is not a regex, else
   * `requiredLiteral`'s, maybe ''): an index may skip texts that cannot hold it.
   */
  literal: string;
  /**
   * For a regex, sets of lower-cased trigrams every match holds one of each (`trigram-sets.ts`);
   * [] when nothing is known or the query is plain text (its `literal` says it all).
   */
  trigramSets: string[][];
  /** Matches in `text`, in order, at most `limit` (default `MAX_MATCHES_PER_TEXT`). */
  find(text: string, limit?: number): MatchRange[];
  /** Whether `text` holds at least one match. */
  test(text: string): boolean;
}

/** Default cap of matches taken from one text (a field, or one session's joined text). */
export const MAX_MATCHES_PER_TEXT = 1_000;
/** Default cap of matches of one search across all texts (`MatchBudget`). */
export const MAX_MATCHES_TOTAL = 10_000;
/** Longest query accepted (characters). */
export const MAX_QUERY_LENGTH = 1_000;

const WORD = '[\\p{L}\\p{N}_]';

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Patterns whose backtracking can grow exponentially: a quantified group that itself holds a
 * quantifier (`(a+)+`, `(\w*)*`, `(x|y+){2,}`), and back-references. Conservative: some safe
 * patterns are refused, with words that say why.
 */
export function isCostlyPattern(source: string): boolean {
  if (/\\[1-9]|\\k</.test(source)) return true;
  // Walk the groups: a group containing a quantifier, followed by a quantifier.
  const stack: boolean[] = [];
  let quantifiedInside = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') {
      stack.push(quantifiedInside);
      quantifiedInside = false;
    } else if (c === ')') {
      const inner = quantifiedInside;
      quantifiedInside = stack.pop() ?? false;
      const next = source[i + 1];
      const quantified = next === '*' || next === '+' || next === '{';
      if (inner && quantified) return true;
      if (inner) quantifiedInside = true;
    } else if (c === '*' || c === '+' || c === '{') quantifiedInside = true;
  }
  return false;
}

/**
 * The longest run of plain characters every match of a regex must contain, '' when none is sure
 * (an alternation anywhere, or no run). Runs break at anything special; a character made optional
 * by `?`, `*` or `{` is not part of a run. `\.`-style escapes of punctuation count as the character.
 */
export function requiredLiteral(source: string): string {
  let best = '';
  let run = '';
  const end = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      i++;
      const plain = depth === 0 && !inClass && n !== '' && !/[\p{L}\p{N}\s]/u.test(n); // not \d, \b, \1 …
      const next = source[i + 1];
      if (!plain || next === '?' || next === '*' || next === '{') end();
      else {
        run += n;
        if (next === '+') end();
      }
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '|') return '';
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    const next = source[i + 1];
    if (depth > 0 || /[.^$()[\]{}*+?]/.test(c) || next === '?' || next === '*' || next === '{') {
      end();
      continue;
    }
    run += c;
    if (next === '+') end();
  }
  end();
  return best;
}

/** Compiles a query; never throws. */
export function compileQuery(query: string, options: MatchOptions = {}): CompiledQuery | QueryError {
  const opts: Required<MatchOptions> = {
    matchCase: options.matchCase ?? false,
    wholeWord: options.wholeWord ?? false,
    regex: options.regex ?? false,
  };
  if (query.length === 0) return { ok: false, code: 'empty', detail: '' };
  if (query.length > MAX_QUERY_LENGTH) return { ok: false, code: 'too-long', detail: '' };
  if (opts.regex && isCostlyPattern(query)) return { ok: false, code: 'too-costly', detail: '' };
  let body = opts.regex ? query : escapeRegex(query);
  if (opts.wholeWord) body = `(?<!${WORD})(?:${body})(?!${WORD})`;
  const flags = `gu${opts.matchCase ? '' : 'i'}`;
  let re: RegExp;
  try {
    re = new RegExp(body, flags);
  } catch (err) {
    return { ok: false, code: 'invalid-regex', detail: err instanceof Error ? err.message : String(err) };
  }
  const literal = (opts.regex ? requiredLiteral(query) : query).toLowerCase();
  const trigramSets = opts.regex ? requiredTrigramSets(query) : [];
  const plain = !opts.regex && !opts.wholeWord && opts.matchCase;
  const find = (text: string, limit = MAX_MATCHES_PER_TEXT): MatchRange[] => {
    const out: MatchRange[] = [];
    if (limit <= 0) return out;
    if (plain) {
      // The common case with case: indexOf is the fastest scan there is.
      for (let i = text.indexOf(query); i >= 0; i = text.indexOf(query, i + query.length)) {
        out.push({ start: i, end: i + query.length });
        if (out.length >= limit) break;
      }
      return out;
    }
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        // An empty match (`a*`, `^`) marks no text: step over it.
        re.lastIndex = m.index + 1;
        continue;
      }
      out.push({ start: m.index, end: m.index + m[0].length });
      if (out.length >= limit) break;
    }
    return out;
  };
  return {
    ok: true,
    source: query,
    options: opts,
    literal,
    trigramSets,
    find,
    test: (text) => find(text, 1).length > 0,
  };
}

/** A cap on the matches of one search across many texts. */
export class MatchBudget {
  #left: number;
  /** Set once a text's matches were cut to stay within the budget. */
  exhausted = false;

  constructor(readonly total = MAX_MATCHES_TOTAL) {
    this.#left = Math.max(0, total);
  }

  /** The matches of `text` within what is left (and within `MAX_MATCHES_PER_TEXT`). */
  take(q: CompiledQuery, text: string): MatchRange[] {
    if (this.#left <= 0) {
      this.exhausted = true;
      return [];
    }
    const limit = Math.min(this.#left, MAX_MATCHES_PER_TEXT);
    const found = q.find(text, limit);
    this.#left -= found.length;
    if (found.length >= limit) this.exhausted = true;
    return found;
  }

  get left(): number {
    return this.#left;
  }
}
