import * as vscode from 'vscode';
import { checkInside, nodeRealPath } from '../../core/paths/real-path';
import { FOLDER_LIMITS, folderVerdict, listed, overLimit, sizeLimitMessage } from './attach-limits';
import { walkFolder, type WalkFs } from './folder-walk';
import { excludeMatcher } from '../../core/paths/glob';
import { fileSource, type AttachmentSource } from './sources';
import { l10n } from '../../core/shared/l10n';

/** A source with its size, and how messages name it (its workspace-relative path). */
export interface SizedSource {
  src: AttachmentSource;
  size: number;
  label: string;
}

export interface CollectOptions {
  /** Larger files are not attached (`den.attachments.maxFileSizeMB`). */
  maxFileBytes: number;
  /**
   * Big folders (see `FOLDER_LIMITS`): `true` attaches them without asking (tests, scripts),
   * `false` refuses them; by default a modal dialog asks.
   */
  confirmFolders?: boolean;
  /** Says why something was left out (a notification, or the panel's notice). */
  warn(message: string): void;
}

/** How messages name a URI: relative to its workspace folder, else its path. */
export function labelOf(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** A folder read through `vscode.workspace.fs` (remote and virtual folders too). */
function folderFs(root: vscode.Uri): WalkFs {
  const at = (path: string): vscode.Uri => (path ? vscode.Uri.joinPath(root, ...path.split('/')) : root);
  // A local link is followed only if it stays inside (`linksLeavingTheWorkspace`); elsewhere Den
  // cannot see where a link leads, so it is left out.
  const local = root.scheme === 'file';
  return {
    list: async (path) =>
      (await vscode.workspace.fs.readDirectory(at(path))).map(([name, type]) => [
        name,
        type & vscode.FileType.SymbolicLink && (type & vscode.FileType.Directory || !local)
          ? 'other'
          : type & vscode.FileType.Directory
            ? 'dir'
            : type & vscode.FileType.File
              ? 'file'
              : 'other',
      ]),
    size: async (path) => (await vscode.workspace.fs.stat(at(path))).size,
  };
}

/** The `/`-separated path of `uri` inside its workspace folder (`''` for the folder itself). */
function pathIn(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string {
  return uri.path.slice(folder.uri.path.replace(/\/+$/, '').length + 1);
}

/** Whether a path under `root` is hidden by `files.exclude` (matched workspace-relative). */
function excludedUnder(root: vscode.Uri): (path: string, isDir: boolean) => boolean {
  const folder = vscode.workspace.getWorkspaceFolder(root);
  const base = folder ? pathIn(folder, root) : '';
  const matches = excludeMatcher(
    vscode.workspace.getConfiguration('files', root).get('exclude'),
    process.platform === 'win32',
  );
  return (path, isDir) => {
    const full = base ? `${base}/${path}` : path;
    return matches(full) || (isDir && matches(`${full}/`));
  };
}

/** The text of a source that goes from the editor, or the file's size on disk. */
async function sized(uri: vscode.Uri, size?: number): Promise<SizedSource> {
  const src = fileSource(uri);
  const bytes = src.text !== undefined ? Buffer.byteLength(src.text, 'utf8') : size;
  return { src, size: bytes ?? (await vscode.workspace.fs.stat(uri)).size, label: labelOf(uri) };
}

/**
 * What to attach for these files and folders: a file as it is (an editor's unsaved text as shown,
 * see `fileSource`), a folder as the files in it (without `.git`, `node_modules` and
 * `files.exclude`; asking first when many or big, refusing above `FOLDER_LIMITS.maxFiles`), without
 * files above the size limit. Undefined when the person said no to a folder.
 */
export async function collectSources(
  uris: readonly vscode.Uri[],
  opts: CollectOptions,
): Promise<SizedSource[] | undefined> {
  const out: SizedSource[] = [];
  // Said once at the end (a panel shows one notice at a time).
  const notes: string[] = [];
  const said = <T>(result: T): T => {
    if (notes.length) opts.warn(notes.join(' '));
    return result;
  };
  const folders: { label: string; files: SizedSource[] }[] = [];
  const unreadable: string[] = [];
  let truncated = false;
  for (const uri of uris) {
    let type: vscode.FileType | undefined;
    if (!openDocument(uri)) {
      try {
        type = (await vscode.workspace.fs.stat(uri)).type;
      } catch {
        unreadable.push(labelOf(uri));
        continue;
      }
    }
    if (type === undefined || !(type & vscode.FileType.Directory)) {
      try {
        out.push(await sized(uri));
      } catch {
        unreadable.push(labelOf(uri));
      }
      continue;
    }
    const walked = await walkFolder(folderFs(uri), {
      excluded: excludedUnder(uri),
      maxFiles: FOLDER_LIMITS.maxFiles,
    });
    truncated ||= walked.truncated;
    unreadable.push(...walked.unreadable.map((p) => labelOf(p ? vscode.Uri.joinPath(uri, p) : uri)));
    const files = await Promise.all(
      walked.files.map((f) => sized(vscode.Uri.joinPath(uri, ...f.path.split('/')), f.size)),
    );
    folders.push({ label: labelOf(uri), files });
  }
  if (unreadable.length) {
    notes.push(l10n.t('Den could not read {0}.', listed(unreadable)));
  }
  if (folders.length) {
    const files = folders.flatMap((f) => f.files);
    const verdict = folderVerdict(
      folders.map((f) => f.label),
      files.map((f) => ({ name: f.label, size: f.size })),
      truncated,
    );
    if (verdict.kind === 'refuse') {
      notes.push(verdict.message);
      return said(undefined);
    }
    if (verdict.kind === 'confirm' && opts.confirmFolders !== true) {
      if (opts.confirmFolders === false) return said(undefined);
      const attach = l10n.t('Attach');
      const yes = await vscode.window.showWarningMessage(
        verdict.message,
        { modal: true, detail: l10n.t('.git, node_modules and what files.exclude hides are left out.') },
        attach,
      );
      if (yes !== attach) return said(undefined);
    }
    out.push(...files);
  }
  const leaving = await linksLeavingTheWorkspace(out);
  if (leaving.length) {
    notes.push(
      l10n.t('Den did not attach {0}: a link that leads outside its workspace folder.', listed(leaving)),
    );
  }
  const tooBig = overLimit(
    out.filter((f) => !leaving.includes(f.label)),
    opts.maxFileBytes,
  );
  if (tooBig.length) {
    const named = tooBig.map((f) => ({ name: f.label, size: f.size }));
    notes.push(sizeLimitMessage(named, opts.maxFileBytes));
  }
  return said(out.filter((f) => !tooBig.includes(f) && !leaving.includes(f.label)));
}

/**
 * The labels of local files inside a workspace folder that are symbolic links (or lie under one)
 * leading out of that folder: attaching them would send a file from elsewhere on the disk.
 * Editors' unsaved text goes as shown; files outside any folder were chosen as they are.
 */
async function linksLeavingTheWorkspace(sources: readonly SizedSource[]): Promise<string[]> {
  const out: string[] = [];
  for (const { src, label } of sources) {
    const folder = src.text === undefined ? vscode.workspace.getWorkspaceFolder(src.uri) : undefined;
    if (!folder || src.uri.scheme !== 'file' || folder.uri.scheme !== 'file') continue;
    const relative = pathIn(folder, src.uri);
    if (!relative) continue;
    const inside = await checkInside(folder.uri.fsPath, relative, nodeRealPath, {
      caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
    });
    if (!inside.ok && !out.includes(label)) out.push(label);
  }
  return out;
}
