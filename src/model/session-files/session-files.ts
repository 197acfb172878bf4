/**
 * The generated files of sessions as a read-only tree, without `vscode`: each session's index
 * (its stored `fileSnapshot`, loaded on first use, kept up to date by live `sandbox.snapshot`
 * changes and later stored copies), the directories its paths imply, and the files' bytes through
 * the core's fetch chain, cached by key and `updatedAt` within a total size (least recently used
 * out). Changes are published as `FileEvent`s, for `src/files` to tell VS Code.
 */
import type { DownloadContext } from '../../core/client/download';
import { DenError } from '../../core/client/errors';
import type { AgentEvent, FileInfo, SessionDetail } from '../../core/client/types';
import { recoverFromEvents } from '../../core/client/file-recovery';
import { Emitter, type Listen } from '../../core/shared/emitter';
import { l10n } from '../../core/shared/l10n';
import { ByteCache } from '../shared/byte-cache';
import { systemClock, type Clock } from '../shared/clock';
import {
  FileTree,
  filesByPath,
  isFileVersion,
  normalizeFilePath,
  snapshotChanges,
  type EntryType,
  type FileVersion,
  type FilesUpdate,
} from './file-index';

export type { FilesUpdate } from './file-index';

export interface FileEvent {
  sessionId: string;
  path: string;
  type: EntryType;
  kind: 'created' | 'changed' | 'deleted';
}

/** A path that is not there, or not of the kind asked for. */
export class FileLookupError extends Error {
  constructor(
    readonly reason: 'not-found' | 'is-directory' | 'not-directory',
    readonly sessionId: string,
    readonly path: string,
  ) {
    super(
      reason === 'not-found'
        ? l10n.t('{0} is not among the files of session {1}', path || '/', sessionId)
        : reason === 'is-directory'
          ? l10n.t('{0} is a directory', path || '/')
          : l10n.t('{0} is not a directory', path),
    );
    this.name = 'FileLookupError';
  }
}

export type FileStat =
  { type: 'file'; file: FileInfo; mtime: number; size: number } | { type: 'directory'; mtime: number };

export interface SessionFilesDeps {
  /** `GET /sessions/{id}` (a `not_found` DenError for an unknown session). */
  fetch(sessionId: string): Promise<SessionDetail>;
  /** The core's fetch chain (`ApiClient.downloadFile`): a file's bytes. */
  download(file: FileInfo, ctx: DownloadContext): Promise<Uint8Array>;
  clock?: Clock;
  /** Total bytes of file contents kept (default 32 MiB). */
  maxCacheBytes?: number;
  /** A path not in an index older than this reloads the index once before it is "not found" (default 3 s). */
  refreshAfterMs?: number;
}

interface Index {
  files: Map<string, FileInfo>;
  tree: FileTree;
  loadedAt: number;
  /** The session's `updatedAt` (directories' mtime, and files' without one). */
  updatedAt: number;
}

interface Loading {
  promise: Promise<Index>;
  /** Updates that came while loading, applied to what the load brings. */
  queued: FilesUpdate[];
}

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

export class SessionFiles {
  readonly #indexes = new Map<string, Index>();
  readonly #loading = new Map<string, Loading>();
  readonly #cache: ByteCache;
  readonly #reads = new Map<string, Promise<Uint8Array>>();
  readonly #changed = new Emitter<FileEvent[]>();
  /** Files and directories created, changed or deleted (one batch per update). */
  readonly onDidChange: Listen<FileEvent[]> = this.#changed.event;
  readonly #clock: Clock;
  readonly #refreshAfterMs: number;
  /** Bumped by `clear`: loads started before it land nowhere. */
  #generation = 0;

  readonly #deps: SessionFilesDeps;
  constructor(deps: SessionFilesDeps) {
    this.#deps = deps;
    this.#cache = new ByteCache(deps.maxCacheBytes ?? DEFAULT_CACHE_BYTES);
    this.#clock = deps.clock ?? systemClock;
    this.#refreshAfterMs = deps.refreshAfterMs ?? 3_000;
  }

  /** What is at `path` of a session (`''`: its root). Throws a `FileLookupError`, or the service's error. */
  async stat(sessionId: string, path: string): Promise<FileStat> {
    const p = normalizeFilePath(path);
    const index = await this.#find(sessionId, p);
    const file = index.files.get(p);
    if (!file || index.tree.typeOf(p) !== 'file') return { type: 'directory', mtime: index.updatedAt };
    return { type: 'file', file, mtime: file.updatedAt ?? index.updatedAt, size: file.size };
  }

