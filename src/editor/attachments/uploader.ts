import fs from 'node:fs';
import { Readable } from 'node:stream';
import * as vscode from 'vscode';
import type { ApiClient } from '../../core/client/client';
import { DenError } from '../../core/client/errors';
import { turnFileFromUpload } from '../../core/client/normalize-results';
import type { TurnFile } from '../../core/client/types';
import { attachmentKey, contentTypeFor, safeFileName } from './attachment-info';
import { l10n } from '../../core/shared/l10n';

/** What the uploads need of the API client. */
export type Uploader = Pick<ApiClient, 'upload'>;

/** Options of an upload. */
export interface UploadOptions {
  /** Bytes handed to the connection so far, and the total; never decreases. */
  onProgress?(sent: number, total: number): void;
  signal?: AbortSignal;
  /** File name to store under instead of the URI's own (e.g. made distinct within a turn). */
  name?: string;
}

/**
 * Uploads a workspace file to `<sessionId>/<file name>` and returns its turn `files` entry.
 * `file:` URIs are streamed from disk (a 200 MB file never sits in memory); other schemes are
 * read through `vscode.workspace.fs`.
 */
export async function uploadWorkspaceFile(
  client: Uploader,
  sessionId: string,
  uri: vscode.Uri,
  opts: UploadOptions = {},
): Promise<TurnFile> {
  const name = safeFileName(opts.name ?? baseName(uri));
  if (uri.scheme === 'file') {
    const size = await fileSize(uri);
    return send(client, sessionId, name, size, () => fs.createReadStream(uri.fsPath), opts);
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  return send(client, sessionId, name, bytes.byteLength, () => Readable.from([Buffer.from(bytes)]), opts);
}

/** Uploads text (a selection, an editor's unsaved content) as a UTF-8 file named `name`. */
export async function uploadText(
  client: Uploader,
  sessionId: string,
  name: string,
  text: string,
  opts: Omit<UploadOptions, 'name'> = {},
): Promise<TurnFile> {
  return uploadBytes(client, sessionId, name, Buffer.from(text, 'utf8'), {
    ...opts,
    contentType: contentTypeFor(name, 'text/plain'),
  });
}

/** Uploads bytes already read (exactly these: what Den records as the agent's base) as `name`. */
export async function uploadBytes(
  client: Uploader,
  sessionId: string,
  name: string,
  bytes: Uint8Array,
  opts: Omit<UploadOptions, 'name'> & { contentType?: string } = {},
): Promise<TurnFile> {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return send(client, sessionId, safeFileName(name), body.length, () => Readable.from([body]), {
    ...opts,
    contentType: opts.contentType ?? contentTypeFor(name),
  });
}

/** The last segment of a URI's path. */
export function baseName(uri: vscode.Uri): string {
  const parts = uri.path.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? 'file';
}

async function fileSize(uri: vscode.Uri): Promise<number> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(uri.fsPath);
  } catch (err) {
    throw new DenError({
      code: 'bad_request',
      message: l10n.t(
        '{0} cannot be read ({1})',
        uri.fsPath,
        (err as NodeJS.ErrnoException).code ?? String(err),
      ),
      cause: err,
    });
  }
  if (!stat.isFile()) {
    throw new DenError({ code: 'bad_request', message: l10n.t('{0} is not a file', uri.fsPath) });
  }
  return stat.size;
}

async function send(
  client: Uploader,
  sessionId: string,
  name: string,
  size: number,
  body: () => Readable,
  opts: UploadOptions & { contentType?: string },
): Promise<TurnFile> {
  const result = await client.upload(
    {
      key: attachmentKey(sessionId, name),
      filename: name,
      contentType: opts.contentType ?? contentTypeFor(name),
      size,
      body,
      onProgress: opts.onProgress,
    },
    opts.signal,
  );
  return turnFileFromUpload(result);
}
