import * as vscode from 'vscode';
import { openGeneratedFile } from '../session-files/open-file';
import { parseSessionFileUri, type SessionFileSystem } from '../session-files/session-fs';
import { sessionFilePath } from '../../model/session-files/file-index';
import { showError } from '../platform/show-error';
import { l10n } from '../../core/shared/l10n';

/** A generated file as the command takes it: (session id, path), `{sessionId, path}` (a Files node) or a `den-session:` URI. */
type FileArg =
  string | { sessionId?: unknown; path?: unknown; file?: { name?: unknown } } | vscode.Uri | undefined;

function target(arg: FileArg, path: unknown): { sessionId: string; path: string } | undefined {
  if (arg instanceof vscode.Uri) return parseSessionFileUri(arg);
  if (typeof arg === 'string') {
    return typeof path === 'string' ? { sessionId: arg, path: sessionFilePath(arg, path) } : undefined;
  }
  if (arg && typeof arg.sessionId === 'string' && typeof arg.path === 'string') {
    // A Files node names the file by its snapshot key (maybe `<session>/<path>`, or a URL).
    const name = typeof arg.file?.name === 'string' ? { name: arg.file.name } : undefined;
    return { sessionId: arg.sessionId, path: sessionFilePath(arg.sessionId, arg.path, name) };
  }
  return undefined;
}

/**
 * `den.openGeneratedFile`: opens a session's generated file read-only through the `den-session:`
 * file system, in the editor VS Code chooses for it. Resolves to what happened (`OpenOutcome`), or
 * undefined when the arguments name no file.
 */
export function registerFileCommands(fs: SessionFileSystem): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('den.openGeneratedFile', async (arg?: FileArg, path?: unknown) => {
      const t = target(arg, path);
      if (!t) {
        void vscode.window.showWarningMessage(
          l10n.t('Den: Open Generated File needs a session ID and a file path.'),
        );
        return undefined;
      }
      try {
        const outcome = await openGeneratedFile(fs, t.sessionId, t.path);
        if (outcome !== 'opened') {
          void vscode.window.showWarningMessage(
            outcome === 'missing'
              ? l10n.t(
                  'Den: {0} is not among the files of this session (deleted, or not produced yet).',
                  t.path,
                )
              : l10n.t("Den: {0} is a folder of the session's files, not a file.", t.path),
          );
        }
        return outcome;
      } catch (err) {
        void showError(err, l10n.t('open {0}', t.path));
        return undefined;
      }
    }),
  ];
}
