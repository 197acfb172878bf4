import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import { transcriptFromDetail } from '../../core/transcript/from-history';
import { transcriptToMarkdown } from '../../core/transcript/markdown-export';
import { presentError } from '../../model/shared/error-text';
import type { SessionsTreeProvider } from './sessions-tree';

export const MARKDOWN_SCHEME = 'den-export';

/**
 * Read-only Markdown export of a session's history under the `den-export:` scheme
 * (`den-export:/<sessionId>/<title>.md`). Content is fetched when the document opens.
 */
export class SessionMarkdownProvider implements vscode.TextDocumentContentProvider {
  readonly #tree: SessionsTreeProvider;
  constructor(tree: SessionsTreeProvider) {
    this.#tree = tree;
  }

  static uriFor(sessionId: string, title: string): vscode.Uri {
    const safe = (title || 'session').replace(/[\\/:*?"<>|#%\u0000-\u001f]/g, '-').slice(0, 80);
    return vscode.Uri.from({ scheme: MARKDOWN_SCHEME, path: `/${sessionId}/${safe}.md` });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const sessionId = uri.path.split('/')[1] ?? '';
    try {
      return transcriptToMarkdown(transcriptFromDetail(await this.#tree.detail(sessionId)), {
        title: this.#tree.get(sessionId)?.title,
      });
    } catch (err) {
      return `# ${l10n.t('Session {0}', sessionId)}\n\n> ${presentError(err, 'load this session').message}\n`;
    }
  }
}

/** Opens the Markdown export of a session in a read-only editor. */
export async function openSessionMarkdown(tree: SessionsTreeProvider, sessionId: string): Promise<void> {
  const title = tree.get(sessionId)?.title ?? sessionId;
  const doc = await vscode.workspace.openTextDocument(SessionMarkdownProvider.uriFor(sessionId, title));
  await vscode.window.showTextDocument(doc, { preview: true });
}
