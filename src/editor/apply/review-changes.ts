/**
 * Review Changes: the workspace beside the agent, without writing anything. The left side of each
 * pair is the workspace file (`file:` or the folder's scheme; absent for a file the agent created),
 * the right side the agent's version as a `den-session:` URI (a turn's own version for a turn;
 * absent for a file the agent deleted). One file opens VS Code's diff editor (`vscode.diff`),
 * several its multi-file diff editor (`vscode.changes`). Paths map to the folder exactly as Apply
 * maps them (`model/apply/workspace-paths.ts`); refused paths are named in a warning, never opened.
 */
import { sessionFilePath } from '../../model/session-files/file-index';
import { workspacePaths } from '../../model/apply/workspace-paths';
import { formatCount, l10n } from '../../core/shared/l10n';
import * as vscode from 'vscode';
import { chooseFolder, fileUri, type FolderWords } from './apply-folder';
import { EMPTY_URI } from './apply-review';
import type { AgentScope, AgentVersion, AgentVersions } from './apply-sources';
import type { ReviewedVersionOf } from '../../protocol/session-panel/reviewed';
import type { ReviewActions, ShownFile, ShownReview } from './review-actions';
import { sessionFileShownAt, sessionFileUri } from '../session-files/session-fs';
import { stepDone } from '../platform/walkthrough-steps';

/** One file to review: the agent's path (as the sandbox names it) and its version, or none when deleted. */
export interface ReviewEntry {
  path: string;
  agent: vscode.Uri | undefined;
  /** The session's file at the version shown, for reviewed marks (`model/review/review-marks.ts`). */
  mark?: Omit<ShownFile, 'uri'>;
}

/** What a review opened, for tests and other extensions (URIs as strings). */
export interface ReviewResult {
  opened: 'diff' | 'changes' | 'none';
  title?: string;
  /** Workspace-relative path, workspace side (undefined: none), agent side (undefined: deleted). */
  pairs: { relPath: string; original?: string; modified?: string }[];
  /** The refused paths, as the agent named them. */
  refused: string[];
}

export interface ReviewOptions {
  /** The workspace folder (URI string); default: the only one, or a quick pick. */
  folder?: string;
  /**
   * Compare with Workspace of a turn's file (the Session panel's Compare): that turn's id, so the
   * review's title bar also offers Apply the Whole Turn.
   */
  turn?: string;
}

/** What the review's title bar Apply does (`ReviewActions`): applies its scope to `folder`. */
export interface ReviewApply {
  actions: ReviewActions;
  apply(folder: vscode.WorkspaceFolder): Thenable<unknown>;
  /** Applies the whole turn the one file shown belongs to (with `ReviewOptions.turn`). */
  applyTurn?(folder: vscode.WorkspaceFolder): Thenable<unknown>;
  /** Told each workspace file shown beside an agent's file (it then takes line comments). */
  noteCounterpart?(workspace: vscode.Uri, agent: vscode.Uri): void;
  /** The session and scope shown (a review of a session, a turn or a file). */
  scope?: ShownReview['scope'];
}

const reviewWords = (): FolderWords => ({
  none: l10n.t('Review compares the agent’s files with a workspace folder, and this window has none.'),
  title: l10n.t('Den: Compare with Which Folder?'),
  placeHolder: l10n.t('The workspace folder to compare the agent’s files with'),
});

/**
 * The entries of a scope: each version as a `den-session:` URI; with `versioned` (a turn's files),
 * the URI names exactly that version, which later turns do not change.
 */
export function reviewEntries(sessionId: string, source: AgentVersions, versioned: boolean): ReviewEntry[] {
  return [...source.files].map(([path, v]) => ({
    path,
    agent: v.deleted
      ? undefined
      : sessionFileUri(sessionId, sessionFilePath(sessionId, path), versioned ? v.info : undefined),
    mark: { sessionId, path, ...versionOf(v) },
  }));
}

/** The version of a scope's file a reviewed mark names: its key and `updatedAt`, or a deletion. */
export function versionOf(v: AgentVersion): ReviewedVersionOf {
  if (v.deleted) return { deleted: true };
  return v.info.updatedAt === undefined
    ? { key: v.info.key }
    : { key: v.info.key, updatedAt: v.info.updatedAt };
}

