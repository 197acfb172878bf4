import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { overLimit, sizeLimitMessage } from '../attachments/attach-limits';
import { chooseSession } from '../attachments/session-choice';
import {
  fileSource,
  openEditorSources,
  selectionSources,
  sourceSize,
  type AttachmentSource,
} from '../attachments/sources';
import { uploadWithProgress } from '../attachments/upload-sources';
import type { ApiClient } from '../../core/client/client';
import { DenError } from '../../core/client/errors';
import type { Mode } from '../../core/client/types';
import type { SessionPanels, PanelTurnRequest } from '../session-panel/session-panels';
import type { SessionRegistry } from '../../model/session/session-registry';
import type { Connection } from '../platform/connection';
import { firstLine } from '../../core/shared/format';
import type { SessionsTreeProvider } from '../sessions-view/sessions-tree';
import { showError } from '../platform/show-error';
import { formatCount, l10n } from '../../core/shared/l10n';

/**
 * Arguments every turn command accepts, so tests and other extensions can run them without any
 * prompt. Each field left out is asked for.
 */
export interface TurnCommandOptions {
  /** The task (what to ask); without it an input box asks. */
  task?: string;
  /** `'new'` starts a new session; a session id continues that session; without it a quick pick asks. */
  session?: string;
}

/** Arguments of `den.sendFileToAgent` given as one object. */
export interface SendFileOptions extends TurnCommandOptions {
  /** The file (a `Uri` or a URI string); default: the active editor's document. */
  uri?: vscode.Uri | string;
  /** Several files in one turn (as the Explorer passes a multi-selection). */
  uris?: (vscode.Uri | string)[];
}

/** Mode of turns started from code (a selection or files), whatever `den.defaultMode` says. */
const CODE_MODE: Mode = 'code';

interface Deps {
  connection: Connection;
  /** The session hosts (their running turns). */
  registry: SessionRegistry;
  panels: SessionPanels;
  sessions: SessionsTreeProvider;
}

/**
 * Commands that start turns from the editor. Each resolves to the session id the turn was
 * started in, or undefined when nothing was started (dismissed, cancelled or failed; failures
 * are shown as notifications, not thrown).
 *
 * - `den.newSession(task?: string | TurnCommandOptions)`: a new session with the task, in
 *   `den.defaultMode`.
 * - `den.askAboutSelection(options?: TurnCommandOptions)`: the active editor's selections as
 *   text attachments with `selection` references, mode `code`.
 * - `den.sendFileToAgent(target?: Uri | SendFileOptions, selected?: Uri[])`: whole files (the
 *   active editor's by default) with `file` references, mode `code`; unsaved editors send their text.
 * - `den.sendOpenEditorsToAgent(options?: TurnCommandOptions)`: the files of all open text
 *   editor tabs as attachments of one turn, mode `code`.
 */
export function registerTurnCommands(deps: Deps): vscode.Disposable[] {
  const { connection, panels } = deps;

  const command = <A extends unknown[]>(
    id: string,
    doing: string,
    fn: (client: ApiClient, ...args: A) => Promise<string | undefined>,
  ): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: A): Promise<string | undefined> => {
      try {
        await connection.ready;
        return await fn(connection.requireClient(), ...args);
      } catch (err) {
        report(connection, err, doing);
        return undefined;
      }
    });

  /** Asks for what is missing, uploads the sources and hands the turn to the session's panel. */
  const startWithSources = async (
    client: ApiClient,
    all: AttachmentSource[],
    opts: TurnCommandOptions,
    prompt: { title: string; placeHolder: string },
  ): Promise<string | undefined> => {
    const sources = await withinLimit(all, connection.settings.maxAttachmentBytes);
    if (!sources.length) return undefined;
    const task = await askTask(opts.task, prompt);
    if (task === undefined) return undefined;
    const target = await resolveSession(client, deps, opts.session);
    if (!target) return undefined;
    const uploaded = await uploadWithProgress(client, target.sessionId, sources);
    connection.reportSuccess();
    const turn: PanelTurnRequest = {
      task,
      mode: CODE_MODE,
      effort: connection.settings.defaultEffort,
      files: uploaded.files,
      references: uploaded.references,
      bases: uploaded.bases,
    };
    await panels.open(target.sessionId, { turn, ...(target.isNew ? { title: firstLine(task) } : {}) });
    return target.sessionId;
  };

  return [
    command(
      'den.newSession',
      l10n.t('start a new session'),
      async (_client, arg?: string | TurnCommandOptions) => {
        const opts = typeof arg === 'string' ? { task: arg } : (arg ?? {});
        const task = await askTask(opts.task, {
          title: l10n.t('Den: New Session'),
          placeHolder: l10n.t('What should the agent do?'),
        });
        if (task === undefined) return undefined;
        const sessionId = randomUUID();
        const s = connection.settings;
        await panels.open(sessionId, {
          turn: { task, mode: s.defaultMode, effort: s.defaultEffort },
          title: firstLine(task),
        });
        return sessionId;
      },
    ),

    command('den.askAboutSelection', l10n.t('ask about the selection'), async (client, arg?: unknown) => {
      const editor = vscode.window.activeTextEditor;
      const sources = editor ? selectionSources(editor) : [];
      if (!sources.length) {
        void vscode.window.showInformationMessage(l10n.t('Den: select some code in an editor first.'));
        return undefined;
      }
      return startWithSources(client, sources, optionsOf(arg), {
        title:
          sources.length === 1
            ? l10n.t('Den: Ask About {0}', sources[0].name)
            : l10n.t('Den: Ask About {0} Selections', formatCount(sources.length)),
        placeHolder: l10n.t('Explain this, find the bug, add tests…'),
      });
    }),

    command(
      'den.sendFileToAgent',
      l10n.t('ask about the file'),
      async (client, target?: vscode.Uri | SendFileOptions, selected?: vscode.Uri[]) => {
        const opts: SendFileOptions = target instanceof vscode.Uri || !target ? {} : target;
        const uris = fileTargets(target, selected);
        if (!uris.length) {
          void vscode.window.showInformationMessage(
            l10n.t('Den: open a file or choose one in the Explorer first.'),
          );
          return undefined;
        }
        const sources = uris.map(fileSource);
        return startWithSources(client, sources, opts, {
          title:
            sources.length === 1
              ? l10n.t('Den: Ask About {0}', sources[0].name)
              : l10n.t('Den: Ask About {0} Files', formatCount(sources.length)),
          placeHolder: l10n.t('Review this, explain it, add tests…'),
        });
      },
    ),

    command(
      'den.sendOpenEditorsToAgent',
      l10n.t('ask about the open editors'),
      async (client, arg?: unknown) => {
        const sources = openEditorSources();
        if (!sources.length) {
          void vscode.window.showInformationMessage(l10n.t('Den: no files are open in editors.'));
          return undefined;
        }
        return startWithSources(client, sources, optionsOf(arg), {
          title:
            sources.length === 1
              ? l10n.t('Den: Ask About 1 Open File')
              : l10n.t('Den: Ask About {0} Open Files', formatCount(sources.length)),
          placeHolder: l10n.t('What should the agent do with these files?'),
        });
      },
    ),
  ];
}

