/**
 * Links to a session: `<uri scheme>://<extension id>/session/<session id>` (the editor's URI
 * handler opens its panel). Pure: the scheme and extension id come from the editor.
 */
import { l10n } from '../../core/shared/l10n';

/**
 * A session id as the service makes them: a UUID (`shared/spec/interface.md`, `sessionId`: string
 * (uuid)). A link naming anything else is refused before any request.
 */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The link to a session. */
export function sessionLink(scheme: string, extensionId: string, sessionId: string): string {
  return `${scheme}://${extensionId}/session/${encodeURIComponent(sessionId)}`;
}

/** The session a link's path names (`/session/<id>`), or what is wrong with it, in words. */
export function parseSessionLink(path: string): { sessionId: string } | { problem: string } {
  const m = /^\/session(?:\/([^/]*))?\/?$/.exec(path);
  if (!m) return { problem: l10n.t('the link “{0}” is not a session link (…/session/<session id>).', path) };
  let id = m[1] ?? '';
  try {
    id = decodeURIComponent(id).trim();
  } catch {
    return { problem: l10n.t('the link “{0}” has a malformed session ID.', path) };
  }
  if (!id) return { problem: l10n.t('the link names no session (…/session/<session id>).') };
  if (!SESSION_ID.test(id))
    return {
      problem: l10n.t(
        'it is not a session link (“{0}” is not a session ID, which is a UUID).',
        id.slice(0, 80),
      ),
    };
  return { sessionId: id };
}
