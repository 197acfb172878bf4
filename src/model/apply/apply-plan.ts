/**
 * What applying the agent's files (one file, a turn's, a session's) to a workspace folder would do,
 * file by file, before anything is written: the VS Code glue reads files, asks the person what the
 * plan says needs asking, and makes one WorkspaceEdit of the writes. No `vscode` import.
 *
 * Each file is decided in this order ("same" is `merge.ts`'s `same`: equal bytes, or text with the
 * same lines and trailing newline: line endings and a byte order mark are the workspace's style).
 * These rules are the only ones: the file states the Sessions tree and the panel show are read
 * from a plan's entries (`file-status.ts`). The workspace file is what `folder.readFile` gives: for a file open with
 * unsaved changes, the editor's text, so the merge takes that as "ours" and `dirty` tells the glue
 * to make the edit through the document.
 * 1. Beyond `maxFiles`: not planned, not read (`leftOut` counts them).
 * 2. A path `workspacePaths` refuses (`safeRelativePath`), or one that names the same workspace file as another entry
 *    (equal but for case or Unicode normal form, which collide on Windows and macOS; both are
 *    refused: Den cannot tell which is meant), or that leads outside the folder through a link
 *    (`folder.realPath`): `refused`, with a message naming the path. Nothing is read.
 * 3. The agent deleted it: `skipIdentical` when the workspace has no such file, else `delete`, which
 *    always needs confirmation; its text says when the file has unsaved changes, changed since the
 *    agent saw it, or Den does not know what the agent saw.
 * 4. The agent's version is over `maxFileBytes` (its announced `size`, then the bytes read), or
 *    would take the plan over `maxTotalBytes`: `refused`. A read that fails: `failed`.
 * 5. No workspace file: `create`; it needs confirmation when a base is known (the file existed when
 *    the agent saw it, so the person deleted it since).
 * 6. Workspace the same as the agent's: `skipIdentical`.
 * 7. No base: `askOverwrite` (needs confirmation; the glue shows the diff).
 * 8. The agent's the same as the base: `skipIdentical` (the agent left it as it saw it; the
 *    workspace's later edits stand).
 * 9. Workspace the same as the base (by content, or by hash when only the hash is kept):
 *    `overwrite`, clean.
 * 10. Both changed, and the base's content is not kept, or either side is binary: `askOverwrite`.
 * 11. Otherwise `merge3`: clean → `merge`; else `mergeWithConflicts` (conflict markers, needs
 *    confirmation).
 * 12. Files that can run code (`input.runsCode`, see `core/paths/runs-code.ts`): in a workspace that
 *    is not trusted (`input.trusted` false), an agent file (not a deletion) on the list is `refused`
 *    after rule 2, unread; otherwise a write on the list (not a deletion) keeps its action and gets
 *    `runsCode` (why), and `writesOf` leaves it out unless its own confirmation was given.
 *
 * Text written over a workspace file keeps its line endings, byte order mark and trailing-newline
 * rule: an overwrite is a three-way merge with the workspace as the base. A new file is written as
 * the agent made it. `stats` count lines against the workspace file (conflict markers count as
 * added; 0 for binary). `expected` is the workspace file's hash when planned: the glue checks it
 * (`stillAsPlanned`) and the links (`checkInside`) again right before writing, since either may
 * change while the person reads the summary. Files are read one at a time; the plan holds at most
 * `maxTotalBytes` of contents to write. Rules 3 and 5 to 11, and the entries' words, are in
 * `apply-decide.ts`; the summary's words in `apply-summary.ts`.
 */
import { DenError } from '../../core/client/errors';
import { contentHash } from '../../core/merge/hash';
import { checkInside } from '../../core/paths/real-path';
import { l10n } from '../../core/shared/l10n';
import { formatBytes } from '../../core/shared/format';
import { decide, failed, planDeletion, refused } from './apply-decide';
import { workspacePaths } from './workspace-paths';
import type {
  AgentFile,
  ApplyPlan,
  BaseLookup,
  PlanAction,
  PlanEntry,
  PlanFolder,
  PlanInput,
  PlanSummary,
} from './apply-types';

export type * from './apply-types';

const MB = 1024 * 1024;
const WRITES: ReadonlySet<PlanAction> = new Set([
  'create',
  'overwrite',
  'merge',
  'mergeWithConflicts',
  'askOverwrite',
  'delete',
]);

