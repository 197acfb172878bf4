/** How the webview talks to its host, and the part of `acquireVsCodeApi()` it uses. */
import type { WebviewMessage, WebviewPersistedState } from '../../protocol/session-panel/messages';
import type { WebTaskWebviewMessage } from '../../protocol/webtask-panel/webtask-messages';

/** Posts a message to the host (see `isWebviewMessage` for what it accepts). */
export type Post = (m: WebviewMessage) => void;

/** The object `acquireVsCodeApi()` returns inside a VS Code webview; `S`: what the page saves. */
export interface VsCodeApi<S = WebviewPersistedState> {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: S): void;
}

declare global {
  function acquireVsCodeApi<S = WebviewPersistedState>(): VsCodeApi<S>;
}

/** Posts a message to the Web Task panel's host (see `isWebTaskWebviewMessage`). */
export type WebTaskPost = (m: WebTaskWebviewMessage) => void;
