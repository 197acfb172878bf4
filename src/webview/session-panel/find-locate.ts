/**
 * Where Find shows a match: the transcript row that holds it (by the row keys of `transcript-view`),
 * the part of the row (a tool card's region, the n-th path of a files row), and what must open
 * first for it to be seen (a closed thought, a closed group of calls, a tool card, a clipped value,
 * the whole of a log shown by its tail).
 */
import { parametersText, type FieldAddress } from '../../core/search/fields';
import type { MatchRange } from '../../core/search/matcher';
import { DISPLAY_CAP } from './render/tool-log';
import { wholeKey } from './render/json-fields';
import { groupOpenKey, toolOpenKey } from './render/rows';
import { blockKey, type Store } from './state';
import type { TranscriptView } from './transcript-view';

/** A match of the query in the transcript's fields. */
export interface Match {
  address: FieldAddress;
  range: MatchRange;
  /** Matches before this one in the same field, and after it. */
  before: number;
  after: number;
}

/** A match's row, its part of the row, and the UI state keys to open before it shows. */
export interface MatchPlace {
  key: string;
  region?: string;
  nth?: number;
  open: string[];
}

/** Where a field's text is shown inside a tool card. */
const TOOL_REGION: Partial<Record<FieldAddress['kind'], string>> = {
  'tool-name': '.tool-name',
  'tool-params': '.tool-params',
  'tool-log': '.tool-log',
  'tool-output': '.tool-output-value',
  error: '.tool-output-value',
};

/** Where `m` is shown, and what to open for it to be seen. */
export function locateMatch(store: Store, transcript: TranscriptView, m: Match): MatchPlace {
  const a = m.address;
  const turn = store.turn(a.turnId);
  const open: string[] = [];
  if (a.blockId !== undefined) {
    const bkey = blockKey(a.turnId, a.blockId);
    const b = store.block(a.turnId, a.blockId);
    if (b?.type === 'markdown') {
      const { part } = transcript.sectionAt(a.turnId, a.blockId, m.range.start);
      return { key: `m\u0000${bkey}\u0000${part}`, open };
    }
    if (b?.type === 'thought' || b?.type === 'generic') open.push(`open\u0000${bkey}`);
    // An event's payload shows as fields, clipped: shown whole, the match is in sight.
    if (b?.type === 'generic') open.push(wholeKey(`payload\u0000${bkey}`));
    const key = `b\u0000${bkey}`;
    // A call in a closed group: the group opens (its calls' rows come back).
    const group = transcript.groupOf(key);
    if (group !== undefined) open.push(groupOpenKey(group));
    if (b?.type === 'tool' && a.kind !== 'tool-name') open.push(toolOpenKey(a.turnId, a.blockId));
    if (b?.type === 'tool') {
      if (a.kind === 'tool-params') {
        let at = 0;
        for (const [k, v] of Object.entries(b.parameters)) {
          const len = parametersText({ [k]: v }).length + 1;
          if (m.range.start < at + len) {
            open.push(`param\u0000${bkey}\u0000${k}`);
            break;
          }
          at += len;
        }
      } else if (a.kind === 'tool-output' || a.kind === 'error')
        open.push(`output\u0000${bkey}`, wholeKey(`output\u0000${bkey}`));
      // The log shows only its last DISPLAY_CAP characters until the whole log is asked for.
      else if (
        a.kind === 'tool-log' &&
        !store.fullLogs.has(bkey) &&
        m.range.start < b.log.chars - DISPLAY_CAP
      )
        open.push(`fulllog\u0000${bkey}`);
    }
    if (transcript.hasRow(key) || group !== undefined)
      return { key, region: b?.type === 'tool' ? TOOL_REGION[a.kind] : undefined, open };
    return { key: `u\u0000${a.turnId}`, open: [] };
  }
  const userFiles = turn?.header.userMessage.files.length ?? 0;
  if (a.kind === 'user' || (a.kind === 'file' && a.index < userFiles))
    return { key: `u\u0000${a.turnId}`, open };
  if (a.kind === 'plan') return { key: `p\u0000${a.turnId}`, open };
  // A changed file: its path in the turn's files row (the n-th of the row's paths).
  if (a.kind === 'file' && transcript.hasRow(`f\u0000${a.turnId}`))
    return { key: `f\u0000${a.turnId}`, region: '.file-path', nth: a.index - userFiles, open };
  return { key: `s\u0000${a.turnId}`, open };
}
