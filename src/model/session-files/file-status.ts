/**
 * The state of each of a session's files against a workspace folder, as the Sessions tree and the
 * Session panel show it: new, modified, deleted, identical, conflicts (or refused / failed, with
 * why), with the lines applying would add and remove. It is read from the apply planner's entries
 * (`planApply`, which writes nothing), so what is shown is what Apply would do. No `vscode` import:
 * the glue (`src/editor/session-files/workspace-file-status.ts`) supplies the files, the folder and the bases, and reports
 * workspace changes.
 *
 * Statuses are kept per session and computed again only when the session's files (path, key and
 * `updatedAt`) differ from the last computation, or after `workspaceChanged` / `sessionChanged`
 * marked them stale. The agent's bytes are kept by path and version within a total size, so a
 * workspace edit re-reads the workspace file, not the service. The planner's limits bound the
 * work: files beyond `maxFiles` get no state, and one over `maxFileBytes` is not read and shows as
 * refused, saying so. A merge that already has some of the agent's hunks (accepted hunk by hunk)
 * reads `partly applied` with its counts (`model/apply/hunk-plan.ts`). A file that can run code (`core/paths/runs-code.ts`) says so beside its state,
 * and is refused in a workspace that is not trusted, as Apply would.
 */
import { Emitter, type Listen } from '../../core/shared/emitter';
import { runsCodeMatcher } from '../../core/paths/runs-code';
import type { Logger } from '../../core/shared/log';
import type { FileState, FileStatusView } from '../../protocol/session-panel/view';
import { planApply } from '../apply/apply-plan';
import { partlyApplied, readHunkFile } from '../apply/hunk-plan';
import type { AgentFile, BaseLookup, PlanEntry, PlanFolder } from '../apply/apply-types';
import { ByteCache } from '../shared/byte-cache';

/**
 * A file's state and the lines applying would add and remove (0 for binary files and when nothing
 * changes); `reason`: for `refused` and `failed`, and what the planner says of merges and skips.
 */
export type FileStatus = Omit<FileStatusView, 'path'>;

/** A session's statuses by the agent's path of each file (as `AgentFile.path` names it). */
export type FileStatuses = ReadonlyMap<string, FileStatus>;

/** One of the agent's files and its version (key and `updatedAt`, or that it was deleted). */
export type StatusFile = AgentFile & { version: string };

export interface StatusInput {
  files: readonly StatusFile[];
  folder: PlanFolder;
  base: BaseLookup;
  /**
   * The `den.apply.filesThatRunCode` globs, beside the built-in list of files that can run code
   * (`core/paths/runs-code.ts`), and whether the workspace is trusted (default true): as Apply plans.
   */
  filesThatRunCode?: readonly string[];
  trusted?: boolean;
}

export interface FileStatusDeps {
  /** The session's files, the folder to compare with and its bases; undefined: no folder, no states. */
  load(sessionId: string): Promise<StatusInput | undefined>;
  /** The planner's limits (its defaults: 500 files, 5 MB a file). */
  maxFiles?: number;
  maxFileBytes?: number;
  /** Bytes of agent files kept between computations (default 16 MiB). */
  maxCacheBytes?: number;
}

interface Known {
  signature: string;
  statuses: FileStatuses;
  /** The workspace paths planned, lower-cased, to tell which workspace changes matter. */
  relPaths: Set<string>;
  stale: boolean;
  /** The session's generation when the computation started. */
  generation: number;
}

const NONE: FileStatuses = new Map();

/** The displayed state of a plan entry. */
export function statusOf(entry: PlanEntry): FileStatus {
  const s: FileStatus = {
    state: STATE[entry.action],
    added: entry.stats.added,
    removed: entry.stats.removed,
  };
  if (entry.conflicts?.length) s.conflicts = entry.conflicts.length;
  if (entry.reason) s.reason = entry.reason;
  if (entry.runsCode !== undefined) s.runsCode = entry.runsCode;
  return s;
}

