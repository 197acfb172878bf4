/**
 * Reviewed marks: a person marks an agent's file reviewed, and the mark holds for the version of
 * the file it was made on (its key and `updatedAt`, `protocol/session-panel/reviewed.ts`). When a
 * later turn changes the file, its new version is not marked: the mark clears by itself, while an
 * earlier turn's version it was made on still reads reviewed. Marks are kept per session in a
 * `Memento`-shaped storage (the extension's `globalState`), so they survive a reload, bounded: the
 * sessions marked most recently, and per path the versions marked most recently. No `vscode` import.
 */
import { Emitter, type Listen } from '../../core/shared/emitter';
import {
  isMarked,
  reviewPath,
  reviewVersion,
  type ReviewedVersionOf,
  type ReviewedView,
} from '../../protocol/session-panel/reviewed';
import type { FileInfo, SessionDetail } from '../../core/client/types';
import { transcriptFromDetail } from '../../core/transcript/from-history';
import type { FileChange } from '../../core/transcript/model';
import { sessionFilePath } from '../session-files/file-index';
import { SessionIndex, type SessionStorage } from '../shared/session-index';

/** Where marks are kept: VS Code's `Memento` has this shape. */
export type MarkStorage = SessionStorage;

/** One of a session's files at one version (a path as the session or a turn names it). */
export interface ReviewTarget extends ReviewedVersionOf {
  path: string;
}

/** How many of some files are reviewed. */
export interface ReviewCount {
  reviewed: number;
  total: number;
}

export interface ReviewMarksOptions {
  /** Sessions whose marks are kept (the least recently marked go first; default 200). */
  maxSessions?: number;
  /** Paths kept per session (default 5,000). */
  maxPaths?: number;
  /** Versions kept per path (default 8). */
  maxVersions?: number;
}

/** The storage keys: `den.reviewMarks.sessions` (the index) and `den.reviewMarks.<sessionId>`. */
const PREFIX = 'den.reviewMarks';

/** A session's marks: path → the versions marked, oldest first (in path order of marking, oldest first). */
type Marks = Map<string, string[]>;

/** The path marks are kept by for a file of a session (as the `den-session:` file system names it). */
export function markPath(sessionId: string, path: string): string {
  return reviewPath(sessionFilePath(sessionId, path));
}

/** How many of `files` are marked, by `marked`. */
export function countReviewed(
  files: readonly ReviewTarget[],
  marked: (f: ReviewTarget) => boolean,
): ReviewCount {
  return { reviewed: files.filter(marked).length, total: files.length };
}

/** The files not yet reviewed, in their order. */
export function unreviewed<T extends ReviewTarget>(files: readonly T[], marked: (f: T) => boolean): T[] {
  return files.filter((f) => !marked(f));
}

/** A turn's changed file (its "Files changed" row) as the version a mark names. */
export function changeTarget(f: FileChange): ReviewTarget {
  const t: ReviewTarget = { path: f.path, key: f.key };
  if (f.updatedAt !== undefined) t.updatedAt = f.updatedAt;
  if (f.change === 'deleted') t.deleted = true;
  return t;
}

/** A file of the session's snapshot (`fileSnapshot` entry: its map key and info) at its current version. */
export function snapshotTarget(sessionId: string, key: string, file: FileInfo): ReviewTarget {
  const t: ReviewTarget = { path: sessionFilePath(sessionId, key, file), key: file.key };
  if (file.updatedAt !== undefined) t.updatedAt = file.updatedAt;
  return t;
}

const turnFilesCache = new WeakMap<SessionDetail, Map<string, ReviewTarget[]>>();

/**
 * The files each turn of a session's history changed (its "Files changed"), by the turn's user
 * message id and its agent message id; worked out once per loaded history.
 */
export function turnFilesOf(detail: SessionDetail): ReadonlyMap<string, readonly ReviewTarget[]> {
  let byTurn = turnFilesCache.get(detail);
  if (!byTurn) {
    byTurn = new Map();
    for (const turn of transcriptFromDetail(detail).turns) {
      const files = turn.files.map(changeTarget);
      if (turn.userMessage.id) byTurn.set(turn.userMessage.id, files);
      if (turn.agentMessageId) byTurn.set(turn.agentMessageId, files);
    }
    turnFilesCache.set(detail, byTurn);
  }
  return byTurn;
}

