/**
 * Which workspace files are the workspace copies ("counterparts") of agents' files, so that a person
 * can comment on the workspace file itself (`docs/review-and-apply.md`, "Comments that become the
 * next turn"). The index maps a workspace-relative path (as Apply maps the agent's name,
 * `safeRelativePath`) to the sessions that have a file there, and each session's file path (as the
 * `den-session:` file system names it) to its workspace path, so that asking about one workspace
 * file costs a map lookup and a look at the few sessions that have it, never a read of every session.
 *
 * Learned as Den learns files: a session host's stored or live snapshots, the Sessions list's
 * snapshots of this workspace's sessions, a transcript's changed files, a review's pairs. Deleted
 * agent files (live snapshots) leave the index; a stored snapshot only adds, as in `SessionFiles`.
 *
 * **Several sessions at one path:** a new thread belongs to the most recently active of them: the
 * latest of the session's `updatedAt` as listed and the last time Den learned its files here (a
 * followed turn's snapshots, an opened panel's transcript) or showed them in a review (ties: the
 * one learned last). The thread's label names the session.
 *
 * Kept in a `Memento`-shaped storage (the workspace state) so it survives a reload: bounded (the
 * least recently active sessions go first, and per session the paths learned longest ago), read back
 * through a schema on first use, written a moment after changes settle. No `vscode` import.
 */
import type { FileInfo } from '../../core/client/types';
import { safeRelativePath } from '../../core/paths/path-safety';
import {
  arrayOf,
  isFiniteNumber,
  isString,
  isUnknown,
  object,
  optional,
  refine,
  stringOfLength,
  union,
} from '../../core/shared/schema';
import { normalizeFilePath, sessionFilePath, type FilesUpdate } from '../session-files/file-index';
import { RecentMap } from '../../core/shared/recent-map';
import { systemClock, type Clock } from '../shared/clock';
import { Emitter, type Listen } from '../../core/shared/emitter';

/** Where the index is kept: VS Code's `Memento` has this shape. */
export interface CounterpartStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface CounterpartOptions {
  /** Sessions kept (the least recently active go first; default 100). */
  maxSessions?: number;
  /** Files kept per session (those learned longest ago go first; default 2,000). */
  maxFilesPerSession?: number;
  /** Files kept in all (default 4,000). */
  maxFiles?: number;
  /** Wall-clock time in Unix ms (default `Date.now`): activity is compared with the service's `updatedAt`. */
  now?: () => number;
  /** How long changes settle before they are written (default 1 s). */
  saveDelayMs?: number;
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

/** One file of an agent that Den learned: its path in the session and the name the agent gave it. */
export interface LearnedFile {
  /** As the `den-session:` file system names it. */
  path: string;
  /** As the agent names it (`/workspace/src/a.ts`), mapped to the workspace; default: `path`. */
  name?: string;
}

/** The agent's file a workspace file is the copy of. */
export interface Counterpart {
  sessionId: string;
  /** The session's path of the file (`den-session:`). */
  path: string;
  /** The other sessions with a file at this workspace path, most recently active first. */
  others: string[];
}

/** The workspace state key. */
export const COUNTERPARTS_KEY = 'den.reviewCounterparts';
const VERSION = 1;
const MAX_ID_CHARS = 128;

/** A stored file: its session path, or `[path, workspace path]` when they differ. */
const isStoredFile = union(
  isString,
  refine(arrayOf(isString), (a) => a.length === 2),
);
/** A stored session; its files are checked one by one (a bad one is left out, not the session). */
const isStoredSession = object({
  id: refine(stringOfLength(MAX_ID_CHARS), (id) => id !== ''),
  activeAt: isFiniteNumber,
  title: optional(isString),
  files: arrayOf(isUnknown),
});
/** Sessions are checked one by one too. */
const isStored = object({ v: isFiniteNumber, sessions: arrayOf(isUnknown) });

interface Entry {
  activeAt: number;
  title?: string;
  /** Session path → workspace path, learned longest ago first. */
  files: Map<string, string>;
}

export class Counterparts {
  #sessions: Map<string, Entry> | undefined;
  /**
   * The listings learned (`updatedAt` and title by session; kept apart from the sessions, as a session
   * the bounds dropped is not learned again from the same listing).
   */
  readonly #listed = new RecentMap<string, string>(2_000);
  /** Workspace path → session → the session's path there. */
  readonly #byWorkspace = new Map<string, Map<string, string>>();
  #fileCount = 0;
  #dirty = false;
  /** Paths were added or removed since the last change event. */
  #moved = false;
  #timer: unknown;
  readonly #didChange = new Emitter<void>();
  /** Workspace paths came or went (not fired for activity or titles alone). */
  readonly onDidChange: Listen<void> = this.#didChange.event;
  readonly #storage: CounterpartStorage;
  readonly #maxSessions: number;
  readonly #maxPerSession: number;
  readonly #maxFiles: number;
  readonly #now: () => number;
  readonly #saveDelayMs: number;
  readonly #clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;

