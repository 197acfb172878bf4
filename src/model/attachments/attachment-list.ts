/**
 * The composer's attachments: uploads in flight with their progress, the uploaded ones ready to go
 * with the next turn, and failures shown on their chip. Content already in the session (by its
 * hash, see `UploadIndex`) is not uploaded again. No `vscode` import.
 */
import type { SentBase } from '../apply/bases';
import { randomUUID } from 'node:crypto';
import type { TurnFile } from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';
import { presentError } from '../shared/error-text';
import type { AttachmentView } from '../../protocol/session-panel/messages';
import { UploadIndex } from './upload-index';

/** Uploads one file: reports progress, honours the signal, returns the turn's `files` entry. */
export type UploadFn = (
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
) => Promise<TurnFile>;

/** One attachment to add to the composer. */
export interface AttachmentSpec {
  /** Name shown on the chip (and stored under, by `upload`). */
  name: string;
  size: number;
  upload: UploadFn;
  /** The content's hash: content the session already holds is not uploaded again. */
  hash?: string;
  /** The storage key `upload` writes to: content recorded under it is stale from the start. */
  key?: string;
  /** The content is an editor's unsaved text (the chip says so). */
  unsaved?: boolean;
  /** The turn's `references` entry for the uploaded file. */
  reference?: (file: TurnFile) => Record<string, unknown>;
  /** Aborting it cancels the upload and removes the chip (as its × does). */
  signal?: AbortSignal;
  /** A workspace file: recorded as a base (what the agent saw) once the chip goes with a turn. */
  base?: SentBase;
  /** The same attachment for another session's turn (the attempts of a task: each uploads its own). */
  copyFor?: (sessionId: string) => AttachmentSpec;
}

/**
 * What became of an attachment: `uploaded`; `reused` (the session held the content already);
 * `duplicate` (a chip with the same content is in the composer: nothing added); `failed` (the chip
 * shows why); `removed` (its chip was removed, or the list disposed, before the upload ended).
 */
export type AttachOutcome = 'uploaded' | 'reused' | 'duplicate' | 'failed' | 'removed';

export interface AttachResult {
  outcome: AttachOutcome;
  /** The chip (absent for `duplicate`). */
  id?: string;
  error?: string;
}

interface Item {
  view: AttachmentView;
  spec: AttachmentSpec;
  file?: TurnFile;
  abort: AbortController;
}

export class AttachmentList {
  readonly #items = new Map<string, Item>();

  /**
   * `onChange` runs after every change a chip shows (progress included); `uploads` is the session's
   * index of uploaded contents (kept by the caller when it outlives the list).
   */
  readonly #onChange: () => void;
  constructor(
    onChange: () => void,
    readonly uploads: UploadIndex = new UploadIndex(),
  ) {
    this.#onChange = onChange;
  }

  /** Adds a chip and uploads (unless the content is there already); resolves when it is over. */
  async add(spec: AttachmentSpec): Promise<AttachResult> {
    const { name, size, hash } = spec;
    if (spec.signal?.aborted) return { outcome: 'removed' };
    if (hash) {
      const same = [...this.#items].find(([, i]) => i.spec.hash === hash);
      if (same && same[1].view.status !== 'error') return { outcome: 'duplicate' };
      if (same) this.remove(same[0]);
    }
    const id = randomUUID();
    const marks = spec.unsaved ? { unsaved: true } : {};
    const known = hash ? this.uploads.get(hash) : undefined;
    if (known) {
      const view: AttachmentView = { id, name: known.name, size: known.size, status: 'ready', ...marks };
      this.#items.set(id, { view, spec, file: known, abort: new AbortController() });
      this.#onChange();
      return { outcome: 'reused', id };
    }
    if (spec.key) this.uploads.forgetKeys([spec.key]);
    const item: Item = {
      view: { id, name, size, status: 'uploading', progress: 0, ...marks },
      spec,
      abort: new AbortController(),
    };
    this.#items.set(id, item);
    this.#onChange();
    const cancel = (): void => void this.remove(id);
    spec.signal?.addEventListener('abort', cancel, { once: true });
    try {
      const file = await spec.upload((sent, total) => {
        if (this.#items.get(id) !== item) return;
        const progress = total > 0 ? Math.min(1, sent / total) : 1;
        // Redraw per percent, not per chunk.
        if (Math.floor(progress * 100) === Math.floor((item.view.progress ?? 0) * 100)) return;
        item.view = { ...item.view, progress };
        this.#onChange();
      }, item.abort.signal);
      // Uploaded even if the chip went meanwhile: the service holds the content now.
      if (hash) this.uploads.record(hash, file);
      if (this.#items.get(id) !== item) return { outcome: 'removed' };
      item.file = file;
      item.view = { id, name, size: file.size, status: 'ready', ...marks };
    } catch (err) {
      if (this.#items.get(id) !== item) return { outcome: 'removed' };
      const error = presentError(err, l10n.t('upload {0}', name)).message;
      item.view = { id, name, size, status: 'error', error, ...marks };
      this.#onChange();
      return { outcome: 'failed', id, error };
    } finally {
      spec.signal?.removeEventListener('abort', cancel);
    }
    this.#onChange();
    return { outcome: 'uploaded', id };
  }

  /** Removes a chip, cancelling its upload. */
  remove(id: string): boolean {
    const item = this.#items.get(id);
    if (!item) return false;
    this.#items.delete(id);
    item.abort.abort();
    this.#onChange();
    return true;
  }

  views(): AttachmentView[] {
    return [...this.#items.values()].map((i) => i.view);
  }

  /** The names on the chips (new attachments get names distinct from these). */
  names(): string[] {
    return [...this.#items.values()].map((i) => i.view.name);
  }

  /** The uploaded files, with their chip ids and the `references` entries of those that have one. */
  ready(): { ids: string[]; files: TurnFile[]; references: Record<string, unknown>[] } {
    const ids: string[] = [];
    const files: TurnFile[] = [];
    const references: Record<string, unknown>[] = [];
    for (const [id, i] of this.#items) {
      if (i.view.status === 'ready' && i.file) {
        ids.push(id);
        files.push(i.file);
        if (i.spec.reference) references.push(i.spec.reference(i.file));
      }
    }
    return { ids, files, references };
  }

  /** The ready chips' attachments, as they are now, again for another session (those that can be copied). */
  copies(): ((sessionId: string) => AttachmentSpec)[] {
    const out: ((sessionId: string) => AttachmentSpec)[] = [];
    for (const i of this.#items.values())
      if (i.view.status === 'ready' && i.file && i.spec.copyFor) out.push(i.spec.copyFor);
    return out;
  }

  /** Removes chips whose files went with a turn; returns the bases of those that have one. */
  clear(ids: string[]): SentBase[] {
    const bases: SentBase[] = [];
    let changed = false;
    for (const id of ids) {
      const base = this.#items.get(id)?.spec.base;
      if (base) bases.push(base);
      changed = this.#items.delete(id) || changed;
    }
    if (changed) this.#onChange();
    return bases;
  }

  dispose(): void {
    for (const i of this.#items.values()) i.abort.abort();
    this.#items.clear();
  }
}
