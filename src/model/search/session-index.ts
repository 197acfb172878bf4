/**
 * The local index behind **Search session contents**: the searchable text of every session Den has
 * cached, on this machine only (nothing is sent anywhere). Per session, two blobs in a
 * `SearchStore`: `<name>.txt`, the session's fields (`core/search/fields.ts`) joined into one
 * plain text, and `<name>.tri`, a Bloom filter of its trigrams (`session-blobs.ts`). Only the
 * filters stay in memory (8 KB a session): a query checks each session's filter and reads and scans only the texts that may hold
 * it, newest use first, until its match budget is spent. The store's total is capped in bytes,
 * least recently used sessions evicted first. Every blob is checked on read; a bad one is dropped.
 * No `vscode` import.
 */
import type { Transcript } from '../../core/transcript/model';
import { flattenTranscript, type FieldAddress, type SearchField } from '../../core/search/fields';
import { contextLine, type ContextLine } from '../../core/search/find';
import { compileQuery, MatchBudget, type MatchOptions, type QueryError } from '../../core/search/matcher';
import type { SearchStore } from './search-store';
import {
  decodeFilter,
  decodeText,
  encodeFilter,
  encodeText,
  hashSets,
  joinFields,
  mayHold,
  mayHoldSets,
  rowAt,
  trigramFilter,
  type SessionMeta,
  type SessionText,
} from './session-blobs';

/** Default cap of the index's bytes (the blobs' total). */
export const DEFAULT_SEARCH_INDEX_BYTES = 256 * 1024 * 1024;
const TEXT_SUFFIX = '.txt';
/** Texts a search reads ahead of the one it scans. */
const READ_AHEAD = 4;
/** Filters read at once when the index opens. */
const OPEN_BATCH = 32;
const FILTER_SUFFIX = '.tri';

interface Entry extends SessionMeta {
  name: string;
  bloom: Uint8Array;
  /** Bytes of both blobs. */
  bytes: number;
}

export interface SessionIndexOptions {
  store: SearchStore;
  /** Cap of the blobs' total (default `DEFAULT_SEARCH_INDEX_BYTES`). A bigger session is not kept. */
  maxBytes?: number;
  /** Unix ms (tests). */
  now?: () => number;
}

/** One match: where, and its line. */
export interface SearchHit {
  address: FieldAddress;
  /** Where the match starts in its field's text (the panel reveals that match). */
  start: number;
  line: ContextLine;
}

export interface TurnHits {
  turnId: string;
  hits: SearchHit[];
}

export interface SessionHits {
  sessionId: string;
  title?: string;
  turns: TurnHits[];
}

export interface SearchResults {
  ok: true;
  sessions: SessionHits[];
  /** Hits in all. */
  count: number;
  /** The budget ran out: more may exist. */
  capped: boolean;
}

export interface SearchLimits {
  /** Hits at most (default 200). */
  maxHits?: number;
  /**
   * Called with what is found so far while sessions are still to read, at most every
   * `partialEveryMs`: a search that reads many sessions shows its first hits (or its progress) early.
   */
  onPartial?: (partial: SearchResults, progress: SearchProgress) => void;
  /** Default 150 ms. */
  partialEveryMs?: number;
  /** A newer search made this one useless: it stops before the next session, answering what it has. */
  cancelled?: () => boolean;
  /** ms clock (tests). */
  clock?: () => number;
}

/** How far a search is: sessions read or ruled out, of all indexed. */
export interface SearchProgress {
  done: number;
  total: number;
}

function nameOf(sessionId: string): string {
  return encodeURIComponent(sessionId).replace(/^\./, '%2E');
}

export class SessionSearchIndex {
  readonly #store: SearchStore;
  #maxBytes: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #ready?: Promise<void>;
  /** Writes and removals, chained so they land in call order. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SessionIndexOptions) {
    this.#store = options.store;
    this.#maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_SEARCH_INDEX_BYTES);
    this.#now = options.now ?? Date.now;
  }

  /** The cap of the blobs' total now. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * Changes the cap (the setting changed): a smaller one evicts the least recently used sessions
   * until the index fits; sessions bigger than the cap are dropped.
   */
  setMaxBytes(maxBytes: number): Promise<void> {
    return this.#enqueue(async () => {
      await this.open();
      this.#maxBytes = Math.max(1, maxBytes);
      for (const e of [...this.#entries.values()]) {
        if (e.bytes <= this.#maxBytes) continue;
        this.#entries.delete(e.sessionId);
        await this.#dropBlobs(e.name);
      }
      await this.#evict(undefined);
    });
  }

  /** Reads the filters kept (once); drops blobs that do not read or have no partner. */
  open(): Promise<void> {
    this.#ready ??= this.#load();
    return this.#ready;
  }

