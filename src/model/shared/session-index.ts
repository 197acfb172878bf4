/**
 * Per-session values in a `Memento`-shaped storage (the extension's `globalState` or
 * `workspaceState`), with an index of the sessions that have one, least recently stored first, so
 * the number of sessions is bounded: storing one more drops the oldest. Writes go one after
 * another, so an older write never lands last. Used by reviewed marks and kept-out hunks. No
 * `vscode` import.
 */

/** Where values are kept: VS Code's `Memento` has this shape. */
export interface SessionStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export class SessionIndex {
  readonly #storage: SessionStorage;
  readonly #indexKey: string;
  readonly #keyOf: (sessionId: string) => string;
  readonly #max: number;
  /** Sessions with a value, least recently stored first. */
  #sessions: string[] = [];
  #writing: Promise<void> = Promise.resolve();

  constructor(storage: SessionStorage, prefix: string, maxSessions: number) {
    this.#storage = storage;
    this.#indexKey = `${prefix}.sessions`;
    this.#keyOf = (id) => `${prefix}.${id}`;
    this.#max = maxSessions;
    this.reload();
  }

  /** Reads the index afresh from the storage (anything but session ids is left out). */
  reload(): void {
    const index = this.#storage.get(this.#indexKey);
    this.#sessions = Array.isArray(index)
      ? [...new Set(index.filter((id): id is string => typeof id === 'string'))]
      : [];
  }

  /** Whether the session has a stored value. */
  has(sessionId: string): boolean {
    return this.#sessions.includes(sessionId);
  }

  get sessions(): readonly string[] {
    return this.#sessions;
  }

  /** The session's stored value (unchecked: the caller parses it); undefined when it has none. */
  read(sessionId: string): unknown {
    return this.has(sessionId) ? this.#storage.get(this.#keyOf(sessionId)) : undefined;
  }

  /**
   * Stores a session's value (undefined: removes it) and the index, dropping the sessions stored
   * least recently past the bound: `dropped` names them, `written` settles once all is stored.
   */
  store(sessionId: string, value: unknown): { dropped: string[]; written: Promise<void> } {
    const at = this.#sessions.indexOf(sessionId);
    if (at >= 0) this.#sessions.splice(at, 1);
    if (value !== undefined) this.#sessions.push(sessionId);
    const dropped = this.#sessions.splice(0, Math.max(0, this.#sessions.length - this.#max));
    const index = [...this.#sessions];
    const write = async (): Promise<void> => {
      await this.#storage.update(this.#keyOf(sessionId), value);
      for (const id of dropped) await this.#storage.update(this.#keyOf(id), undefined);
      await this.#storage.update(this.#indexKey, index);
    };
    this.#writing = this.#writing.then(write, write);
    return { dropped, written: this.#writing };
  }
}
