/**
 * The attachments of an attempt's first turn, uploaded to its own session: every attempt of a task
 * carries the same files, each session its own copy, and the bases of the workspace files among them
 * are recorded for each session once its turn starts (`TurnRequest.bases`), so that Apply This
 * Attempt merges three ways. No `vscode` import.
 */
import { AttachmentList, type AttachmentSpec } from '../attachments/attachment-list';
import type { TurnRequest } from '../session/turn-request';

/** What an attempt's first turn carries of its attachments. */
export type AttemptAttachments = Pick<TurnRequest, 'files' | 'references' | 'bases'>;

/**
 * Uploads attachments to one session (`fill` adds them to a list of that session's own) and
 * resolves to what its turn carries; `error`: the first upload that failed (the attempt does not
 * start without its files).
 */
export async function uploadForAttempt(
  fill: (list: AttachmentList) => Promise<unknown>,
): Promise<AttemptAttachments | { error: string }> {
  const list = new AttachmentList(() => undefined);
  try {
    await fill(list);
    const failed = list.views().find((v) => v.status === 'error');
    if (failed) return { error: failed.error ?? failed.name };
    const ready = list.ready();
    const bases = list.clear(ready.ids);
    return {
      ...(ready.files.length ? { files: ready.files } : {}),
      ...(ready.references.length ? { references: ready.references } : {}),
      ...(bases.length ? { bases } : {}),
    };
  } finally {
    list.dispose();
  }
}

/** Adds copies of attachments (`AttachmentSpec.copyFor`'s) to a list, one after another. */
export async function addAll(list: AttachmentList, specs: readonly AttachmentSpec[]): Promise<void> {
  for (const s of specs) await list.add(s);
}
