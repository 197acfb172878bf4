/**
 * What the Apply and Review commands share: their arguments (a Sessions tree row, or ids) and how
 * they run (after the connection's first keys; failures shown, never thrown).
 */
import * as vscode from 'vscode';
import type { Connection } from '../service/connection';
import type { SessionNode } from '../sessions/tree-nodes';
import { showError } from '../ui/show-error';

/** A command's first argument: a Sessions tree row or a session id. */
export type RowArg = SessionNode | string | undefined;

/** The session a row or id names. */
export function sessionOf(arg: RowArg): string | undefined {
  return typeof arg === 'string' ? arg : arg && 'sessionId' in arg ? arg.sessionId : undefined;
}

/** The turn a turn row names (its user message id), else `turnId`. */
export function turnOf(arg: RowArg, turnId: string | undefined): string | undefined {
  return typeof arg === 'object' && arg.kind === 'turn' ? arg.message.id : turnId;
}

/** The path a file row names (the file's name, else its snapshot key), else `path`. */
export function fileOf(arg: RowArg, path: string | undefined): string | undefined {
  return typeof arg === 'object' && arg.kind === 'file' ? arg.file.name || arg.path : path;
}

/** Says where the command is run from when its arguments name nothing; resolves to undefined. */
export function missing(what: string, action: string): undefined {
  void vscode.window.showInformationMessage(
    `Den: choose ${what} in the Sessions view, then ${action} from its menu.`,
  );
  return undefined;
}

/** Registers a command that waits for the connection and shows its failure (`doing`: "apply the file"). */
export function rowCommand<A extends unknown[], R>(
  connection: Connection,
  id: string,
  doing: string,
  fn: (...args: A) => Promise<R | undefined>,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: A): Promise<R | undefined> => {
    try {
      await connection.ready;
      return await fn(...args);
    } catch (err) {
      void showError(err, doing);
      return undefined;
    }
  });
}