  async #load(): Promise<void> {
    const names = new Set(await this.#store.list());
    const filters = [...names].filter((n) => n.endsWith(FILTER_SUFFIX));
    // Read a few at a time: the disk overlaps, memory holds at most a batch.
    for (let i = 0; i < filters.length; i += OPEN_BATCH) {
      const batch = filters.slice(i, i + OPEN_BATCH);
      const read = await Promise.all(batch.map((n) => this.#store.read(n)));
      for (let j = 0; j < batch.length; j++) await this.#openFilter(names, batch[j], read[j]);
    }
    for (const name of names) {
      if (!name.endsWith(TEXT_SUFFIX)) continue;
      const base = name.slice(0, -TEXT_SUFFIX.length);
      if (!names.has(base + FILTER_SUFFIX)) await this.#store.remove(name);
    }
  }

  async #openFilter(names: Set<string>, name: string, bytes: Uint8Array | undefined): Promise<void> {
    const base = name.slice(0, -FILTER_SUFFIX.length);
    const decoded = bytes && decodeFilter(bytes);
    if (!decoded || !names.has(base + TEXT_SUFFIX) || nameOf(decoded.meta.sessionId) !== base) {
      await this.#dropBlobs(base);
      return;
    }
    this.#entries.set(decoded.meta.sessionId, {
      ...decoded.meta,
      name: base,
      bloom: decoded.bloom,
      bytes: bytes.length + decoded.meta.textBytes,
    });
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Adds or replaces a session's fields (call again as its turns stream; callers debounce). A
   * write that fails leaves the session out of the index; it never rejects for that.
   */
  put(sessionId: string, fields: readonly SearchField[], title?: string): Promise<void> {
    return this.#enqueue(async () => {
      await this.open();
      const joined = joinFields(sessionId, fields);
      const textBytes = encodeText(joined);
      const meta: SessionMeta = { sessionId, usedAt: this.#now(), textBytes: textBytes.length };
      if (title !== undefined) meta.title = title;
      const bloom = trigramFilter(joined.text);
      const filter = encodeFilter(meta, bloom);
      const name = nameOf(sessionId);
      const bytes = filter.length + textBytes.length;
      this.#entries.delete(sessionId);
      if (bytes > this.#maxBytes) {
        await this.#dropBlobs(name);
        return;
      }
      try {
        await this.#store.write(name + TEXT_SUFFIX, textBytes);
        await this.#store.write(name + FILTER_SUFFIX, filter);
      } catch {
        // A full or read-only disk: the session is not indexed, nothing half-written stays.
        await this.#dropBlobs(name).catch(() => undefined);
        return;
      }
      this.#entries.set(sessionId, { ...meta, name, bloom, bytes });
      await this.#evict(sessionId);
    });
  }

  /** Indexes a transcript (its fields, `flattenTranscript`). */
  putTranscript(t: Transcript): Promise<void> {
    return this.put(t.sessionId, flattenTranscript(t), t.title);
  }

  /** Marks a session as just used (it is evicted last). */
  touch(sessionId: string): Promise<void> {
    return this.#enqueue(async () => {
      await this.open();
      const e = this.#entries.get(sessionId);
      if (!e) return;
      e.usedAt = this.#now();
      const meta: SessionMeta = { sessionId, usedAt: e.usedAt, textBytes: e.textBytes };
      if (e.title !== undefined) meta.title = e.title;
      await this.#store.write(e.name + FILTER_SUFFIX, encodeFilter(meta, e.bloom));
    });
  }

  remove(sessionId: string): Promise<void> {
    return this.#enqueue(async () => {
      await this.open();
      this.#entries.delete(sessionId);
      await this.#dropBlobs(nameOf(sessionId));
    });
  }

  /** Forgets every session: the store is left empty. */
  clear(): Promise<void> {
    return this.#enqueue(async () => {
      await this.open();
      this.#entries.clear();
      for (const name of await this.#store.list()) await this.#store.remove(name);
    });
  }

  /** Sessions and bytes held. */
  async stats(): Promise<{ sessions: number; bytes: number }> {
    await this.open();
    let bytes = 0;
    for (const e of this.#entries.values()) bytes += e.bytes;
    return { sessions: this.#entries.size, bytes };
  }

  /** When a session was last put or touched (Unix ms); undefined when not indexed. */
  usedAt(sessionId: string): number | undefined {
    return this.#entries.get(sessionId)?.usedAt;
  }

  has(sessionId: string): boolean {
    return this.#entries.has(sessionId);
  }

  /**
   * Hits of a query in every session indexed, most recently used sessions first, grouped by
   * session and turn, at most `maxHits`. A bad query is its error value.
   */
  async search(
    query: string,
    options: MatchOptions = {},
    limits: SearchLimits = {},
  ): Promise<SearchResults | QueryError> {
    const q = compileQuery(query, options);
    if (!q.ok) return q;
    await this.open();
    await this.#queue;
    const budget = new MatchBudget(limits.maxHits ?? 200);
    const sessions: SessionHits[] = [];
    let count = 0;
    const order = [...this.#entries.values()].sort((a, b) => b.usedAt - a.usedAt);
    const sets = hashSets(q.trigramSets);
    const clock = limits.clock ?? (() => performance.now());
    const every = limits.partialEveryMs ?? 150;
    let lastPartial = clock();
    // The filters (in memory) pick the sessions to read; their texts are read a few ahead, so the
    // reading overlaps the scanning of the one before.
    const candidates = order.filter(
      (e) => (!q.literal || mayHold(e.bloom, q.literal)) && mayHoldSets(e.bloom, sets),
    );
    const toRead = new Set(candidates);
    const reading = new Map<Entry, Promise<SessionText | undefined>>();
    let next = 0;
    for (let i = 0; i < order.length; i++) {
      const e = order[i];
      if (budget.left <= 0) {
        budget.exhausted = true;
        break;
      }
      if (limits.cancelled?.()) break;
      if (limits.onPartial && i > 0 && clock() - lastPartial >= every) {
        lastPartial = clock();
        limits.onPartial(
          { ok: true, sessions: [...sessions], count, capped: false },
          { done: i, total: order.length },
        );
      }
      if (!toRead.has(e)) continue;
      while (next < candidates.length && reading.size < READ_AHEAD) {
        const c = candidates[next++];
        const read = this.#readText(c);
        read.catch(() => undefined); // one read ahead and never awaited (the search stopped) must not go unhandled
        reading.set(c, read);
      }
      const text = await (reading.get(e) ?? this.#readText(e));
      reading.delete(e);
      if (!text) continue;
      const ranges = budget.take(q, text.text);
      if (ranges.length === 0) continue;
      const turns: TurnHits[] = [];
      let turn: TurnHits | undefined;
      for (const r of ranges) {
        const i = rowAt(text.fields, r.start);
        const row = text.fields[i];
        const fieldEnd = i + 1 < text.fields.length ? text.fields[i + 1][4] - 1 : text.text.length;
        if (r.end > fieldEnd) continue; // across two fields
        const fieldText = text.text.slice(row[4], fieldEnd);
        const address: FieldAddress = { turnId: row[0], kind: row[2], index: row[3] };
        if (row[1]) address.blockId = row[1];
        const line = contextLine(fieldText, { start: r.start - row[4], end: r.end - row[4] });
        if (turn?.turnId !== row[0]) turns.push((turn = { turnId: row[0], hits: [] }));
        turn.hits.push({ address, start: r.start - row[4], line });
        count++;
      }
      if (turns.length === 0) continue;
      const hits: SessionHits = { sessionId: e.sessionId, turns };
      if (e.title !== undefined) hits.title = e.title;
      sessions.push(hits);
    }
    return { ok: true, sessions, count, capped: budget.exhausted };
  }

  async #readText(e: Entry): Promise<SessionText | undefined> {
    const bytes = await this.#store.read(e.name + TEXT_SUFFIX);
    const value = bytes && decodeText(bytes);
    if (value && value.sessionId === e.sessionId) return value;
    // Unreadable: drop it (after the running search; the queue keeps the order).
    this.#entries.delete(e.sessionId);
    void this.#enqueue(() => this.#dropBlobs(e.name));
    return undefined;
  }

  async #evict(keep: string | undefined): Promise<void> {
    let total = 0;
    for (const e of this.#entries.values()) total += e.bytes;
    if (total <= this.#maxBytes) return;
    const order = [...this.#entries.values()]
      .filter((e) => e.sessionId !== keep)
      .sort((a, b) => a.usedAt - b.usedAt);
    for (const e of order) {
      if (total <= this.#maxBytes) break;
      this.#entries.delete(e.sessionId);
      total -= e.bytes;
      await this.#dropBlobs(e.name);
    }
  }

  async #dropBlobs(base: string): Promise<void> {
    await this.#store.remove(base + TEXT_SUFFIX);
    await this.#store.remove(base + FILTER_SUFFIX);
  }
}

/**
 * Indexes sessions one at a time (memory holds one transcript at a time): `read` gives a
 * session's transcript (e.g. the transcript cache's), undefined to skip it. Stops when `cancelled`
 * says so; `progress` after each.
 */
export async function indexSessions(
  index: SessionSearchIndex,
  sessionIds: readonly string[],
  read: (sessionId: string) => Promise<Transcript | undefined>,
  hooks: { cancelled?: () => boolean; progress?: (done: number, total: number) => void } = {},
): Promise<number> {
  let indexed = 0;
  for (let i = 0; i < sessionIds.length; i++) {
    if (hooks.cancelled?.()) break;
    const t = await read(sessionIds[i]);
    if (t) {
      await index.putTranscript(t);
      indexed++;
    }
    hooks.progress?.(i + 1, sessionIds.length);
  }
  return indexed;
}
