/**
 * The decision for one agent file whose path is safe and whose versions are read: rules 3 and 5 to
 * 11 of `apply-plan.ts`, and the entries' wording. Pure; no `vscode`.
 */
import { contentHash } from '../../core/merge/hash';
import { lineStats, merge3, same, type LineStats } from '../../core/merge/merge';
import { decodeText } from '../../core/merge/text';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { PlanAction, PlanBase, PlanEntry } from './apply-types';

const encoder = new TextEncoder();
const NONE: LineStats = { added: 0, removed: 0 };

export interface At {
  path: string;
  relPath: string;
  dirty: boolean;
}

export function planDeletion(
  at: At,
  workspace: Uint8Array | undefined,
  base: PlanBase | undefined,
): PlanEntry {
  if (workspace === undefined) {
    return skip(at, null, l10n.t('The agent deleted it, and the workspace has no such file.'));
  }
  const why: string[] = [];
  if (at.dirty) why.push(l10n.t('it has unsaved changes'));
  if (!base) why.push(l10n.t('Den does not know what the agent saw of it'));
  else if (!sameAsBase(workspace, base))
    why.push(l10n.t('it changed in the workspace after the agent saw it'));
  return {
    ...at,
    action: 'delete',
    binary: decodeText(workspace) === undefined,
    stats: lineStats(workspace, '') ?? NONE,
    confirm: why.length
      ? l10n.t('Delete {0} ({1}).', at.relPath, why.join('; '))
      : l10n.t('Delete {0}.', at.relPath),
    expected: contentHash(workspace),
  };
}

/** Steps 5 to 11 of the rules above, for an agent file that exists. */
export function decide(
  at: At,
  workspace: Uint8Array | undefined,
  agent: Uint8Array,
  base: PlanBase | undefined,
): PlanEntry {
  const rel = at.relPath;
  if (workspace === undefined) {
    const again = base
      ? l10n.t('Create {0} again (it was deleted in the workspace after the agent saw it).', rel)
      : '';
    return write(at, 'create', undefined, agent, { confirm: again || undefined });
  }
  const why = (...reasons: string[]): string =>
    [...reasons, ...(at.dirty ? [l10n.t('it has unsaved changes')] : [])].join('; ');
  /**
   * `reason`: the sentence; `clause`: the same words inside the confirmation's parentheses. The
   * confirmation says what replacing loses: the workspace lines not in the agent's version.
   */
  const ask = (reason: string, clause: string, content = inWorkspaceStyle(workspace, agent)): PlanEntry =>
    write(at, 'askOverwrite', workspace, content, {
      reason,
      confirm: replaceConfirm(rel, at.dirty, lineStats(workspace, content), why(clause)),
    });
  if (same(workspace, agent)) return skip(at, workspace, l10n.t('It is already the same in the workspace.'));
  if (!base) {
    return ask(
      l10n.t(
        'Den does not know what the agent saw of it, so it cannot keep your edits: replacing loses them.',
      ),
      l10n.t('Den does not know what the agent saw of it, so it cannot merge'),
    );
  }
  if (sameAsBase(agent, base)) {
    return skip(at, workspace, l10n.t("The agent left it as it saw it; the workspace's later edits stand."));
  }
  if (sameAsBase(workspace, base))
    return write(at, 'overwrite', workspace, inWorkspaceStyle(workspace, agent));
  if (!base.content) {
    return ask(
      l10n.t('Both changed it, and Den kept only the hash of what the agent saw, so it cannot merge.'),
      l10n.t('both changed it, and Den kept only the hash of what the agent saw, so it cannot merge'),
    );
  }
  const merged = merge3({ base: base.content, ours: workspace, theirs: agent });
  if (merged.binary) {
    return ask(
      l10n.t('Both changed it, and it is not text, so it cannot be merged.'),
      l10n.t('both changed it, and it is not text, so it cannot be merged'),
      agent,
    );
  }
  if (merged.clean) {
    return write(at, 'merge', workspace, encoder.encode(merged.text), {
      reason: l10n.t("Merged with the workspace's changes."),
    });
  }
  const n = merged.conflicts.length;
  return write(at, 'mergeWithConflicts', workspace, encoder.encode(merged.text), {
    conflicts: merged.conflicts,
    reason:
      n === 1
        ? l10n.t('Both changed the same lines: 1 conflict.')
        : l10n.t('Both changed the same lines: {0} conflicts.', formatCount(n)),
    confirm: at.dirty
      ? n === 1
        ? l10n.t('Write 1 conflict with conflict markers into {0} ({1}).', rel, why())
        : l10n.t('Write {0} conflicts with conflict markers into {1} ({2}).', formatCount(n), rel, why())
      : n === 1
        ? l10n.t('Write 1 conflict with conflict markers into {0}.', rel)
        : l10n.t('Write {0} conflicts with conflict markers into {1}.', formatCount(n), rel),
  });
}

