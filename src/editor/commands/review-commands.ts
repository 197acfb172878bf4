import * as vscode from 'vscode';
import { agentVersionsOf } from '../apply/apply-sources';
import type { ReviewActions } from '../apply/review-actions';
import type { ReviewComments } from '../review-comments/review-comments';
import {
  applyOf,
  openReview,
  reviewEntries,
  reviewTitle,
  type ReviewEntry,
  type ReviewOptions,
  type ReviewResult,
} from '../apply/review-changes';
import { parseSessionFileUri, type SessionFileSystem } from '../session-files/session-fs';
import type { Connection } from '../platform/connection';
import { FileLookupError } from '../../model/session-files/session-files';
import { missing, registerScopeCommands } from './row-args';
import { l10n } from '../../core/shared/l10n';

/**
 * The review commands (`docs/review-and-apply.md`): the workspace beside the agent's files, nothing
 * written. Each takes a Sessions tree row or ids (as the apply commands do) and resolves to a
 * `ReviewResult` (undefined when it failed; failures are shown, not thrown):
 *
 * - `den.reviewSession(sessionId | sessionRow, options?)`: the session's current files.
 * - `den.reviewTurn(sessionId | turnRow, turnId?, options?)`: a turn's files, as that turn left
 *   them (the user or the agent message id names the turn).
 * - `den.compareWithWorkspace(sessionId | fileRow | den-session: URI, path?, options?)`: one file;
 *   without arguments, the active editor's `den-session:` file.
 */
export function registerReviewCommands(
  connection: Connection,
  fs: SessionFileSystem,
  actions: ReviewActions,
  comments: Pick<ReviewComments, 'noteCounterpart'>,
): vscode.Disposable[] {
  const noteCounterpart = (workspace: vscode.Uri, agent: vscode.Uri): void =>
    comments.noteCounterpart(workspace, agent);
  return registerScopeCommands<ReviewOptions, ReviewResult>(
    connection,
    l10n.t('Review Changes'),
    {
      session: { id: 'den.reviewSession', doing: l10n.t('review the session’s changes') },
      turn: { id: 'den.reviewTurn', doing: l10n.t('review the turn’s changes') },
      file: {
        id: 'den.compareWithWorkspace',
        doing: l10n.t('compare the file with the workspace'),
        action: l10n.t('Compare with Workspace'),
      },
    },
    async (sessionId, scope, options) => {
      const source = await agentVersionsOf(connection.requireClient(), sessionId, scope);
      const entries = reviewEntries(sessionId, source, scope.kind === 'turn');
      return openReview(entries, { title: reviewTitle(source), what: source.what }, options, {
        actions,
        apply: applyOf(sessionId, scope),
        noteCounterpart,
        scope: { sessionId, scope },
        // Compare of a turn's file (the panel): its title bar also applies the whole turn.
        ...(scope.kind === 'file' && options?.turn
          ? { applyTurn: applyOf(sessionId, { kind: 'turn', turnId: options.turn }) }
          : {}),
      });
    },
    (arg, options) => {
      // The editor title action passes the agent file's URI; the palette, nothing (the active editor's).
      const uri =
        arg instanceof vscode.Uri ? arg : arg ? undefined : vscode.window.activeTextEditor?.document.uri;
      if (!uri) return undefined;
      return (async () => {
        const entry = await openedFile(fs, uri);
        if (!entry) return missing('file', l10n.t('Compare with Workspace'));
        const target = parseSessionFileUri(uri);
        return openReview(
          [entry],
          { title: entry.path, what: entry.path },
          options,
          target && {
            actions,
            apply: applyOf(target.sessionId, { kind: 'file', path: entry.path }),
            noteCounterpart,
          },
        );
      })();
    },
  );
}

/**
 * A `den-session:` file as a review entry: the agent's side is that URI (its version, if it names
 * one); the path is the file's name as the session gives it (`/workspace/src/a.ts`), else the URI's.
 */
async function openedFile(fs: SessionFileSystem, uri: vscode.Uri): Promise<ReviewEntry | undefined> {
  const target = parseSessionFileUri(uri);
  if (!target?.path) return undefined;
  const st = await fs.files.stat(target.sessionId, target.path).catch((err: unknown) => {
    if (err instanceof FileLookupError) return undefined;
    throw err;
  });
  const name = st?.type === 'file' && st.file.name ? st.file.name : target.path;
  return { path: name, agent: uri };
}
