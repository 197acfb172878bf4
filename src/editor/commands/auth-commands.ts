import * as vscode from 'vscode';
import { SecretStorageUnavailable, type KeyStore } from '../platform/key-store';
import { validateBaseUrl } from '../platform/settings';
import { DenError } from '../../core/client/errors';
import type { Connection } from '../platform/connection';
import { showError } from '../platform/show-error';
import { l10n } from '../../core/shared/l10n';

/** Outcome of Den: Set API Key, for callers and tests. */
export type SetKeyOutcome = 'stored' | 'window' | 'rejected' | 'cancelled';

export function registerAuthCommands(
  keys: KeyStore,
  connection: Connection,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('den.configure', (url?: string) => configure(url)),
    vscode.commands.registerCommand('den.setApiKey', (key?: string) => setApiKey(keys, connection, key)),
    vscode.commands.registerCommand('den.signOut', () => signOut(keys)),
    vscode.commands.registerCommand('den.showLog', () => log.show(true)),
  ];
}

/** The walkthrough's id in `package.json` (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'gettingStarted';

/** Den: Get Started opens the walkthrough (`<publisher>.<name>#<id>`), in the active group. */
export function registerGetStarted(extensionId: string): vscode.Disposable {
  return vscode.commands.registerCommand('den.getStarted', async () => {
    await vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${extensionId}#${WALKTHROUGH_ID}`,
      false,
    );
    // The first two steps complete on `den.configured`/`den.signedIn`, but VS Code does not tick a
    // step whose context already held when it registered the walkthrough (a window that starts
    // signed in): this key turns true once the walkthrough is open, so `… && den.walkthroughOpen`
    // changes then, and a step that is done already is ticked.
    await vscode.commands.executeCommand('setContext', 'den.walkthroughOpen', true);
  });
}

/**
 * The first time Den starts in a profile (VS Code opens walkthroughs on install from the Marketplace,
 * not for a `.vsix` installed from the command line, as the demo's), an empty editor area shows the
 * walkthrough: the next step for a new person. Never again, nor when `den.showWalkthroughOnFirstRun` is off.
 */
export async function offerWalkthrough(state: vscode.Memento): Promise<boolean> {
  const KEY = 'den.walkthroughOffered';
  if (state.get(KEY)) return false;
  if (!vscode.workspace.getConfiguration('den').get<boolean>('showWalkthroughOnFirstRun', true)) return false;
  if (vscode.window.tabGroups.all.some((g) => g.tabs.length > 0)) return false;
  await state.update(KEY, true);
  await vscode.commands.executeCommand('den.getStarted');
  return true;
}

async function configure(given?: string): Promise<string | undefined> {
  const config = vscode.workspace.getConfiguration('den');
  const url =
    given ??
    (await vscode.window.showInputBox({
      title: l10n.t('Den: Service URL'),
      prompt: l10n.t('Base URL of your Agent Session Service'),
      placeHolder: 'https://agents.example.com',
      value: config.inspect<string>('baseUrl')?.globalValue ?? '',
      ignoreFocusOut: true,
      validateInput: (v) => validateBaseUrl(v).problem,
    }));
  if (url === undefined) return undefined;
  const { url: valid, problem } = validateBaseUrl(url);
  if (!valid) {
    void vscode.window.showErrorMessage(l10n.t('Den: {0}', problem ?? ''));
    return undefined;
  }
  await config.update('baseUrl', valid, vscode.ConfigurationTarget.Global);
  return valid;
}

async function setApiKey(keys: KeyStore, connection: Connection, given?: string): Promise<SetKeyOutcome> {
  if (!connection.settings.baseUrl) {
    const url = await configure();
    if (!url) return 'cancelled';
  }
  const key = (
    given ??
    (await vscode.window.showInputBox({
      title: l10n.t('Den: Set API Key'),
      prompt: l10n.t(
        'Paste an API key from the service (Account → API Keys). It is kept in the editor’s secret storage.',
      ),
      placeHolder: 'sk_live_…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) =>
        !v.trim() ? l10n.t('Paste a key.') : /\s/.test(v.trim()) ? l10n.t('A key has no spaces.') : undefined,
    })) ??
    ''
  ).trim();
  if (!key) return 'cancelled';

  const verdict = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: l10n.t('Den: checking the API key…') },
    async () => {
      try {
        await connection.clientFor(key).listSessions({ page: 1, limit: 1 });
        return 'ok' as const;
      } catch (err) {
        return err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
      }
    },
  );
  if (verdict !== 'ok') {
    if (verdict.code === 'unauthorized' || verdict.code === 'forbidden') {
      void vscode.window.showErrorMessage(
        l10n.t(
          'Den: the service rejected this API key. Check that you copied the whole key, or create a new one.',
        ),
      );
      return 'rejected';
    }
    const save = l10n.t('Save Anyway');
    const keep = await vscode.window.showWarningMessage(
      l10n.t('Den could not check the key: {0}. Save it anyway?', verdict.message),
      save,
    );
    if (keep !== save) return 'cancelled';
  }

  try {
    const unchanged = keys.key === key;
    await keys.store(key);
    // The same key again changes nothing the tree listens to; after an error, look again anyway.
    if (unchanged && connection.state.kind === 'error')
      void vscode.commands.executeCommand('den.refreshSessions');
    void vscode.window.showInformationMessage(
      l10n.t('Den: signed in. Your key is in the editor’s secret storage.'),
    );
    return 'stored';
  } catch (err) {
    if (!(err instanceof SecretStorageUnavailable)) {
      await showError(err, l10n.t('save the key'), key);
      return 'cancelled';
    }
    const use = l10n.t('Use for This Window');
    const pick = await vscode.window.showWarningMessage(
      l10n.t(
        'Den could not save the key in the editor’s secret storage ({0}). Use it for this window only? You will be asked again after a reload. For headless use, set the DEN_API_KEY environment variable instead.',
        err.message,
      ),
      use,
    );
    if (pick !== use) return 'cancelled';
    keys.useForWindow(key);
    return 'window';
  }
}

async function signOut(keys: KeyStore): Promise<void> {
  await keys.clear();
  if (keys.source === 'environment') {
    void vscode.window.showInformationMessage(
      l10n.t(
        'Den: signed out. The key from the DEN_API_KEY environment variable is still in use; unset it to sign out fully.',
      ),
    );
  } else {
    void vscode.window.showInformationMessage(
      l10n.t('Den: signed out. Your key was removed from secret storage.'),
    );
  }
}
