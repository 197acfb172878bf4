/**
 * A bounded local cache of transcripts, one file per session (`<dir>/<sessionId>.json`, written with
 * `serializeTranscript`), so a panel paints at once on reopen and after a window reload. Writes are
 * debounced; the folder's total size is capped by evicting the least recently used files (a file's
 * mtime is its last use: reads touch it). No index is kept anywhere else. No `vscode` import.
 *
 * The last few transcripts of sessions whose host closed are also kept in memory (`keep` on
 * `write`): reopening one (clicking back through sessions in the preview) takes it from there, with
 * no file read or parse. The object is handed over, not copied: the host that closed no longer
 * changes it, and a read takes it out, so no two hosts ever share one.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Transcript } from '../../core/transcript/model';
import { deserializeTranscript, serializeTranscript } from '../../core/transcript/serialize';
import { silentLogger, type Logger } from '../../core/shared/log';
import { systemClock, type Clock } from '../shared/clock';

export interface TranscriptCacheOptions {
  /** The folder (created when missing). */
  dir: string;
  /** Cap of the folder's total size (default 50 MB). A transcript bigger than this is not cached. */
  maxBytes?: number;
  /** Quiet time before a scheduled write (default 1,500 ms). */
  debounceMs?: number;
  /** Longest a scheduled write waits while changes keep coming (default 10,000 ms). */
  maxWaitMs?: number;
  logger?: Logger;
  clock?: Clock;
  /** Most transcripts kept in memory after their host closed (default 4; 0: none). */
  keepInMemory?: number;
}

interface Entry {
  size: number;
  usedAt: number;
}

interface Scheduled {
  get: () => Transcript;
  timer: unknown;
  firstAt: number;
  lastAt: number;
}

const SUFFIX = '.json';
const TMP_SUFFIX = '.tmp';
const STALE_TEMP_MS = 10 * 60_000;
/** Most characters of serialized transcript kept in memory in all (bounds the extension host's heap). */
const MAX_KEPT_CHARS = 8_000_000;

