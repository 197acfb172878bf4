/**
 * This workspace's web task runs (`POST /lam/run`), stored as files in a folder the caller gives
 * (the extension's workspace storage), never in `globalState`:
 *
 * - `runs/<id>.run.json`: one run's record: its inputs (URL, query, schema, options; never the
 *   passcode, nor the chat history), status, message, times, row and problem counts;
 * - `runs/<id>.data.json`: its result records (the `data` of the last state), when there are any;
 * - `index.json`: every record, newest first, so a list is one read. The index is a cache of the
 *   run files: when it is missing or damaged it is rebuilt from them (and files of no run go).
 *
 * Bounds: at most `maxRuns` runs and `maxBytes` of files in total; the oldest runs go first, with
 * their files; the run being written is never evicted, and data bigger than `maxBytes` on its own
 * is not kept (`dataDropped`). Writes are atomic. Calls run one at a time in call order and each
 * re-reads the index. No `vscode` import.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LamRunRequest } from '../../core/client/types';
import { silentLogger, type Logger } from '../../core/shared/log';
import { cannotWriteText, writeErrorCode } from '../../core/paths/write-error';
import { l10n } from '../../core/shared/l10n';
import {
  arrayOf,
  isBoolean,
  isFiniteNumber,
  isNonNegativeInteger,
  isRecord,
  isString,
  isUnknown,
  object,
  oneOf,
  optional,
  type Infer,
} from '../../core/shared/schema';
import { ATOMIC_TMP_SUFFIX, writeFileAtomic } from '../shared/atomic-write';

/** What a run was asked: the request without the passcode and the chat history. */
export type WebTaskInputs = Omit<LamRunRequest, 'servicePasscode' | 'chatHistory'> & { stream?: boolean };

/** Issue counts of a run's results (`core/webtasks/result-check.ts` totals). */
export interface WebTaskProblemCounts {
  missing: number;
  null: number;
  empty: number;
  wrongShape: number;
}

const isCounts = object({
  missing: isNonNegativeInteger,
  null: isNonNegativeInteger,
  empty: isNonNegativeInteger,
  wrongShape: isNonNegativeInteger,
});

const isRun = object({
  id: isString,
  inputs: object({ query: isString, appUrl: isString }),
  /** `RUNNING` until the caller records an outcome: a task status or `ERROR` / `CANCELLED`. */
  status: isString,
  message: isString,
  startedAt: isFiniteNumber,
  updatedAt: isFiniteNumber,
  finishedAt: optional(isFiniteNumber),
  rowCount: isNonNegativeInteger,
  problems: optional(isCounts),
  sessionId: optional(isString),
  livestreamUrl: optional(isString),
  /** Bytes of the run's data file (0: none). */
  dataBytes: isNonNegativeInteger,
  /** Results came but were too big to keep. */
  dataDropped: optional(isBoolean),
});

/** One stored run. */
export type WebTaskRun = Infer<typeof isRun> & { inputs: WebTaskInputs };

/** What `update` may change. `data` replaces the stored results (and sets `rowCount`). */
export interface WebTaskUpdate {
  status?: string;
  message?: string;
  finishedAt?: number;
  problems?: WebTaskProblemCounts;
  sessionId?: string;
  livestreamUrl?: string;
  data?: readonly Record<string, unknown>[];
}

export interface WebTaskHistoryOptions {
  dir: string;
  /** Most runs kept (default 50). */
  maxRuns?: number;
  /** Most bytes of run and data files in total (default 50 MB). */
  maxBytes?: number;
  /** Unix ms (tests pass a fake). */
  now?: () => number;
  /** New run ids (default random UUIDs). */
  newId?: () => string;
  logger?: Logger;
}

const INDEX = 'index.json';
const RUNS = 'runs';
const RUN_SUFFIX = '.run.json';
const DATA_SUFFIX = '.data.json';
const ID = /^[A-Za-z0-9_-]{1,100}$/;

const isIndex = object({ version: oneOf([1]), runs: arrayOf(isUnknown) });

/** The stored copy of the inputs: named fields only, so nothing else a caller passes is written. */
export function storedInputs(req: LamRunRequest & { stream?: boolean }): WebTaskInputs {
  const out: WebTaskInputs = { query: req.query, appUrl: req.appUrl };
  if (req.schema !== undefined) out.schema = req.schema;
  if (req.maxCount !== undefined) out.maxCount = req.maxCount;
  if (req.mode !== undefined) out.mode = req.mode;
  if (req.stream !== undefined) out.stream = req.stream;
  const a = req.advanced;
  if (a) {
    const adv: NonNullable<WebTaskInputs['advanced']> = {};
    if (a.blockAds !== undefined) adv.blockAds = a.blockAds;
    if (a.solveCaptchas !== undefined) adv.solveCaptchas = a.solveCaptchas;
    if (a.proxy) {
      const { city, country, state, zip } = a.proxy;
      adv.proxy = JSON.parse(JSON.stringify({ city, country, state, zip })) as typeof a.proxy;
    }
    out.advanced = adv;
  }
  return out;
}