  /** The entries of a directory of a session, sorted by name. */
  async list(sessionId: string, path: string): Promise<[string, EntryType][]> {
    const p = normalizeFilePath(path);
    const entries = (await this.#find(sessionId, p)).tree.list(p);
    if (!entries) throw new FileLookupError('not-directory', sessionId, p);
    return entries;
  }

  /**
   * A file's bytes: from the cache when its key and `updatedAt` are unchanged, else through the
   * fetch chain; when the service does not serve it, from the session's own events (fetched anew).
   */
  async read(sessionId: string, path: string): Promise<Uint8Array> {
    const p = normalizeFilePath(path);
    const st = await this.stat(sessionId, p);
    if (st.type !== 'file') throw new FileLookupError('is-directory', sessionId, p);
    const file = st.file;
    const key = cacheKey(sessionId, p);
    const version = versionOf(file);
    const kept = this.#cache.get(key, version);
    if (kept) return kept;
    const flight = `${key}\n${version}`;
    let pending = this.#reads.get(flight);
    if (!pending) {
      pending = this.#fetchBytes(sessionId, file).finally(() => this.#reads.delete(flight));
      this.#reads.set(flight, pending);
    }
    const bytes = await pending;
    const now = this.#indexes.get(sessionId)?.files.get(p);
    if (now && versionOf(now) === version) {
      this.#cache.set(key, version, bytes);
      if (!now.size) now.size = bytes.length;
    }
    return bytes;
  }

  /**
   * One version of a file (`key`, `updatedAt`), whatever the session holds at `path` now: a turn's
   * version after later turns changed or deleted the file. Its size is known once it was read.
   */
  statVersion(sessionId: string, path: string, version: FileVersion): FileStat {
    const p = normalizeFilePath(path);
    const kept = this.#cache.get(versionKey(sessionId, p, version), versionOf(version));
    const file: FileInfo = { key: version.key, name: p, size: kept?.length ?? 0 };
    if (version.updatedAt !== undefined) file.updatedAt = version.updatedAt;
    return { type: 'file', file, mtime: version.updatedAt ?? 0, size: file.size };
  }

  /**
   * The bytes of one version of a file. The current version is read as `read` reads it. Another
   * version under its own key comes through the fetch chain; under the key the current version
   * has (the service serves only a path's latest content there), from the file-writing tools of the
   * session's events up to the turn that recorded that version. Versions never change: kept by
   * key and `updatedAt`.
   */
  async readVersion(sessionId: string, path: string, version: FileVersion): Promise<Uint8Array> {
    const p = normalizeFilePath(path);
    const current = await this.stat(sessionId, p).catch((err: unknown) => {
      if (err instanceof FileLookupError) return undefined;
      throw err;
    });
    const now = current?.type === 'file' ? current.file : undefined;
    if (now && isFileVersion(now, version)) return this.read(sessionId, p);
    const key = versionKey(sessionId, p, version);
    const kept = this.#cache.get(key, versionOf(version));
    if (kept) return kept;
    let pending = this.#reads.get(key);
    if (!pending) {
      const file: FileInfo = { key: version.key, name: p, size: 0 };
      if (version.updatedAt !== undefined) file.updatedAt = version.updatedAt;
      const fetched =
        now?.key === version.key
          ? this.#recoverVersion(sessionId, file)
          : this.#deps.download(file, {}).catch((err: unknown) => {
              if (!(err instanceof DenError) || err.code !== 'unsupported') throw err;
              return this.#recoverVersion(sessionId, file);
            });
      pending = fetched
        .then((bytes) => {
          this.#cache.set(key, versionOf(version), bytes);
          return bytes;
        })
        .finally(() => this.#reads.delete(key));
      this.#reads.set(key, pending);
    }
    return pending;
  }

