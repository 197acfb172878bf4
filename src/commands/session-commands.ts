import * as vscode from 'vscode';
import type { Session } from '../core/api/types';
import type { Connection } from '../service/connection';
import { firstLine, relativeTime, validateTitle } from '../protocol/format';
import type { SessionsTreeProvider } from '../sessions/sessions-tree';
import type { SessionNode } from '../sessions/tree-nodes';
import { guarded } from './guarded';

/** Opens a session somewhere: the Session panel, or its read-only Markdown export. */
export type SessionOpener = (sessionId: string) => Promise<void>;

export interface SessionOpeners {
  open: SessionOpener;
  exportMarkdown: SessionOpener;
  /** The link that opens the session's panel (`session-link-commands.ts`). */
  linkOf: (sessionId: string) => string;
}

/** What a session command may be given: a tree node, a session id, or nothing (then it asks). */
type SessionArg = SessionNode | string | undefined;

export function registerSessionCommands(
  tree: SessionsTreeProvider,
  connection: Connection,
  openers: SessionOpeners,
): vscode.Disposable[] {
  const pick = (arg: SessionArg, verb: string): Promise<Session | undefined> =>
    resolveSession(tree, arg, verb);

  return [
    vscode.commands.registerCommand(
      'den.refreshSessions',
      guarded('refresh sessions', () => tree.refresh()),
    ),
    vscode.commands.registerCommand(
      'den.searchSessions',
      guarded('search sessions', async (text?: string) => {
        const q =
          text ??
          (await vscode.window.showInputBox({
            title: 'Den: Search Sessions',
            prompt: 'Show sessions whose title contains this text (empty shows all)',
            value: tree.filter ?? '',
          }));
        if (q !== undefined) await tree.setFilter(q);
      }),
    ),
    vscode.commands.registerCommand(
      'den.clearSearch',
      guarded('clear the search', () => tree.setFilter(undefined)),
    ),
    vscode.commands.registerCommand(
      'den.loadMoreSessions',
      guarded('load more sessions', () => tree.loadMore()),
    ),
    vscode.commands.registerCommand(
      'den.openSession',
      guarded('open the session', async (arg?: SessionArg) => {
        const s = await pick(arg, 'open');
        if (s) await openers.open(s.sessionId);
      }),
    ),
    vscode.commands.registerCommand(
      'den.exportSession',
      guarded('export the session', async (arg?: SessionArg) => {
        const s = await pick(arg, 'export as Markdown');
        if (s) await openers.exportMarkdown(s.sessionId);
      }),
    ),
    vscode.commands.registerCommand(
      'den.renameSession',
      guarded('rename the session', async (arg?: SessionArg, newTitle?: string) => {
        const s = await pick(arg, 'rename');
        if (!s) return;
        const title =
          newTitle ??
          (await vscode.window.showInputBox({
            title: 'Den: Rename Session',
            value: s.title,
            prompt: 'New title',
            validateInput: validateTitle,
          }));
        if (title === undefined) return;
        const problem = validateTitle(title);
        if (problem) {
          void vscode.window.showErrorMessage(`Den: ${problem}`);
          return;
        }
        const updated = await connection.requireClient().renameSession(s.sessionId, title.trim());
        tree.updateSession(updated ?? { ...s, title: title.trim() });
      }),
    ),
    vscode.commands.registerCommand(
      'den.deleteSession',
      guarded('delete the session', async (arg?: SessionArg, confirmed?: boolean) => {
        const s = await pick(arg, 'delete');
        if (!s) return;
        if (confirmed !== true) {
          const answer = await vscode.window.showWarningMessage(
            `Delete the session “${s.title || 'Untitled session'}”?`,
            {
              modal: true,
              detail: 'Its history and generated files are deleted on the service. This cannot be undone.',
            },
            'Delete',
          );
          if (answer !== 'Delete') return;
        }
        await connection.requireClient().deleteSession(s.sessionId);
        tree.removeSession(s.sessionId);
        void vscode.window.setStatusBarMessage(`Den: deleted “${firstLine(s.title, 40)}”`, 4000);
      }),
    ),
    vscode.commands.registerCommand(
      'den.sessions.showAll',
      guarded('show all sessions', () => tree.setShowAll(true)),
    ),
    vscode.commands.registerCommand(
      'den.sessions.showWorkspace',
      guarded("show this workspace's sessions", () => tree.setShowAll(false)),
    ),
    ...(['archive', 'unarchive'] as const).map((verb) =>
      vscode.commands.registerCommand(
        `den.${verb}Session`,
        guarded(`${verb} the session`, async (arg?: SessionArg) => {
          const s = await pick(arg, verb);
          if (s) await tree.setArchived(s.sessionId, verb === 'archive');
        }),
      ),
    ),
    vscode.commands.registerCommand(
      'den.copySessionId',
      guarded('copy the session ID', async (arg?: SessionArg) => {
        const s = await pick(arg, 'copy the ID of');
        if (!s) return;
        await vscode.env.clipboard.writeText(s.sessionId);
        void vscode.window.setStatusBarMessage(`Den: copied ${s.sessionId}`, 3000);
      }),
    ),
    vscode.commands.registerCommand(
      'den.copySessionLink',
      guarded('copy the link to the session', async (arg?: SessionArg) => {
        const s = await pick(arg, 'copy a link to');
        if (!s) return undefined;
        const link = openers.linkOf(s.sessionId);
        await vscode.env.clipboard.writeText(link);
        void vscode.window.showInformationMessage(
          `Den: copied a link that opens “${firstLine(s.title, 40) || 'Untitled session'}” in this editor.`,
        );
        return link;
      }),
    ),
  ];
}

async function resolveSession(
  tree: SessionsTreeProvider,
  arg: SessionArg,
  verb: string,
): Promise<Session | undefined> {
  const id = typeof arg === 'string' ? arg : arg && 'sessionId' in arg ? arg.sessionId : undefined;
  if (id) {
    const known = tree.get(id);
    if (known) return known;
    return (await tree.detail(id)).session;
  }
  if (!tree.sessions.length) await tree.refresh();
  const items = tree.sessions.map((s) => ({
    label: s.title || 'Untitled session',
    description: relativeTime(s.updatedAt),
    detail: s.sessionId,
    session: s,
  }));
  if (!items.length) {
    void vscode.window.showInformationMessage('Den: there are no sessions yet.');
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(items, {
    title: `Den: choose a session to ${verb}`,
    matchOnDetail: true,
  });
  return chosen?.session;
}
