import * as vscode from 'vscode';
import { parseSessionLink, sessionLink } from '../../model/session/session-link';
import { guarded } from './guarded';
import { l10n } from '../../core/shared/l10n';

/** What the session links need: the session's existence checked on the service, and its panel. */
export interface SessionLinkDeps {
  /** Resolves when the service has the session; rejects (a `not_found` DenError) when it has not. */
  check: (sessionId: string) => Promise<unknown>;
  open: (sessionId: string) => Promise<void>;
}

/** The link that opens a session's panel in this editor (`vscode://…`, `code-oss://…` in code-server). */
export function linkOf(extensionId: string, sessionId: string): string {
  return sessionLink(vscode.env.uriScheme, extensionId, sessionId);
}

/**
 * Opens the session a link names (`<scheme>://<extension id>/session/<id>`); a link that names no
 * session, or one the service does not have, is said in an error notification.
 */
export async function handleSessionUri(deps: SessionLinkDeps, uri: vscode.Uri): Promise<void> {
  const link = parseSessionLink(uri.path);
  if ('problem' in link) {
    void vscode.window.showErrorMessage(l10n.t('Den cannot open the link: {0}', link.problem));
    return;
  }
  await guarded(l10n.t('open the linked session'), async () => {
    await deps.check(link.sessionId);
    await deps.open(link.sessionId);
  })();
}

/** The URI handler (links to sessions), registered; the tests call it (code-server's browser opens no app links). */
export function sessionUriHandler(deps: SessionLinkDeps): vscode.UriHandler & vscode.Disposable {
  const registration = vscode.window.registerUriHandler({ handleUri: (uri) => handleSessionUri(deps, uri) });
  return { handleUri: (uri) => handleSessionUri(deps, uri), dispose: () => registration.dispose() };
}