export class WebTaskHistory {
  readonly #dir: string;
  readonly #maxRuns: number;
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #log: Logger;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: WebTaskHistoryOptions) {
    this.#dir = options.dir;
    this.#maxRuns = Math.max(1, options.maxRuns ?? 50);
    this.#maxBytes = Math.max(1, options.maxBytes ?? 50 * 1024 * 1024);
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? randomUUID;
    this.#log = options.logger ?? silentLogger;
  }

  /** Every run, newest first. */
  list(): Promise<WebTaskRun[]> {
    return this.#run(async (runs) => ({ result: runs.map(copy), changed: false }));
  }

  get(id: string): Promise<WebTaskRun | undefined> {
    return this.#run(async (runs) => {
      const r = runs.find((x) => x.id === id);
      return { result: r && copy(r), changed: false };
    });
  }

  /** A run's stored result records; undefined when it has none (or they were dropped). */
  data(id: string): Promise<Record<string, unknown>[] | undefined> {
    return this.#run(async (runs) => {
      const r = runs.find((x) => x.id === id);
      if (!r || r.dataBytes === 0) return { result: undefined, changed: false };
      try {
        const parsed: unknown = JSON.parse(await fs.readFile(this.#dataFile(id), 'utf8'));
        if (Array.isArray(parsed) && parsed.every(isRecord)) return { result: parsed, changed: false };
      } catch {
        // missing or damaged: reported below
      }
      this.#log.warn(`Web tasks: the results of run ${id} are missing or damaged`);
      r.dataBytes = 0;
      return { result: undefined, changed: true };
    });
  }

  /** Records a new run (status `RUNNING`), evicting the oldest beyond the bounds. */
  add(request: LamRunRequest & { stream?: boolean }): Promise<WebTaskRun> {
    return this.#run(async (runs) => {
      const at = this.#now();
      const r: WebTaskRun = {
        id: this.#freshId(runs),
        inputs: storedInputs(request),
        status: 'RUNNING',
        message: '',
        startedAt: at,
        updatedAt: at,
        rowCount: 0,
        dataBytes: 0,
      };
      runs.unshift(r);
      await this.#writeRun(r);
      await this.#evict(runs, r.id);
      return { result: copy(r), changed: true };
    });
  }

  /** Changes a run; undefined when it is not (or no longer) stored. */
  update(id: string, patch: WebTaskUpdate): Promise<WebTaskRun | undefined> {
    return this.#run(async (runs) => {
      const r = runs.find((x) => x.id === id);
      if (!r) return { result: undefined, changed: false };
      const { data, ...fields } = patch;
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) Object.assign(r, { [k]: v });
      r.updatedAt = this.#now();
      if (data !== undefined) {
        r.rowCount = data.length;
        await this.#writeData(r, data);
      }
      await this.#writeRun(r);
      await this.#evict(runs, r.id);
      return { result: copy(r), changed: true };
    });
  }

  /** Removes a run and its files; false when it was not stored. */
  remove(id: string): Promise<boolean> {
    return this.#run(async (runs) => {
      const i = runs.findIndex((x) => x.id === id);
      if (i < 0) return { result: false, changed: false };
      await this.#removeFiles(id);
      runs.splice(i, 1);
      return { result: true, changed: true };
    });
  }

  /** Bytes of the run and data files (what `maxBytes` bounds). */
  totalBytes(): Promise<number> {
    return this.#run(async (runs) => ({ result: sumBytes(runs), changed: false }));
  }

  async #run<T>(op: (runs: StoredRun[]) => Promise<{ result: T; changed: boolean }>): Promise<T> {
    const next = this.#queue.then(async () => {
      const runs = await this.#load();
      const { result, changed } = await op(runs);
      if (changed) await this.#saveIndex(runs);
      return result;
    });
    this.#queue = next.catch(() => undefined);
    return next.catch((err: unknown) => {
      // A full disk or a read-only folder, in words a person can act on (the files are written
      // whole or not at all: a temporary file, then a rename).
      if (!writeErrorCode(err)) throw err;
      throw new Error(cannotWriteText(l10n.t('the web task history'), err));
    });
  }

  #freshId(runs: readonly StoredRun[]): string {
    for (;;) {
      const id = this.#newId();
      if (!ID.test(id)) throw new Error(`Web tasks: unusable run id "${id}"`);
      if (!runs.some((r) => r.id === id)) return id;
    }
  }

  /** The index, or the runs rebuilt from their files when it is missing or damaged. */
  async #load(): Promise<StoredRun[]> {
    let data: unknown;
    try {
      data = JSON.parse(await fs.readFile(path.join(this.#dir, INDEX), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') data = { version: 1, runs: [] };
    }
    if (isIndex(data) && data.runs.every(isStoredRun)) {
      if (data.runs.length > 0 || !(await this.#hasRunFiles())) return data.runs as StoredRun[];
    }
    this.#log.warn('Web tasks: the history index is missing or damaged; rebuilding it from the run files');
    const runs = await this.#rebuild();
    await this.#saveIndex(runs);
    return runs;
  }

  async #hasRunFiles(): Promise<boolean> {
    return (await this.#names()).some((n) => n.endsWith(RUN_SUFFIX));
  }

  async #names(): Promise<string[]> {
    try {
      return await fs.readdir(path.join(this.#dir, RUNS));
    } catch {
      return [];
    }
  }

  /** Reads every run file; removes files of no readable run and stale temporary files. */
  async #rebuild(): Promise<StoredRun[]> {
    const names = await this.#names();
    const runs: StoredRun[] = [];
    for (const name of names.filter((n) => n.endsWith(RUN_SUFFIX))) {
      const id = name.slice(0, -RUN_SUFFIX.length);
      try {
        const r: unknown = JSON.parse(await fs.readFile(this.#runFile(id), 'utf8'));
        if (isStoredRun(r) && r.id === id) {
          runs.push(r as StoredRun);
          continue;
        }
      } catch {
        // unreadable: removed below
      }
      this.#log.warn(`Web tasks: run file ${name} is damaged; removed`);
    }
    const kept = new Set(runs.map((r) => r.id));
    for (const name of names) {
      const id = name.endsWith(RUN_SUFFIX)
        ? name.slice(0, -RUN_SUFFIX.length)
        : name.endsWith(DATA_SUFFIX)
          ? name.slice(0, -DATA_SUFFIX.length)
          : undefined;
      const orphan = id === undefined ? name.endsWith(ATOMIC_TMP_SUFFIX) : !kept.has(id);
      if (orphan) await fs.rm(path.join(this.#dir, RUNS, name), { force: true }).catch(() => undefined);
    }
    for (const r of runs) {
      const size = await fileSize(this.#dataFile(r.id));
      if (r.dataBytes > 0 && size === 0) r.dataBytes = 0;
      r.runBytes = await fileSize(this.#runFile(r.id));
    }
    return runs.sort((a, b) => b.startedAt - a.startedAt);
  }

  async #writeRun(r: StoredRun): Promise<void> {
    const { runBytes: _bytes, ...record } = r;
    const text = JSON.stringify(record);
    await writeFileAtomic(this.#runFile(r.id), text);
    r.runBytes = Buffer.byteLength(text);
  }

  async #writeData(r: StoredRun, data: readonly Record<string, unknown>[]): Promise<void> {
    const text = JSON.stringify(data);
    const size = Buffer.byteLength(text);
    if (data.length === 0 || size > this.#maxBytes) {
      await fs.rm(this.#dataFile(r.id), { force: true });
      r.dataBytes = 0;
      if (data.length > 0) {
        r.dataDropped = true;
        this.#log.warn(
          `Web tasks: the results of run ${r.id} (${size} bytes) exceed the history's limit; not kept`,
        );
      } else delete r.dataDropped;
      return;
    }
    await writeFileAtomic(this.#dataFile(r.id), text);
    r.dataBytes = size;
    delete r.dataDropped;
  }

  /** Drops the oldest runs (never `keep`) until both bounds hold. */
  async #evict(runs: StoredRun[], keep: string): Promise<void> {
    let total = sumBytes(runs);
    for (let i = runs.length - 1; i >= 0 && (runs.length > this.#maxRuns || total > this.#maxBytes); i--) {
      if (runs[i].id === keep) continue;
      const [gone] = runs.splice(i, 1);
      total -= bytesOf(gone);
      await this.#removeFiles(gone.id);
    }
  }

  async #removeFiles(id: string): Promise<void> {
    await fs.rm(this.#dataFile(id), { force: true });
    await fs.rm(this.#runFile(id), { force: true });
  }

  async #saveIndex(runs: readonly StoredRun[]): Promise<void> {
    await writeFileAtomic(path.join(this.#dir, INDEX), JSON.stringify({ version: 1, runs }));
  }

  #runFile(id: string): string {
    return path.join(this.#dir, RUNS, `${id}${RUN_SUFFIX}`);
  }

  #dataFile(id: string): string {
    return path.join(this.#dir, RUNS, `${id}${DATA_SUFFIX}`);
  }
}

/** A run as the index keeps it: with the size of its run file. */
type StoredRun = WebTaskRun & { runBytes?: number };

function isStoredRun(v: unknown): v is StoredRun {
  return isRun(v) && ID.test(v.id);
}

const bytesOf = (r: StoredRun): number => r.dataBytes + (r.runBytes ?? 0);

function sumBytes(runs: readonly StoredRun[]): number {
  return runs.reduce((n, r) => n + bytesOf(r), 0);
}

function copy(r: StoredRun): WebTaskRun {
  const { runBytes: _bytes, ...rest } = r;
  return JSON.parse(JSON.stringify(rest)) as WebTaskRun;
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}
