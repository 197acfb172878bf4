/**
 * Feeds the counterparts' index (`model/review/counterparts.ts`) as Den learns sessions' files, so
 * that a workspace file takes comments without a review having shown it (after a reload, or opened
 * from the Explorer). Besides the session hosts' snapshots (wired in `extension.ts`) and the reviews'
 * pairs (`ReviewComments.noteCounterpart`):
 *
 * - the Sessions list's snapshots of this workspace's sessions (a turn started from here), of those
 *   the index or a thread already knows, and of those a host follows: each learned again only when
 *   listed newer;
 * - a host's transcript (an open Session panel, a followed turn): each turn's changed files, the
 *   whole transcript once, then its last turns as they change.
 *
 * No `vscode` import (unit-tested with plain events).
 */
import type { Session } from '../../core/client/types';
import type { FileChange, Turn } from '../../core/transcript/model';
import type { Counterparts, LearnedFile } from '../../model/review/counterparts';
import type { SessionsChange } from '../../model/sessions-list/sessions-model';

type Listen<T> = (listener: (e: T) => void) => { dispose(): void };

export interface CounterpartFeedDeps {
  counterparts: Counterparts;
  /** The sessions with threads (their files count as known). */
  threadSessions(): Iterable<string>;
  /** The workspace files' thread labels name sessions: drawn again when titles may have come. */
  refreshLabels(): void;
  /** The Sessions list: loaded sessions, one of them, and its changes. */
  listed(): readonly Session[];
  listedSession(sessionId: string): Session | undefined;
  onDidChangeList: Listen<SessionsChange>;
  /** Whether a turn was started in a session from this workspace (the Sessions view's This Workspace). */
  isLocal(sessionId: string): boolean;
  /** A session host's turns (undefined: no host). */
  turnsOf(sessionId: string): readonly Turn[] | undefined;
  onDidChangeTranscript: Listen<string>;
  onDidShowPanel: Listen<string>;
}

export class CounterpartFeed {
  /** Per session, how many turns of its transcript were learned, and how many files the last had. */
  readonly #turnsLearned = new Map<string, { turns: number; lastFiles: number }>();
  readonly #subscriptions: { dispose(): void }[];
  readonly #deps: CounterpartFeedDeps;

  constructor(deps: CounterpartFeedDeps) {
    this.#deps = deps;
    this.#subscriptions = [
      deps.onDidChangeList((c) => {
        if (c.kind === 'session') this.#learnListed(c.sessionId);
        else if (c.kind === 'list' || c.kind === 'settled') {
          const withThreads = new Set(deps.threadSessions());
          for (const s of deps.listed()) this.#learnListed(s.sessionId, withThreads);
          deps.refreshLabels();
        } else if (c.kind === 'removed') this.#turnsLearned.delete(c.sessionId);
      }),
      deps.onDidShowPanel((id) => {
        this.#learnListed(id);
        this.#learnTranscript(id);
      }),
      deps.onDidChangeTranscript((id) => this.#learnTranscript(id)),
    ];
  }

  #learnListed(sessionId: string, withThreads?: ReadonlySet<string>): void {
    const d = this.#deps;
    const s = d.listedSession(sessionId);
    if (!s) return;
    const known =
      d.isLocal(sessionId) ||
      d.counterparts.has(sessionId) ||
      d.turnsOf(sessionId) !== undefined ||
      (withThreads ?? new Set(d.threadSessions())).has(sessionId);
    if (known) d.counterparts.learnListed(s);
  }

  /** The turns not learned yet, and the last one learned when its files grew since. */
  #learnTranscript(sessionId: string): void {
    const turns = this.#deps.turnsOf(sessionId);
    if (!turns?.length) return;
    const seen = this.#turnsLearned.get(sessionId);
    const lastFiles = turns[turns.length - 1].files.length;
    // A turn's text streaming in changes no file: nothing to learn.
    if (seen && seen.turns === turns.length && seen.lastFiles === lastFiles) return;
    const from = seen ? Math.max(0, Math.min(turns.length, seen.turns) - 1) : 0;
    this.#turnsLearned.set(sessionId, { turns: turns.length, lastFiles });
    // A path's last change counts (deleted in one turn, written again in a later one).
    const last = new Map<string, FileChange>();
    for (const t of turns.slice(from)) for (const f of t.files) last.set(f.path, f);
    const learned: LearnedFile[] = [];
    const deleted: string[] = [];
    for (const f of last.values()) {
      if (f.change === 'deleted') deleted.push(f.path);
      else learned.push({ path: f.path, name: f.name || f.path });
    }
    if (learned.length) this.#deps.counterparts.learn(sessionId, learned);
    if (deleted.length) this.#deps.counterparts.remove(sessionId, deleted);
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
    this.#turnsLearned.clear();
  }
}
