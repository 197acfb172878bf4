/**
 * The one typed protocol between the Search in Sessions view (a webview view in Den's container)
 * and its host (`editor/search/search-view.ts`), written as schemas whose types are the messages.
 * Neither side acts on a message that fails them. The webview asks (`search` with an id, the
 * newest id wins); the host answers each with the rows to show (`results`); the count of sessions
 * the index lacks comes as its own delta (`missing`). No `vscode` import.
 */
import {
  arrayOf,
  isBoolean,
  isNonNegativeInteger,
  isString,
  nullable,
  object,
  optional,
  recordOf,
  stringOfLength,
  variant,
  type Infer,
} from '../../core/shared/schema';
import { isFieldAddress, isMatchOptions } from '../shared/search';

/** Longest query the view sends (the matcher refuses longer ones with words). */
export const MAX_VIEW_QUERY = 2_000;

const isHit = object({
  turnId: isString,
  /** The line of context, spaces folded. */
  line: isString,
  /** The match within `line`. */
  matchStart: isNonNegativeInteger,
  matchEnd: isNonNegativeInteger,
  /** Where in the turn (answer, tool log…), in words. */
  where: isString,
  address: isFieldAddress,
  /** Where the match starts in its field. */
  start: isNonNegativeInteger,
  /** The first hit of its turn. */
  firstOfTurn: isBoolean,
});

const isGroup = object({ sessionId: isString, title: isString, hits: arrayOf(isHit) });

export const isSearchHostMessage = variant('type', {
  /** After `ready`: the translated texts (null: English) and the query to show (a restored one). */
  init: { l10n: nullable(recordOf(isString)), query: isString, options: isMatchOptions },
  /**
   * The answer to search `id`: hits grouped by session, in the index's order; `note` is a line of
   * words (no match, a query error, the cap reached); `summary` the count to announce.
   */
  results: {
    id: isNonNegativeInteger,
    groups: arrayOf(isGroup),
    note: optional(isString),
    summary: isString,
    error: isBoolean,
    /** Still reading sessions: more of the same search follows (not announced). */
    partial: optional(isBoolean),
  },
  /** How many listed sessions the index lacks (0: the fetch row goes). */
  missing: { count: isNonNegativeInteger },
  /** Focuses the input, with `query` typed in when given (`den.searchSessionContents` in the view). */
  focus: { query: optional(isString) },
});

export type SearchHostMessage = Infer<typeof isSearchHostMessage>;
export type SearchGroup = Infer<typeof isGroup>;
export type SearchHitView = Infer<typeof isHit>;

export const isSearchViewMessage = variant('type', {
  /** The page loaded (or reloaded): the host answers `init`. */
  ready: {},
  search: { id: isNonNegativeInteger, query: stringOfLength(MAX_VIEW_QUERY), options: isMatchOptions },
  /** Open the session at a hit (or at its start when `address` is absent). */
  open: {
    sessionId: isString,
    query: stringOfLength(MAX_VIEW_QUERY),
    options: isMatchOptions,
    address: optional(isFieldAddress),
    start: optional(isNonNegativeInteger),
  },
  /** Fetch and index the listed sessions the index lacks. */
  fetchMissing: {},
});

export type SearchViewMessage = Infer<typeof isSearchViewMessage>;