const STATE: Record<PlanEntry['action'], FileState> = {
  create: 'new',
  overwrite: 'modified',
  merge: 'modified',
  askOverwrite: 'modified',
  mergeWithConflicts: 'conflicts',
  delete: 'deleted',
  skipIdentical: 'identical',
  refused: 'refused',
  failed: 'failed',
};

export class FileStatusModel {
  readonly #known = new Map<string, Known>();
  readonly #running = new Map<string, { signature: string; promise: Promise<FileStatuses> }>();
  /** Bumped per session when its statuses go stale: a computation started before lands stale. */
  readonly #generations = new Map<string, number>();
  readonly #bytes: ByteCache;
  /** Sessions asked for (with a folder or not): told when the folders change. */
  readonly #asked = new Set<string>();
  readonly #changed = new Emitter<string>();
  /** A session's statuses went stale (ask `statuses` again to get fresh ones). */
  readonly onDidChange: Listen<string> = this.#changed.event;

  readonly #deps: FileStatusDeps;
  constructor(deps: FileStatusDeps) {
    this.#deps = deps;
    this.#bytes = new ByteCache(deps.maxCacheBytes ?? 16 * 1024 * 1024);
  }

  /** The statuses last computed for a session (perhaps stale), without computing. */
  peek(sessionId: string): FileStatuses | undefined {
    return this.#known.get(sessionId)?.statuses;
  }

