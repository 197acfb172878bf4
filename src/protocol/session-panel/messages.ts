/**
 * The one typed protocol between the Session panel's host (extension) and its webview. Both sides
 * import this file; nothing else crosses `postMessage`. The messages themselves are schemas, their
 * types derived from them (`host-messages.ts`, `webview-messages.ts`, re-exported here); the view types
 * they carry are in `view.ts`; this file re-exports all three. No `vscode` import: the webview bundle uses it too.
 *
 * The host sends an `init` with the whole view once (on open, on restore, or when the webview
 * asks because it missed messages), then only deltas, grouped into `batch` posts (at most ~30 per
 * second, none while the panel is hidden). Every post carries `seq`, increasing by one; a webview
 * that sees a gap answers `ready` with its `lastSeq` and gets a fresh `init`.
 */
export { EFFORTS, MODES, type Effort, type Mode } from '../../core/client/types';
export {
  isDelta,
  isHostMessage,
  SEND_OUTCOMES,
  type Delta,
  type HostMessage,
  type SendOutcome,
} from './host-messages';
export {
  checkWebviewMessage,
  isWebviewMessage,
  MAX_DROPPED_URIS,
  messageSession,
  type WebviewMessage,
} from './webview-messages';
export * from './view';
