/** Where `RecentIds` keeps its list: VS Code's `Memento` (`workspaceState`) has this shape. */
export interface IdStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Ids longer than this are not recorded (the service's ids are UUIDs). */
const MAX_ID_CHARS = 128;

/**
 * A set of session ids kept under one key, bounded: at most `maxIds` ids and `maxChars` characters
 * of JSON, the least recently added dropped first. Sessions started from this workspace and the
 * sessions archived here are two of them, in `workspaceState`, so the storage stays small whatever
 * the history's size.
 */
export class RecentIds {
  /** In insertion order, oldest first. */
  readonly #ids = new Set<string>();
  #chars = 2;
  #newest?: string;

  readonly #storage: IdStorage;
  readonly #key: string;
  readonly #maxIds;
  readonly #maxChars;
  constructor(storage: IdStorage, key: string, maxIds = 1000, maxChars = 45_000) {
    this.#storage = storage;
    this.#key = key;
    this.#maxIds = maxIds;
    this.#maxChars = maxChars;
    const stored = storage.get(key);
    // Stored newest first, so a reader sees the most recent at the top.
    if (Array.isArray(stored)) {
      const read = [...new Set(stored.filter((id): id is string => typeof id === 'string'))];
      for (const id of read.slice(0, maxIds).reverse()) this.#insert(id);
    }
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Newest first. */
  list(): string[] {
    return [...this.#ids].reverse();
  }

  /** Records `id` as the most recent; false (and nothing stored) when it is already the most recent. */
  add(id: string): Promise<boolean> {
    if (!id || id.length > MAX_ID_CHARS) return Promise.resolve(false);
    if (this.#newest === id) return Promise.resolve(false);
    this.#remove(id);
    this.#insert(id);
    return this.#save();
  }

  delete(id: string): Promise<boolean> {
    if (!this.#ids.has(id)) return Promise.resolve(false);
    this.#remove(id);
    return this.#save();
  }

  #insert(id: string): void {
    if (!id || id.length > MAX_ID_CHARS || this.#ids.has(id)) return;
    this.#ids.add(id);
    this.#newest = id;
    this.#chars += cost(id);
    for (const oldest of this.#ids) {
      if (this.#ids.size <= this.#maxIds && this.#chars <= this.#maxChars) break;
      this.#remove(oldest);
    }
  }

  #remove(id: string): void {
    if (this.#ids.delete(id)) this.#chars -= cost(id);
    if (this.#newest === id) this.#newest = [...this.#ids].pop();
  }

  async #save(): Promise<boolean> {
    await this.#storage.update(this.#key, this.list());
    return true;
  }
}

/** An id's share of the stored JSON: its quotes, its comma, and escapes counted generously. */
function cost(id: string): number {
  return JSON.stringify(id).length + 1;
}
