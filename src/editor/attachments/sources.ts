import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import {
  languageFor,
  selectionFileName,
  workspaceLocation,
  type ReferenceSource,
  type WorkspaceLocation,
} from './attachment-info';
import { baseName } from './uploader';

/**
 * One thing to attach to a turn: a file streamed from its URI, or text (a selection, an editor's
 * unsaved content), with the `references` entry that says where it came from.
 */
export interface AttachmentSource {
  /** Name of the attachment, before names are made distinct within the turn. */
  name: string;
  /** Upload this text… */
  text?: string;
  /** …or else stream this file. */
  uri: vscode.Uri;
  /** Where it came from; `attachment` is filled in once the name is final. */
  reference: ReferenceSource;
}

/**
 * Where Den says a URI is: relative to its workspace folder, with the folder's name; outside the
 * workspace, its file name only. Never the absolute path or the `file:` URI.
 */
function locate(uri: vscode.Uri): WorkspaceLocation {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  return workspaceLocation(uri.path, folder && { name: folder.name, path: folder.uri.path });
}

/** What Den keeps whole as the agent's base (`model/apply/bases.ts`): a bigger file gets no base (Apply asks). */
export const MAX_BASE_BYTES = 2 * 1024 * 1024;

/**
 * The path Den records a base under (`model/apply/bases.ts`) and Apply looks it up by: relative to the
 * URI's workspace folder, `/`-separated; undefined outside the workspace. With several folders, the
 * path inside the URI's own folder (Apply maps the agent's paths into the folder it writes to).
 */
export function basePathOf(uri: vscode.Uri): string | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  const rel = path.posix.relative(folder.uri.path, uri.path);
  return !rel || rel.startsWith('..') ? undefined : rel;
}

/** The open document of a URI, if any (never opens one: that would load a big file into memory). */
function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/**
 * A selection without the line break it ends with: selecting lines 12–40 by whole lines ends at
 * column 0 of line 41, which would otherwise name and report line 41.
 */
function trimmed(doc: vscode.TextDocument, sel: vscode.Range): vscode.Range {
  if (sel.end.character === 0 && sel.end.line > sel.start.line) {
    return new vscode.Range(sel.start, doc.lineAt(sel.end.line - 1).range.end);
  }
  return sel;
}

/** Each non-empty selection of an editor, in document order. */
export function selectionSources(editor: vscode.TextEditor): AttachmentSource[] {
  const doc = editor.document;
  return editor.selections
    .filter((s) => !s.isEmpty)
    .map((s) => trimmed(doc, s))
    .sort((a, b) => a.start.compareTo(b.start))
    .map((range) => rangeSource(doc, range));
}

/** A range of a document as a text attachment with a `selection` reference. */
export function rangeSource(doc: vscode.TextDocument, range: vscode.Range): AttachmentSource {
  return {
    name: selectionFileName(baseName(doc.uri), range.start.line + 1, range.end.line + 1),
    text: doc.getText(range),
    uri: doc.uri,
    reference: {
      type: 'selection',
      ...locate(doc.uri),
      language: doc.languageId,
      range: {
        start: { line: range.start.line, character: range.start.character },
        end: { line: range.end.line, character: range.end.character },
      },
      ...(doc.isDirty ? { unsaved: true } : {}),
    },
  };
}

/**
 * A whole file. A document open with unsaved changes (or one that is not on disk, like an
 * untitled editor) is sent as the editor's text and its reference says `unsaved`; otherwise the
 * file is streamed from disk.
 */
export function fileSource(uri: vscode.Uri): AttachmentSource {
  const doc = openDocument(uri);
  const name = baseName(uri);
  const fromEditor = doc && (doc.isDirty || uri.scheme !== 'file');
  return {
    name: doc?.isUntitled && !name.includes('.') ? `${name}.txt` : name,
    ...(fromEditor ? { text: doc.getText() } : {}),
    uri,
    reference: {
      type: 'file',
      ...locate(uri),
      language: doc?.languageId ?? languageFor(name),
      ...(fromEditor && doc.isDirty ? { unsaved: true } : {}),
    },
  };
}

/** The files of all open text editor tabs, each once, in tab order. */
export function openEditorSources(): AttachmentSource[] {
  const seen = new Set<string>();
  const out: AttachmentSource[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (!(tab.input instanceof vscode.TabInputText)) continue;
      const uri = tab.input.uri;
      if (seen.has(uri.toString())) continue;
      seen.add(uri.toString());
      // Tabs of virtual documents that are not loaded (e.g. restored ones) have no text to send.
      if (uri.scheme !== 'file' && !openDocument(uri)) continue;
      out.push(fileSource(uri));
    }
  }
  return out;
}

/** Bytes a source will upload (for progress), or undefined when it cannot be known cheaply. */
export async function sourceSize(src: AttachmentSource): Promise<number | undefined> {
  if (src.text !== undefined) return Buffer.byteLength(src.text, 'utf8');
  if (src.uri.scheme !== 'file') return undefined;
  try {
    return (await fs.promises.stat(src.uri.fsPath)).size;
  } catch {
    return undefined;
  }
}
