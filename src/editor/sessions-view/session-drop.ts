import * as vscode from 'vscode';
import type { SessionNode } from './tree-nodes';

/** The MIME type of files dragged from the Explorer and editor tabs. */
const URI_LIST = 'text/uri-list';

/** The URIs of a `text/uri-list` (one per line; `#` lines are comments). */
export function parseUriList(text: string): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    try {
      out.push(vscode.Uri.parse(t, true));
    } catch {
      // not a URI: nothing to attach
    }
  }
  return out;
}

/**
 * Drops on the Sessions view: files and folders (from the Explorer or editor tabs) dropped on a
 * session, or on any row of it, go to that session's composer (`attach` opens its panel). The view
 * drags nothing itself.
 */
export class SessionDropController implements vscode.TreeDragAndDropController<SessionNode> {
  readonly dropMimeTypes = [URI_LIST];
  readonly dragMimeTypes: string[] = [];

  readonly #attach: (sessionId: string, uris: vscode.Uri[]) => Thenable<unknown>;
  constructor(attach: (sessionId: string, uris: vscode.Uri[]) => Thenable<unknown>) {
    this.#attach = attach;
  }

  async handleDrop(
    target: SessionNode | undefined,
    data: vscode.DataTransfer,
    token: vscode.CancellationToken,
  ): Promise<void> {
    if (!target || !('sessionId' in target)) return;
    const text = await data.get(URI_LIST)?.asString();
    if (!text || token.isCancellationRequested) return;
    const uris = parseUriList(text);
    if (uris.length) await this.#attach(target.sessionId, uris);
  }
}
