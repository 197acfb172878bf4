import fs from 'node:fs';
import * as vscode from 'vscode';
import type { TurnFile } from '../../core/client/types';
import { contentHash, hashChunks } from '../../core/merge/hash';
import type { AttachmentSpec, AttachResult } from '../../model/attachments/attachment-list';
import type { SentBase } from '../../model/apply/bases';
import { attachmentKey, buildReference, distinctNames } from './attachment-info';
import { collectSources, type CollectOptions, type SizedSource } from './attach-collect';
import type { AttachCounts } from './attach-limits';
import { droppedUriProblem, distinctUris } from './dropped-uris';
import { basePathOf, MAX_BASE_BYTES, type AttachmentSource } from './sources';
import { withUploadProgress } from './upload-sources';
import { uploadText, uploadWorkspaceFile, type Uploader } from './uploader';
import { formatCount, l10n } from '../../core/shared/l10n';
import { stepDone } from '../platform/walkthrough-steps';

/** The composer an attach goes into: a session's host. */
export interface AttachTarget {
  readonly sessionId: string;
  attach(spec: AttachmentSpec): Promise<AttachResult>;
  attachmentNames(): string[];
}

/** Uploads at a time: enough to keep a link busy, few enough not to crowd out the session's socket. */
const CONCURRENT = 3;

/** The content hash of a source, read the way its upload reads it (a file streamed, not loaded). */
async function hashOf(src: AttachmentSource, signal?: AbortSignal): Promise<string> {
  if (src.text !== undefined) return contentHash(src.text);
  if (src.uri.scheme === 'file') return hashChunks(fs.createReadStream(src.uri.fsPath, { signal }));
  const bytes = await vscode.workspace.fs.readFile(src.uri);
  signal?.throwIfAborted();
  return contentHash(bytes);
}

/** A source inside a workspace folder, as the base to record once it goes with a turn. */
function baseOf(src: AttachmentSource, size: number, hash: string | undefined): SentBase | undefined {
  const rel = basePathOf(src.uri);
  if (rel === undefined || size > MAX_BASE_BYTES) return undefined;
  const text = src.text;
  const read = async (): Promise<Uint8Array> =>
    text !== undefined ? new TextEncoder().encode(text) : vscode.workspace.fs.readFile(src.uri);
  return hash ? { path: rel, hash, read } : { path: rel, read };
}

const withBase = (base: SentBase | undefined): { base?: SentBase } => (base ? { base } : {});

/** Uploads a source under `name`: its text, or the file streamed. */
function upload(
  client: Uploader,
  sessionId: string,
  src: AttachmentSource,
  name: string,
  opts: { onProgress(sent: number, total: number): void; signal: AbortSignal },
): Promise<TurnFile> {
  return src.text !== undefined
    ? uploadText(client, sessionId, name, src.text, opts)
    : uploadWorkspaceFile(client, sessionId, src.uri, { ...opts, name });
}

/** A source to attach as `name`, with its content's hash when it could be read. */
interface NamedSource {
  src: AttachmentSource;
  size: number;
  name: string;
  hash: string | undefined;
}

/**
 * The attachment of a source to a session's composer; its `copyFor` is the same attachment for
 * another session (the attempts of a task: each session uploads its own copy).
 */
function specOf(
  client: Uploader,
  sessionId: string,
  item: NamedSource,
  opts: { signal?: AbortSignal; onProgress?(done: number, total: number): void } = {},
): AttachmentSpec {
  const { src, size, name, hash } = item;
  return {
    name,
    size,
    key: attachmentKey(sessionId, name),
    ...(hash ? { hash } : {}),
    ...(src.reference.unsaved ? { unsaved: true } : {}),
    ...withBase(baseOf(src, size, hash)),
    reference: (file: TurnFile) => buildReference({ ...src.reference, attachment: file.name }),
    ...(opts.signal ? { signal: opts.signal } : {}),
    upload: (onProgress, signal) => {
      const progress = (done: number, total: number): void => {
        onProgress(done, total);
        opts.onProgress?.(done, total);
      };
      return upload(client, sessionId, src, name, { onProgress: progress, signal });
    },
    copyFor: (other) => specOf(client, other, item),
  };
}

/**
 * Adds sources to a composer, a few at a time: each is hashed, then attached (uploaded unless the
 * session holds its content, see `UploadIndex`) under a name distinct from the chips already there.
 * `onBytes` gets the bytes done since its last call (a reused or skipped file counts whole).
 */
