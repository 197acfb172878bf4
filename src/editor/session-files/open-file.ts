import * as vscode from 'vscode';
import { isFileVersion, type FileVersion } from '../../model/session-files/file-index';
import { FileLookupError } from '../../model/session-files/session-files';
import { sessionFileUri, type SessionFileSystem } from './session-fs';

/** What opening a generated file came to. */
export type OpenOutcome = 'opened' | 'missing' | 'directory';

/**
 * Opens a session's generated file read-only in the editor VS Code picks for it (text, image,
 * hex, …: `vscode.open`, never a text document by force). `missing` when the session has no file
 * at `path` (deleted, or not produced yet); the service's failures are thrown. With `version` (a
 * turn's), that version: the path's current URI when it is the current one (it follows the agent's
 * changes), else a URI naming exactly it, even when a later turn changed or deleted the file.
 */
export async function openGeneratedFile(
  fs: SessionFileSystem,
  sessionId: string,
  path: string,
  options: { beside?: boolean; version?: FileVersion } = {},
): Promise<OpenOutcome> {
  let version = options.version;
  try {
    const st = await fs.files.stat(sessionId, path);
    if (st.type === 'directory') return 'directory';
    if (version && isFileVersion(st.file, version)) version = undefined;
  } catch (err) {
    if (!(err instanceof FileLookupError)) throw err;
    if (!version) return 'missing';
  }
  const show: vscode.TextDocumentShowOptions = {
    preview: true,
    viewColumn: options.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
  };
  await vscode.commands.executeCommand('vscode.open', sessionFileUri(sessionId, path, version), show);
  return 'opened';
}
