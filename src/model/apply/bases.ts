/**
 * A bounded local store of bases: what the agent saw of a workspace file when it was attached to a
 * turn, so that applying the agent's version later can merge three ways instead of overwriting.
 * Keyed by session and workspace-relative path. Contents are stored once per hash
 * (`<dir>/blobs/<sha256>`), whichever sessions share them; `<dir>/index.json` maps (session, path) to
 * a hash. Bounds: contents over `maxFileBytes` are recorded by hash only; above `maxBytes` in total
 * the least recently used contents are dropped (their records keep the hash); above `maxEntries`
 * the least recently used records go. Writes are atomic (temporary file, then rename).
 *
 * A cache, not a database: every operation re-reads the index, so windows sharing the folder see
 * each other's records, but two windows writing at the same moment can lose one record, and a
 * content another window evicted reads as hash only. Both degrade to what happens without a base.
 * No `vscode` import.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { contentHash, isContentHash } from '../../core/merge/hash';
import { silentLogger, type Logger } from '../../core/shared/log';
import {
  arrayOf,
  isBoolean,
  isNonNegativeInteger,
  isString,
  object,
  oneOf,
  type Infer,
} from '../../core/shared/schema';
import { writeFileAtomic } from '../shared/atomic-write';

export interface BaseStoreOptions {
  /** The folder (created when missing). */
  dir: string;
  /** Cap of the stored contents' total size (default 50 MB). */
  maxBytes?: number;
  /** Contents bigger than this are recorded by hash only (default 2 MB, at most `maxBytes`). */
  maxFileBytes?: number;
  /** Most records kept (default 5,000; the index is re-read on every call, so it stays small). */
  maxEntries?: number;
  logger?: Logger;
}

/** A base: its hash and size, and its content when it is stored. */
export interface Base {
  hash: string;
  size: number;
  content?: Uint8Array;
}

const INDEX = 'index.json';
const BLOBS = 'blobs';
const STALE_MS = 10 * 60_000;

const isEntry = object({
  session: isString,
  path: isString,
  hash: isContentHash,
  size: isNonNegativeInteger,
  /** Whether the content is in `blobs/`. */
  stored: isBoolean,
  /** Last use, on the index's own clock (a counter: no ties, no wall-clock jumps). */
  used: isNonNegativeInteger,
});
type Entry = Infer<typeof isEntry>;
const isIndex = object({ version: oneOf([1]), clock: isNonNegativeInteger, entries: arrayOf(isEntry) });

interface Index {
  clock: number;
  entries: Map<string, Entry>;
}

const keyOf = (session: string, p: string): string => JSON.stringify([session, p]);

export class BaseStore {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #maxFileBytes: number;
  readonly #maxEntries: number;
  readonly #log: Logger;
  /** Operations run one at a time, in call order. */
  #queue: Promise<unknown> = Promise.resolve();
  #swept = false;

  constructor(options: BaseStoreOptions) {
    this.#dir = options.dir;
    this.#maxBytes = Math.max(1, options.maxBytes ?? 50 * 1024 * 1024);
    this.#maxFileBytes = Math.min(this.#maxBytes, Math.max(0, options.maxFileBytes ?? 2 * 1024 * 1024));
    this.#maxEntries = Math.max(1, options.maxEntries ?? 5_000);
    this.#log = options.logger ?? silentLogger;
  }