/** Where a session's panel gets its marks (`ReviewMarks` has this shape). */
export interface ReviewedSource {
  view(sessionId: string): ReviewedView[];
  readonly onDidChange: Listen<string>;
}

export class ReviewMarks implements ReviewedSource {
  readonly #changed = new Emitter<string>();
  /** A session's marks changed (its id). */
  readonly onDidChange: Listen<string> = this.#changed.event;
  /** Sessions with marks, least recently marked first, and their stored marks. */
  readonly #index: SessionIndex;
  readonly #loaded = new Map<string, Marks>();
  readonly #maxPaths: number;
  readonly #maxVersions: number;

  constructor(storage: MarkStorage, options: ReviewMarksOptions = {}) {
    this.#index = new SessionIndex(storage, PREFIX, options.maxSessions ?? 200);
    this.#maxPaths = options.maxPaths ?? 5_000;
    this.#maxVersions = options.maxVersions ?? 8;
  }

  /** Whether that version of the session's file is marked reviewed. */
  isReviewed(sessionId: string, file: ReviewTarget): boolean {
    return isMarked(this.#marks(sessionId), markPath(sessionId, file.path), file);
  }

  /** How many of `files` (of one session) are reviewed. */
  count(sessionId: string, files: readonly ReviewTarget[]): ReviewCount {
    return countReviewed(files, (f) => this.isReviewed(sessionId, f));
  }

  /** The session's marks as the panel gets them. */
  view(sessionId: string): ReviewedView[] {
    return [...this.#marks(sessionId)].map(([path, versions]) => ({ path, versions: [...versions] }));
  }

  /**
   * Marks `files` reviewed (or not): each at its version. Resolves once stored; true when a mark
   * changed (and `onDidChange` fired).
   */
  async set(sessionId: string, files: readonly ReviewTarget[], reviewed: boolean): Promise<boolean> {
    const marks = this.#marks(sessionId);
    let changed = false;
    for (const f of files) {
      const path = markPath(sessionId, f.path);
      if (!path) continue;
      const version = reviewVersion(f);
      const versions = marks.get(path) ?? [];
      const at = versions.indexOf(version);
      if (reviewed === at >= 0) continue;
      changed = true;
      if (reviewed) {
        versions.push(version);
        if (versions.length > this.#maxVersions) versions.splice(0, versions.length - this.#maxVersions);
        // The path marked most recently goes last (the first are dropped past the bound).
        marks.delete(path);
        marks.set(path, versions);
      } else {
        versions.splice(at, 1);
        if (versions.length) marks.set(path, versions);
        else marks.delete(path);
      }
    }
    if (!changed) return false;
    for (const path of [...marks.keys()].slice(0, Math.max(0, marks.size - this.#maxPaths))) {
      marks.delete(path);
    }
    await this.#store(sessionId, marks);
    this.#changed.fire(sessionId);
    return true;
  }

  /** Forgets a session's marks (it was deleted). */
  async forget(sessionId: string): Promise<void> {
    if (!this.#index.has(sessionId) && !this.#loaded.has(sessionId)) return;
    this.#loaded.delete(sessionId);
    await this.#store(sessionId, new Map());
    this.#changed.fire(sessionId);
  }

  dispose(): void {
    this.#changed.dispose();
  }

  #marks(sessionId: string): Marks {
    let marks = this.#loaded.get(sessionId);
    if (!marks) {
      marks = parseMarks(this.#index.read(sessionId) ?? []);
      this.#loaded.set(sessionId, marks);
    }
    return marks;
  }

  /** Stores a session's marks (none: its key is removed) and the index, dropping the oldest sessions. */
  #store(sessionId: string, marks: Marks): Promise<void> {
    const { dropped, written } = this.#index.store(sessionId, marks.size ? [...marks] : undefined);
    for (const id of dropped) this.#loaded.delete(id);
    return written;
  }
}

/** Stored marks (`[path, versions][]`) as a map; anything malformed is left out. */
function parseMarks(stored: unknown): Marks {
  const marks: Marks = new Map();
  if (!Array.isArray(stored)) return marks;
  for (const entry of stored) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
    const versions = (entry[1] as unknown[]).filter((v): v is string => typeof v === 'string');
    if (versions.length) marks.set(entry[0], [...new Set(versions)]);
  }
  return marks;
}