/**
 * The question before replacing a workspace file without a merge, with what is lost: the lines of
 * the workspace file (saved, or the editor's text) that are not in the agent's version. Such as
 * "Replace src/x.ts: 12 saved lines not in the agent's version will be lost (…)."
 */
export function replaceConfirm(
  rel: string,
  dirty: boolean,
  stats: LineStats | undefined,
  clause: string,
): string {
  if (!stats)
    return l10n.t(
      "Replace {0}: its content will be lost, the agent's version replaces it ({1}).",
      rel,
      clause,
    );
  const n = stats.removed;
  if (n === 0)
    return l10n.t("Replace {0} with the agent's version: no line of it is lost ({1}).", rel, clause);
  if (dirty) {
    return n === 1
      ? l10n.t(
          "Replace {0}: 1 line of the editor's text not in the agent's version will be lost ({1}).",
          rel,
          clause,
        )
      : l10n.t(
          "Replace {0}: {1} lines of the editor's text not in the agent's version will be lost ({2}).",
          rel,
          formatCount(n),
          clause,
        );
  }
  return n === 1
    ? l10n.t("Replace {0}: 1 saved line not in the agent's version will be lost ({1}).", rel, clause)
    : l10n.t(
        "Replace {0}: {1} saved lines not in the agent's version will be lost ({2}).",
        rel,
        formatCount(n),
        clause,
      );
}

/**
 * The agent's text with the workspace file's line endings, byte order mark and trailing-newline
 * rule (a three-way merge with the workspace as the base); bytes as they are when either is binary.
 */
function inWorkspaceStyle(workspace: Uint8Array, agent: Uint8Array): Uint8Array {
  const m = merge3({ base: workspace, ours: workspace, theirs: agent });
  return m.binary ? agent : encoder.encode(m.text);
}

function sameAsBase(content: Uint8Array, base: PlanBase): boolean {
  return base.content ? same(content, base.content) : contentHash(content) === base.hash;
}

function write(
  at: At,
  action: PlanAction,
  workspace: Uint8Array | undefined,
  newContent: Uint8Array,
  extra: Pick<PlanEntry, 'conflicts' | 'reason' | 'confirm'> = {},
): PlanEntry {
  const stats = lineStats(workspace ?? '', newContent);
  const entry: PlanEntry = {
    ...at,
    action,
    newContent,
    binary: stats === undefined,
    stats: stats ?? NONE,
    expected: workspace === undefined ? null : contentHash(workspace),
  };
  if (extra.conflicts) entry.conflicts = extra.conflicts;
  if (extra.reason) entry.reason = extra.reason;
  if (extra.confirm) entry.confirm = extra.confirm;
  return entry;
}

export function skip(at: At, workspace: Uint8Array | null, reason: string): PlanEntry {
  const binary = workspace !== null && decodeText(workspace) === undefined;
  const expected = workspace === null ? null : contentHash(workspace);
  return { ...at, action: 'skipIdentical', binary, stats: NONE, reason, expected };
}

export function refused(path: string, reason: string, relPath?: string): PlanEntry {
  const entry: PlanEntry = { path, action: 'refused', binary: false, stats: NONE, reason, dirty: false };
  if (relPath !== undefined) entry.relPath = relPath;
  return entry;
}

export function failed(at: { path: string; relPath: string }, reason: string): PlanEntry {
  return { ...at, action: 'failed', binary: false, stats: NONE, reason, dirty: false };
}
