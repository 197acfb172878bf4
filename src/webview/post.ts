/** How the webview talks to its host, and the part of `acquireVsCodeApi()` it uses. */
import type { WebviewMessage, WebviewPersistedState } from '../protocol/messages';

/** Posts a message to the host (see `isWebviewMessage` for what it accepts). */
export type Post = (m: WebviewMessage) => void;

/** The object `acquireVsCodeApi()` returns inside a VS Code webview. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: WebviewPersistedState): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}
