import * as vscode from 'vscode';

/** Placeholder entry point; the real activation arrives with the Sessions tree. */
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.window.createOutputChannel('Den', { log: true }));
}

export function deactivate(): void {}
