/** Building a `ChangeSet` so that it stays exact: no id twice, appends only for pure appends. */
import type { BlockAppend, ChangeSet, LogStream } from './model';

/**
 * The lists of a change set start as this one shared, frozen empty list and are replaced on the
 * first write: the reducer runs once per event, and most events change one block (fewer
 * allocations on the streaming path; `npm run bench -- pipeline`).
 */
const NONE: readonly never[] = Object.freeze([]);

function added<T>(list: readonly T[], item: T): T[] {
  if (list === NONE) return [item];
  const out = list as T[];
  out.push(item);
  return out;
}

export function emptyChangeSet(turnId: string): ChangeSet {
  return {
    turnId,
    ignored: false,
    turnCreated: false,
    blocksCreated: NONE,
    blocksUpdated: NONE,
    appends: NONE,
    statusChanged: false,
    turnInfoChanged: false,
    planChanged: false,
    filesChanged: false,
  };
}

export function noteCreated(cs: ChangeSet, blockId: string): void {
  if (!cs.blocksCreated.includes(blockId)) cs.blocksCreated = added(cs.blocksCreated, blockId);
}

/**
 * Records a change to an existing block. With `append`, the change is that text appended; a second
 * change to the same block in the same event makes it a plain update (the append entry goes).
 */
export function noteUpdated(
  cs: ChangeSet,
  blockId: string,
  append?: { text: string; stream?: LogStream },
): void {
  if (append) noteAppended(cs, blockId, append.text, append.stream);
  else noteChanged(cs, blockId, false);
}

/**
 * The same for a pure append of `text` (to a tool's log: on `stream`), without an object to say it:
 * the reducer calls this once per streamed chunk.
 */
export function noteAppended(cs: ChangeSet, blockId: string, text: string, stream?: LogStream): void {
  if (!noteChanged(cs, blockId, true)) return;
  cs.appends = added<BlockAppend>(
    cs.appends,
    stream === undefined ? { blockId, text } : { blockId, text, stream },
  );
}

/** Notes `blockId` as updated; true when this is its first change in the event (an append may follow). */
function noteChanged(cs: ChangeSet, blockId: string, appending: boolean): boolean {
  // Most events change one block of a fresh change set: nothing to look through then.
  if (cs.blocksCreated !== NONE && cs.blocksCreated.includes(blockId)) return false;
  if (cs.blocksUpdated !== NONE && cs.blocksUpdated.includes(blockId)) {
    const i = cs.appends.findIndex((a) => a.blockId === blockId);
    if (i >= 0) cs.appends = cs.appends.filter((_, j) => j !== i);
    return false;
  }
  cs.blocksUpdated = added(cs.blocksUpdated, blockId);
  return appending;
}
