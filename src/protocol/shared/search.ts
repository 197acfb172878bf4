/**
 * What both webviews' protocols say of a search: a field's address (`core/search/fields.ts`) and
 * the match options, as guards. No `vscode` import.
 */
import type { FieldAddress, FieldKind } from '../../core/search/fields';
import type { MatchOptions } from '../../core/search/matcher';
import {
  isBoolean,
  isNonNegativeInteger,
  isString,
  object,
  oneOf,
  optional,
  type Guard,
} from '../../core/shared/schema';

export const FIELD_KINDS = [
  'user',
  'answer',
  'thought',
  'message',
  'tool-name',
  'tool-params',
  'tool-log',
  'tool-output',
  'file',
  'plan',
  'error',
  'event',
] as const satisfies readonly FieldKind[];

export const isFieldAddress: Guard<FieldAddress> = object({
  turnId: isString,
  blockId: optional(isString),
  kind: oneOf(FIELD_KINDS),
  index: isNonNegativeInteger,
});

/** The three toggles, all given. */
export const isMatchOptions: Guard<Required<MatchOptions>> = object({
  matchCase: isBoolean,
  wholeWord: isBoolean,
  regex: isBoolean,
});
