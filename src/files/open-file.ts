import * as vscode from 'vscode';
import { FileLookupError } from '../session/session-files';
import { sessionFileUri, type SessionFileSystem } from './session-fs';

/** What opening a generated file came to. */
export type OpenOutcome = 'opened' | 'missing' | 'directory';

/**
 * Opens a session's generated file read-only in the editor VS Code picks for it (text, image,
 * hex, …: `vscode.open`, never a text document by force). `missing` when the session has no file
 * at `path` (deleted, or not produced yet); the service's failures are thrown.
 */
export async function openGeneratedFile(
  fs: SessionFileSystem,
  sessionId: string,
  path: string,
  options: { beside?: boolean } = {},
): Promise<OpenOutcome> {
  try {
    const st = await fs.files.stat(sessionId, path);
    if (st.type === 'directory') return 'directory';
  } catch (err) {
    if (err instanceof FileLookupError) return 'missing';
    throw err;
  }
  const show: vscode.TextDocumentShowOptions = {
    preview: true,
    viewColumn: options.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
  };
  await vscode.commands.executeCommand('vscode.open', sessionFileUri(sessionId, path), show);
  return 'opened';
}
