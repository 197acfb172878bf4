/**
 * Find in a session: a compiled query run over a transcript's fields, in reading order, within a
 * match budget. Browser-safe.
 */
import type { FieldAddress, SearchField } from './fields';
import { MatchBudget, type CompiledQuery, type MatchRange } from './matcher';

export interface FieldMatches {
  address: FieldAddress;
  ranges: MatchRange[];
}

export interface FindResult {
  matches: FieldMatches[];
  /** Matches in all (`3 of 41`): at most the budget. */
  count: number;
  /** The budget ran out: there may be more than `count`. */
  capped: boolean;
}

/** Every match of `q` in `fields`, in order, at most `budget.total` (and `MAX_MATCHES_PER_TEXT` a field). */
export function findInFields(
  fields: Iterable<SearchField>,
  q: CompiledQuery,
  budget = new MatchBudget(),
): FindResult {
  const matches: FieldMatches[] = [];
  let count = 0;
  for (const f of fields) {
    if (budget.left <= 0) break;
    const ranges = budget.take(q, f.text);
    if (ranges.length === 0) continue;
    matches.push({ address: f.address, ranges });
    count += ranges.length;
  }
  return { matches, count, capped: budget.exhausted };
}

/** One line of context around a match: the line holding it, cut to `around` characters each side. */
export interface ContextLine {
  text: string;
  /** The match within `text`. */
  start: number;
  end: number;
}

export function contextLine(text: string, range: MatchRange, around = 80): ContextLine {
  let from = text.lastIndexOf('\n', range.start - 1) + 1;
  let to = text.indexOf('\n', range.end);
  if (to < 0) to = text.length;
  const end = Math.min(range.end, to);
  from = Math.max(from, range.start - around);
  to = Math.min(to, end + around);
  const lead = from > 0 && text[from - 1] !== '\n' ? '…' : '';
  const trail = to < text.length && text[to] !== '\n' ? '…' : '';
  return {
    text: lead + text.slice(from, to) + trail,
    start: lead.length + range.start - from,
    end: lead.length + end - from,
  };
}
