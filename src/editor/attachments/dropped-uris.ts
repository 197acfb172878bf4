/**
 * The first check of URIs the Session panel's webview says were dropped on it. The webview renders
 * untrusted agent output, so its messages are not taken on trust: only `file:` and `vscode-remote:`
 * URIs of plain paths pass here, and the glue then attaches only those inside a workspace folder.
 * No `vscode` here, so plain mocha covers it.
 */
import { l10n } from '../../core/shared/l10n';

/** The parts of a parsed URI (what `vscode.Uri` has). */
export interface UriParts {
  scheme: string;
  authority: string;
  path: string;
  query: string;
  fragment: string;
}

/** Schemes whose URIs a drop on the panel may carry (`vscode-remote:` in remote windows). */
export const DROPPABLE_SCHEMES: readonly string[] = ['file', 'vscode-remote'];

/** Why a dropped URI is refused (before the workspace check), or undefined when it passes. */
export function droppedUriProblem(u: UriParts): string | undefined {
  if (!DROPPABLE_SCHEMES.includes(u.scheme)) {
    return u.scheme
      ? l10n.t('it is not a file ({0} scheme)', u.scheme)
      : l10n.t('it is not a file (no scheme)');
  }
  if (u.query || u.fragment) return l10n.t('it has a query or a fragment');
  if (u.scheme === 'file' && u.authority) return l10n.t('it is on another machine');
  if (!u.path.startsWith('/')) return l10n.t('its path is not absolute');
  const segments = u.path.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return l10n.t('its path climbs with . or ..');
  if (/[\u0000-\u001f]/.test(u.path)) return l10n.t('its path has control characters');
  return undefined;
}

/** The dropped URI strings without repeats, in order. */
export function distinctUris(uris: readonly string[]): string[] {
  return [...new Set(uris.map((u) => u.trim()).filter(Boolean))];
}
