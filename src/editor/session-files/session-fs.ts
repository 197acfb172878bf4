import * as vscode from 'vscode';
import { DenError } from '../../core/client/errors';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { presentError } from '../../model/shared/error-text';
import {
  fileVersionQuery,
  parseFileVersionQuery,
  parseSessionFileUriPath,
  sessionFileUriPath,
  type FileVersion,
} from '../../model/session-files/file-index';
import { FileLookupError, type FileEvent, type SessionFiles } from '../../model/session-files/session-files';

/** Scheme of the read-only file system of sessions' generated files: `den-session:/<sessionId>/<path>`. */
export const SESSION_FS_SCHEME = 'den-session';

/**
 * The `den-session:` URI of a session's file (`path` as the session names it; `''`: its root): its
 * current version, or with `version`, exactly that one (`?key=…&updatedAt=…`: a turn's version).
 */
export function sessionFileUri(sessionId: string, path: string, version?: FileVersion): vscode.Uri {
  return vscode.Uri.from({
    scheme: SESSION_FS_SCHEME,
    path: sessionFileUriPath(sessionId, path),
    query: version ? fileVersionQuery(version) : '',
  });
}

/** A file a `den-session:` URI names: session, path, and the version when it names one. */
export interface SessionFileTarget {
  sessionId: string;
  path: string;
  version?: FileVersion;
}

/** The session, path and version a `den-session:` URI names; undefined for another scheme or the root `/`. */
export function parseSessionFileUri(uri: vscode.Uri): SessionFileTarget | undefined {
  return uri.scheme === SESSION_FS_SCHEME ? targetOf(uri) : undefined;
}

function targetOf(uri: vscode.Uri): SessionFileTarget | undefined {
  const shownAt = new URLSearchParams(uri.query);
  const session = shownAt.get('session');
  const file = shownAt.get('file');
  const at = session && file ? { sessionId: session, path: file } : parseSessionFileUriPath(uri.path);
  const version = parseFileVersionQuery(uri.query);
  return at && version && at.path ? { ...at, version } : at;
}

/**
 * The same file as `agent` (a `den-session:` URI of a file) under the path of `workspace`, its
 * workspace counterpart: `den-session:<workspace path>?session=…&file=…[&key=…&updatedAt=…]`.
 * Diff editors then show the workspace's folder for it and, seeing one path on both sides, a
 * change rather than a rename. Undefined when `agent` names no file.
 */
export function sessionFileShownAt(agent: vscode.Uri, workspace: vscode.Uri): vscode.Uri | undefined {
  const target = parseSessionFileUri(agent);
  if (!target?.path) return undefined;
  const q = new URLSearchParams({ session: target.sessionId, file: target.path });
  if (target.version) for (const [k, v] of new URLSearchParams(fileVersionQuery(target.version))) q.set(k, v);
  return vscode.Uri.from({ scheme: SESSION_FS_SCHEME, path: workspace.path, query: q.toString() });
}

/** How many files read in the shown-at form have their changes reported under it. */
const MAX_SHOWN_AT = 500;

const KIND: Record<FileEvent['kind'], vscode.FileChangeType> = {
  created: vscode.FileChangeType.Created,
  changed: vscode.FileChangeType.Changed,
  deleted: vscode.FileChangeType.Deleted,
};

/**
 * The files sessions generated, read-only, under `den-session:/<sessionId>/<path>`: what
 * `SessionFiles` knows (stored snapshots and live `sandbox.snapshot` changes), directories made up
 * from the paths, bytes through the core's fetch chain. Writes of any kind are refused. The root
 * `/` lists the sessions whose files were looked at.
 */