  /** Records what the agent saw of `filePath` in `sessionId`, replacing an earlier record. */
  record(sessionId: string, filePath: string, content: Uint8Array): Promise<Base & { stored: boolean }> {
    const hash = contentHash(content);
    const size = content.byteLength;
    const fallback = { hash, size, stored: false };
    return this.#run(fallback, async (index) => {
      let stored = false;
      if (size <= this.#maxFileBytes) {
        const known = [...index.entries.values()].some((e) => e.stored && e.hash === hash);
        stored = known || (await this.#writeBlob(hash, content));
      }
      const entry: Entry = { session: sessionId, path: filePath, hash, size, stored, used: ++index.clock };
      index.entries.set(keyOf(sessionId, filePath), entry);
      this.#evict(index, hash);
      return { hash, size, stored: entry.stored };
    });
  }

  /** The base recorded for `filePath` in `sessionId`; `content` is absent when it is not stored. */
  get(sessionId: string, filePath: string): Promise<Base | undefined> {
    // A read: when the index cannot be saved (a full disk), the base found is still the answer.
    return this.#run(
      undefined,
      async (index) => {
        const entry = index.entries.get(keyOf(sessionId, filePath));
        if (!entry) return undefined;
        entry.used = ++index.clock;
        const base: Base = { hash: entry.hash, size: entry.size };
        if (!entry.stored) return base;
        const content = await this.#readBlob(entry.hash);
        if (content) return { ...base, content };
        for (const e of index.entries.values()) if (e.hash === entry.hash) e.stored = false;
        return base;
      },
      true,
    );
  }

  /** Drops every record of a session (contents other sessions share stay). */
  forget(sessionId: string): Promise<void> {
    return this.#run(undefined, async (index) => {
      for (const [key, e] of index.entries) if (e.session === sessionId) index.entries.delete(key);
    });
  }

  /** The total size of the stored contents. */
  totalBytes(): Promise<number> {
    return this.#run(0, async (index) => sum(storedBlobs(index)));
  }

  /**
   * Runs `op` on a fresh copy of the index, then saves it and removes the contents no record
   * stores any more. Once per instance, also removes files of `blobs/` that no record names.
   * Never rejects: a failure is logged and answers `fallback` (the store is a cache). A `read`
   * answers what `op` found even when the index cannot be saved after it (a full disk).
   */
  #run<T>(fallback: T, op: (index: Index) => Promise<T>, read = false): Promise<T> {
    const next = this.#queue.then(async () => {
      const index = await this.#load();
      const before = new Set(storedBlobs(index).keys());
      const result = await op(index);
      try {
        await this.#save(index);
      } catch (err) {
        if (!read) throw err;
        this.#log.warn(
          `Bases: could not save the index: ${err instanceof Error ? err.message : String(err)}`,
        );
        return result;
      }
      const after = storedBlobs(index);
      for (const hash of before) if (!after.has(hash)) await this.#removeBlob(hash);
      if (!this.#swept) {
        this.#swept = true;
        await this.#sweep(after);
      }
      return result;
    });
    const safe = next.catch((err: unknown) => {
      this.#log.warn(`Bases: ${err instanceof Error ? err.message : String(err)}`);
      return fallback;
    });
    this.#queue = safe;
    return safe;
  }

  /** Drops the least recently used records, then contents, until both bounds hold. */
  #evict(index: Index, keep: string): void {
    if (index.entries.size > this.#maxEntries) {
      const byAge = [...index.entries].sort(([, a], [, b]) => a.used - b.used);
      for (const [key] of byAge.slice(0, index.entries.size - this.#maxEntries)) index.entries.delete(key);
    }
    const blobs = storedBlobs(index);
    let total = sum(blobs);
    if (total <= this.#maxBytes) return;
    const order = [...blobs].sort(([a, x], [b, y]) => (a === keep ? 1 : b === keep ? -1 : x.used - y.used));
    const dropped = new Set<string>();
    for (const [hash, blob] of order) {
      if (total <= this.#maxBytes) break;
      dropped.add(hash);
      total -= blob.size;
    }
    for (const e of index.entries.values()) if (dropped.has(e.hash)) e.stored = false;
  }

  async #load(): Promise<Index> {
    let text: string;
    try {
      text = await fs.readFile(path.join(this.#dir, INDEX), 'utf8');
    } catch {
      return { clock: 0, entries: new Map() };
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (!isIndex(data)) {
      this.#log.warn('Bases: the index is unreadable; starting empty (contents no record names are removed)');
      this.#swept = false;
      return { clock: 0, entries: new Map() };
    }
    const entries = new Map<string, Entry>();
    for (const e of data.entries) entries.set(keyOf(e.session, e.path), e);
    return { clock: data.clock, entries };
  }

  async #save(index: Index): Promise<void> {
    const data = { version: 1, clock: index.clock, entries: [...index.entries.values()] };
    await writeFileAtomic(path.join(this.#dir, INDEX), JSON.stringify(data));
  }

  /** Writes a content under its hash; false when it could not be written. */
  async #writeBlob(hash: string, content: Uint8Array): Promise<boolean> {
    try {
      await writeFileAtomic(path.join(this.#dir, BLOBS, hash), content);
      return true;
    } catch (err) {
      this.#log.warn(`Bases: could not store a content: ${err instanceof Error ? err.message : err}`);
      return false;
    }
  }

  /** A stored content, or undefined when it is missing or no longer matches its hash. */
  async #readBlob(hash: string): Promise<Uint8Array | undefined> {
    let data: Uint8Array;
    try {
      data = await fs.readFile(path.join(this.#dir, BLOBS, hash));
    } catch {
      return undefined;
    }
    if (contentHash(data) === hash) return data;
    this.#log.warn(`Bases: content ${hash.slice(0, 12)} is damaged; dropped`);
    return undefined;
  }

  async #removeBlob(hash: string): Promise<void> {
    await fs.rm(path.join(this.#dir, BLOBS, hash), { force: true }).catch(() => undefined);
  }

  /**
   * Removes contents no record stores and temporary files left by a closed window. Files younger
   * than ten minutes stay: another window may be about to record them.
   */
  async #sweep(stored: Map<string, unknown>): Promise<void> {
    const dir = path.join(this.#dir, BLOBS);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return;
    }
    const now = Date.now();
    for (const name of names) {
      if (stored.has(name)) continue;
      const file = path.join(dir, name);
      try {
        if (now - (await fs.stat(file)).mtimeMs > STALE_MS) await fs.rm(file, { force: true });
      } catch {
        // gone already
      }
    }
  }
}

/** The stored contents: hash → size and last use (the latest of the records sharing it). */
function storedBlobs(index: Index): Map<string, { size: number; used: number }> {
  const blobs = new Map<string, { size: number; used: number }>();
  for (const e of index.entries.values()) {
    if (!e.stored) continue;
    const b = blobs.get(e.hash);
    if (!b) blobs.set(e.hash, { size: e.size, used: e.used });
    else b.used = Math.max(b.used, e.used);
  }
  return blobs;
}

function sum(blobs: Map<string, { size: number }>): number {
  let n = 0;
  for (const b of blobs.values()) n += b.size;
  return n;
}

/** A workspace file that went with a turn: its workspace-relative path and what was uploaded. */
export interface SentBase {
  path: string;
  /** The uploaded content's hash, when known: a read that differs is not what the agent saw. */
  hash?: string;
  /** The content (undefined when it cannot be read, or is too big to keep). */
  read: () => Promise<Uint8Array | undefined>;
}

/**
 * Records the bases of a turn's attachments. A file whose content no longer has the uploaded
 * hash changed after the upload: it gets no base (Apply then asks instead of merging). Never throws.
 */
export async function recordSentBases(
  bases: readonly SentBase[],
  record: (path: string, content: Uint8Array) => Promise<unknown>,
  logger?: Logger,
): Promise<number> {
  let recorded = 0;
  for (const b of bases) {
    try {
      const content = await b.read();
      if (!content || (b.hash && contentHash(content) !== b.hash)) continue;
      await record(b.path, content);
      recorded++;
    } catch (err) {
      logger?.debug(`No base for ${b.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return recorded;
}

/** A workspace file's bytes as uploaded with a turn, before `sentBases` picks one per path. */
export interface SentBytes {
  path: string;
  bytes: Uint8Array;
  /** A selection: a part of the file. */
  part: boolean;
}

/**
 * One base per workspace path, what the agent saw of it: the whole file when it was sent whole;
 * else a single selection's text (the agent saw only that part and can write back only that part:
 * the merge then puts its edit in place; docs/decisions/2026-11-26-bases-of-every-send.md); for
 * several selections of one file and no whole file, none (Apply asks).
 */
export function sentBases(sent: readonly SentBytes[]): SentBase[] {
  const byPath = new Map<string, SentBytes[]>();
  for (const s of sent) byPath.set(s.path, [...(byPath.get(s.path) ?? []), s]);
  const out: SentBase[] = [];
  for (const [p, all] of byPath) {
    const one = all.find((s) => !s.part) ?? (all.length === 1 ? all[0] : undefined);
    if (!one) continue;
    const bytes = one.bytes;
    out.push({ path: p, hash: contentHash(bytes), read: async () => bytes });
  }
  return out;
}
