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
  if (cs.blocksCreated.includes(blockId)) return;
  if (cs.blocksUpdated.includes(blockId)) {
    const i = cs.appends.findIndex((a) => a.blockId === blockId);
    if (i >= 0) cs.appends = cs.appends.filter((_, j) => j !== i);
    return;
  }
  cs.blocksUpdated = added(cs.blocksUpdated, blockId);
  if (append) {
    cs.appends = added<BlockAppend>(
      cs.appends,
      append.stream === undefined
        ? { blockId, text: append.text }
        : { blockId, text: append.text, stream: append.stream },
    );
  }
}
