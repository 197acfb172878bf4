import * as vscode from 'vscode';
import { applyAgentFiles, type ApplyDeps, type ApplyOptions, type ApplyResult } from '../files/apply-command';
import { agentFilesOf } from '../files/apply-sources';
import type { Connection } from '../service/connection';
import type { SessionNode } from '../sessions/tree-nodes';
import { showError } from '../ui/show-error';

/**
 * The apply commands (`docs/review-and-apply.md`). Each takes a Sessions tree row or ids, resolves
 * to an `ApplyResult` (undefined when it failed; failures are shown, not thrown):
 *
 * - `den.applyFile(sessionId | fileRow, path?, options?)`: one of the session's files.
 * - `den.applyTurn(sessionId | turnRow, turnId?, options?)`: a turn's files (the user or the agent
 *   message id names the turn).
 * - `den.applySession(sessionId | sessionRow, options?)`: the session's current files.
 */
export function registerApplyCommands(connection: Connection, deps: ApplyDeps): vscode.Disposable[] {
  const command = <A extends unknown[]>(
    id: string,
    doing: string,
    fn: (...args: A) => Promise<ApplyResult | undefined>,
  ): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: A): Promise<ApplyResult | undefined> => {
      try {
        await connection.ready;
        return await fn(...args);
      } catch (err) {
        void showError(err, doing);
        return undefined;
      }
    });
  const sessionOf = (arg: SessionNode | string | undefined): string | undefined =>
    typeof arg === 'string' ? arg : arg && 'sessionId' in arg ? arg.sessionId : undefined;
  const missing = (what: string): undefined => {
    void vscode.window.showInformationMessage(
      `Den: choose ${what} in the Sessions view, then Apply from its menu.`,
    );
    return undefined;
  };

  return [
    command(
      'den.applyFile',
      'apply the file',
      async (arg?: SessionNode | string, path?: string, options?: ApplyOptions) => {
        const sessionId = sessionOf(arg);
        const file = typeof arg === 'object' && arg.kind === 'file' ? arg.file.name || arg.path : path;
        if (!sessionId || !file) return missing('a file');
        const client = connection.requireClient();
        const source = await agentFilesOf(client, sessionId, { kind: 'file', path: file });
        return applyAgentFiles(deps, sessionId, source, options);
      },
    ),
    command(
      'den.applyTurn',
      'apply the turn’s files',
      async (arg?: SessionNode | string, turnId?: string, options?: ApplyOptions) => {
        const sessionId = sessionOf(arg);
        const turn = typeof arg === 'object' && arg.kind === 'turn' ? arg.message.id : turnId;
        if (!sessionId || !turn) return missing('a turn');
        const client = connection.requireClient();
        const source = await agentFilesOf(client, sessionId, { kind: 'turn', turnId: turn });
        return applyAgentFiles(deps, sessionId, source, options);
      },
    ),
    command(
      'den.applySession',
      'apply the session’s files',
      async (arg?: SessionNode | string, options?: ApplyOptions) => {
        const sessionId = sessionOf(arg);
        if (!sessionId) return missing('a session');
        const client = connection.requireClient();
        const source = await agentFilesOf(client, sessionId, { kind: 'session' });
        return applyAgentFiles(deps, sessionId, source, options);
      },
    ),
  ];
}
