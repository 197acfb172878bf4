import * as vscode from 'vscode';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { firstLine, relativeTime } from '../../core/shared/format';
import type { WebTaskStatusView } from '../../protocol/webtask-panel/webtask-messages';
import { isLiveStatus, webTaskState } from '../../protocol/webtask-panel/webtask-states';
import type { WebTaskRun } from '../../model/webtasks/web-task-history';
import type { WebTaskRunner } from './runner';

/** A row of the Web Tasks view: one stored run (its id; arguments of the row commands). */
export interface WebTaskNode {
  kind: 'webTaskRun';
  runId: string;
}

/** The row of a run. */
export function webTaskItem(run: WebTaskRun, status: WebTaskStatusView, now: number): vscode.TreeItem {
  const item = new vscode.TreeItem(firstLine(run.inputs.query, 60) || l10n.t('Web task'));
  item.id = `webTask:${run.id}`;
  const problems = run.problems
    ? run.problems.missing + run.problems.null + run.problems.empty + run.problems.wrongShape
    : 0;
  // one name, icon and liveness per state, from the table every surface reads
  const state = webTaskState(status.phase);
  const live = isLiveStatus(status);
  const parts = [state.name];
  if (!live) parts.push(run.rowCount === 1 ? l10n.t('1 row') : l10n.t('{0} rows', formatCount(run.rowCount)));
  if (problems > 0)
    parts.push(problems === 1 ? l10n.t('1 problem') : l10n.t('{0} problems', formatCount(problems)));
  parts.push(relativeTime(run.startedAt, now));
  item.description = parts.join(' · ');
  item.iconPath = new vscode.ThemeIcon(state.icon, new vscode.ThemeColor(state.color));
  // `.running`: Cancel is offered (package.json menus), only while the request goes
  item.contextValue = live ? 'webTaskRun.running' : 'webTaskRun';
  const tip = new vscode.MarkdownString(undefined, false);
  tip.appendText(`${run.inputs.query}\n\n`);
  tip.appendMarkdown(`**${l10n.t('App:')}** `).appendText(`${run.inputs.appUrl}\n\n`);
  tip.appendMarkdown(`**${l10n.t('Status:')}** `).appendText(`${state.name} (${status.taskStatus})\n\n`);
  if (status.message) tip.appendText(`${firstLine(status.message, 300)}\n\n`);
  if (status.hint) tip.appendText(`${l10n.t('What to try: {0}', status.hint)}\n\n`);
  const p = run.problems;
  tip.appendText(
    p
      ? l10n.t(
          '{0} rows · {1} problems (missing {2}, null {3}, empty {4}, wrong shape {5})',
          formatCount(run.rowCount),
          formatCount(problems),
          formatCount(p.missing),
          formatCount(p.null),
          formatCount(p.empty),
          formatCount(p.wrongShape),
        )
      : l10n.t('{0} rows · {1} problems', formatCount(run.rowCount), formatCount(problems)),
  );
  item.tooltip = tip;
  item.accessibilityInformation = { label: `${run.inputs.query}, ${item.description}` };
  const node: WebTaskNode = { kind: 'webTaskRun', runId: run.id };
  item.command = { command: 'den.openWebTaskRun', title: l10n.t('Open Results'), arguments: [node] };
  return item;
}

/** The Web Tasks view: this workspace's runs, newest first, refreshed on every history change. */
export class WebTasksTreeProvider implements vscode.TreeDataProvider<WebTaskNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #runs = new Map<string, WebTaskRun>();
  readonly #subscriptions: vscode.Disposable[];

  readonly #runner: WebTaskRunner;
  readonly #logger: Logger;
  constructor(runner: WebTaskRunner, logger: Logger) {
    this.#runner = runner;
    this.#logger = logger;
    this.#subscriptions = [
      this.#changed,
      runner.onDidChangeHistory(() => this.#changed.fire()),
      runner.onDidChange(() => this.#changed.fire()),
    ];
  }

  async getChildren(node?: WebTaskNode): Promise<WebTaskNode[]> {
    if (node) return [];
    let list: WebTaskRun[];
    try {
      list = await this.#runner.history().list();
    } catch (err) {
      this.#logger.warn(`Web tasks: could not read the history: ${err instanceof Error ? err.message : err}`);
      list = [];
    }
    this.#runs.clear();
    for (const r of list) this.#runs.set(r.id, r);
    return list.map((r) => ({ kind: 'webTaskRun', runId: r.id }));
  }

  getTreeItem(node: WebTaskNode): vscode.TreeItem {
    const run = this.#runs.get(node.runId);
    if (!run) return new vscode.TreeItem(l10n.t('(removed)'));
    return webTaskItem(run, this.#runner.statusOf(run), Date.now());
  }

  refresh(): void {
    this.#changed.fire();
  }

  dispose(): void {
    for (const d of this.#subscriptions) d.dispose();
  }
}
