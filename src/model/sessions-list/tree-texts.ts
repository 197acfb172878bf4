/**
 * What the Sessions view says besides its rows (no `vscode`): its description (the scope and the
 * search in effect) and the message above the tree when there is no problem to show.
 */
import { formatCount, l10n } from '../../core/shared/l10n';

/** The view's description: the scope, and the search in effect. */
export function treeDescription(showAll: boolean, filter: string | undefined): string {
  const scope = showAll ? l10n.t('All Sessions') : l10n.t('This Workspace');
  return filter ? l10n.t('{0} · “{1}”', scope, filter) : scope;
}

/** What the message above the tree depends on, when no load problem is shown there. */
export interface TreeMessageFacts {
  /** All Sessions (else This Workspace). */
  showAll: boolean;
  /** The title search in effect. */
  filter: string | undefined;
  /** Sessions loaded so far. */
  count: number;
  /** The list is loaded and the service has more pages. */
  moreToLoad: boolean;
  /** The last load failed (its welcome or message says so). */
  problem: boolean;
  /** The scope shows none of the loaded sessions. */
  scopeEmpty: boolean;
}

/** Why the scope shows nothing yet, or the search in effect while it matches; else none. */
export function treeMessage(f: TreeMessageFacts): string | undefined {
  const n = formatCount(f.count);
  if (f.moreToLoad && f.scopeEmpty) {
    if (f.showAll) {
      return f.filter
        ? l10n.t('No sessions among the {0} most recent that match: load more, or show All Sessions.', n)
        : l10n.t('No sessions among the {0} most recent: load more, or show All Sessions.', n);
    }
    return f.filter
      ? l10n.t(
          'No sessions of this workspace among the {0} most recent that match: load more, or show All Sessions.',
          n,
        )
      : l10n.t(
          'No sessions of this workspace among the {0} most recent: load more, or show All Sessions.',
          n,
        );
  }
  if (f.filter && !f.problem && f.count && !f.scopeEmpty) {
    return f.showAll
      ? l10n.t('Showing sessions whose title contains “{0}”.', f.filter)
      : l10n.t('Showing sessions of this workspace whose title contains “{0}”.', f.filter);
  }
  return undefined;
}