  /** The session's statuses: kept ones when still valid, else computed (one computation at a time). */
  async statuses(sessionId: string): Promise<FileStatuses> {
    this.#asked.add(sessionId);
    const input = await this.#deps.load(sessionId);
    if (!input) {
      this.#known.delete(sessionId);
      return NONE;
    }
    const signature = signatureOf(input);
    const kept = this.#known.get(sessionId);
    if (kept && !kept.stale && kept.signature === signature) return kept.statuses;
    const run = this.#running.get(sessionId);
    if (run?.signature === signature) return run.promise;
    const promise = this.#compute(sessionId, input, signature).finally(() => {
      if (this.#running.get(sessionId)?.promise === promise) this.#running.delete(sessionId);
    });
    this.#running.set(sessionId, { signature, promise });
    return promise;
  }

  /**
   * Workspace files changed (`relPaths`, folder-relative; undefined: any, e.g. the folders changed):
   * the sessions that planned one of them go stale.
   */
  workspaceChanged(relPaths?: readonly string[]): void {
    const changed = relPaths && new Set(relPaths.map((p) => p.toLowerCase()));
    const hit = (k: Known): boolean => !changed || [...changed].some((p) => k.relPaths.has(p));
    const sessions = new Set([...this.#running.keys(), ...(changed ? [] : this.#asked)]);
    for (const [id, k] of this.#known) if (hit(k)) sessions.add(id);
    for (const id of sessions) this.#invalidate(id);
  }

  /** The session's files changed (a turn wrote or deleted some). */
  sessionChanged(sessionId: string): void {
    if (this.#known.has(sessionId) || this.#running.has(sessionId)) this.#invalidate(sessionId);
  }

  /** Forgets a session's statuses and bytes, or every session's. */
  forget(sessionId?: string): void {
    if (sessionId === undefined) {
      this.#known.clear();
      this.#asked.clear();
      this.#bytes.clear();
    } else {
      this.#known.delete(sessionId);
      this.#asked.delete(sessionId);
      this.#bytes.deleteWhere((k) => k.startsWith(`${sessionId}\n`));
    }
  }

  dispose(): void {
    this.forget();
    this.#changed.dispose();
  }

  #invalidate(sessionId: string): void {
    this.#generations.set(sessionId, (this.#generations.get(sessionId) ?? 0) + 1);
    const k = this.#known.get(sessionId);
    if (k) k.stale = true;
    this.#running.delete(sessionId);
    this.#changed.fire(sessionId);
  }

  async #compute(sessionId: string, input: StatusInput, signature: string): Promise<FileStatuses> {
    const generation = this.#generations.get(sessionId) ?? 0;
    const files = input.files.map((f) => this.#cached(sessionId, f));
    const plan = await planApply({
      files,
      folder: input.folder,
      base: input.base,
      maxFiles: this.#deps.maxFiles,
      maxFileBytes: this.#deps.maxFileBytes,
      runsCode: runsCodeMatcher(input.filesThatRunCode),
      trusted: input.trusted,
    });
    const statuses = new Map<string, FileStatus>();
    const relPaths = new Set<string>();
    for (const e of plan.entries) {
      if (e.relPath !== undefined) relPaths.add(e.relPath.toLowerCase());
      statuses.set(e.path, (e.action === 'merge' && (await partlyStatus(e, input, files))) || statusOf(e));
    }
    const stale = generation !== (this.#generations.get(sessionId) ?? 0);
    // A computation started later may have finished first: keep its result.
    if ((this.#known.get(sessionId)?.generation ?? -1) <= generation) {
      this.#known.set(sessionId, { signature, statuses, relPaths, stale, generation });
    }
    return statuses;
  }

  /** The file, its bytes kept by path and version. */
  #cached(sessionId: string, f: StatusFile): AgentFile {
    if (f.deleted) return { path: f.path, deleted: true };
    const key = `${sessionId}\n${f.path}`;
    return {
      path: f.path,
      size: f.size,
      read: async () => {
        const kept = this.#bytes.get(key, f.version);
        if (kept) return kept;
        const b = await f.read();
        this.#bytes.set(key, f.version, b);
        return b;
      },
    };
  }
}

/**
 * A merge whose workspace file already has some of the agent's hunks (accepted hunk by hunk):
 * `partly applied · 2 of 5 hunks`. Undefined for any other file, or when it cannot be read.
 */
async function partlyStatus(
  e: PlanEntry,
  input: StatusInput,
  files: readonly AgentFile[],
): Promise<FileStatus | undefined> {
  const file = files.find((f) => f.path === e.path);
  if (!file || file.deleted || e.relPath === undefined) return undefined;
  try {
    const at = { path: e.path, relPath: e.relPath };
    const hunks = partlyApplied(await readHunkFile(input.folder, input.base, at, await file.read()));
    return hunks && { ...statusOf(e), state: 'partly', hunks };
  } catch {
    return undefined;
  }
}

function signatureOf(input: StatusInput): string {
  const files = input.files.map((f) => `${f.path}\u0000${f.deleted ? 'deleted' : f.version}`);
  const code = JSON.stringify([input.trusted ?? true, input.filesThatRunCode ?? []]);
  return [input.folder.root, code, ...files].join('\n');
}

/** Where a session's host gets its files' states (the glue's `FileStatusModel`). */
export interface FileStatusSource {
  statuses(sessionId: string): Promise<FileStatuses>;
  readonly onDidChange: Listen<string>;
}

/**
 * Keeps one session's file states shown: `refresh` asks for them, and they are asked for again
 * whenever they go stale; each answer goes to `show` as the protocol's list. A failure is logged
 * and shows nothing new.
 */
export function followFileStatus(
  source: FileStatusSource,
  sessionId: string,
  show: (files: FileStatusView[]) => void,
  logger: Logger,
): { refresh(): Promise<void>; dispose(): void } {
  let disposed = false;
  const refresh = async (): Promise<void> => {
    try {
      const statuses = await source.statuses(sessionId);
      if (!disposed) show([...statuses].map(([path, s]) => ({ path, ...s })));
    } catch (err) {
      logger.warn(`Session ${sessionId}: could not compare its files with the workspace: ${String(err)}`);
    }
  };
  const subscription = source.onDidChange((id) => {
    if (id === sessionId) void refresh();
  });
  return {
    refresh,
    dispose: () => {
      disposed = true;
      subscription.dispose();
    },
  };
}
