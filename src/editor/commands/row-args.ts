/**
 * What the Apply and Review commands share: their arguments (a Sessions tree row, or ids) and how
 * they run (after the connection's first keys; failures shown, never thrown).
 */
import * as vscode from 'vscode';
import type { AgentScope } from '../apply/apply-sources';
import type { Connection } from '../platform/connection';
import type { SessionNode } from '../sessions-view/tree-nodes';
import { guarded } from './guarded';
import { l10n } from '../../core/shared/l10n';

/** A command's first argument: a Sessions tree row or a session id. */
export type RowArg = SessionNode | string | undefined;

/** The session a row or id names. */
function sessionOf(arg: RowArg): string | undefined {
  return typeof arg === 'string' ? arg : arg && 'sessionId' in arg ? arg.sessionId : undefined;
}

/** The turn a turn row names (its user message id), else `turnId`. */
function turnOf(arg: RowArg, turnId: string | undefined): string | undefined {
  return typeof arg === 'object' && arg.kind === 'turn' ? arg.message.id : turnId;
}

/** The path a file row names (the file's name, else its snapshot key), else `path`. */
function fileOf(arg: RowArg, path: string | undefined): string | undefined {
  return typeof arg === 'object' && arg.kind === 'file' ? arg.file.name || arg.path : path;
}

/** Says where the command is run from when its arguments name nothing; resolves to undefined. */
export function missing(what: AgentScope['kind'], action: string): undefined {
  void vscode.window.showInformationMessage(
    what === 'session'
      ? l10n.t('Den: choose a session in the Sessions view, then {0} from its menu.', action)
      : what === 'turn'
        ? l10n.t('Den: choose a turn in the Sessions view, then {0} from its menu.', action)
        : l10n.t('Den: choose a file in the Sessions view, then {0} from its menu.', action),
  );
  return undefined;
}

/** Registers a command that waits for the connection and shows its failure (`doing`: "apply the file"). */
function rowCommand<A extends unknown[], R>(
  connection: Connection,
  id: string,
  doing: string,
  fn: (...args: A) => Promise<R | undefined>,
): vscode.Disposable {
  return vscode.commands.registerCommand(
    id,
    guarded(doing, async (...args: A): Promise<R | undefined> => {
      await connection.ready;
      return fn(...args);
    }),
  );
}

/** A scope command's id and what it does, for its error ("apply the turn’s files"). */
export interface ScopeCommand {
  id: string;
  doing: string;
  /** The menu item named when the arguments name nothing (default: the commands' `action`). */
  action?: string;
}

/**
 * Registers a command for each scope, with the arguments the Sessions tree passes or ids:
 * `session(sessionId | sessionRow, options?)`, `turn(sessionId | turnRow, turnId?, options?)` and
 * `file(sessionId | fileRow, path?, options?)`; `run` does the work. `action` names the menu item
 * when the arguments name nothing. `otherFile` may take the file command's arguments first (a URI).
 */
export function registerScopeCommands<O, R>(
  connection: Connection,
  action: string,
  ids: Record<AgentScope['kind'], ScopeCommand>,
  run: (sessionId: string, scope: AgentScope, options?: O) => Promise<R | undefined>,
  otherFile?: (arg: unknown, options?: O) => Promise<R | undefined> | undefined,
): vscode.Disposable[] {
  const at = (c: ScopeCommand, fn: (...args: never[]) => Promise<R | undefined>) =>
    rowCommand(connection, c.id, c.doing, fn);
  return [
    at(ids.session, async (arg?: RowArg, options?: O) => {
      const sessionId = sessionOf(arg);
      if (!sessionId) return missing('session', action);
      return run(sessionId, { kind: 'session' }, options);
    }),
    at(ids.turn, async (arg?: RowArg, turnId?: string, options?: O) => {
      const sessionId = sessionOf(arg);
      const turn = turnOf(arg, turnId);
      if (!sessionId || !turn) return missing('turn', action);
      return run(sessionId, { kind: 'turn', turnId: turn }, options);
    }),
    at(ids.file, async (arg?: RowArg, path?: string, options?: O) => {
      const other = otherFile?.(arg, options);
      if (other) return other;
      const sessionId = sessionOf(arg);
      const file = fileOf(arg, path);
      if (!sessionId || !file) return missing('file', ids.file.action ?? action);
      return run(sessionId, { kind: 'file', path: file }, options);
    }),
  ];
}
