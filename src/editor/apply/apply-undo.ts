/**
 * After a workspace edit that VS Code could not finish: it stops at the first file it cannot write
 * (a full disk, a read-only folder) and keeps the files it created before it, and an empty or cut
 * file for the one that failed. Den takes them away again (they did not exist when Apply checked
 * them), puts the edited documents' text back, finds the file that failed and says why in words a
 * person can act on, and names anything it could not undo.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { cannotWriteText, type WriteErrorCode } from '../../core/paths/write-error';
import { l10n } from '../../core/shared/l10n';
import type { PlanEntry } from '../../model/apply/apply-plan';
import { fileUri, openDocument } from './apply-folder';

/** Undoes what the failed edit left and returns the message that says what happened. */
export async function undoFailedEdit(
  folder: vscode.WorkspaceFolder,
  entries: readonly PlanEntry[],
  texts: ReadonlyMap<string, string>,
): Promise<string> {
  const left: string[] = [];
  let failed: string | undefined;
  for (const e of entries) {
    const rel = e.relPath!;
    const uri = fileUri(folder, rel);
    if (e.expected === null && e.action !== 'delete') {
      const size = await vscode.workspace.fs.stat(uri).then(
        (s) => s.size,
        () => undefined,
      );
      if (size === undefined || size !== e.newContent?.length) failed ??= rel;
      if (size === undefined) continue;
      try {
        await vscode.workspace.fs.delete(uri, { useTrash: false });
      } catch {
        left.push(rel);
      }
    } else if (texts.has(rel)) {
      const before = texts.get(rel)!;
      const doc = openDocument(uri);
      if (!doc || doc.getText() === before) continue;
      const back = new vscode.WorkspaceEdit();
      back.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), before);
      if (!(await vscode.workspace.applyEdit(back))) left.push(rel);
      // The disk was not touched (edits are saved after the whole edit went through).
      else if (!e.dirty) await doc.save();
    }
  }
  const code =
    failed && folder.uri.scheme === 'file' ? await spaceCode(folder.uri.fsPath, failed) : undefined;
  const why = failed
    ? code
      ? cannotWriteText(failed, undefined, code)
      : l10n.t('VS Code could not write {0}.', failed)
    : l10n.t('VS Code did not apply the edit.');
  if (left.length > 0)
    return l10n.t('Apply failed and Den could not undo all of it: check {0}. {1}', left.join(', '), why);
  return l10n.t('Nothing was applied. {0}', why);
}

/** ENOSPC when the disk of `relPath` has less room left than one block, or no free inode; else undefined. */
async function spaceCode(root: string, relPath: string): Promise<WriteErrorCode | undefined> {
  let dir = path.dirname(path.join(root, ...relPath.split('/')));
  for (let i = 0; i < 256; i++) {
    try {
      const sf = await fs.statfs(dir);
      const blocks = process.getuid?.() === 0 ? sf.bfree : sf.bavail;
      const noRoom = blocks * sf.bsize < Math.max(sf.bsize, 1);
      const noInode = sf.files > 0 && sf.ffree === 0;
      return noRoom || noInode ? 'ENOSPC' : undefined;
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  }
  return undefined;
}
