/**
 * A session's generated files as paths: the path of a `fileSnapshot` entry, the URI path
 * `/<sessionId>/<path>` of the `den-session:` file system and back, a live `sandbox.snapshot`'s
 * changes, and the directories synthesised from the paths (`FileTree`). No `vscode` import.
 */
import type { FileInfo } from '../../core/client/types';
import { isRecord } from '../../core/shared/schema';

/** What a live `sandbox.snapshot` says: files added or updated (by path), paths deleted. */
export interface SnapshotChanges {
  updated: Record<string, FileInfo>;
  deleted: string[];
}

/** What a session host learned about its files: a live snapshot's changes, or a stored snapshot. */
export type FilesUpdate =
  | ({ kind: 'changes' } & SnapshotChanges)
  /** A `fileSnapshot` as stored (keyed as the service keys it): merged, never a reason to delete. */
  | { kind: 'stored'; files: Record<string, FileInfo> };

/**
 * A path as the file system shows it: `/`-separated, no leading or trailing `/`, no empty, `.` or
 * `..` segment (`..` is resolved inside the path and never climbs above it; `\` counts as `/`).
 * `''` is the session's root.
 */
export function normalizeFilePath(path: string): string {
  const out: string[] = [];
  for (const seg of path.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

/**
 * The path of a file of a session's snapshot. `key` is the snapshot's map key, which the service
 * may give as the path, as a storage key (`<sessionId>/<path>`) or as a URL; a URL gives its path
 * after the session's id, else the file's name.
 */
export function sessionFilePath(sessionId: string, key: string, file?: Pick<FileInfo, 'name'>): string {
  let raw = key;
  if (/^https?:\/\//i.test(key)) {
    let urlPath = '';
    try {
      urlPath = decodeURIComponent(new URL(key).pathname);
    } catch {
      // not a URL after all: the name says it
    }
    const at = urlPath.indexOf(`/${sessionId}/`);
    raw = at >= 0 ? urlPath.slice(at + sessionId.length + 2) : (file?.name ?? urlPath);
  }
  const path = normalizeFilePath(raw);
  return path.startsWith(`${sessionId}/`) ? path.slice(sessionId.length + 1) : path;
}

/** A snapshot (map key → file) as path → file; of two keys with one path, the later wins. */
export function filesByPath(sessionId: string, snapshot: Record<string, FileInfo>): Map<string, FileInfo> {
  const out = new Map<string, FileInfo>();
  for (const [key, file] of Object.entries(snapshot)) {
    const path = sessionFilePath(sessionId, key, file);
    if (path) out.set(path, file);
  }
  return out;
}

/** The URI path of a session's file (`/<sessionId>/<path>`; `/<sessionId>` for its root). */
export function sessionFileUriPath(sessionId: string, path: string): string {
  const p = normalizeFilePath(path);
  return p ? `/${sessionId}/${p}` : `/${sessionId}`;
}

/** A URI path as (session, path); `undefined` for `/` and paths without a session. */
export function parseSessionFileUriPath(uriPath: string): { sessionId: string; path: string } | undefined {
  const p = normalizeFilePath(uriPath);
  if (!p) return undefined;
  const slash = p.indexOf('/');
  return slash < 0 ? { sessionId: p, path: '' } : { sessionId: p.slice(0, slash), path: p.slice(slash + 1) };
}

/**
 * One version of a session's file: the `key` and `updatedAt` its snapshot gave it. A `den-session:`
 * URI names one in its query (`?key=<key>&updatedAt=<ISO time>`); without a query it names the
 * path's current version.
 */
export interface FileVersion {
  key: string;
  /** Unix ms; absent when the service gave none. */
  updatedAt?: number;
}

/** The URI query naming a version (`key=…&updatedAt=…`, URL-encoded). */
export function fileVersionQuery(version: FileVersion): string {
  const q = new URLSearchParams({ key: version.key });
  const at = version.updatedAt;
  if (at !== undefined && Number.isFinite(at) && Math.abs(at) <= 8.64e15) {
    q.set('updatedAt', new Date(at).toISOString());
  }
  return q.toString();
}

/** The version a URI query names; undefined for no query, no `key`, or a time that is not one. */
export function parseFileVersionQuery(query: string): FileVersion | undefined {
  if (!query) return undefined;
  const q = new URLSearchParams(query);
  const key = q.get('key');
  if (!key) return undefined;
  const at = q.get('updatedAt');
  if (at === null) return { key };
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? { key, updatedAt: ms } : undefined;
}

/**
 * Whether a file is at that version: the same key and `updatedAt`. A version without `updatedAt`
 * (a turn's result file the service gave no time for) cannot be told from later ones under its
 * key: it is whatever the key holds.
 */
export function isFileVersion(file: FileVersion, version: FileVersion): boolean {
  return (
    file.key === version.key && (version.updatedAt === undefined || file.updatedAt === version.updatedAt)
  );
}

/** A `sandbox.snapshot` payload's changes (`snapshot`: path → {key, name, updatedAt}; `deleted`). */
export function snapshotChanges(payload: Record<string, unknown>): SnapshotChanges | undefined {
  const updated: Record<string, FileInfo> = {};
  const snapshot = isRecord(payload.snapshot) ? payload.snapshot : {};
  for (const [raw, entry] of Object.entries(snapshot)) {
    const path = normalizeFilePath(raw);
    if (!path) continue;
    const e = isRecord(entry) ? entry : {};
    const file: FileInfo = {
      key: typeof e.key === 'string' && e.key ? e.key : path,
      name: typeof e.name === 'string' && e.name ? e.name : path,
      size: typeof e.size === 'number' && e.size >= 0 ? e.size : 0,
    };
    const at = typeof e.updatedAt === 'number' ? e.updatedAt : e.updated_at;
    if (typeof at === 'number' && Number.isFinite(at)) file.updatedAt = at;
    updated[path] = file;
  }
  const deleted = (Array.isArray(payload.deleted) ? payload.deleted : [])
    .filter((p): p is string => typeof p === 'string')
    .map(normalizeFilePath)
    .filter((p) => p !== '' && !(p in updated));
  return Object.keys(updated).length || deleted.length ? { updated, deleted } : undefined;
}

/** The directory a path is in (`''`: the root). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export type EntryType = 'file' | 'directory';

/**
 * Files by path and the directories they imply. A directory exists while a file is beneath it;
 * where a path is both a file and a directory, the file wins.
 */
export class FileTree {
  readonly #files = new Set<string>();
  /** Directory path → how many files are beneath it (the root `''` is not counted). */
  readonly #dirs = new Map<string, number>();

  /** Adds a file; returns the directories that came to exist, outermost first. */
  add(path: string): string[] {
    if (this.#files.has(path)) return [];
    this.#files.add(path);
    const created: string[] = [];
    for (let d = parentOf(path); d !== ''; d = parentOf(d)) {
      const n = this.#dirs.get(d) ?? 0;
      if (n === 0) created.unshift(d);
      this.#dirs.set(d, n + 1);
    }
    return created;
  }

  /** Removes a file; returns the directories that no longer exist, innermost first. */
  remove(path: string): string[] {
    if (!this.#files.delete(path)) return [];
    const gone: string[] = [];
    for (let d = parentOf(path); d !== ''; d = parentOf(d)) {
      const n = (this.#dirs.get(d) ?? 1) - 1;
      if (n > 0) this.#dirs.set(d, n);
      else {
        this.#dirs.delete(d);
        gone.push(d);
      }
    }
    return gone;
  }

  typeOf(path: string): EntryType | undefined {
    if (this.#files.has(path)) return 'file';
    return path === '' || this.#dirs.has(path) ? 'directory' : undefined;
  }

  /** The entries of a directory, sorted by name; `undefined` when it is not one. */
  list(dir: string): [string, EntryType][] | undefined {
    if (this.typeOf(dir) !== 'directory') return undefined;
    const entries = new Map<string, EntryType>();
    for (const d of this.#dirs.keys()) if (parentOf(d) === dir) entries.set(nameOf(d), 'directory');
    for (const f of this.#files) if (parentOf(f) === dir) entries.set(nameOf(f), 'file');
    return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Every directory but the root. */
  directories(): IterableIterator<string> {
    return this.#dirs.keys();
  }

  get size(): number {
    return this.#files.size;
  }
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
