/**
 * Bytes kept by key and version, least recently used first out, within a total size. An entry of
 * an older version is a miss (and is dropped); an entry larger than the bound is not kept. No
 * `vscode` import.
 */
export class ByteCache {
  /** Insertion order is use order: the first entry is the least recently used. */
  readonly #entries = new Map<string, { version: string; bytes: Uint8Array }>();
  #total = 0;

  constructor(readonly maxBytes: number) {}

  /** The bytes kept for `key` at `version`, marked as just used. */
  get(key: string, version: string): Uint8Array | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    this.#entries.delete(key);
    if (e.version !== version) {
      this.#total -= e.bytes.length;
      return undefined;
    }
    this.#entries.set(key, e);
    return e.bytes;
  }

  set(key: string, version: string, bytes: Uint8Array): void {
    this.delete(key);
    if (bytes.length > this.maxBytes) return;
    this.#entries.set(key, { version, bytes });
    this.#total += bytes.length;
    for (const [k, e] of this.#entries) {
      if (this.#total <= this.maxBytes) break;
      this.#entries.delete(k);
      this.#total -= e.bytes.length;
    }
  }

  delete(key: string): void {
    const e = this.#entries.get(key);
    if (!e) return;
    this.#entries.delete(key);
    this.#total -= e.bytes.length;
  }

  /** Drops every key `matches` accepts (e.g. a session's). */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const k of [...this.#entries.keys()]) if (matches(k)) this.delete(k);
  }

  clear(): void {
    this.#entries.clear();
    this.#total = 0;
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.#total;
  }

  get count(): number {
    return this.#entries.size;
  }
}
