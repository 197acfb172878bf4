import * as vscode from 'vscode';
import type { TurnFile } from '../../core/client/types';
import { formatBytes } from '../../core/shared/format';
import { buildReference, distinctNames } from './attachment-info';
import { sentBases, type SentBase, type SentBytes } from '../../model/apply/bases';
import { basePathOf, MAX_BASE_BYTES, sourceSize, type AttachmentSource } from './sources';
import { uploadBytes, uploadText, uploadWorkspaceFile, type Uploader } from './uploader';
import { formatCount, l10n } from '../../core/shared/l10n';

const REPORT_EVERY_MS = 100;

/** The `files` and `references` of a turn, once its attachments are uploaded. */
export interface UploadedAttachments {
  files: TurnFile[];
  references: Record<string, unknown>[];
  /**
   * What the agent is sent of workspace files (the uploaded bytes), to record as their bases once
   * the turn starts (`TurnRequest.bases`); see `sentBases`.
   */
  bases: SentBase[];
}

/**
 * Uploads sources one after the other under distinct names in `sessionId`'s folder.
 * `onProgress` gets the bytes sent over all of them and their total (0 when unknown).
 * A source inside a workspace folder, up to `MAX_BASE_BYTES`, is read once and exactly those bytes
 * are uploaded and kept as its base; a bigger one is streamed and gets no base.
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
  const sent: SentBytes[] = [];
  let done = 0;
  for (let i = 0; i < sources.length; i++) {
    const src = sources[i];
    const name = names[i];
    const upload = {
      signal: opts.signal,
      onProgress: (n: number) => opts.onProgress?.(done + n, total, name),
    };
    const basePath = basePathOf(src.uri);
    const bytes = basePath === undefined ? undefined : await baseBytes(src, sizes[i]);
    const file =
      src.text !== undefined
        ? await uploadText(client, sessionId, name, src.text, upload)
        : bytes
          ? await uploadBytes(client, sessionId, name, bytes, upload)
          : await uploadWorkspaceFile(client, sessionId, src.uri, { ...upload, name });
    if (basePath !== undefined && bytes) {
      sent.push({ path: basePath, bytes, part: src.reference.type === 'selection' });
    }
    done += file.size;
    files.push(file);
    references.push(buildReference({ ...src.reference, attachment: file.name }));
  }
  return { files, references, bases: sentBases(sent) };
}

/**
 * The bytes a source uploads when Den keeps them as a base: its text (a selection, an editor's
 * unsaved content) as UTF-8, or the file read whole when it is at most `MAX_BASE_BYTES`.
 * Undefined when too big or unreadable (the upload then streams it, and says why it failed).
 */
async function baseBytes(src: AttachmentSource, size: number | undefined): Promise<Uint8Array | undefined> {
  if (src.text !== undefined) {
    const bytes = new TextEncoder().encode(src.text);
    return bytes.byteLength <= MAX_BASE_BYTES ? bytes : undefined;
  }
  if (src.uri.scheme === 'file' && (size === undefined || size > MAX_BASE_BYTES)) return undefined;
  try {
    const bytes = await vscode.workspace.fs.readFile(src.uri);
    return bytes.byteLength <= MAX_BASE_BYTES ? bytes : undefined;
  } catch {
    return undefined;
  }
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
