import * as vscode from 'vscode';
import type { TurnFile } from '../core/api/types';
import { formatBytes } from '../protocol/format';
import { buildReference, distinctNames } from './attachment-info';
import { sourceSize, type AttachmentSource } from './sources';
import { uploadText, uploadWorkspaceFile, type Uploader } from './uploader';
import { formatCount, l10n } from '../core/l10n';

const REPORT_EVERY_MS = 100;

/** The `files` and `references` of a turn, once its attachments are uploaded. */
export interface UploadedAttachments {
  files: TurnFile[];
  references: Record<string, unknown>[];
}

/**
 * Uploads sources one after the other under distinct names in `sessionId`'s folder.
 * `onProgress` gets the bytes sent over all of them and their total (0 when unknown).
 */
export async function uploadSources(
  client: Uploader,
  sessionId: string,
  sources: readonly AttachmentSource[],
  opts: { signal?: AbortSignal; onProgress?(sent: number, total: number, name: string): void } = {},
): Promise<UploadedAttachments> {
  const names = distinctNames(sources.map((s) => s.name));
  const sizes = await Promise.all(sources.map(sourceSize));
  const total = sizes.reduce<number>((n, s) => n + (s ?? 0), 0);
  const files: TurnFile[] = [];
  const references: Record<string, unknown>[] = [];
  let done = 0;
  for (let i = 0; i < sources.length; i++) {
    const src = sources[i];
    const name = names[i];
    const upload = {
      signal: opts.signal,
      onProgress: (sent: number) => opts.onProgress?.(done + sent, total, name),
    };
    const file =
      src.text !== undefined
        ? await uploadText(client, sessionId, name, src.text, upload)
        : await uploadWorkspaceFile(client, sessionId, src.uri, { ...upload, name });
    done += file.size;
    files.push(file);
    references.push(buildReference({ ...src.reference, attachment: file.name }));
  }
  return { files, references };
}

/** Reports the bytes done: `sent` of `total` (0 when unknown) over all files, `name` the current one. */
export type ByteProgress = (sent: number, total: number, name: string) => void;

/**
 * Runs `work` behind a cancellable notification titled `title` that shows the bytes done. `work`
 * may report every chunk; the notification is updated a few times a second. Cancelling aborts the
 * signal `work` gets (its promise then usually rejects with an `aborted` DenError).
 */
export function withUploadProgress<T>(
  title: string,
  work: (signal: AbortSignal, report: ByteProgress) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let shown = 0;
      let lastReport = 0;
      try {
        return await work(abort.signal, (sent, total, name) => {
          const now = Date.now();
          if (now - lastReport < REPORT_EVERY_MS && sent < total) return;
          lastReport = now;
          const pct = total > 0 ? Math.min(100, (sent / total) * 100) : 0;
          const bytes = total
            ? l10n.t('{0} of {1}', formatBytes(sent), formatBytes(total))
            : formatBytes(sent);
          progress.report({
            increment: Math.max(0, pct - shown),
            // The title already names a single file: "Den: attaching a.ts", "0 B of 187 B".
            message: name && !title.endsWith(` ${name}`) ? `${name}: ${bytes}` : bytes,
          });
          shown = Math.max(shown, pct);
        });
      } finally {
        sub.dispose();
      }
    },
  );
}

/**
 * `uploadSources` behind a cancellable notification showing the bytes sent. Cancelling aborts the
 * upload in flight; the promise then rejects with an `aborted` DenError.
 */
export function uploadWithProgress(
  client: Uploader,
  sessionId: string,
  sources: readonly AttachmentSource[],
): Thenable<UploadedAttachments> {
  const title =
    sources.length === 1
      ? l10n.t('Den: uploading {0}', sources[0].name)
      : l10n.t('Den: uploading {0} files', formatCount(sources.length));
  return withUploadProgress(title, (signal, onProgress) =>
    uploadSources(client, sessionId, sources, { signal, onProgress }),
  );
}
