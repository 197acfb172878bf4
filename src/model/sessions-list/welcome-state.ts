import type { DenError } from '../../core/client/errors';
import { isProxyOrCertificateError } from '../../core/client/http-errors';
import { formatCount, l10n } from '../../core/shared/l10n';
import { presentError } from '../shared/error-text';
import type { ListProblem } from './sessions-model';
import type { KeySet } from './tree-nodes';

/**
 * The context keys behind the Sessions view's error welcomes (package.json `viewsWelcome`):
 * `den.authError` ("The service rejected your API key") and `den.offline` ("Den cannot reach the
 * service right now"). Both follow the outcome of the view's own last list load and nothing else:
 * another request that succeeds meanwhile (a session's turns, a panel) does not bring the list back,
 * so it must not take the explanation away from an empty view. No `vscode` import.
 */
export interface WelcomeKeys {
  'den.authError': boolean;
  'den.offline': boolean;
}

export function welcomeKeys(listError: DenError | undefined): WelcomeKeys {
  return {
    'den.authError': listError?.code === 'unauthorized',
    // a 5xx is not "offline": the service answered, so the view quotes what it said instead; nor is
    // a proxy or a certificate in the way: the view quotes what to set
    'den.offline': listError?.fault === 'network' && !isProxyOrCertificateError(listError),
  };
}

/** Errors with their own welcome content in the view; any other is shown as the view's message. */
export function welcomeExplains(e: DenError): boolean {
  const keys = welcomeKeys(e);
  return keys['den.authError'] || keys['den.offline'];
}

/**
 * The message above the Sessions view for the last list load's problem, or undefined where the
 * view's welcome explains it (a message would hide the welcome). A problem the list retries by
 * itself ends with when it does, in place of the presentation's generic "Retry in …".
 */
export function listProblemMessage(problem: ListProblem): string | undefined {
  if (welcomeExplains(problem.error)) return undefined;
  const shown = presentError(problem.error, l10n.t('load sessions'));
  if (problem.retryInMs === undefined) return shown.message;
  return l10n.t('{0} Retrying in {1} s.', shown.summary, formatCount(Math.ceil(problem.retryInMs / 1000)));
}

/** What the Sessions view's context keys depend on (`treeContextKeys`). */
export interface TreeKeyFacts {
  loaded: boolean;
  /** The last load's error, if it failed. */
  error: DenError | undefined;
  /** Sessions loaded. */
  count: number;
  hasMore: boolean;
  showAll: boolean;
  /** This Workspace is shown and none of the loaded sessions belongs to it (asked only when needed). */
  scopeEmpty: () => boolean;
}

/**
 * The context keys of one set, in the order they are set: the scope's (`scope`), the welcome's and
 * the scope's (`welcome`), or the welcome's with no load problem (`noWelcome`).
 */
export function treeContextKeys(set: KeySet, f: TreeKeyFacts): [key: string, value: boolean][] {
  if (set === 'noWelcome') return Object.entries(welcomeKeys(undefined));
  const empty = f.loaded && !f.error && f.count === 0;
  const scope: [string, boolean][] = [
    ['den.sessionsEmpty', empty],
    ['den.sessionsShowAll', f.showAll],
    ['den.sessionsScopeEmpty', !empty && !f.hasMore && f.scopeEmpty()],
  ];
  return set === 'scope' ? scope : [...Object.entries(welcomeKeys(f.error)), ...scope];
}