export async function attachSources(
  client: Uploader,
  target: AttachTarget,
  items: readonly SizedSource[],
  opts: { signal?: AbortSignal; onBytes?(bytes: number, name: string): void } = {},
): Promise<AttachCounts> {
  const counts: AttachCounts = { uploaded: 0, reused: 0, duplicate: 0, failed: 0, removed: 0 };
  // Chips are added in the order of `items`, whichever hash is ready first.
  const added = items.map(() => {
    let done!: () => void;
    const promise = new Promise<void>((resolve) => (done = resolve));
    return { promise, done };
  });
  let next = 0;
  const one = async (i: number): Promise<void> => {
    const { src, size } = items[i];
    let hash: string | undefined;
    try {
      hash = await hashOf(src, opts.signal);
    } catch {
      // Cancelled, or unreadable: the upload says which (and fails on the chip).
    }
    if (i > 0) await added[i - 1].promise;
    let sent = 0;
    let result: Promise<AttachResult>;
    try {
      const name = distinctNames([...target.attachmentNames(), src.name]).pop() as string;
      result = target.attach(
        specOf(
          client,
          target.sessionId,
          { src, size, name, hash },
          {
            signal: opts.signal,
            onProgress: (done) => {
              opts.onBytes?.(Math.max(0, done - sent), name);
              sent = Math.max(sent, done);
            },
          },
        ),
      );
    } finally {
      // `attach` shows the chip before it first waits: the next one may go.
      added[i].done();
    }
    counts[(await result).outcome]++;
    if (size > sent) opts.onBytes?.(size - sent, src.name);
  };
  const worker = async (): Promise<void> => {
    while (next < items.length) await one(next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT, items.length) }, worker));
  if (counts.uploaded + counts.reused > 0) stepDone('attach');
  return counts;
}

/**
 * `attachSources` behind a cancellable notification showing the bytes done. Cancelling stops the
 * uploads in flight and removes their chips; what was attached stays.
 */
export function attachWithProgress(
  client: Uploader,
  target: AttachTarget,
  items: readonly SizedSource[],
): Thenable<AttachCounts> {
  const title =
    items.length === 1
      ? l10n.t('Den: attaching {0}', items[0].src.name)
      : l10n.t('Den: attaching {0} files', formatCount(items.length));
  const total = items.reduce((n, i) => n + i.size, 0);
  let done = 0;
  return withUploadProgress(title, (signal, report) =>
    attachSources(client, target, items, {
      signal,
      onBytes: (bytes, name) => report((done += bytes), total, name),
    }),
  );
}

export interface AttachUrisOptions extends CollectOptions {
  client: Uploader;
  target: AttachTarget;
}

/**
 * Attaches files and folders to a composer: collected (folders expanded, limits applied), then
 * uploaded with a cancellable progress notification. Undefined when nothing was attached because
 * the person said no to a folder or nothing was left to attach.
 */
export async function attachUris(
  uris: readonly vscode.Uri[],
  opts: AttachUrisOptions,
): Promise<AttachCounts | undefined> {
  const items = await collectSources(uris, opts);
  if (!items?.length) return undefined;
  return attachWithProgress(opts.client, opts.target, items);
}

/** Whether a URI is in one of the window's workspace folders. */
function inWorkspace(uri: vscode.Uri): boolean {
  return vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

/**
 * The URIs dropped on the panel that may be attached: `file:` or `vscode-remote:` URIs of plain
 * paths inside a workspace folder (a `vscode-remote:` URI as the remote side sees it, a `file:` URI
 * of its path, when that is what the window's folders are). `refused` says which were not, and why.
 */
export function droppedUris(raw: readonly string[]): { uris: vscode.Uri[]; refused: string[] } {
  const uris: vscode.Uri[] = [];
  const refused: string[] = [];
  for (const text of distinctUris(raw)) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(text, true);
    } catch {
      refused.push(l10n.t('{0}: not a URI', text.slice(0, 100)));
      continue;
    }
    const problem = droppedUriProblem(uri);
    const local = uri.scheme === 'vscode-remote' ? uri.with({ scheme: 'file', authority: '' }) : undefined;
    const found = problem ? undefined : [uri, local].find((u) => u && inWorkspace(u));
    if (found) uris.push(found);
    else
      refused.push(
        `${uri.path.split('/').pop() || text.slice(0, 100)}: ${problem ?? l10n.t('it is not in the workspace')}`,
      );
  }
  return { uris, refused };
}
