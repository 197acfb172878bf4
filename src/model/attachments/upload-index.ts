/**
 * What a session already holds on the service, by content: content hash → the uploaded file. The
 * composer asks it before uploading, so the same content attached twice is uploaded once. No
 * `vscode` import.
 *
 * A storage key holds the last content written to it (`<session id>/<name>`, docs/decisions/
 * 2026-11-22-turn-references.md): an upload to a key, or a turn that wrote a file under it,
 * makes any other content recorded for that key stale, and it is forgotten.
 */
import type { TurnFile } from '../../core/client/types';
import { RecentMap } from '../../core/shared/recent-map';

/** How many contents a session remembers (the oldest used is forgotten first). */
const DEFAULT_MAX = 500;

export class UploadIndex {
  readonly #byHash: RecentMap<string, TurnFile>;

  constructor(max = DEFAULT_MAX) {
    this.#byHash = new RecentMap(max);
  }

  /** The file that holds this content, if it was uploaded and nothing overwrote its key since. */
  get(hash: string): TurnFile | undefined {
    const file = this.#byHash.get(hash);
    return file && { ...file };
  }

  /** `file` now holds the content `hash`; whatever else was recorded under its key is stale. */
  record(hash: string, file: TurnFile): void {
    this.forgetKeys([file.key]);
    this.#byHash.set(hash, { ...file });
  }

  /** Forgets the contents recorded under these storage keys (they were written to since). */
  forgetKeys(keys: Iterable<string>): void {
    const stale = new Set(keys);
    if (!stale.size) return;
    for (const [hash, file] of [...this.#byHash.entries()])
      if (stale.has(file.key)) this.#byHash.delete(hash);
  }

  get size(): number {
    return this.#byHash.size;
  }
}
