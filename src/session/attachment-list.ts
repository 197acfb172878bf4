/**
 * The composer's attachments: uploads in flight with their progress, the uploaded ones ready to go
 * with the next turn, and failures shown on their chip. No `vscode` import.
 */
import { randomUUID } from 'node:crypto';
import type { TurnFile } from '../core/api/types';
import { presentError } from './error-text';
import type { AttachmentView } from '../protocol/messages';

/** Uploads one file: reports progress, honours the signal, returns the turn's `files` entry. */
export type UploadFn = (
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
) => Promise<TurnFile>;

interface Item {
  view: AttachmentView;
  file?: TurnFile;
  abort: AbortController;
}

export class AttachmentList {
  private readonly items = new Map<string, Item>();

  /** `onChange` runs after every change a chip shows (progress included). */
  constructor(private readonly onChange: () => void) {}

  /** Adds a chip and uploads; resolves when the upload is over (failures stay on the chip). */
  async add(name: string, size: number, upload: UploadFn): Promise<void> {
    const id = randomUUID();
    const item: Item = {
      view: { id, name, size, status: 'uploading', progress: 0 },
      abort: new AbortController(),
    };
    this.items.set(id, item);
    this.onChange();
    try {
      const file = await upload((sent, total) => {
        if (this.items.get(id) !== item) return;
        const progress = total > 0 ? Math.min(1, sent / total) : 1;
        // Redraw per percent, not per chunk.
        if (Math.floor(progress * 100) === Math.floor((item.view.progress ?? 0) * 100)) return;
        item.view = { ...item.view, progress };
        this.onChange();
      }, item.abort.signal);
      if (this.items.get(id) !== item) return;
      item.file = file;
      item.view = { id, name, size: file.size, status: 'ready' };
    } catch (err) {
      if (this.items.get(id) !== item) return;
      const message = presentError(err, `upload ${name}`).message;
      item.view = { id, name, size, status: 'error', error: message };
    }
    this.onChange();
  }

  /** Removes a chip, cancelling its upload. */
  remove(id: string): boolean {
    const item = this.items.get(id);
    if (!item) return false;
    this.items.delete(id);
    item.abort.abort();
    this.onChange();
    return true;
  }

  views(): AttachmentView[] {
    return [...this.items.values()].map((i) => i.view);
  }

  /** The uploaded files, with their chip ids. */
  ready(): { ids: string[]; files: TurnFile[] } {
    const ids: string[] = [];
    const files: TurnFile[] = [];
    for (const [id, i] of this.items) {
      if (i.view.status === 'ready' && i.file) {
        ids.push(id);
        files.push(i.file);
      }
    }
    return { ids, files };
  }

  /** Removes chips whose files went with a turn. */
  clear(ids: string[]): void {
    let changed = false;
    for (const id of ids) changed = this.items.delete(id) || changed;
    if (changed) this.onChange();
  }

  dispose(): void {
    for (const i of this.items.values()) i.abort.abort();
    this.items.clear();
  }
}
