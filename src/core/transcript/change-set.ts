/** Building a `ChangeSet` so that it stays exact: no id twice, appends only for pure appends. */
import type { ChangeSet, LogStream } from './model';

export function emptyChangeSet(turnId: string): ChangeSet {
  return {
    turnId,
    ignored: false,
    turnCreated: false,
    blocksCreated: [],
    blocksUpdated: [],
    appends: [],
    statusChanged: false,
    turnInfoChanged: false,
    planChanged: false,
    filesChanged: false,
  };
}

export function noteCreated(cs: ChangeSet, blockId: string): void {
  if (!cs.blocksCreated.includes(blockId)) cs.blocksCreated.push(blockId);
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
    if (i >= 0) cs.appends.splice(i, 1);
    return;
  }
  cs.blocksUpdated.push(blockId);
  if (append) {
    cs.appends.push(
      append.stream === undefined
        ? { blockId, text: append.text }
        : { blockId, text: append.text, stream: append.stream },
    );
  }
}
