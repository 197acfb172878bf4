/**
 * The workspace side of an apply: which folder the agent's files go into, and that folder as the
 * planner reads it (`PlanFolder`). Files are read through `vscode.workspace.fs`, so remote
 * workspaces work; a file open with unsaved changes is read as its editor's text. Links are only
 * resolved for local `file:` folders (Node's `realpath`); elsewhere they are not checked.
 */
import { nodeRealPath } from '../../core/paths/real-path';
import { l10n } from '../../core/shared/l10n';
import type { PlanFolder } from '../../model/apply/apply-plan';
import * as vscode from 'vscode';

/** What `chooseFolder` says, for Apply (the default) or Review. */
export interface FolderWords {
  /** Why a folder is needed, after "Den: open a folder first." */
  none: string;
  title: string;
  placeHolder: string;
}

const applyWords = (): FolderWords => ({
  none: l10n.t('Apply writes the agent’s files into a workspace folder, and this window has none.'),
  title: l10n.t('Den: Apply to Which Folder?'),
  placeHolder: l10n.t('The workspace folder to write the agent’s files into'),
});

/**
 * The folder to apply into (or compare with): the only one, or the one the person picks when there
 * are several; undefined (after saying why) when there is none or the pick was dismissed.
 * `preferred` (a folder URI string) skips the question when it names an open folder.
 */
export async function chooseFolder(
  preferred?: string,
  words: FolderWords = applyWords(),
): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showWarningMessage(l10n.t('Den: open a folder first. {0}', words.none));
    return undefined;
  }
  const named = preferred && folders.find((f) => f.uri.toString() === preferred);
  if (named) return named;
  if (folders.length === 1) return folders[0];
  const picked = await vscode.window.showQuickPick(
    folders.map((folder) => ({ label: folder.name, description: folder.uri.fsPath, folder })),
    { title: words.title, placeHolder: words.placeHolder },
  );
  return picked?.folder;
}

/** The workspace file at a folder-relative, `/`-separated path. */
export function fileUri(folder: vscode.WorkspaceFolder, relPath: string): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...relPath.split('/'));
}

/** The open document of a URI, if any (compared as strings, as VS Code keys documents). */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** The folder as the planner reads it. */
export function planFolder(folder: vscode.WorkspaceFolder): PlanFolder {
  const local = folder.uri.scheme === 'file';
  return {
    name: folder.name,
    root: local ? folder.uri.fsPath : folder.uri.path,
    readFile: (relPath) => readWorkspaceFile(fileUri(folder, relPath)),
    isDirty: (relPath) => openDocument(fileUri(folder, relPath))?.isDirty ?? false,
    realPath: local ? nodeRealPath : undefined,
    caseInsensitive: local && (process.platform === 'win32' || process.platform === 'darwin'),
  };
}

/** A file's bytes, or its editor's text when it has unsaved changes; undefined when there is none. */
export async function readWorkspaceFile(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  const doc = openDocument(uri);
  if (doc?.isDirty) return new TextEncoder().encode(doc.getText());
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
    // A document never saved (untitled) has no file; anything else is a real failure.
    throw err;
  }
}