  constructor(storage: CounterpartStorage, options: CounterpartOptions = {}) {
    this.#storage = storage;
    this.#maxSessions = options.maxSessions ?? 100;
    this.#maxPerSession = options.maxFilesPerSession ?? 2_000;
    this.#maxFiles = Math.max(options.maxFiles ?? 4_000, this.#maxPerSession);
    this.#now = options.now ?? Date.now;
    this.#saveDelayMs = options.saveDelayMs ?? 1_000;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * The agent's file a workspace path is the copy of: of the sessions with a file there, the most
   * recently active one's; undefined when none.
   */
  at(workspacePath: string): Counterpart | undefined {
    this.#load();
    const here = this.#byWorkspace.get(workspaceKey(workspacePath));
    if (!here?.size) return undefined;
    const ranked = [...here.keys()].reverse().sort((a, b) => this.#activeAt(b) - this.#activeAt(a));
    const [sessionId, ...others] = ranked;
    return { sessionId, path: here.get(sessionId)!, others };
  }

  /** Whether the index holds a session. */
  has(sessionId: string): boolean {
    return this.#load().has(sessionId);
  }

  /** The title last learned for a session (labels before the Sessions list is loaded). */
  titleOf(sessionId: string): string | undefined {
    return this.#load().get(sessionId)?.title;
  }

  /** Files known: sessions, files (tests, diagnostics). */
  get size(): { sessions: number; files: number } {
    return { sessions: this.#load().size, files: this.#fileCount };
  }

  /**
   * Learns files of a session. `activeAt`: when the session was last active (default: now);
   * never moves its activity back.
   */
  learn(
    sessionId: string,
    files: Iterable<LearnedFile>,
    at: { activeAt?: number; title?: string } = {},
  ): void {
    if (!sessionId || sessionId.length > MAX_ID_CHARS) return;
    const mapped: [string, string][] = [];
    for (const f of files) {
      const path = sessionFilePath(sessionId, f.path);
      const safe = path ? safeRelativePath(f.name || path) : undefined;
      if (safe?.ok) mapped.push([path, safe.path]);
    }
    // A session with no file a workspace could hold is not worth a place.
    if (!mapped.length && !this.#load().has(sessionId)) return;
    const entry = this.#entry(sessionId, at.activeAt ?? this.#now(), at.title);
    for (const [path, workspacePath] of mapped) {
      if (entry.files.get(path) !== workspacePath) this.#add(sessionId, entry, path, workspacePath);
    }
    this.#bound(sessionId);
    this.#changed();
  }

  /** Learns a session's `fileSnapshot` (keyed as the service keys it). */
  learnSnapshot(
    sessionId: string,
    snapshot: Record<string, FileInfo>,
    at: { activeAt?: number; title?: string } = {},
  ): void {
    this.learn(sessionId, snapshotFiles(sessionId, snapshot), at);
  }

  /**
   * Learns a listed session (the Sessions list's summary) unless the same listing (`updatedAt` and
   * title) was learned already, so a list redraw costs a lookup per session.
   */
  learnListed(s: {
    sessionId: string;
    updatedAt: number;
    title?: string;
    fileSnapshot: Record<string, FileInfo>;
  }): void {
    const listing = `${s.updatedAt}\n${s.title ?? ''}`;
    if (this.#listed.get(s.sessionId) === listing) return;
    this.#listed.set(s.sessionId, listing);
    this.learnSnapshot(s.sessionId, s.fileSnapshot, { activeAt: s.updatedAt, title: s.title || undefined });
  }

  /** What a session host learned: a live snapshot's changes (deletions included) or a stored snapshot. */
  learnUpdate(sessionId: string, update: FilesUpdate): void {
    if (update.kind === 'stored') {
      this.learnSnapshot(sessionId, update.files);
      return;
    }
    // Deleted first (a live snapshot never names a path both ways), then one change for both.
    const entry = this.#load().get(sessionId);
    if (entry)
      for (const raw of update.deleted) this.#drop(sessionId, entry, sessionFilePath(sessionId, raw));
    this.learn(
      sessionId,
      Object.entries(update.updated).map(([path, f]) => ({ path, name: f.name || path })),
    );
  }

  /** A review showed `workspacePath` beside the session's file `path`: learned, exactly, as active now. */
  note(sessionId: string, path: string, workspacePath: string): void {
    const p = normalizeFilePath(path);
    const w = normalizeFilePath(workspacePath);
    if (!p || !w || !sessionId || sessionId.length > MAX_ID_CHARS) return;
    const entry = this.#entry(sessionId, this.#now());
    if (entry.files.get(p) !== w) this.#add(sessionId, entry, p, w);
    this.#bound(sessionId);
    this.#changed();
  }

  /** Files the agent deleted. */
  remove(sessionId: string, paths: readonly string[]): void {
    const entry = this.#load().get(sessionId);
    if (!entry || !paths.length) return;
    let removed = false;
    for (const raw of paths)
      removed = this.#drop(sessionId, entry, sessionFilePath(sessionId, raw)) || removed;
    if (removed) this.#changed();
  }

  /** Forgets a session (it was deleted), or every session. */
  forget(sessionId?: string): void {
    const sessions = this.#load();
    if (sessionId === undefined) {
      if (!sessions.size) return;
      sessions.clear();
      this.#listed.clear();
      this.#byWorkspace.clear();
      this.#fileCount = 0;
      this.#dirty = true;
      this.#moved = true;
    } else {
      this.#listed.delete(sessionId);
      const entry = sessions.get(sessionId);
      if (!entry) return;
      this.#dropSession(sessionId, entry);
    }
    this.#changed();
  }

  /** Writes what changed now (a pending write, tests, before a reload). */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#dirty || !this.#sessions) return;
    this.#dirty = false;
    await this.#storage.update(COUNTERPARTS_KEY, this.#stored());
  }

  dispose(): void {
    void this.flush();
    this.#didChange.dispose();
  }

  /** The sessions, read from storage on first use. */
  #load(): Map<string, Entry> {
    if (this.#sessions) return this.#sessions;
    const sessions = new Map<string, Entry>();
    this.#sessions = sessions;
    const stored = this.#storage.get(COUNTERPARTS_KEY);
    if (!isStored(stored) || stored.v !== VERSION) return sessions;
    // Least recently active first, so that bounds drop those.
    const read = stored.sessions.filter(isStoredSession).sort((a, b) => a.activeAt - b.activeAt);
    for (const s of read) {
      if (sessions.has(s.id)) continue;
      const entry: Entry = { activeAt: s.activeAt, files: new Map() };
      if (s.title) entry.title = s.title;
      sessions.set(s.id, entry);
      for (const f of s.files.filter(isStoredFile)) {
        const [path, workspacePath] = typeof f === 'string' ? [f, f] : f;
        if (isNormal(path) && isNormal(workspacePath)) this.#add(s.id, entry, path, workspacePath);
      }
      if (!entry.files.size) sessions.delete(s.id);
      else this.#bound(s.id);
    }
    this.#dirty = false;
    this.#moved = false;
    return sessions;
  }

  #stored(): unknown {
    const sessions = [...this.#load()].map(([id, e]) => ({
      id,
      activeAt: e.activeAt,
      ...(e.title ? { title: e.title } : {}),
      files: [...e.files].map(([p, w]) => (p === w ? p : [p, w])),
    }));
    return { v: VERSION, sessions };
  }

  #entry(sessionId: string, activeAt: number, title?: string): Entry {
    const sessions = this.#load();
    let entry = sessions.get(sessionId);
    if (!entry) {
      entry = { activeAt, files: new Map() };
      sessions.set(sessionId, entry);
      this.#dirty = true;
    } else if (activeAt > entry.activeAt) {
      entry.activeAt = activeAt;
      this.#dirty = true;
    }
    if (title && entry.title !== title) {
      entry.title = title;
      this.#dirty = true;
    }
    return entry;
  }

