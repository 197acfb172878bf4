/**
 * The rows a list shows for a search over the session index: a heading per session (its title), a
 * row per hit with its line of context and what part of the turn it is in, in the index's order
 * (by session, then turn); a query error or an empty result is one row of words. The editor turns
 * them into QuickPick items. No `vscode` import.
 */
import type { FieldAddress, FieldKind } from '../../core/search/fields';
import type { QueryError } from '../../core/search/matcher';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { ContextLine } from '../../core/search/find';
import type { SearchGroup } from '../../protocol/session-search/messages';
import type { SearchProgress, SearchResults } from './session-index';

export type SearchRow =
  | { kind: 'session'; sessionId: string; title: string }
  | {
      kind: 'hit';
      sessionId: string;
      turnId: string;
      /** The first hit of its turn (the list marks where a turn begins). */
      firstOfTurn: boolean;
      line: string;
      where: string;
      address: FieldAddress;
      /** Where the match starts in its field's text. */
      start: number;
    }
  | { kind: 'note'; text: string };

/** Words for a field kind: where in a turn a hit is. */
export function fieldKindWords(kind: FieldKind): string {
  switch (kind) {
    case 'user':
      return l10n.t('request');
    case 'answer':
      return l10n.t('answer');
    case 'thought':
      return l10n.t('thought');
    case 'message':
      return l10n.t('message');
    case 'tool-name':
      return l10n.t('tool name');
    case 'tool-params':
      return l10n.t('tool parameters');
    case 'tool-log':
      return l10n.t('tool log');
    case 'tool-output':
      return l10n.t('tool output');
    case 'file':
      return l10n.t('file');
    case 'plan':
      return l10n.t('plan');
    case 'error':
      return l10n.t('error');
    case 'event':
      return l10n.t('event');
  }
}

/** Words for why a query cannot run. */
export function queryErrorWords(e: QueryError): string {
  switch (e.code) {
    case 'empty':
      return l10n.t('Type text to find in the sessions stored on this machine.');
    case 'too-long':
      return l10n.t('The search text is too long (at most 1,000 characters).');
    case 'too-costly':
      return l10n.t(
        'This regular expression could take too long to run (a repeated group holding a repeat, or a back-reference). Simplify it.',
      );
    case 'invalid-regex':
      return e.detail
        ? l10n.t('Not a valid regular expression: {0}', e.detail)
        : l10n.t('Not a valid regular expression.');
  }
}

/** The rows of a search's result (or its error). `sessions`: how many sessions are indexed. */
export function searchRows(result: SearchResults | QueryError, sessions: number): SearchRow[] {
  if (!result.ok) return [{ kind: 'note', text: queryErrorWords(result) }];
  if (result.sessions.length === 0) {
    return [
      {
        kind: 'note',
        text:
          sessions === 1
            ? l10n.t('No match in the 1 session indexed on this machine.')
            : l10n.t('No match in the {0} sessions indexed on this machine.', formatCount(sessions)),
      },
    ];
  }
  const rows: SearchRow[] = [];
  for (const s of result.sessions) {
    rows.push({ kind: 'session', sessionId: s.sessionId, title: s.title || l10n.t('Untitled session') });
    for (const turn of s.turns) {
      turn.hits.forEach((h, i) =>
        rows.push({
          kind: 'hit',
          sessionId: s.sessionId,
          turnId: turn.turnId,
          firstOfTurn: i === 0,
          line: h.line.text.replace(/\s+/g, ' ').trim(),
          where: fieldKindWords(h.address.kind),
          address: h.address,
          start: h.start,
        }),
      );
    }
  }
  if (result.capped) {
    rows.push({
      kind: 'note',
      text: l10n.t(
        'Showing the first {0} matches: type more to narrow the search.',
        formatCount(result.count),
      ),
    });
  }
  return rows;
}

/** A line of context with its runs of spaces folded to one, and where the match is in it now. */
export function foldLine(line: ContextLine): { text: string; start: number; end: number } {
  const fold = (t: string): string => t.replace(/\s+/g, ' ');
  const before = fold(line.text.slice(0, line.start)).trimStart();
  const match = fold(line.text.slice(line.start, line.end));
  const after = fold(line.text.slice(line.end)).trimEnd();
  return { text: before + match + after, start: before.length, end: before.length + match.length };
}

/** What the Search in Sessions view shows for a search: groups of hits, a note, a count to announce. */
export interface ViewResults {
  groups: SearchGroup[];
  note?: string;
  summary: string;
  error: boolean;
}

/** The view's groups of a search's result (or its error). `sessions`: how many are indexed. */
export function viewResults(result: SearchResults | QueryError, sessions: number): ViewResults {
  if (!result.ok) {
    const note = queryErrorWords(result);
    return { groups: [], note, summary: result.code === 'empty' ? '' : note, error: result.code !== 'empty' };
  }
  const groups: SearchGroup[] = result.sessions.map((s) => ({
    sessionId: s.sessionId,
    title: s.title || l10n.t('Untitled session'),
    hits: s.turns.flatMap((turn) =>
      turn.hits.map((h, i) => {
        const line = foldLine(h.line);
        return {
          turnId: turn.turnId,
          line: line.text,
          matchStart: line.start,
          matchEnd: line.end,
          where: fieldKindWords(h.address.kind),
          address: h.address,
          start: h.start,
          firstOfTurn: i === 0,
        };
      }),
    ),
  }));
  const rows = searchRows(result, sessions);
  const last = rows[rows.length - 1];
  const note = last?.kind === 'note' ? last.text : undefined;
  if (groups.length === 0) return { groups, note, summary: note ?? '', error: false };
  const counted =
    result.count === 1
      ? l10n.t('1 match in 1 session')
      : groups.length === 1
        ? l10n.t('{0} matches in 1 session', formatCount(result.count))
        : l10n.t('{0} matches in {1} sessions', formatCount(result.count), formatCount(groups.length));
  // A capped search's last row says so (`searchRows`): the view shows it under the hits.
  return note ? { groups, note, summary: counted, error: false } : { groups, summary: counted, error: false };
}

/** What the view shows while a search is still reading sessions: the hits so far and how far it is. */
export function partialViewResults(partial: SearchResults, progress: SearchProgress): ViewResults {
  const done = viewResults(partial, progress.total);
  const summary =
    partial.count === 0
      ? l10n.t('Searching… {0} of {1} sessions read', formatCount(progress.done), formatCount(progress.total))
      : partial.count === 1
        ? l10n.t(
            'Searching… {0} of {1} sessions read, 1 match so far',
            formatCount(progress.done),
            formatCount(progress.total),
          )
        : l10n.t(
            'Searching… {0} of {1} sessions read, {2} matches so far',
            formatCount(progress.done),
            formatCount(progress.total),
            formatCount(partial.count),
          );
  return { groups: done.groups, summary, error: false };
}
