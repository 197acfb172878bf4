/**
 * Where the session search index keeps its files: a flat set of named byte blobs. `folderStore` is a
 * folder on disk (atomic writes); `memoryStore` is for tests. No `vscode` import.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write';

export interface SearchStore {
  /** Names of the blobs held. */
  list(): Promise<string[]>;
  /** A blob's bytes; undefined when missing or unreadable. */
  read(name: string): Promise<Uint8Array | undefined>;
  write(name: string, data: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
}

/** A folder of files (created when missing); names are used as file names, as they are. */
export function folderStore(dir: string): SearchStore {
  return {
    async list() {
      try {
        return (await fs.readdir(dir)).filter((n) => !n.startsWith('.'));
      } catch {
        return [];
      }
    },
    async read(name) {
      try {
        return await fs.readFile(path.join(dir, name));
      } catch {
        return undefined;
      }
    },
    write: (name, data) => writeFileAtomic(path.join(dir, name), data),
    async remove(name) {
      await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined);
    },
  };
}

/** Blobs in a map (tests; `blobs` is exposed so a test can corrupt one). */
export function memoryStore(): SearchStore & { blobs: Map<string, Uint8Array> } {
  const blobs = new Map<string, Uint8Array>();
  return {
    blobs,
    list: () => Promise.resolve([...blobs.keys()]),
    read: (name) => Promise.resolve(blobs.get(name)),
    write: (name, data) => {
      blobs.set(name, data.slice());
      return Promise.resolve();
    },
    remove: (name) => {
      blobs.delete(name);
      return Promise.resolve();
    },
  };
}