  #activeAt(sessionId: string): number {
    return this.#sessions?.get(sessionId)?.activeAt ?? 0;
  }

  #add(sessionId: string, entry: Entry, path: string, workspacePath: string): void {
    this.#drop(sessionId, entry, path);
    entry.files.set(path, workspacePath);
    this.#fileCount++;
    const key = workspaceKey(workspacePath);
    let here = this.#byWorkspace.get(key);
    if (!here) this.#byWorkspace.set(key, (here = new Map()));
    here.delete(sessionId);
    here.set(sessionId, path);
    this.#dirty = true;
    this.#moved = true;
  }

  /** Removes one file of a session; true when it was there. */
  #drop(sessionId: string, entry: Entry, path: string): boolean {
    const workspacePath = entry.files.get(path);
    if (workspacePath === undefined) return false;
    entry.files.delete(path);
    this.#fileCount--;
    const key = workspaceKey(workspacePath);
    const here = this.#byWorkspace.get(key);
    if (here?.get(sessionId) === path) {
      // Another of the session's paths may map to the same workspace file: it stands there now.
      const other = [...entry.files].reverse().find(([, w]) => workspaceKey(w) === key);
      if (other) here.set(sessionId, other[0]);
      else here.delete(sessionId);
      if (!here.size) this.#byWorkspace.delete(key);
    }
    this.#dirty = true;
    this.#moved = true;
    return true;
  }

  #dropSession(sessionId: string, entry: Entry): void {
    for (const path of [...entry.files.keys()]) this.#drop(sessionId, entry, path);
    this.#sessions?.delete(sessionId);
    this.#dirty = true;
  }

  /** Keeps the bounds: `learned`'s oldest paths past its share, then the least active sessions. */
  #bound(learned: string): void {
    const sessions = this.#load();
    const entry = sessions.get(learned);
    if (entry) {
      for (const path of entry.files.keys()) {
        if (entry.files.size <= this.#maxPerSession) break;
        this.#drop(learned, entry, path);
      }
    }
    while (sessions.size > this.#maxSessions || this.#fileCount > this.#maxFiles) {
      let least: [string, Entry] | undefined;
      for (const s of sessions) if (!least || s[1].activeAt < least[1].activeAt) least = s;
      if (!least) break;
      this.#dropSession(least[0], least[1]);
    }
  }

  #changed(): void {
    if (this.#moved) {
      this.#moved = false;
      this.#didChange.fire();
    }
    if (!this.#dirty || this.#timer !== undefined) return;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#saveDelayMs);
  }
}

/** A snapshot's files as learned: each file's session path and the name the agent gave it. */
function snapshotFiles(sessionId: string, snapshot: Record<string, FileInfo>): LearnedFile[] {
  return Object.entries(snapshot).map(([key, f]) => ({
    path: sessionFilePath(sessionId, key, f),
    name: f.name || key,
  }));
}

/** How workspace paths are compared: one Unicode form (a file name typed on macOS is NFD). */
function workspaceKey(workspacePath: string): string {
  return workspacePath.normalize('NFC');
}

/** A stored path must be one `normalizeFilePath` leaves as it is: relative, no `.` or `..`. */
function isNormal(path: string): boolean {
  return path !== '' && path.length <= 1_024 && normalizeFilePath(path) === path;
}
