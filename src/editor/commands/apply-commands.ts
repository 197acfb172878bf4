import type * as vscode from 'vscode';
import { applyAgentFiles, type ApplyDeps, type ApplyOptions, type ApplyResult } from '../apply/apply-command';
import { agentFilesOf } from '../apply/apply-sources';
import type { Connection } from '../platform/connection';
import { registerScopeCommands } from './row-args';
import { l10n } from '../../core/shared/l10n';

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
  return registerScopeCommands<ApplyOptions, ApplyResult>(
    connection,
    l10n.t('Apply'),
    {
      session: { id: 'den.applySession', doing: l10n.t('apply the session’s files') },
      turn: { id: 'den.applyTurn', doing: l10n.t('apply the turn’s files') },
      file: { id: 'den.applyFile', doing: l10n.t('apply the file') },
    },
    async (sessionId, scope, options) => {
      const source = await agentFilesOf(connection.requireClient(), sessionId, scope);
      return applyAgentFiles(deps, sessionId, source, options);
    },
  );
}