export class SessionFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.#emitter.event;
  readonly #subscription: { dispose(): void };

  readonly #logger: Logger;
  constructor(
    readonly files: SessionFiles,
    logger: Logger,
  ) {
    this.#logger = logger;
    this.#subscription = files.onDidChange((events) =>
      this.#emitter.fire(
        events.flatMap((e) =>
          [
            sessionFileUri(e.sessionId, e.path),
            ...(this.#shownAt.get(`${e.sessionId}\n${e.path}`) ?? []),
          ].map((uri) => ({ type: KIND[e.kind], uri })),
        ),
      ),
    );
  }

  /** Registers the provider for `den-session:` (read-only, case-sensitive). */
  register(): vscode.Disposable {
    return vscode.workspace.registerFileSystemProvider(SESSION_FS_SCHEME, this, {
      isCaseSensitive: true,
      isReadonly: true,
    });
  }

  /** Changes are reported for every session whatever is watched (they are few). */
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const target = this.#target(uri);
    const readonly = vscode.FilePermission.Readonly;
    if (!target)
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: readonly };
    const { sessionId, path, version } = target;
    const st = await this.#run(uri, l10n.t('find {0}', shown(path)), async () =>
      version ? this.files.statVersion(sessionId, path, version) : this.files.stat(sessionId, path),
    );
    return st.type === 'file'
      ? { type: vscode.FileType.File, ctime: st.mtime, mtime: st.mtime, size: st.size, permissions: readonly }
      : { type: vscode.FileType.Directory, ctime: st.mtime, mtime: st.mtime, size: 0, permissions: readonly };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const target = this.#target(uri);
    if (!target) return this.files.sessions().map((id) => [id, vscode.FileType.Directory]);
    const entries = await this.#run(uri, l10n.t('list {0}', shown(target.path)), () =>
      this.files.list(target.sessionId, target.path),
    );
    return entries.map(([name, type]) => [
      name,
      type === 'file' ? vscode.FileType.File : vscode.FileType.Directory,
    ]);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = this.#target(uri);
    if (!target) throw vscode.FileSystemError.FileIsADirectory(uri);
    const { sessionId, path, version } = target;
    return this.#run(uri, l10n.t('read {0}', shown(path)), () =>
      version ? this.files.readVersion(sessionId, path, version) : this.files.read(sessionId, path),
    );
  }

  createDirectory(uri: vscode.Uri): never {
    throw this.#refused(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw this.#refused(uri);
  }

  delete(uri: vscode.Uri): never {
    throw this.#refused(uri);
  }

  rename(oldUri: vscode.Uri): never {
    throw this.#refused(oldUri);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#emitter.dispose();
  }

  #target(uri: vscode.Uri): SessionFileTarget | undefined {
    const target = targetOf(uri);
    if (target?.path && !target.version && uri.query)
      this.#remember(`${target.sessionId}\n${target.path}`, uri);
    return target;
  }

  /**
   * Current versions read through the shown-at form (`sessionFileShownAt`), so their changes are
   * reported under those URIs too; the most recent `MAX_SHOWN_AT` are kept.
   */
  readonly #shownAt = new Map<string, vscode.Uri[]>();

  #remember(key: string, uri: vscode.Uri): void {
    const known = this.#shownAt.get(key) ?? [];
    if (known.some((u) => u.toString() === uri.toString())) return;
    this.#shownAt.delete(key);
    this.#shownAt.set(key, [...known, uri].slice(-4));
    while (this.#shownAt.size > MAX_SHOWN_AT)
      this.#shownAt.delete(this.#shownAt.keys().next().value as string);
  }

  #refused(uri: vscode.Uri): vscode.FileSystemError {
    return vscode.FileSystemError.NoPermissions(
      l10n.t(
        '{0}: the files of a Den session are read-only (they change only when the agent changes them).',
        shown(parseSessionFileUriPath(uri.path)?.path ?? ''),
      ),
    );
  }

  /** Runs a lookup; its failure as the file system error VS Code understands, in words a person can act on. */
  async #run<T>(uri: vscode.Uri, doing: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof FileLookupError) {
        if (err.reason === 'is-directory') throw vscode.FileSystemError.FileIsADirectory(uri);
        if (err.reason === 'not-directory') throw vscode.FileSystemError.FileNotADirectory(uri);
        throw vscode.FileSystemError.FileNotFound(uri);
      }
      if (err instanceof DenError && err.code === 'not_found') throw vscode.FileSystemError.FileNotFound(uri);
      const message = presentError(err, doing).message;
      this.#logger.warn(`den-session: ${message}`);
      const denied = err instanceof DenError && (err.code === 'unauthorized' || err.code === 'forbidden');
      throw denied
        ? vscode.FileSystemError.NoPermissions(message)
        : vscode.FileSystemError.Unavailable(message);
    }
  }
}

/** A path for a message: the session's root has none. */
function shown(path: string): string {
  return path || l10n.t("the session's files");
}
