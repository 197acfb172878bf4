/**
 * Writing a plan's entries as one `vscode.WorkspaceEdit`, so the whole apply is one undo step:
 * new files are created with their contents (never over an existing file), existing text files
 * get their whole text replaced through their document (an editor with unsaved changes is edited,
 * never overwritten on disk; the change stays unsaved there), binary files are replaced, and
 * confirmed deletions delete. No editor is opened or focused. Right before building the edit, every
 * entry is checked again against the workspace (`stillAsPlanned`, and the links): if anything
 * changed since the plan was made, nothing is written.
 */
import { formatCount, l10n } from '../../core/shared/l10n';
import { checkInside } from '../../core/paths/real-path';
import { stillAsPlanned, type PlanEntry, type PlanFolder } from '../../model/apply/apply-plan';
import * as vscode from 'vscode';
import { fileUri, openDocument } from './apply-folder';
import { spaceProblem } from './apply-space';
import { undoFailedEdit } from './apply-undo';

/**
 * What a written path held before the apply, read as the planner reads it (an editor's unsaved
 * text, else the disk's bytes), or null when there was no file.
 */
export type Before = Uint8Array | null;

export type ApplyOutcome =
  | {
      ok: true;
      written: PlanEntry[];
      /** Edited in their documents but not saved (the save failed, e.g. a full disk): their new text waits in the editor. */
      unsaved?: string[];
      /** What each written path held before, by relative path (for Undo, `apply-revert.ts`). */
      before: Map<string, Before>;
    }
  | { ok: false; message: string; changed?: string[] };

/** Checks the entries again and applies them in one edit; saves the files that had no unsaved changes. */
export async function applyEntries(
  folder: vscode.WorkspaceFolder,
  reader: PlanFolder,
  entries: readonly PlanEntry[],
): Promise<ApplyOutcome> {
  const before = new Map<string, Before>();
  if (entries.length === 0) return { ok: true, written: [], before };
  const changed: string[] = [];
  for (const e of entries) {
    const rel = e.relPath!;
    if (reader.realPath) {
      const inside = await checkInside(reader.root, rel, reader.realPath, {
        caseInsensitive: reader.caseInsensitive,
      });
      if (!inside.ok) return { ok: false, message: inside.message };
    }
    let current: Uint8Array | undefined;
    try {
      current = await reader.readFile(rel);
    } catch {
      changed.push(rel);
      continue;
    }
    before.set(rel, current ?? null);
    // The text decides, not whether it is saved: auto save (VS Code for the web's default, after
    // 1 s) saves a person's unsaved text while they decide, and that changes nothing Den planned.
    if (!stillAsPlanned(e, current)) changed.push(rel);
  }
  if (changed.length > 0) {
    return {
      ok: false,
      changed,
      message:
        changed.length > 5
          ? l10n.t(
              'Nothing was applied: {0} and {1} more changed while you were deciding. Run Apply again to see the new plan.',
              changed.slice(0, 5).join(', '),
              formatCount(changed.length - 5),
            )
          : l10n.t(
              'Nothing was applied: {0} changed while you were deciding. Run Apply again to see the new plan.',
              changed.join(', '),
            ),
    };
  }
  if (folder.uri.scheme === 'file') {
    const space = await spaceProblem(folder.uri.fsPath, entries);
    if (space) return { ok: false, message: space.message };
  }
  const edit = new vscode.WorkspaceEdit();
  /** Documents that had no unsaved changes before the edit: saved after it, as the agent's files are. */
  const toSave: { uri: vscode.Uri; relPath: string; entry: PlanEntry }[] = [];
  /** The text of each edited document before the edit, to put back if the edit fails. */
  const texts = new Map<string, string>();
  for (const e of entries) {
    const uri = fileUri(folder, e.relPath!);
    const label = e.relPath!;
    const metadata: vscode.WorkspaceEditEntryMetadata = { label, needsConfirmation: false };
    if (e.action === 'delete') {
      edit.deleteFile(uri, { ignoreIfNotExists: true }, metadata);
    } else if (e.expected === null) {
      edit.createFile(uri, { overwrite: false, contents: e.newContent! }, metadata);
    } else if (e.binary) {
      edit.createFile(uri, { overwrite: true, contents: e.newContent! }, metadata);
    } else {
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      edit.replace(uri, whole, textOf(e.newContent!), metadata);
      texts.set(label, doc.getText());
      // Planned unsaved (the person's text in the editor): edited there and left unsaved, as the
      // question said, even if it was saved since.
      if (!doc.isDirty && !e.dirty) toSave.push({ uri, relPath: label, entry: e });
    }
  }
  const done = await vscode.workspace.applyEdit(edit);
  // VS Code stops at the first file it cannot write and keeps what it wrote before: undone here.
  if (!done) return { ok: false, message: await undoFailedEdit(folder, entries, texts) };
  const unsaved: string[] = [];
  for (const { uri, relPath, entry } of toSave) {
    // Saved whatever `isDirty` says: the extension host may not have heard yet that the edit made
    // the document dirty, or may have closed a document no editor shows (the edited text then
    // stayed unsaved and the disk unchanged: seen in test/ext/round-trip.test.ts). Saving a
    // document without changes writes nothing.
    const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
    if (!(await doc.save()) && doc.isDirty) unsaved.push(relPath);
    else await ensureOnDisk(uri, entry);
  }
  if (unsaved.length > 0) return { ok: true, written: [...entries], unsaved, before };
  return { ok: true, written: [...entries], before };
}

/**
 * After the save, the file must hold the agent's text. On a loaded machine the save was seen to
 * report success while the disk still held the old text (test/ext/apply-review.test.ts, in some
 * runs under load; the cause, in VS Code's handling of the document, is not pinned down).
 * The planned bytes are then written directly, but only while the file still holds exactly what the
 * plan expected (as checked before the edit), so nothing anyone else wrote meanwhile is overwritten.
 */
async function ensureOnDisk(uri: vscode.Uri, entry: PlanEntry): Promise<void> {
  let onDisk: Uint8Array;
  try {
    onDisk = await vscode.workspace.fs.readFile(uri);
  } catch {
    return;
  }
  if (sameText(onDisk, entry.newContent!) || !stillAsPlanned(entry, onDisk)) return;
  await vscode.workspace.fs.writeFile(uri, entry.newContent!);
}

/** The same text, whatever the line endings and byte order mark (the document keeps its own). */
export function sameText(a: Uint8Array, b: Uint8Array): boolean {
  const norm = (bytes: Uint8Array): string => textOf(bytes).replace(/\r\n/g, '\n');
  return norm(a) === norm(b);
}

/** UTF-8 text without a byte order mark (the document keeps its own encoding and mark). */
export function textOf(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
