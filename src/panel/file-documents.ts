import * as vscode from 'vscode';

/** Scheme of the read-only documents that show a generated file's content. */
export const FILE_SCHEME = 'den-file';

/** How many opened files' contents are kept (older ones are fetched again when reopened). */
const KEEP = 32;

/**
 * Read-only virtual documents for files a turn produced (`den-file:/<session>/<path>?turn=<id>`),
 * so their content is shown without touching the workspace.
 */
export class FileDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(FILE_SCHEME, this);

  /** Shows `text` as the content of `path` of a session's turn, in a preview editor beside the panel. */
  async show(sessionId: string, turnId: string, path: string, text: string): Promise<vscode.TextEditor> {
    const clean = path.replace(/^\/+/, '');
    const uri = vscode.Uri.from({
      scheme: FILE_SCHEME,
      path: `/${sessionId}/${clean}`,
      query: new URLSearchParams({ turn: turnId }).toString(),
    });
    const key = uri.toString();
    this.contents.delete(key);
    this.contents.set(key, text);
    while (this.contents.size > KEEP) this.contents.delete(this.contents.keys().next().value as string);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ?? 'Den no longer holds this file: open it again from its session.'
    );
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}
