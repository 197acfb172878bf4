import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { attachSummary, type AttachCounts } from '../attachments/attach-limits';
import { chooseSession } from '../attachments/session-choice';
import { DenError } from '../../core/client/errors';
import type { SessionPanels } from '../session-panel/session-panels';
import type { SessionRegistry } from '../../model/session/session-registry';
import type { SessionPanel } from '../session-panel/session-panel';
import type { Connection } from '../platform/connection';
import type { SessionsTreeProvider } from '../sessions-view/sessions-tree';
import { showError } from '../platform/show-error';
import { l10n } from '../../core/shared/l10n';

/** Arguments of the attach commands given as one object (tests, scripts, the Sessions view's drop). */
export interface AttachCommandOptions {
  /** A file or folder (a `Uri` or a URI string). */
  uri?: vscode.Uri | string;
  /** Several (as the Explorer passes a multi-selection). */
  uris?: (vscode.Uri | string)[];
  /** The session whose composer gets them; without it the focused or only panel's, else asked. */
  session?: string;
  /** A big folder: `true` attaches it without asking, `false` refuses it; without it, asked. */
  confirmFolders?: boolean;
}

/** What an attach command did (undefined when it did nothing: dismissed or failed). */
export interface AttachCommandResult {
  sessionId: string;
  counts: AttachCounts;
}

interface Deps {
  connection: Connection;
  /** The session hosts (their running turns). */
  registry: SessionRegistry;
  panels: SessionPanels;
  sessions: SessionsTreeProvider;
}

function toUri(u: vscode.Uri | string): vscode.Uri {
  return typeof u === 'string' ? vscode.Uri.parse(u, true) : u;
}

/** The files a menu or caller gave: the multi-selection, one, or else the active editor's. */
function targetsOf(target: vscode.Uri | AttachCommandOptions | undefined, selected?: unknown): vscode.Uri[] {
  if (Array.isArray(selected) && selected.length > 0 && selected.every((u) => u instanceof vscode.Uri)) {
    return selected as vscode.Uri[];
  }
  if (target instanceof vscode.Uri) return [target];
  if (target?.uris?.length) return target.uris.map(toUri);
  if (target?.uri) return [toUri(target.uri)];
  const doc = vscode.window.activeTextEditor?.document;
  return doc ? [doc.uri] : [];
}

/**
 * The attach commands. Each resolves to the session and what was attached, or undefined.
 *
 * - `den.attachToSession(target?: Uri | AttachCommandOptions, selected?: Uri[])`: files and
 *   folders (Explorer, editor title and tab menus; by default the active editor's document) into
 *   a composer: the focused or only Session panel's, else a session asked for (its panel opens).
 * - `den.attachFiles(options?: AttachCommandOptions)`: the same with files chosen in a dialog.
 */
export function registerAttachCommands(deps: Deps): vscode.Disposable[] {
  const { connection, panels } = deps;

  /** The panel whose composer gets the files: given, focused or only one, else chosen. */
  const panelFor = async (session: string | undefined): Promise<SessionPanel | undefined> => {
    const known = session ? undefined : panels.attachPanel();
    if (known) {
      known.reveal();
      return known;
    }
    let sessionId = session;
    let isNew = false;
    if (!sessionId) {
      const choice = await chooseSession({
        loaded: deps.sessions.sessions,
        running: deps.registry.runningTurns(),
        client: connection.requireClient(),
        prompt: {
          title: l10n.t('Den: attach to…'),
          placeHolder: l10n.t('The session whose composer gets the files'),
          newDescription: l10n.t('attach to a new session'),
        },
      });
      if (!choice) return undefined;
      isNew = choice.kind === 'new';
      sessionId = choice.kind === 'new' ? randomUUID() : choice.sessionId;
    }
    await panels.open(sessionId, { isNew });
    return panels.panel(sessionId);
  };

  const attach = async (
    uris: vscode.Uri[],
    opts: AttachCommandOptions,
  ): Promise<AttachCommandResult | undefined> => {
    try {
      await connection.ready;
      connection.requireClient();
      const panel = await panelFor(opts.session);
      if (!panel) return undefined;
      const counts = await panel.attach(uris, { confirmFolders: opts.confirmFolders });
      if (!counts) return undefined;
      void vscode.window.setStatusBarMessage(l10n.t('Den: {0}', attachSummary(counts)), 5000);
      return { sessionId: panel.sessionId, counts };
    } catch (err) {
      if (err instanceof DenError) void showError(err, l10n.t('attach the files'));
      else void vscode.window.showErrorMessage(l10n.t('Den could not attach the files: {0}', String(err)));
      return undefined;
    }
  };

  return [
    vscode.commands.registerCommand(
      'den.attachToSession',
      async (target?: vscode.Uri | AttachCommandOptions, selected?: unknown) => {
        const opts = target instanceof vscode.Uri || !target ? {} : target;
        const uris = targetsOf(target, selected);
        if (!uris.length) {
          void vscode.window.showInformationMessage(
            l10n.t('Den: choose files or folders in the Explorer, or open a file, to attach.'),
          );
          return undefined;
        }
        return attach(uris, opts);
      },
    ),
    vscode.commands.registerCommand('den.attachFiles', async (options?: AttachCommandOptions) => {
      const opts = options ?? {};
      const uris = opts.uris?.length
        ? opts.uris.map(toUri)
        : await vscode.window.showOpenDialog({
            canSelectMany: true,
            openLabel: l10n.t('Attach'),
            title: l10n.t('Den: Attach Files'),
            defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
          });
      if (!uris?.length) return undefined;
      return attach(uris, opts);
    }),
  ];
}
