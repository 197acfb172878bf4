/** How the webview talks to its host, and the part of `acquireVsCodeApi()` it uses. */
import type { CheckedMessage } from '../protocol/message-check';
import type { WebviewPersistedState } from '../protocol/messages';

/** Posts a message to the host: a WebviewMessage, or `runCommand` for a notice's button. */
export type Post = (m: CheckedMessage) => void;

/** The object `acquireVsCodeApi()` returns inside a VS Code webview. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: WebviewPersistedState): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}
