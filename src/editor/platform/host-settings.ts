import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import type { HostSettings } from '../../model/session/session-host';
import type { Connection } from './connection';

/**
 * What the session hosts read of the settings now: the service's name for the panel header, the
 * base prompt, VS Code's l10n bundle for the webview, and why the composer cannot send, if it cannot.
 */
export function hostSettings(connection: Connection): HostSettings {
  const s = connection.settings;
  const basePrompt = vscode.workspace.getConfiguration('den').get<string>('basePrompt');
  const out: HostSettings = { service: serviceName(s.baseUrl), l10n: vscode.l10n.bundle };
  if (typeof basePrompt === 'string' && basePrompt.trim()) out.basePrompt = basePrompt;
  if (!connection.client) {
    const state = connection.state.kind;
    out.disabledReason = !s.baseUrl
      ? l10n.t('Set the service URL to send (Den: Configure Service URL).')
      : state === 'starting'
        ? l10n.t('Reading your API key…')
        : l10n.t('Sign in to send (Den: Set API Key).');
  }
  return out;
}

/** The service's host name, for the tooltip of the panel header's connection state. */
function serviceName(baseUrl: string | undefined): string {
  if (!baseUrl) return '';
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}
