import * as vscode from 'vscode';
import { formFromRequest, readForForm, readSchemaText } from '../../protocol/webtask-panel/webtask-form';
import type { WebTaskForm } from '../../protocol/webtask-panel/webtask-messages';
import type { WebTaskNode } from '../webtasks/webtasks-tree';
import type { WebTasks } from '../webtasks/web-tasks';
import { guarded } from './guarded';
import { l10n } from '../../core/shared/l10n';

/** A row of the Web Tasks view, or a run id (tests and other extensions). */
type RunArg = WebTaskNode | string | undefined;

function runIdOf(arg: RunArg): string | undefined {
  if (typeof arg === 'string') return arg;
  return arg?.kind === 'webTaskRun' ? arg.runId : undefined;
}

/** The web task commands (docs/commands.md). */
export function registerWebTaskCommands(tasks: WebTasks): vscode.Disposable[] {
  const withRun = (doing: string, fn: (runId: string) => Promise<unknown>) =>
    guarded(doing, async (arg?: RunArg) => {
      const id = runIdOf(arg);
      if (id) await fn(id);
    });
  return [
    vscode.commands.registerCommand(
      'den.runWebTask',
      guarded(l10n.t('open the web task form'), (form?: Partial<WebTaskForm>) =>
        tasks.panel.open(form ? { form } : {}),
      ),
    ),
    vscode.commands.registerCommand(
      'den.runWebTaskWithSchema',
      guarded(l10n.t('run a web task with this schema'), async (uri?: vscode.Uri) => {
        const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
        if (!target) {
          void vscode.window.showInformationMessage(
            l10n.t('Open or select a schema file (*.denschema.json) first.'),
          );
          return;
        }
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
        const where = vscode.workspace.asRelativePath(target, false);
        // a JSON Schema is converted (and what it cannot say listed) in the form
        const { error } = readSchemaText(text, readForForm);
        if (error) {
          void vscode.window.showErrorMessage(l10n.t('{0} is not a schema Den can run: {1}', where, error));
          return;
        }
        await tasks.panel.useSchema(text, where);
      }),
    ),
    vscode.commands.registerCommand(
      'den.setWebTaskPasscode',
      guarded(l10n.t('set the web task passcode'), async (value?: string) => {
        const passcode =
          typeof value === 'string'
            ? value
            : await vscode.window.showInputBox({
                title: l10n.t('Den: Set Web Task Passcode'),
                prompt: l10n.t('The service passcode for web tasks. Leave empty to remove it.'),
                password: true,
                ignoreFocusOut: true,
              });
        if (passcode === undefined) return;
        await tasks.passcode.set(passcode.trim());
        void vscode.window.showInformationMessage(
          passcode.trim()
            ? l10n.t('Den: web task passcode saved.')
            : l10n.t('Den: web task passcode removed.'),
        );
      }),
    ),
    vscode.commands.registerCommand(
      'den.openWebTaskRun',
      withRun(l10n.t('open the web task run'), (id) => tasks.panel.open({ runId: id })),
    ),
    vscode.commands.registerCommand(
      'den.compareWebTaskRun',
      withRun(l10n.t('compare the web task run'), (id) => tasks.panel.open({ runId: id, compare: true })),
    ),
    vscode.commands.registerCommand(
      'den.rerunWebTask',
      withRun(l10n.t('run the web task again'), async (id) => {
        const run = await tasks.history().get(id);
        if (!run) throw new Error(l10n.t('That web task run is no longer in the history.'));
        await tasks.panel.open();
        await tasks.panel.handleMessage({ type: 'run', form: formFromRequest(run.inputs) });
      }),
    ),
    vscode.commands.registerCommand(
      'den.cancelWebTask',
      withRun(l10n.t('cancel the web task'), async (id) => tasks.runner.cancel(id)),
    ),
    vscode.commands.registerCommand(
      'den.deleteWebTaskRun',
      withRun(l10n.t('delete the web task run'), (id) => tasks.delete(id)),
    ),
    vscode.commands.registerCommand(
      'den.clearWebTaskHistory',
      guarded(l10n.t('clear the web task history'), async (confirmed?: boolean) => {
        if (confirmed !== true) {
          const clear = l10n.t('Clear History');
          const choice = await vscode.window.showWarningMessage(
            l10n.t('Delete every web task run of this workspace, with its results?'),
            { modal: true },
            clear,
          );
          if (choice !== clear) return;
        }
        await tasks.clear();
      }),
    ),
  ];
}
