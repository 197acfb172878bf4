/**
 * Hunks kept out: the agent's hunks of a file a person rejected while they were still to apply
 * (hunk by hunk in the review, `editor/apply/hunk-actions.ts`). Rejecting such a hunk writes
 * nothing, so only this store remembers it; it is kept per session in a `Memento`-shaped storage
 * (the extension's `workspaceState`: the marks name workspace files), so it survives a window
 * reload. A mark holds for the version of the agent's file (and the base) it was made on, as a
 * reviewed mark does (`model/review/review-marks.ts`): once the agent changes the file, its hunks
 * are others and the old marks are dropped by the next write for that file. Bounded: the sessions
 * marked most recently, per session the files marked most recently, per file a number of hunks.
 * What is read back is checked; anything malformed is left out. No `vscode` import.
 */
import { Emitter, type Listen } from '../../core/shared/emitter';
import { isNonNegativeInteger } from '../../core/shared/schema';
import { SessionIndex, type SessionStorage } from '../shared/session-index';

/** Where marks are kept: VS Code's `Memento` has this shape. */
export type KeptOutStorage = SessionStorage;

/** One agent file of a session, where it goes in the workspace, and the version a mark is for. */
export interface KeptOutFile {
  sessionId: string;
  /** The workspace file (its URI as a string) and the agent's path: together, the file. */
  file: string;
  /** The agent's version and the base the hunks are counted on (e.g. their content hashes). */
  version: string;
}

export interface KeptOutOptions {
  /** Sessions whose marks are kept (the least recently marked go first; default 200). */
  maxSessions?: number;
  /** Files kept per session (default 1,000). */
  maxFiles?: number;
  /** Hunks kept per file (default 10,000). */
  maxHunks?: number;
}

/** The storage keys: `den.keptOutHunks.sessions` (the index) and `den.keptOutHunks.<sessionId>`. */
const PREFIX = 'den.keptOutHunks';

/** A file's marks: the version they are for and the hunks (indices) kept out. */
interface Entry {
  version: string;
  hunks: number[];
}

/** A session's marks: file → entry, the file marked most recently last. */
type Marks = Map<string, Entry>;

export class KeptOutHunks {
  readonly #changed = new Emitter<string>();
  /** A session's marks changed (its id). */
  readonly onDidChange: Listen<string> = this.#changed.event;
  /** Sessions with marks, least recently marked first, and their stored marks. */
  readonly #index: SessionIndex;
  readonly #maxFiles: number;
  readonly #maxHunks: number;
  readonly #loaded = new Map<string, Marks>();

  constructor(storage: KeptOutStorage, options: KeptOutOptions = {}) {
    this.#index = new SessionIndex(storage, PREFIX, options.maxSessions ?? 200);
    this.#maxFiles = options.maxFiles ?? 1_000;
    this.#maxHunks = options.maxHunks ?? 10_000;
  }

  /**
   * Drops what is held in memory and reads the storage afresh, as activation after a window
   * reload does (tests).
   */
  reload(): void {
    this.#index.reload();
    this.#loaded.clear();
  }

  /** The hunks of that version of the file kept out (none for another version). */
  get(at: KeptOutFile): ReadonlySet<number> {
    const entry = this.#marks(at.sessionId).get(at.file);
    return new Set(entry?.version === at.version ? entry.hunks : []);
  }

  /** Whether any hunk of the session's files is kept out. */
  has(sessionId: string): boolean {
    return this.#marks(sessionId).size > 0;
  }

  /** Keeps `hunks` out too; resolves once stored, to those that were not kept out before. */
  async add(at: KeptOutFile, hunks: readonly number[]): Promise<number[]> {
    const kept = this.get(at);
    const added = [...new Set(hunks)].filter((k) => isNonNegativeInteger(k) && !kept.has(k));
    if (added.length === 0) return [];
    await this.#set(at, [...kept, ...added]);
    return added;
  }

  /** No longer keeps `hunks` out (accepted, or the reject undone); resolves once stored. */
  async remove(at: KeptOutFile, hunks: readonly number[]): Promise<boolean> {
    const kept = this.get(at);
    if (!hunks.some((k) => kept.has(k))) return false;
    await this.#set(
      at,
      [...kept].filter((k) => !hunks.includes(k)),
    );
    return true;
  }

  /** Forgets a session's marks (it was removed), or every session's (Den reset). */
  async forget(sessionId?: string): Promise<void> {
    const ids =
      sessionId === undefined ? [...new Set([...this.#index.sessions, ...this.#loaded.keys()])] : [sessionId];
    for (const id of ids) {
      if (!this.#index.has(id) && !this.#loaded.get(id)?.size) continue;
      this.#loaded.set(id, new Map());
      await this.#store(id, new Map());
      this.#changed.fire(id);
    }
  }

  dispose(): void {
    this.#changed.dispose();
  }

  /** Stores the file's marks for this version (replacing another version's), or drops them. */
  async #set(at: KeptOutFile, hunks: number[]): Promise<void> {
    const marks = this.#marks(at.sessionId);
    marks.delete(at.file);
    if (hunks.length > 0) {
      marks.set(at.file, {
        version: at.version,
        hunks: hunks.sort((a, b) => a - b).slice(0, this.#maxHunks),
      });
    }
    for (const file of [...marks.keys()].slice(0, Math.max(0, marks.size - this.#maxFiles)))
      marks.delete(file);
    await this.#store(at.sessionId, marks);
    this.#changed.fire(at.sessionId);
  }

  #marks(sessionId: string): Marks {
    let marks = this.#loaded.get(sessionId);
    if (!marks) {
      marks = parseMarks(this.#index.read(sessionId), this.#maxFiles, this.#maxHunks);
      this.#loaded.set(sessionId, marks);
    }
    return marks;
  }

  /** Stores a session's marks (none: its key is removed), dropping the oldest sessions' past the bound. */
  #store(sessionId: string, marks: Marks): Promise<void> {
    const value = marks.size ? [...marks].map(([file, e]) => [file, e.version, [...e.hunks]]) : undefined;
    const { dropped, written } = this.#index.store(sessionId, value);
    for (const id of dropped) this.#loaded.delete(id);
    return written;
  }
}

/** Stored marks (`[file, version, hunks][]`) as a map, bounded; anything malformed is left out. */
function parseMarks(stored: unknown, maxFiles: number, maxHunks: number): Marks {
  const marks: Marks = new Map();
  if (!Array.isArray(stored)) return marks;
  for (const entry of stored.slice(-maxFiles)) {
    if (!Array.isArray(entry) || entry.length !== 3) continue;
    const [file, version, hunks] = entry as unknown[];
    if (typeof file !== 'string' || typeof version !== 'string' || !Array.isArray(hunks)) continue;
    const valid = [...new Set(hunks.filter(isNonNegativeInteger))].slice(0, maxHunks);
    if (!valid.length) continue;
    marks.delete(file);
    marks.set(file, { version, hunks: valid });
  }
  return marks;
}