/** The sources within the size limit; the others are named in a warning. */
async function withinLimit(sources: AttachmentSource[], limit: number): Promise<AttachmentSource[]> {
  const sized = await Promise.all(
    sources.map(async (src) => ({ src, name: src.name, size: (await sourceSize(src)) ?? 0 })),
  );
  const tooBig = overLimit(sized, limit);
  if (tooBig.length)
    void vscode.window.showWarningMessage(l10n.t('Den: {0}', sizeLimitMessage(tooBig, limit)));
  return sized.filter((s) => !tooBig.includes(s)).map((s) => s.src);
}

/** Menus pass a `Uri` (ignored where the command works on the active editor); tests pass options. */
function optionsOf(arg: unknown): TurnCommandOptions {
  if (!arg || typeof arg !== 'object' || arg instanceof vscode.Uri) return {};
  return arg as TurnCommandOptions;
}

function toUri(u: vscode.Uri | string): vscode.Uri {
  return typeof u === 'string' ? vscode.Uri.parse(u) : u;
}

/** The files `den.sendFileToAgent` was given: the multi-selection, one file, or the active editor's. */
function fileTargets(
  target: vscode.Uri | SendFileOptions | undefined,
  selected?: vscode.Uri[],
): vscode.Uri[] {
  if (Array.isArray(selected) && selected.length > 1) return selected.filter((u) => u instanceof vscode.Uri);
  if (target instanceof vscode.Uri) return [target];
  if (target?.uris?.length) return target.uris.map(toUri);
  if (target?.uri) return [toUri(target.uri)];
  const doc = vscode.window.activeTextEditor?.document;
  return doc ? [doc.uri] : [];
}

/** The task given, or asked for; undefined when dismissed. A blank given task is an error. */
export async function askTask(
  given: string | undefined,
  prompt: { title: string; placeHolder: string },
): Promise<string | undefined> {
  if (given !== undefined) {
    if (!given.trim()) throw new DenError({ code: 'bad_request', message: l10n.t('the task is empty.') });
    return given.trim();
  }
  const typed = await vscode.window.showInputBox({
    ...prompt,
    prompt: l10n.t('The task for the agent (Enter to start)'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : l10n.t('Say what the agent should do.')),
  });
  return typed?.trim() || undefined;
}

/** The session the turn goes to: given (`'new'` or an id), or chosen in a quick pick. */
async function resolveSession(
  client: ApiClient,
  deps: Deps,
  given: string | undefined,
): Promise<{ sessionId: string; isNew: boolean } | undefined> {
  if (given === 'new') return { sessionId: randomUUID(), isNew: true };
  if (given) return { sessionId: given, isNew: false };
  const choice = await chooseSession({
    loaded: deps.sessions.sessions,
    running: deps.registry.runningTurns(),
    client,
  });
  if (!choice) return undefined;
  return choice.kind === 'new'
    ? { sessionId: randomUUID(), isNew: true }
    : { sessionId: choice.sessionId, isNew: false };
}

/**
 * Shows a failure (not awaited: the notification stays until dismissed and the command must not
 * wait for it). Cancelling an upload is not a failure; problems of the service or the network also
 * update the connection state.
 */
function report(connection: Connection, err: unknown, doing: string): void {
  if (err instanceof DenError && err.code === 'aborted') {
    void vscode.window.setStatusBarMessage(l10n.t('Den: upload cancelled'), 4000);
    return;
  }
  if (!(err instanceof DenError)) {
    // Not the service's or the network's doing (showError would call it a network failure).
    const why = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(l10n.t('Den could not {0}: {1}', doing, why));
    return;
  }
  if (err.fault !== 'user') connection.reportFailure(err);
  void showError(err, doing);
}
