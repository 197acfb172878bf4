/**
 * A map that keeps at most `max` entries, the least recently used dropped first: for what Den keeps
 * of a session (its stored history, fetched again when dropped) so that opening sessions one after
 * another all day does not grow the extension host's heap with each. No `vscode` import.
 */
export class RecentMap<K, V> {
  /** Insertion order is use order: the first entry is the least recently used. */
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`RecentMap: max must be a positive integer, not ${max}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value kept for `key`, marked as just used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const v = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, v);
    return v;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Keeps `value` as the most recently used; drops the least recently used beyond `max`. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const k of this.#entries.keys()) {
      if (this.#entries.size <= this.max) break;
      this.#entries.delete(k);
    }
  }

  /** The entries, least recently used first (reading them marks none as used). */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
