import * as vscode from 'vscode';
import type { Session } from '../../core/client/types';
import type { Connection } from '../platform/connection';
import { firstLine, relativeTime, validateTitle } from '../../core/shared/format';
import type { SessionsTreeProvider } from '../sessions-view/sessions-tree';
import type { SessionNode } from '../sessions-view/tree-nodes';
import { guarded } from './guarded';
import { l10n } from '../../core/shared/l10n';

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
  const pick = (arg: SessionArg, title: string): Promise<Session | undefined> =>
    resolveSession(tree, arg, title);

  return [
    vscode.commands.registerCommand(
      'den.refreshSessions',
      guarded(l10n.t('refresh sessions'), () => tree.refresh()),
    ),
    vscode.commands.registerCommand(
      'den.searchSessions',
      guarded(l10n.t('search sessions'), async (text?: string) => {
        const q =
          text ??
          (await vscode.window.showInputBox({
            title: l10n.t('Den: Search Session Titles'),
            prompt: l10n.t('Show sessions whose title contains this text (empty shows all)'),
            value: tree.filter ?? '',
          }));
        if (q !== undefined) await tree.setFilter(q);
      }),
    ),
    vscode.commands.registerCommand(
      'den.clearSearch',
      guarded(l10n.t('clear the search'), () => tree.setFilter(undefined)),
    ),
    vscode.commands.registerCommand(
      'den.loadMoreSessions',
      guarded(l10n.t('load more sessions'), () => tree.loadMore()),
    ),
    vscode.commands.registerCommand(
      'den.openSession',
      guarded(l10n.t('open the session'), async (arg?: SessionArg) => {
        const s = await pick(arg, l10n.t('Den: choose a session to open'));
        if (s) await openers.open(s.sessionId);
      }),
    ),
    vscode.commands.registerCommand(
      'den.exportSession',
      guarded(l10n.t('export the session'), async (arg?: SessionArg) => {
        const s = await pick(arg, l10n.t('Den: choose a session to export as Markdown'));
        if (s) await openers.exportMarkdown(s.sessionId);
      }),
    ),
    vscode.commands.registerCommand(
      'den.renameSession',
      guarded(l10n.t('rename the session'), async (arg?: SessionArg, newTitle?: string) => {
        const s = await pick(arg, l10n.t('Den: choose a session to rename'));
        if (!s) return;
        const title =
          newTitle ??
          (await vscode.window.showInputBox({
            title: l10n.t('Den: Rename Session'),
            value: s.title,
            prompt: l10n.t('New title'),
            validateInput: validateTitle,
          }));
        if (title === undefined) return;
        const problem = validateTitle(title);
        if (problem) {
          void vscode.window.showErrorMessage(l10n.t('Den: {0}', problem));
          return;
        }
        const updated = await connection.requireClient().renameSession(s.sessionId, title.trim());
        tree.updateSession(updated ?? { ...s, title: title.trim() });
      }),
    ),
    vscode.commands.registerCommand(
      'den.deleteSession',
      guarded(l10n.t('delete the session'), async (arg?: SessionArg, confirmed?: boolean) => {
        const s = await pick(arg, l10n.t('Den: choose a session to delete'));
        if (!s) return;
        if (confirmed !== true) {
          const del = l10n.t('Delete');
          const answer = await vscode.window.showWarningMessage(
            l10n.t('Delete the session “{0}”?', s.title || l10n.t('Untitled session')),
            {
              modal: true,
              detail: l10n.t(
                'Its history and generated files are deleted on the service. This cannot be undone.',
              ),
            },
            del,
          );
          if (answer !== del) return;
        }
        await connection.requireClient().deleteSession(s.sessionId);
        tree.removeSession(s.sessionId);
        void vscode.window.setStatusBarMessage(l10n.t('Den: deleted “{0}”', firstLine(s.title, 40)), 4000);
      }),
    ),
    vscode.commands.registerCommand(
      'den.sessions.showAll',
      guarded(l10n.t('show all sessions'), () => tree.setShowAll(true)),
    ),
    vscode.commands.registerCommand(
      'den.sessions.showWorkspace',
      guarded(l10n.t("show this workspace's sessions"), () => tree.setShowAll(false)),
    ),
    ...(
      [
        ['archive', l10n.t('archive the session'), l10n.t('Den: choose a session to archive')],
        ['unarchive', l10n.t('unarchive the session'), l10n.t('Den: choose a session to unarchive')],
      ] as const
    ).map(([verb, doing, title]) =>
      vscode.commands.registerCommand(
        `den.${verb}Session`,
        guarded(doing, async (arg?: SessionArg) => {
          const s = await pick(arg, title);
          if (s) await tree.setArchived(s.sessionId, verb === 'archive');
        }),
      ),
    ),
    vscode.commands.registerCommand(
      'den.copySessionId',
      guarded(l10n.t('copy the session ID'), async (arg?: SessionArg) => {
        const s = await pick(arg, l10n.t('Den: choose a session to copy the ID of'));
        if (!s) return;
        await vscode.env.clipboard.writeText(s.sessionId);
        void vscode.window.setStatusBarMessage(l10n.t('Den: copied {0}', s.sessionId), 3000);
      }),
    ),
    vscode.commands.registerCommand(
      'den.copySessionLink',
      guarded(l10n.t('copy the link to the session'), async (arg?: SessionArg) => {
        const s = await pick(arg, l10n.t('Den: choose a session to copy a link to'));
        if (!s) return undefined;
        const link = openers.linkOf(s.sessionId);
        await vscode.env.clipboard.writeText(link);
        void vscode.window.showInformationMessage(
          l10n.t(
            'Den: copied a link that opens “{0}” in this editor.',
            firstLine(s.title, 40) || l10n.t('Untitled session'),
          ),
        );
        return link;
      }),
    ),
  ];
}

async function resolveSession(
  tree: SessionsTreeProvider,
  arg: SessionArg,
  title: string,
): Promise<Session | undefined> {
  const id = typeof arg === 'string' ? arg : arg && 'sessionId' in arg ? arg.sessionId : undefined;
  if (id) {
    const known = tree.get(id);
    if (known) return known;
    return (await tree.detail(id)).session;
  }
  if (!tree.sessions.length) await tree.refresh();
  const items = tree.sessions.map((s) => ({
    label: s.title || l10n.t('Untitled session'),
    description: relativeTime(s.updatedAt),
    detail: s.sessionId,
    session: s,
  }));
  if (!items.length) {
    void vscode.window.showInformationMessage(l10n.t('Den: there are no sessions yet.'));
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(items, {
    title,
    matchOnDetail: true,
  });
  return chosen?.session;
}
