import type { Session } from '../../core/client/types';

/** A root row's group and its sessions, as `roots()` lists them. */
export interface RootGroup {
  readonly group: string;
  readonly sessions: readonly Session[];
}

/** How long a drawn row's relative time ("2 h ago") is taken as current when deciding to redraw. */
const TIME_BUCKET_MS = 60_000;

/**
 * What the root rows would draw, as one comparable string: the groups in order, each session as
 * listed (every field a row may show), the "more in All Sessions" count, "Load more" with what it
 * counts (`more`: loaded and total; undefined: no more), and the minute (rows show relative times). Equal keys draw the same tree, so that redraw can be skipped: a
 * redraw replaces the rows' handles, and a context-menu command chosen while it runs reaches Den
 * without its row (VS Code passes `undefined`).
 */
export function rootsKey(
  groups: readonly RootGroup[],
  elsewhere: number,
  more: { readonly loaded: number; readonly total: number } | undefined,
  at: number,
): string {
  return JSON.stringify([
    Math.floor(at / TIME_BUCKET_MS),
    elsewhere,
    more ?? false,
    groups.map((g) => [g.group, g.sessions]),
  ]);
}