  /** Applies what a session host learned; publishes what changed. */
  update(sessionId: string, update: FilesUpdate): void {
    this.#loading.get(sessionId)?.queued.push(update);
    const index = this.#indexes.get(sessionId);
    if (index) {
      this.#publish(this.#apply(sessionId, index, update));
    } else if (update.kind === 'stored') {
      // A whole stored snapshot is as good as a load.
      if (!this.#loading.has(sessionId))
        this.#indexes.set(sessionId, this.#build(sessionId, update.files, 0));
    } else {
      // Nothing known to compare with: say what the snapshot named (an editor may show it).
      this.#publish([
        ...Object.keys(update.updated).map((path): FileEvent => ({
          sessionId,
          path,
          type: 'file',
          kind: 'changed',
        })),
        ...update.deleted.map((path): FileEvent => ({ sessionId, path, type: 'file', kind: 'deleted' })),
      ]);
    }
  }

  /**
   * Makes sure a file a transcript shows is in its session's index, for a service that leaves it
   * out of `fileSnapshot` (or keys it otherwise): added when the index has nothing at `path`.
   */
  async ensure(sessionId: string, path: string, file: FileInfo): Promise<void> {
    const p = normalizeFilePath(path);
    const index = this.#indexes.get(sessionId) ?? (await this.#load(sessionId));
    if (!p || index.tree.typeOf(p) !== undefined) return;
    this.#publish(this.#apply(sessionId, index, { kind: 'changes', updated: { [p]: file }, deleted: [] }));
  }

  /** Forgets a session's index and bytes (it was deleted), or every session's (sign-out, another service). */
  forget(sessionId?: string): void {
    if (sessionId === undefined) {
      this.#generation++;
      this.#indexes.clear();
      this.#loading.clear();
      this.#reads.clear();
      this.#cache.clear();
      return;
    }
    this.#indexes.delete(sessionId);
    this.#cache.deleteWhere((k) => k.startsWith(`${sessionId}\n`));
  }

  /** The sessions whose files are known (the file system's root lists them). */
  sessions(): string[] {
    return [...this.#indexes.keys()];
  }

  /** Bytes of file contents kept now (tests, diagnostics). */
  get cachedBytes(): number {
    return this.#cache.bytes;
  }

  dispose(): void {
    this.forget();
    this.#changed.dispose();
  }

  /** The index with `p` in it: reloaded once when `p` is unknown to an index older than the refresh age. */
  async #find(sessionId: string, p: string): Promise<Index> {
    let index = this.#indexes.get(sessionId) ?? (await this.#load(sessionId));
    if (index.tree.typeOf(p) === undefined && this.#clock.now() - index.loadedAt >= this.#refreshAfterMs) {
      index = await this.#load(sessionId);
    }
    if (index.tree.typeOf(p) === undefined) throw new FileLookupError('not-found', sessionId, p);
    return index;
  }

  #load(sessionId: string): Promise<Index> {
    const running = this.#loading.get(sessionId);
    if (running) return running.promise;
    const generation = this.#generation;
    const queued: FilesUpdate[] = [];
    const promise = (async () => {
      try {
        const detail = await this.#deps.fetch(sessionId);
        const fresh = this.#build(sessionId, detail.session.fileSnapshot, detail.session.updatedAt);
        for (const u of queued) this.#apply(sessionId, fresh, u);
        if (generation !== this.#generation) return fresh;
        const old = this.#indexes.get(sessionId);
        this.#indexes.set(sessionId, fresh);
        if (old) this.#publish(this.#diff(sessionId, old, fresh));
        return fresh;
      } finally {
        if (this.#loading.get(sessionId)?.queued === queued) this.#loading.delete(sessionId);
      }
    })();
    this.#loading.set(sessionId, { promise, queued });
    return promise;
  }

  #build(sessionId: string, snapshot: Record<string, FileInfo>, updatedAt: number): Index {
    const files = new Map<string, FileInfo>();
    const tree = new FileTree();
    for (const [path, file] of filesByPath(sessionId, snapshot)) {
      files.set(path, { ...file });
      tree.add(path);
    }
    const newest = Math.max(updatedAt, ...[...files.values()].map((f) => f.updatedAt ?? 0));
    return { files, tree, loadedAt: this.#clock.now(), updatedAt: newest };
  }

  /** Applies an update to an index; returns what changed (and drops the bytes kept for it). */
  #apply(sessionId: string, index: Index, update: FilesUpdate): FileEvent[] {
    const events: FileEvent[] = [];
    const event = (path: string, type: EntryType, kind: FileEvent['kind']): void => {
      events.push({ sessionId, path, type, kind });
    };
    const incoming =
      update.kind === 'changes' ? Object.entries(update.updated) : [...filesByPath(sessionId, update.files)];
    for (const [path, file] of incoming) {
      const prev = index.files.get(path);
      if (prev && sameVersion(prev, file)) {
        if (!prev.size && file.size) prev.size = file.size;
        continue;
      }
      if (prev?.updatedAt !== undefined && file.updatedAt !== undefined && file.updatedAt < prev.updatedAt)
        continue;
      index.files.set(path, { ...file });
      index.updatedAt = Math.max(index.updatedAt, file.updatedAt ?? 0);
      this.#cache.delete(cacheKey(sessionId, path));
      if (prev) {
        event(path, 'file', 'changed');
        continue;
      }
      for (const d of index.tree.add(path)) event(d, 'directory', 'created');
      event(path, 'file', 'created');
    }
    if (update.kind === 'changes') {
      for (const path of update.deleted) {
        if (!index.files.delete(path)) continue;
        this.#cache.delete(cacheKey(sessionId, path));
        const gone = index.tree.remove(path);
        event(path, 'file', 'deleted');
        for (const d of gone) event(d, 'directory', 'deleted');
      }
    }
    return events;
  }

  /** What changed from one index of a session to a newer one. */
  #diff(sessionId: string, old: Index, fresh: Index): FileEvent[] {
    const events: FileEvent[] = [];
    const oldDirs = new Set(old.tree.directories());
    for (const d of fresh.tree.directories()) {
      if (!oldDirs.delete(d)) events.push({ sessionId, path: d, type: 'directory', kind: 'created' });
    }
    for (const [path, file] of fresh.files) {
      const prev = old.files.get(path);
      if (prev && sameVersion(prev, file)) {
        if (!file.size && prev.size) file.size = prev.size;
        continue;
      }
      this.#cache.delete(cacheKey(sessionId, path));
      events.push({ sessionId, path, type: 'file', kind: prev ? 'changed' : 'created' });
    }
    for (const path of old.files.keys()) {
      if (fresh.files.has(path)) continue;
      this.#cache.delete(cacheKey(sessionId, path));
      events.push({ sessionId, path, type: 'file', kind: 'deleted' });
    }
    for (const d of oldDirs) events.push({ sessionId, path: d, type: 'directory', kind: 'deleted' });
    return events;
  }

  async #fetchBytes(sessionId: string, file: FileInfo): Promise<Uint8Array> {
    try {
      return await this.#deps.download(file, {});
    } catch (err) {
      if (!(err instanceof DenError) || err.code !== 'unsupported') throw err;
      // Not served: a file-writing tool of the session may hold its content (in events newer than any kept).
      const detail = await this.#deps.fetch(sessionId);
      this.update(sessionId, { kind: 'stored', files: detail.session.fileSnapshot });
      const events: AgentEvent[] = detail.messages.flatMap((m) => (m.type === 'agent' ? m.events : []));
      return this.#deps.download(file, { sessionEvents: events });
    }
  }

  /** An earlier version from the writes of the session's events through the turn that recorded it. */
  async #recoverVersion(sessionId: string, file: FileInfo): Promise<Uint8Array> {
    const detail = await this.#deps.fetch(sessionId);
    const found = recoverFromEvents(file, eventsThrough(detail, file));
    if (!found) {
      throw new DenError({
        code: 'unsupported',
        message: l10n.t(
          "The service serves only the latest version of {0}, and the session's events do not hold the earlier one.",
          file.name,
        ),
      });
    }
    return new TextEncoder().encode(found.content);
  }

  #publish(events: FileEvent[]): void {
    if (events.length) this.#changed.fire(events);
  }
}

