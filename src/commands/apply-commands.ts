import type * as vscode from 'vscode';
import { applyAgentFiles, type ApplyDeps, type ApplyOptions, type ApplyResult } from '../files/apply-command';
import { agentFilesOf, type AgentScope } from '../files/apply-sources';
import type { Connection } from '../service/connection';
import { fileOf, missing, rowCommand, sessionOf, turnOf, type RowArg } from './row-args';

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
  const apply = async (sessionId: string, scope: AgentScope, options?: ApplyOptions) => {
    const source = await agentFilesOf(connection.requireClient(), sessionId, scope);
    return applyAgentFiles(deps, sessionId, source, options);
  };
  const command = <A extends unknown[]>(
    id: string,
    doing: string,
    fn: (...args: A) => Promise<ApplyResult | undefined>,
  ) => rowCommand(connection, id, doing, fn);

  return [
    command(
      'den.applyFile',
      'apply the file',
      async (arg?: RowArg, path?: string, options?: ApplyOptions) => {
        const sessionId = sessionOf(arg);
        const file = fileOf(arg, path);
        if (!sessionId || !file) return missing('a file', 'Apply');
        return apply(sessionId, { kind: 'file', path: file }, options);
      },
    ),
    command(
      'den.applyTurn',
      'apply the turn’s files',
      async (arg?: RowArg, turnId?: string, options?: ApplyOptions) => {
        const sessionId = sessionOf(arg);
        const turn = turnOf(arg, turnId);
        if (!sessionId || !turn) return missing('a turn', 'Apply');
        return apply(sessionId, { kind: 'turn', turnId: turn }, options);
      },
    ),
    command('den.applySession', 'apply the session’s files', async (arg?: RowArg, options?: ApplyOptions) => {
      const sessionId = sessionOf(arg);
      if (!sessionId) return missing('a session', 'Apply');
      return apply(sessionId, { kind: 'session' }, options);
    }),
  ];
}
