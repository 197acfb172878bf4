/**
 * The shapes of an apply plan (`apply-plan.ts`): what goes in (the agent's files, the workspace
 * folder, the bases) and what comes out (an entry a file, the counts). Types only.
 */
import type { Conflict, LineStats } from '../../core/merge/merge';
import type { PathRules } from '../../core/paths/path-safety';
import type { RealPath } from '../../core/paths/real-path';

/** One of the agent's files, as the service names it. */
export type AgentFile =
  | { path: string; deleted: true }
  | {
      path: string;
      deleted?: false;
      /** Its size in bytes when known before reading: a file over the limit is then not read. */
      size?: number;
      /** The agent's bytes. */
      read(): Promise<Uint8Array>;
    };

/** The workspace folder the files go into. */
export interface PlanFolder {
  name: string;
  /** The folder's path, as `realPath` takes it. */
  root: string;
  /** The file's bytes (for an editor with unsaved changes, its text); undefined when there is none. */
  readFile(relPath: string): Promise<Uint8Array | undefined>;
  /** Whether the file is open in an editor with unsaved changes. */
  isDirty(relPath: string): boolean;
  /** Resolves links (see `core/paths/real-path.ts`); without it, links are not checked. */
  realPath?: RealPath;
  /** Compare real paths without case (Windows, macOS). */
  caseInsensitive?: boolean;
}

/** What the agent saw of a file (a `BaseStore` record): its hash, and its content when kept. */
export interface PlanBase {
  hash: string;
  content?: Uint8Array;
}

export type BaseLookup = (relPath: string) => Promise<PlanBase | undefined>;

export interface PlanInput {
  files: readonly AgentFile[];
  folder: PlanFolder;
  base: BaseLookup;
  rules?: PathRules;
  /** Largest agent file planned, in bytes (default 5 MB). */
  maxFileBytes?: number;
  /** Most files planned (default 500); the rest are left out unread. */
  maxFiles?: number;
  /** Most bytes of agent contents one plan holds (default 64 MB). */
  maxTotalBytes?: number;
  /** Stops planning between files (rejects with a `DenError` `aborted`). */
  signal?: AbortSignal;
  /**
   * Why a workspace path can run code (`core/paths/runs-code.ts`, with the setting's globs), or
   * undefined; without it, no file is taken as one that runs code.
   */
  runsCode?: (relPath: string) => string | undefined;
  /** The workspace is trusted (default true): when not, files that run code are refused unread. */
  trusted?: boolean;
}

export type PlanAction =
  | 'create'
  | 'overwrite'
  | 'merge'
  | 'mergeWithConflicts'
  | 'askOverwrite'
  | 'delete'
  | 'skipIdentical'
  | 'refused'
  | 'failed';

export interface PlanEntry {
  /** The path as the service names it. */
  path: string;
  /** The path inside the folder (`/`-separated); absent when the path was refused. */
  relPath?: string;
  action: PlanAction;
  /** What to write (`create`, `overwrite`, `merge`, `mergeWithConflicts`, `askOverwrite`). */
  newContent?: Uint8Array;
  /** The workspace file or the agent's version is not text: no line diff. */
  binary: boolean;
  /** Lines added and removed in the workspace file. */
  stats: LineStats;
  conflicts?: Conflict[];
  /** Why, in words: for every entry that writes nothing, and for merges. */
  reason?: string;
  /** What the person confirms before this entry is written, as a sentence; absent: no question. */
  confirm?: string;
  /** The file has unsaved changes: the edit goes through its document. */
  dirty: boolean;
  /** The workspace file's hash when planned (`null`: no file); absent on `refused` and `failed`. */
  expected?: string | null;
  /**
   * The file can run code, and why (a clause: "a task can run by itself when the folder opens"):
   * set on writes other than deletions; such an entry is written only after its own confirmation.
   */
  runsCode?: string;
}

export interface PlanSummary {
  newFiles: number;
  changed: number;
  deleted: number;
  identical: number;
  /** Conflict hunks, in `conflictFiles`. */
  conflicts: number;
  conflictFiles: string[];
  refused: number;
  failed: number;
  /** Writes into files with unsaved changes. */
  dirty: number;
  /** The `confirm` sentences, in order. */
  needsConfirmation: string[];
  /** The writes that can run code, as `relPath: why`, in order (each needs its own confirmation). */
  runsCode: string[];
  /** Lines, over every write (confirmed or not). */
  added: number;
  removed: number;
}

export interface ApplyPlan {
  folder: string;
  entries: PlanEntry[];
  /** Files beyond `maxFiles`, not planned. */
  leftOut: number;
  maxFiles: number;
  summary: PlanSummary;
}
