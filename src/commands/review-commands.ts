import * as vscode from 'vscode';
import { agentVersionsOf, type AgentScope } from '../files/apply-sources';
import {
  openReview,
  reviewEntries,
  reviewTitle,
  type ReviewEntry,
  type ReviewOptions,
  type ReviewResult,
} from '../files/review-changes';
import { parseSessionFileUri, type SessionFileSystem } from '../files/session-fs';
import type { Connection } from '../service/connection';
import { FileLookupError } from '../session/session-files';
import { fileOf, missing, rowCommand, sessionOf, turnOf, type RowArg } from './row-args';

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
export function registerReviewCommands(connection: Connection, fs: SessionFileSystem): vscode.Disposable[] {
  const review = async (sessionId: string, scope: AgentScope, options?: ReviewOptions) => {
    const source = await agentVersionsOf(connection.requireClient(), sessionId, scope);
    const entries = reviewEntries(sessionId, source, scope.kind === 'turn');
    return openReview(entries, { title: reviewTitle(source), what: source.what }, options);
  };
  const command = <A extends unknown[]>(
    id: string,
    doing: string,
    fn: (...args: A) => Promise<ReviewResult | undefined>,
  ) => rowCommand(connection, id, doing, fn);

  return [
    command(
      'den.reviewSession',
      'review the session’s changes',
      async (arg?: RowArg, options?: ReviewOptions) => {
        const sessionId = sessionOf(arg);
        if (!sessionId) return missing('a session', 'Review Changes');
        return review(sessionId, { kind: 'session' }, options);
      },
    ),
    command(
      'den.reviewTurn',
      'review the turn’s changes',
      async (arg?: RowArg, turnId?: string, options?: ReviewOptions) => {
        const sessionId = sessionOf(arg);
        const turn = turnOf(arg, turnId);
        if (!sessionId || !turn) return missing('a turn', 'Review Changes');
        return review(sessionId, { kind: 'turn', turnId: turn }, options);
      },
    ),
    command(
      'den.compareWithWorkspace',
      'compare the file with the workspace',
      async (arg?: RowArg | vscode.Uri, path?: string, options?: ReviewOptions) => {
        const uri =
          arg instanceof vscode.Uri ? arg : arg ? undefined : vscode.window.activeTextEditor?.document.uri;
        if (uri) {
          const entry = await openedFile(fs, uri);
          if (!entry) return missing('a file', 'Compare with Workspace');
          return openReview([entry], { title: entry.path, what: entry.path }, options);
        }
        const row = arg instanceof vscode.Uri ? undefined : arg;
        const sessionId = sessionOf(row);
        const file = fileOf(row, path);
        if (!sessionId || !file) return missing('a file', 'Compare with Workspace');
        return review(sessionId, { kind: 'file', path: file }, options);
      },
    ),
  ];
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
