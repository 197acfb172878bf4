import * as vscode from 'vscode';
import type { SessionPanels } from '../session-panel/session-panels';
import type { SessionRegistry } from '../../model/session/session-registry';
import { firstLine } from '../../core/shared/format';
import type { RunningTurn } from '../../model/session/running-turn';
import { showError } from '../platform/show-error';
import { l10n } from '../../core/shared/l10n';

interface TurnItem extends vscode.QuickPickItem {
  turn: RunningTurn;
}

async function pickTurn(turns: RunningTurn[], title: string): Promise<RunningTurn | undefined> {
  const items: TurnItem[] = turns.map((t) => ({
    label: `${t.queued ? '$(clock)' : '$(sync~spin)'} ${firstLine(t.title, 60) || l10n.t('Untitled session')}`,
    ...(t.queued ? { description: l10n.t('queued') } : {}),
    detail: firstLine(t.task, 120),
    turn: t,
  }));
  return (await vscode.window.showQuickPick(items, { title, matchOnDetail: true }))?.turn;
}

/**
 * `den.findInSession`: opens the find bar of the focused Session panel (a string argument is typed in).
 * `den.showTurnOutline`: opens the focused Session panel's outline of the turn in view.
 * `den.showRunningTurns` (pick a running turn, open its panel) and `den.stopTurn` (stop the turn of
 * the focused panel, the only running turn, or a picked one; a session id may be passed).
 * `den.previewSession` (a Sessions view row's click: the preview panel) and `den.keepSessionOpen`
 * (the preview's session keeps its panel).
 */
export function registerPanelCommands(registry: SessionRegistry, panels: SessionPanels): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('den.previewSession', async (sessionId?: unknown, title?: unknown) => {
      if (typeof sessionId !== 'string' || !sessionId) return;
      try {
        await panels.preview(sessionId, typeof title === 'string' && title ? title : undefined);
      } catch (err) {
        void showError(err, l10n.t('open the session'));
      }
    }),
    vscode.commands.registerCommand('den.keepSessionOpen', () => {
      const panel = panels.activePanel() ?? panels.previewPanel;
      if (!panel?.preview) {
        void vscode.window.showInformationMessage(l10n.t('Den: no session is shown as a preview.'));
        return;
      }
      panels.keepOpen(panel);
    }),
    vscode.commands.registerCommand('den.findInSession', (query?: unknown) => {
      const panel = panels.activePanel();
      if (!panel) {
        void vscode.window.showInformationMessage(l10n.t('Den: open a session to find in it.'));
        return;
      }
      panel.openFind(typeof query === 'string' ? query : undefined);
    }),
    vscode.commands.registerCommand('den.showTurnOutline', () => {
      const panel = panels.activePanel();
      if (!panel) {
        void vscode.window.showInformationMessage(l10n.t('Den: open a session to see a turn’s outline.'));
        return;
      }
      panel.openOutline();
    }),
    vscode.commands.registerCommand('den.showRunningTurns', async () => {
      const turns = registry.runningTurns();
      if (!turns.length) {
        void vscode.window.showInformationMessage(l10n.t('Den: no turn is running.'));
        return;
      }
      const t = await pickTurn(turns, l10n.t('Den: Running Turns'));
      if (t) await panels.open(t.sessionId);
    }),
    vscode.commands.registerCommand('den.stopTurn', async (arg?: string | { sessionId?: string }) => {
      try {
        let sessionId = typeof arg === 'string' ? arg : arg?.sessionId;
        const turns = registry.runningTurns();
        if (!sessionId) {
          const active = panels.activePanel()?.sessionId;
          if (active && turns.some((t) => t.sessionId === active)) sessionId = active;
          else if (turns.length === 1) sessionId = turns[0].sessionId;
          else if (turns.length > 1)
            sessionId = (await pickTurn(turns, l10n.t('Den: Stop Which Turn?')))?.sessionId;
        }
        if (!sessionId) {
          if (!turns.length) void vscode.window.showInformationMessage(l10n.t('Den: no turn is running.'));
          return;
        }
        if (!(await registry.stop(sessionId))) {
          void vscode.window.showInformationMessage(l10n.t('Den: that session has no running turn.'));
        }
      } catch (err) {
        void showError(err, l10n.t('stop the turn'));
      }
    }),
  ];
}
