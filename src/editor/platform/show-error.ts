import * as vscode from 'vscode';
import { presentError } from '../../model/shared/error-text';

/** Shows an error as a notification with its action buttons; runs the chosen command. */
export async function showError(err: unknown, doing: string, secret?: string): Promise<void> {
  const p = presentError(err, doing, secret);
  const show = p.transient ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  const picked = await show(p.message, ...p.actions.map((a) => a.title));
  const action = p.actions.find((a) => a.title === picked);
  if (action) await vscode.commands.executeCommand(action.command);
}