function cacheKey(sessionId: string, path: string): string {
  return `${sessionId}\n${path}`;
}

/** Where the bytes of one version of a file are kept (apart from the path's current bytes). */
function versionKey(sessionId: string, path: string, version: FileVersion): string {
  return `${cacheKey(sessionId, path)}\n@${versionOf(version)}`;
}

/**
 * The events of the session's agent messages up to and including the one whose `sandbox.snapshot`
 * (or, for a file without `updatedAt`, whose `task.completed` files) named this version; none when
 * no message did.
 */
function eventsThrough(detail: SessionDetail, file: FileInfo): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const m of detail.messages) {
    if (m.type !== 'agent') continue;
    out.push(...m.events);
    if (m.events.some((e) => namesVersion(e, file))) return out;
  }
  return [];
}

function namesVersion(e: AgentEvent, file: FileInfo): boolean {
  if (e.kind === 'sandbox.snapshot') {
    const changes = snapshotChanges(e.payload);
    return Object.values(changes?.updated ?? {}).some((f) => isFileVersion(f, file));
  }
  if (e.kind !== 'task.completed' || file.updatedAt !== undefined || !Array.isArray(e.payload.files))
    return false;
  return e.payload.files.some(
    (f: unknown) => typeof f === 'object' && f !== null && (f as FileInfo).key === file.key,
  );
}

/** What the bytes kept for a file are checked against. */
function versionOf(file: FileVersion): string {
  return `${file.key}\n${file.updatedAt ?? ''}`;
}

/** The same content: same key and `updatedAt`, and the same size where both are known. */
function sameVersion(a: FileInfo, b: FileInfo): boolean {
  return a.key === b.key && a.updatedAt === b.updatedAt && (!a.size || !b.size || a.size === b.size);
}
