/** `stream_entry_id`s (`<ms>-<seq>`, positions in a session's stream): reading and ordering them. */

/** An entry id as a pair of numbers; undefined when it is not one. */
export function entryPosition(id: string): [number, number] | undefined {
  const m = /^(\d{1,16})-(\d{1,16})$/.exec(id);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareEntries(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** The latest of some entry ids (ids that are not `<ms>-<seq>` are skipped). */
export function latestEntryId(ids: Iterable<string | undefined>): string | undefined {
  let best: string | undefined;
  let at: [number, number] | undefined;
  for (const id of ids) {
    const p = id === undefined ? undefined : entryPosition(id);
    if (p && (!at || compareEntries(p, at) > 0)) {
      best = id;
      at = p;
    }
  }
  return best;
}
