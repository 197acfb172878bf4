/**
 * Hunk by hunk, as Apply plans: one agent file's three versions read as the planner reads them (the
 * workspace file or its editor's unsaved text, the recorded base), its hunks (`core/merge/hunks.ts`)
 * and the plan entry that writes a chosen subset, checked and written by Apply's own edit
 * (`editor/apply/apply-edit.ts`: checked again right before writing, one `WorkspaceEdit`, dirty
 * editors edited in memory). Pure; no `vscode`.
 */
import { contentHash } from '../../core/merge/hash';
import {
  agentHunks,
  applyHunks,
  hunkCounts,
  type HunkChoice,
  type HunksResult,
} from '../../core/merge/hunks';
import { lineStats } from '../../core/merge/merge';
import type { BaseLookup, PlanEntry, PlanFolder } from './apply-types';

/** One agent file's versions, as read for a hunk decision. */
export interface HunkFile {
  /** The agent's path (as the service names it) and the path in the folder. */
  path: string;
  relPath: string;
  /** The agent's bytes; undefined: the agent deleted it. */
  agent: Uint8Array | undefined;
  /** The workspace file (an editor's unsaved text); undefined: none. */
  workspace: Uint8Array | undefined;
  /** What the agent saw, when Den knows it as content (a hash matching the workspace counts). */
  base: Uint8Array | undefined;
  dirty: boolean;
}

/** Reads the workspace side and the base of an agent file whose path maps to `relPath`. */
export async function readHunkFile(
  folder: PlanFolder,
  bases: BaseLookup,
  at: { path: string; relPath: string },
  agent: Uint8Array | undefined,
): Promise<HunkFile> {
  const [workspace, base] = await Promise.all([folder.readFile(at.relPath), bases(at.relPath)]);
  // Only a hash kept: still the base when the workspace is exactly what the agent saw.
  const content =
    base?.content ?? (base && workspace && contentHash(workspace) === base.hash ? workspace : undefined);
  return { ...at, agent, workspace, base: content, dirty: folder.isDirty(at.relPath) };
}

export function hunksOfFile(f: HunkFile): HunksResult {
  return agentHunks({ base: f.base, workspace: f.workspace, agent: f.agent });
}

/** `partly` when some but not all of the agent's hunks are in the workspace (with the counts). */
export function partlyApplied(f: HunkFile): { applied: number; total: number } | undefined {
  const r = hunksOfFile(f);
  if (!r.ok || !r.hasBase) return undefined;
  const counts = hunkCounts(r.hunks);
  return counts.applied > 0 && counts.applied < counts.total ? counts : undefined;
}

export type HunkEntry =
  { ok: true; entry: PlanEntry | undefined; conflicts: number } | { ok: false; reason: 'deleted' | 'binary' };

/**
 * The plan entry that writes the chosen hunks (`merge`, `mergeWithConflicts` for an accepted
 * conflict, or `create` when there is no workspace file yet), or none when nothing needs writing.
 */
export function hunkEntry(f: HunkFile, choice: HunkChoice): HunkEntry {
  const r = applyHunks({ base: f.base, workspace: f.workspace, agent: f.agent }, choice);
  if (!r.ok) return r;
  if (!r.changed) return { ok: true, entry: undefined, conflicts: 0 };
  const newContent = new TextEncoder().encode(r.text);
  const stats = lineStats(f.workspace ?? '', newContent) ?? { added: 0, removed: 0 };
  const entry: PlanEntry = {
    path: f.path,
    relPath: f.relPath,
    action: f.workspace === undefined ? 'create' : r.conflicts.length > 0 ? 'mergeWithConflicts' : 'merge',
    newContent,
    binary: false,
    stats,
    dirty: f.dirty,
    expected: f.workspace === undefined ? null : contentHash(f.workspace),
  };
  if (r.conflicts.length > 0) entry.conflicts = r.conflicts;
  return { ok: true, entry, conflicts: r.conflicts.length };
}
