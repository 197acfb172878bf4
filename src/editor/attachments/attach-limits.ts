/**
 * The limits of attaching and what Den says about them: the per-file size limit
 * (`den.attachments.maxFileSizeMB`), the size of a folder that needs a confirmation, the most
 * files one attach may add, and the summary of an attach. No `vscode` here, so plain mocha covers it.
 */
import { formatBytes } from '../../core/shared/format';
import { formatCount, l10n } from '../../core/shared/l10n';

/** The setting that limits the size of one attachment. */
export const SIZE_SETTING = 'den.attachments.maxFileSizeMB';

export interface FolderLimits {
  /** More files than this, or more bytes than `confirmBytes`, are attached only after a confirmation. */
  confirmFiles: number;
  confirmBytes: number;
  /** More files than this are not attached at all (say a smaller folder). */
  maxFiles: number;
}

export const FOLDER_LIMITS: FolderLimits = {
  confirmFiles: 50,
  confirmBytes: 20 * 1024 * 1024,
  maxFiles: 1_000,
};

/** A file with its size, as named to the person (a path, or a name). */
export interface SizedName {
  name: string;
  size: number;
}

/** How many names a message lists before "and N more". */
const LISTED = 3;

/** The first few names, then "and N more". */
export function listed(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).join(', ');
  return names.length > LISTED
    ? l10n.t('{0} and {1} more', shown, formatCount(names.length - LISTED))
    : shown;
}

/** Megabytes as `den.attachments.maxFileSizeMB` counts them (MiB). */
export function megabytes(mb: number): number {
  return Math.round(mb * 1024 * 1024);
}

/** The files above the limit, which are not attached. */
export function overLimit<T extends { size: number }>(files: readonly T[], limitBytes: number): T[] {
  return files.filter((f) => f.size > limitBytes);
}

/** Why files were not attached: each named with its size, and the limit with its setting. */
export function sizeLimitMessage(refused: readonly SizedName[], limitBytes: number): string {
  const limit = formatBytes(limitBytes);
  if (refused.length === 1) {
    const [f] = refused;
    return l10n.t(
      '{0} ({1}) was not attached: attachments are limited to {2} each ({3}).',
      f.name,
      formatBytes(f.size),
      limit,
      SIZE_SETTING,
    );
  }
  const names = listed(refused.map((f) => `${f.name} (${formatBytes(f.size)})`));
  return l10n.t(
    '{0} files were not attached, each larger than the {1} limit ({2}): {3}.',
    formatCount(refused.length),
    limit,
    SIZE_SETTING,
    names,
  );
}

/** What to do with the files found in folders before attaching them. */
export type FolderVerdict =
  { kind: 'ok' } | { kind: 'confirm'; message: string } | { kind: 'refuse'; message: string };

/**
 * Whether the files of dropped or chosen folders may be attached: at once when few and small, after
 * a confirmation above `confirmFiles` or `confirmBytes`, never above `maxFiles` (`truncated`: the
 * walk stopped there).
 */
export function folderVerdict(
  folders: readonly string[],
  files: readonly SizedName[],
  truncated: boolean,
  limits: FolderLimits = FOLDER_LIMITS,
): FolderVerdict {
  const where = folders.length === 1 ? folders[0] : l10n.t('{0} folders', formatCount(folders.length));
  if (truncated || files.length > limits.maxFiles) {
    return {
      kind: 'refuse',
      message: l10n.t(
        '{0} holds more than {1} files: Den attaches at most that many at once. Attach a smaller folder, or the files you need.',
        where,
        formatCount(limits.maxFiles),
      ),
    };
  }
  const bytes = files.reduce((n, f) => n + f.size, 0);
  if (files.length > limits.confirmFiles || bytes > limits.confirmBytes) {
    return {
      kind: 'confirm',
      message:
        files.length === 1
          ? l10n.t('Attach 1 file ({0}) from {1}?', formatBytes(bytes), where)
          : l10n.t('Attach {0} files ({1}) from {2}?', formatCount(files.length), formatBytes(bytes), where),
    };
  }
  return { kind: 'ok' };
}

/** What one attach did, counted. */
export interface AttachCounts {
  uploaded: number;
  reused: number;
  duplicate: number;
  failed: number;
  removed: number;
}

/** The short summary of an attach (status bar), e.g. "attached 3 files (1 was there already)". */
export function attachSummary(c: AttachCounts): string {
  const added = c.uploaded + c.reused;
  const head = added === 1 ? l10n.t('attached 1 file') : l10n.t('attached {0} files', formatCount(added));
  const extra: string[] = [];
  if (c.reused)
    extra.push(l10n.t('{0} without uploading: the session has the content', formatCount(c.reused)));
  if (c.duplicate) extra.push(l10n.t('{0} already in the composer', formatCount(c.duplicate)));
  if (c.failed) extra.push(l10n.t('{0} failed', formatCount(c.failed)));
  if (c.removed) extra.push(l10n.t('{0} cancelled', formatCount(c.removed)));
  return extra.length ? `${head} (${extra.join('; ')})` : head;
}
