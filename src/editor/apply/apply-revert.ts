/**
 * Undo of a whole apply, from its result notification: every path Apply wrote goes back to what it
 * held before (`Before`, kept by `applyEntries`), in one `WorkspaceEdit`: text through its document
 * (an editor with unsaved changes gets its unsaved text back), created files deleted, deleted files
 * created again. A path that changed since Apply wrote it is kept as it is now, and named: Undo
 * never throws away what someone did after the apply.
 */
import * as vscode from 'vscode';
import type { PlanEntry } from '../../model/apply/apply-plan';
import type { Before } from './apply-edit';
import { sameText, textOf } from './apply-edit';
import { fileUri, openDocument, readWorkspaceFile } from './apply-folder';

export interface RevertOutcome {
  /** Paths put back as they were. */
  undone: string[];
  /** Paths that changed since the apply (kept as they are), or whose earlier state is unknown. */
  kept: string[];
}

export async function revertApply(
  folder: vscode.WorkspaceFolder,
  written: readonly PlanEntry[],
  before: ReadonlyMap<string, Before>,
): Promise<RevertOutcome> {
  const edit = new vscode.WorkspaceEdit();
  const undone: string[] = [];
  const kept: string[] = [];
  /** Documents saved before the apply: saved again once their text is back. */
  const save: vscode.Uri[] = [];
  for (const e of written) {
    const rel = e.relPath!;
    const uri = fileUri(folder, rel);
    const was = before.get(rel);
    const current = await readWorkspaceFile(uri).catch(() => undefined);
    const asApplied =
      e.action === 'delete'
        ? current === undefined
        : current !== undefined && e.newContent !== undefined && sameText(current, e.newContent);
    if (was === undefined || !asApplied) {
      kept.push(rel);
      continue;
    }
    const metadata: vscode.WorkspaceEditEntryMetadata = { label: rel, needsConfirmation: false };
    if (was === null) {
      edit.deleteFile(uri, { ignoreIfNotExists: true }, metadata);
    } else if (current === undefined || e.binary) {
      edit.createFile(uri, { overwrite: current !== undefined, contents: was }, metadata);
    } else {
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      edit.replace(uri, whole, textOf(was), metadata);
      // Saved after the apply (it had no unsaved changes then): saved again after the undo.
      if (!e.dirty) save.push(uri);
    }
    undone.push(rel);
  }
  if (undone.length === 0) return { undone, kept };
  if (!(await vscode.workspace.applyEdit(edit))) return { undone: [], kept: [...kept, ...undone] };
  for (const uri of save) await (openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri))).save();
  return { undone, kept };
}
