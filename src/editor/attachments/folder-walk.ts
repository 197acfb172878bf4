/**
 * A folder as the files to attach: walked in name order (a folder's files, then its subfolders),
 * without `.git`, `node_modules` and what `files.exclude` hides, stopping once it has found more
 * files than may be attached at once. Reads through an interface (the glue passes `vscode.workspace.fs`), so plain
 * mocha covers it with a fake.
 */

/** What the walk needs to read. Paths are relative to the walked folder, `/`-separated, '' itself. */
export interface WalkFs {
  /** The entries of a folder; symbolic links to folders are `other` (never followed: no loops). */
  list(path: string): Promise<[name: string, kind: 'file' | 'dir' | 'other'][]>;
  /** A file's size in bytes. */
  size(path: string): Promise<number>;
}

export interface WalkOptions {
  /** Whether a path (relative to the walked folder) is excluded; folders are asked once. */
  excluded?(path: string, isDir: boolean): boolean;
  /** Stop after finding more than this many files (`truncated`). */
  maxFiles: number;
  signal?: AbortSignal;
}

export interface WalkedFile {
  /** Relative to the walked folder. */
  path: string;
  size: number;
}

export interface WalkResult {
  files: WalkedFile[];
  /** More than `maxFiles` files were found: `files` holds the first `maxFiles + 1`. */
  truncated: boolean;
  /** Folders and files left out (`.git`, `node_modules`, `files.exclude`). */
  skipped: number;
  /** Folders and files that could not be read. */
  unreadable: string[];
}

/** Folders never attached, wherever they are. */
export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** Walks `fs` from its root. Rejects with the signal's reason when aborted. */
export async function walkFolder(fs: WalkFs, opts: WalkOptions): Promise<WalkResult> {
  const out: WalkResult = { files: [], truncated: false, skipped: 0, unreadable: [] };
  const pending = [''];
  const found: string[] = [];
  while (pending.length && !out.truncated) {
    opts.signal?.throwIfAborted();
    const dir = pending.pop() as string;
    let entries: [string, 'file' | 'dir' | 'other'][];
    try {
      entries = await fs.list(dir);
    } catch {
      out.unreadable.push(dir);
      continue;
    }
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const subdirs: string[] = [];
    for (const [name, kind] of sorted) {
      const path = dir ? `${dir}/${name}` : name;
      if (kind === 'other') continue;
      if ((kind === 'dir' && ALWAYS_SKIPPED.has(name)) || opts.excluded?.(path, kind === 'dir')) {
        out.skipped++;
        continue;
      }
      if (kind === 'dir') {
        subdirs.push(path);
        continue;
      }
      found.push(path);
      if (found.length > opts.maxFiles) {
        out.truncated = true;
        break;
      }
    }
    // Depth first, in name order: the stack takes the last one first.
    pending.push(...subdirs.reverse());
  }
  for (const path of found) {
    opts.signal?.throwIfAborted();
    try {
      out.files.push({ path, size: await fs.size(path) });
    } catch {
      out.unreadable.push(path);
    }
  }
  return out;
}