/** Plans applying `input.files` to `input.folder` (see the rules above). Writes nothing. */
export async function planApply(input: PlanInput): Promise<ApplyPlan> {
  const maxFiles = Math.max(0, input.maxFiles ?? 500);
  const maxFileBytes = input.maxFileBytes ?? 5 * MB;
  const maxTotalBytes = input.maxTotalBytes ?? 64 * MB;
  const files = input.files.slice(0, maxFiles);
  const mapped = workspacePaths(
    files.map((f) => f.path),
    input.rules,
  );
  const { folder } = input;
  const entries: PlanEntry[] = [];
  let total = 0;
  for (const [k, file] of files.entries()) {
    if (input.signal?.aborted)
      throw new DenError({ code: 'aborted', message: l10n.t('Planning was cancelled.') });
    const m = mapped[k];
    const why = m.ok && !file.deleted ? input.runsCode?.(m.relPath) : undefined;
    if (!m.ok) entries.push(refused(file.path, m.message, m.relPath));
    else if (why !== undefined && input.trusted === false) {
      const message = l10n.t(
        'Refused {0}: it can run code ({1}), and this workspace is not trusted.',
        m.relPath,
        why,
      );
      entries.push(refused(file.path, message, m.relPath));
    } else {
      const budget = { maxFileBytes, left: maxTotalBytes - total };
      const entry = await planFile(file, m.relPath, folder, input.base, budget);
      if (why !== undefined && writes(entry) && entry.action !== 'delete') entry.runsCode = why;
      total += entry.newContent?.byteLength ?? 0;
      entries.push(entry);
    }
  }
  const leftOut = input.files.length - files.length;
  return { folder: folder.name, entries, leftOut, maxFiles, summary: summarize(entries) };
}

/** Whether an entry writes (or deletes) anything once confirmed. */
export function writes(entry: PlanEntry): boolean {
  return WRITES.has(entry.action);
}

/**
 * The entries to write: those needing no question, and with `confirmed`, the rest too; files that
 * can run code only with `code` (their own confirmation) and `confirmed`.
 */
export function writesOf(plan: ApplyPlan, confirmed: boolean, code = false): PlanEntry[] {
  return plan.entries.filter(
    (e) => writes(e) && (e.runsCode === undefined ? confirmed || e.confirm === undefined : confirmed && code),
  );
}

/**
 * Whether the workspace file (`undefined`: none), read as `folder.readFile` reads it (an editor's
 * text when it has unsaved changes), is still what the entry was planned against.
 */
export function stillAsPlanned(entry: PlanEntry, current: Uint8Array | undefined): boolean {
  if (entry.expected === undefined) return false;
  return entry.expected === (current === undefined ? null : contentHash(current));
}

async function planFile(
  file: AgentFile,
  relPath: string,
  folder: PlanFolder,
  lookup: BaseLookup,
  budget: { maxFileBytes: number; left: number },
): Promise<PlanEntry> {
  const at = { path: file.path, relPath };
  if (folder.realPath) {
    const inside = await checkInside(folder.root, relPath, folder.realPath, {
      caseInsensitive: folder.caseInsensitive,
    });
    if (!inside.ok) return refused(file.path, inside.message, relPath);
  }
  const tooBig = (size: number): string | undefined =>
    size > budget.maxFileBytes
      ? l10n.t(
          "Refused {0}: the agent's version is {1}, more than the {2} Den applies.",
          relPath,
          formatBytes(size),
          formatBytes(budget.maxFileBytes),
        )
      : size > budget.left
        ? l10n.t(
            'Left out {0}: the files before it already fill what one apply holds; apply it on its own.',
            relPath,
          )
        : undefined;
  const announced = file.deleted || file.size === undefined ? undefined : tooBig(file.size);
  if (announced) return refused(file.path, announced, relPath);
  let workspace: Uint8Array | undefined;
  try {
    workspace = await folder.readFile(relPath);
  } catch (err) {
    return failed(at, l10n.t('Could not read {0} in the workspace ({1}).', relPath, messageOf(err)));
  }
  const dirty = workspace !== undefined && folder.isDirty(relPath);
  // A base that cannot be looked up is no base: the stricter path (ask before overwriting).
  const base = await Promise.resolve()
    .then(() => lookup(relPath))
    .catch(() => undefined);
  if (file.deleted) return planDeletion({ ...at, dirty }, workspace, base);
  let agent: Uint8Array;
  try {
    agent = await file.read();
  } catch (err) {
    return failed(at, l10n.t("Could not get the agent's version of {0} ({1}).", relPath, messageOf(err)));
  }
  const over = tooBig(agent.byteLength);
  if (over) return refused(file.path, over, relPath);
  return decide({ ...at, dirty }, workspace, agent, base);
}

function summarize(entries: readonly PlanEntry[]): PlanSummary {
  const s: PlanSummary = {
    newFiles: 0,
    changed: 0,
    deleted: 0,
    identical: 0,
    conflicts: 0,
    conflictFiles: [],
    refused: 0,
    failed: 0,
    dirty: 0,
    needsConfirmation: [],
    runsCode: [],
    added: 0,
    removed: 0,
  };
  for (const e of entries) {
    if (e.action === 'create') s.newFiles++;
    else if (e.action === 'delete') s.deleted++;
    else if (e.action === 'skipIdentical') s.identical++;
    else if (e.action === 'refused') s.refused++;
    else if (e.action === 'failed') s.failed++;
    else s.changed++;
    if (e.conflicts?.length) {
      s.conflicts += e.conflicts.length;
      s.conflictFiles.push(e.relPath ?? e.path);
    }
    if (!writes(e)) continue;
    if (e.dirty) s.dirty++;
    if (e.confirm !== undefined) s.needsConfirmation.push(e.confirm);
    if (e.runsCode !== undefined) s.runsCode.push(l10n.t('{0}: {1}', e.relPath ?? e.path, e.runsCode));
    s.added += e.stats.added;
    s.removed += e.stats.removed;
  }
  return s;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