/** The title bar's Apply of a review: the same scope's apply command, to the reviewed folder. */
export const applyOf =
  (sessionId: string, scope: AgentScope) =>
  (folder: vscode.WorkspaceFolder): Thenable<unknown> => {
    const options = { folder: folder.uri.toString() };
    if (scope.kind === 'turn')
      return vscode.commands.executeCommand('den.applyTurn', sessionId, scope.turnId, options);
    if (scope.kind === 'file')
      return vscode.commands.executeCommand('den.applyFile', sessionId, scope.path, options);
    return vscode.commands.executeCommand('den.applySession', sessionId, options);
  };

/** The title of a multi-file review of `source`. */
export function reviewTitle(source: Pick<AgentVersions, 'title' | 'turn'>): string {
  return source.turn !== undefined
    ? l10n.t('Den: Changes of {0} — {1}', source.turn, source.title)
    : l10n.t('Den: Changes of “{0}”', source.title);
}

/** Chooses the folder, pairs the entries with it and opens the diff; says when there is nothing to show. */
export async function openReview(
  entries: readonly ReviewEntry[],
  labels: { title: string; what: string },
  options: ReviewOptions = {},
  shown?: ReviewApply,
): Promise<ReviewResult> {
  const folder = await chooseFolder(options.folder, reviewWords());
  if (!folder) return { opened: 'none', pairs: [], refused: [] };
  const mapped = workspacePaths(entries.map((e) => e.path));
  const refused: string[] = [];
  const reasons: string[] = [];
  const pairs: [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined][] = [];
  const result: ReviewResult['pairs'] = [];
  const files: ShownFile[] = [];
  for (const [k, entry] of entries.entries()) {
    const m = mapped[k];
    if (!m.ok) {
      refused.push(entry.path);
      reasons.push(m.message);
      continue;
    }
    const target = fileUri(folder, m.relPath);
    const original = (await exists(target)) ? target : undefined;
    // Deleted by the agent and absent here: nothing to compare.
    if (!original && !entry.agent) continue;
    // The agent's side under the workspace file's path: the editor shows a change, not a rename.
    const modified = entry.agent && (sessionFileShownAt(entry.agent, target) ?? entry.agent);
    if (entry.agent) shown?.noteCounterpart?.(target, entry.agent);
    pairs.push([target, original, modified]);
    if (entry.mark) files.push({ ...entry.mark, ...(modified ? { uri: modified.toString() } : {}) });
    result.push({
      relPath: m.relPath,
      ...(original ? { original: original.toString() } : {}),
      ...(modified ? { modified: modified.toString() } : {}),
    });
  }
  if (refused.length > 0) {
    void vscode.window.showWarningMessage(
      refused.length === 1
        ? l10n.t('Den: not shown, a path Den refuses: {0}', reasons.join(' '))
        : l10n.t(
            'Den: not shown, {0} paths Den refuses: {1}',
            formatCount(refused.length),
            reasons.join(' '),
          ),
    );
  }
  if (pairs.length === 0) {
    void vscode.window.showInformationMessage(l10n.t('Den: no changes to review in {0}.', labels.what));
    return { opened: 'none', pairs: [], refused };
  }
  stepDone('apply');
  // Apply and Discard in the review's title bar (an Apply of the same scope, to the same folder).
  const register = (keys: string[]): void =>
    shown?.actions.register(keys, {
      apply: () => shown.apply(folder),
      ...(shown.applyTurn && pairs.length === 1 ? { applyTurn: () => shown.applyTurn!(folder) } : {}),
      files,
      scope: shown.scope,
    });
  if (pairs.length === 1) {
    const [, original, agent] = pairs[0];
    const title = l10n.t('{0} (workspace) ↔ Den: agent', result[0].relPath);
    register([(agent ?? EMPTY_URI).toString(), title]);
    await vscode.commands.executeCommand('vscode.diff', original ?? EMPTY_URI, agent ?? EMPTY_URI, title, {
      preview: true,
    });
    return { opened: 'diff', title, pairs: result, refused };
  }
  register([labels.title]);
  await vscode.commands.executeCommand('vscode.changes', labels.title, pairs);
  return { opened: 'changes', title: labels.title, pairs: result, refused };
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return false;
    throw err;
  }
}