export class TranscriptCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #log: Logger;
  readonly #clock: Clock;
  #entries?: Map<string, Entry>;
  readonly #scheduled = new Map<string, Scheduled>();
  /** Writes in flight, chained per session so an older snapshot never lands after a newer one. */
  readonly #writing = new Map<string, Promise<void>>();
  /** Transcripts of closed hosts, least recently kept first, with their serialized length. */
  readonly #kept = new Map<string, { t: Transcript; chars: number }>();
  readonly #keepMax: number;

  constructor(options: TranscriptCacheOptions) {
    this.#dir = options.dir;
    this.#maxBytes = Math.max(1, options.maxBytes ?? 50 * 1024 * 1024);
    this.#debounceMs = Math.max(0, options.debounceMs ?? 1_500);
    this.#maxWaitMs = Math.max(this.#debounceMs, options.maxWaitMs ?? 10_000);
    this.#log = options.logger ?? silentLogger;
    this.#clock = options.clock ?? systemClock;
    this.#keepMax = Math.max(0, options.keepInMemory ?? 4);
  }

  /**
   * The cached transcript of a session; undefined when missing, unreadable or not this version.
   * Reading marks it used (evicted last) unless `touch` is false (the search index reads so). A
   * transcript kept in memory is taken out and returned (not to a `touch: false` read, which gets a
   * copy from the file).
   */
  async read(sessionId: string, options: { touch?: boolean } = {}): Promise<Transcript | undefined> {
    const file = this.#fileOf(sessionId);
    if (!file) return undefined;
    const kept = options.touch === false ? undefined : this.#kept.get(sessionId);
    if (kept) {
      // No touch: its file was written when it was kept, among the newest for the eviction.
      this.#kept.delete(sessionId);
      return kept.t;
    }
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    const t = deserializeTranscript(text);
    if (!t || t.sessionId !== sessionId) {
      this.#log.info(`Transcript cache: ignoring an unreadable file for session ${sessionId}`);
      await this.remove(sessionId);
      return undefined;
    }
    if (options.touch === false) return t;
    const now = new Date();
    await fs.utimes(file, now, now).catch(() => undefined);
    this.#entries?.set(path.basename(file), { size: Buffer.byteLength(text), usedAt: now.getTime() });
    return t;
  }

  /**
   * Writes a transcript after `debounceMs` of quiet (at most `maxWaitMs` after the first change);
   * `get` is called then, so the latest state is written.
   */
  schedule(sessionId: string, get: () => Transcript): void {
    const now = this.#clock.now();
    const known = this.#scheduled.get(sessionId);
    if (known) {
      // Called for every event: only noted here, the timer decides (no timer churn per event).
      known.get = get;
      known.lastAt = now;
      return;
    }
    const entry: Scheduled = { get, firstAt: now, lastAt: now, timer: undefined };
    this.#scheduled.set(sessionId, entry);
    this.#arm(sessionId, entry, this.#debounceMs);
  }

  #arm(sessionId: string, entry: Scheduled, delay: number): void {
    entry.timer = this.#clock.setTimeout(() => {
      if (this.#scheduled.get(sessionId) !== entry) return;
      const now = this.#clock.now();
      const quiet = now - entry.lastAt;
      const waited = now - entry.firstAt;
      if (quiet >= this.#debounceMs || waited >= this.#maxWaitMs) void this.#writeScheduled(sessionId);
      else this.#arm(sessionId, entry, Math.min(this.#debounceMs - quiet, this.#maxWaitMs - waited));
    }, delay);
  }

  /** Writes every scheduled transcript now. */
  async flush(): Promise<void> {
    await Promise.all([...this.#scheduled.keys()].map((id) => this.#writeScheduled(id)));
    await Promise.all([...this.#writing.values()]);
  }

  /**
   * Writes a transcript now (serialized at once). `keep`: its host closed and hands it over, so it
   * is also kept in memory for the next read (the newest `keepInMemory`, within a size cap).
   */
  write(sessionId: string, t: Transcript, options: { keep?: boolean } = {}): Promise<void> {
    const file = this.#fileOf(sessionId);
    if (!file) return Promise.resolve();
    const text = serializeTranscript(t);
    // A write of another transcript (a host that lives again) makes the kept one stale; the closed
    // host's own scheduled write, landing after its close, does not.
    if (this.#kept.get(sessionId)?.t !== t) this.#kept.delete(sessionId);
    if (options.keep && text.length <= this.#maxBytes) this.#keep(sessionId, t, text.length);
    const prev = this.#writing.get(sessionId) ?? Promise.resolve();
    const next = prev.then(() => this.#writeFile(file, text));
    this.#writing.set(sessionId, next);
    void next.finally(() => {
      if (this.#writing.get(sessionId) === next) this.#writing.delete(sessionId);
    });
    return next;
  }

  async remove(sessionId: string): Promise<void> {
    this.#kept.delete(sessionId);
    const file = this.#fileOf(sessionId);
    if (!file) return;
    this.#entries?.delete(path.basename(file));
    await fs.rm(file, { force: true }).catch(() => undefined);
  }

  /** The sessions cached, as the folder holds them now, each with its last write or use (Unix ms). */
  async list(): Promise<{ sessionId: string; usedAt: number }[]> {
    this.#entries = undefined;
    const out: { sessionId: string; usedAt: number }[] = [];
    for (const [name, e] of await this.#scan()) {
      try {
        out.push({ sessionId: decodeURIComponent(name.slice(0, -SUFFIX.length)), usedAt: e.usedAt });
      } catch {
        // not a name this cache wrote
      }
    }
    return out;
  }

  /** Total bytes of the cached files, as last seen. */
  async totalBytes(): Promise<number> {
    const entries = await this.#scan();
    let n = 0;
    for (const e of entries.values()) n += e.size;
    return n;
  }

  /** Stops the timers, writing what was scheduled; forgets what was kept in memory. */
  dispose(): Promise<void> {
    this.#kept.clear();
    return this.flush();
  }

  /** The sessions kept in memory, least recently kept first (for tests). */
  get keptInMemory(): string[] {
    return [...this.#kept.keys()];
  }

  #keep(sessionId: string, t: Transcript, chars: number): void {
    if (this.#keepMax === 0) return;
    // Kept again: the newest (a Map keeps a key's first place on set).
    this.#kept.delete(sessionId);
    this.#kept.set(sessionId, { t, chars });
    let total = 0;
    for (const e of this.#kept.values()) total += e.chars;
    for (const [id, e] of this.#kept) {
      if (this.#kept.size <= this.#keepMax && total <= MAX_KEPT_CHARS) break;
      this.#kept.delete(id);
      total -= e.chars;
    }
  }

  async #writeScheduled(sessionId: string): Promise<void> {
    const s = this.#scheduled.get(sessionId);
    if (!s) return;
    this.#scheduled.delete(sessionId);
    this.#clock.clearTimeout(s.timer);
    let t: Transcript;
    try {
      t = s.get();
    } catch {
      return;
    }
    await this.write(sessionId, t);
  }

  async #writeFile(file: string, text: string): Promise<void> {
    const size = Buffer.byteLength(text);
    const name = path.basename(file);
    if (size > this.#maxBytes) {
      this.#log.info(`Transcript cache: ${name} is ${size} bytes, over the cap; not cached`);
      await fs.rm(file, { force: true }).catch(() => undefined);
      this.#entries?.delete(name);
      return;
    }
    const tmp = path.join(
      this.#dir,
      `.${name}.${process.pid}.${randomBytes(4).toString('hex')}${TMP_SUFFIX}`,
    );
    try {
      await fs.mkdir(this.#dir, { recursive: true });
      await fs.writeFile(tmp, text, 'utf8');
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      this.#log.warn(
        `Transcript cache: could not write ${name}: ${err instanceof Error ? err.message : err}`,
      );
      return;
    }
    const entries = await this.#scan();
    entries.set(name, { size, usedAt: Date.now() });
    await this.#evict(name);
  }

  /** Drops least recently used files until the total fits; the file just written goes last. */
  async #evict(keep: string): Promise<void> {
    let entries = this.#entries ?? (await this.#scan());
    let total = sum(entries);
    if (total <= this.#maxBytes) return;
    // Other windows share the folder: look at what is really there before deleting anything.
    this.#entries = undefined;
    entries = await this.#scan();
    total = sum(entries);
    const order = [...entries].sort(([a, x], [b, y]) =>
      a === keep ? 1 : b === keep ? -1 : x.usedAt - y.usedAt,
    );
    for (const [name, e] of order) {
      if (total <= this.#maxBytes) break;
      await fs.rm(path.join(this.#dir, name), { force: true }).catch(() => undefined);
      entries.delete(name);
      total -= e.size;
    }
  }

  async #scan(): Promise<Map<string, Entry>> {
    if (this.#entries) return this.#entries;
    const entries = new Map<string, Entry>();
    let names: string[] = [];
    try {
      names = await fs.readdir(this.#dir);
    } catch {
      // no folder yet: nothing cached
    }
    for (const name of names) {
      if (name.endsWith(TMP_SUFFIX)) await this.#dropStaleTemp(name);
      if (!name.endsWith(SUFFIX) || name.startsWith('.')) continue;
      try {
        const st = await fs.stat(path.join(this.#dir, name));
        if (st.isFile()) entries.set(name, { size: st.size, usedAt: st.mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
    this.#entries = entries;
    return entries;
  }

  /** A temporary file left by a window that closed mid-write. */
  async #dropStaleTemp(name: string): Promise<void> {
    const file = path.join(this.#dir, name);
    try {
      if (Date.now() - (await fs.stat(file)).mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
    } catch {
      // gone already
    }
  }

  #fileOf(sessionId: string): string | undefined {
    if (!sessionId) return undefined;
    // Session ids are UUIDs; anything else is encoded so it stays one file inside the folder.
    const name = encodeURIComponent(sessionId).replace(/^\./, '%2E');
    return path.join(this.#dir, name + SUFFIX);
  }
}

function sum(entries: Map<string, Entry>): number {
  let n = 0;
  for (const e of entries.values()) n += e.size;
  return n;
}
