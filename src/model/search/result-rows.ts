/**
 * The rows a list shows for a search over the session index: a heading per session (its title), a
 * row per hit with its line of context and what part of the turn it is in, in the index's order
 * (by session, then turn); a query error or an empty result is one row of words. The editor turns
 * them into QuickPick items. No `vscode` import.
 */
import type { FieldAddress, FieldKind } from '../../core/search/fields';
import type { QueryError } from '../../core/search/matcher';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { SearchResults } from './session-index';

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
