import path from 'node:path';
import * as vscode from 'vscode';
import { l10n } from '../core/l10n';
import type { Logger } from '../core/log';
import type { Connection } from '../service/connection';
import { WebTaskHistory } from '../session/web-task-history';
import type { PasscodeStore } from './passcode-store';
import { WebTaskRunner } from './runner';
import { openLive, WebTaskPanel } from './webtask-panel';
import { WebTasksTreeProvider } from './webtasks-tree';

/** Default of `den.webTasks.maxRuns`. */
export const DEFAULT_MAX_RUNS = 50;

export interface WebTasksDeps {
  context: vscode.ExtensionContext;
  connection: Connection;
  passcode: PasscodeStore;
  logger: Logger;
  /** The API key in use (no message may quote it). */
  apiKey: () => string | undefined;
  /** Whether the Sessions list knows the session (the cheap check before asking the service). */
  listedSession: (sessionId: string) => boolean;
}

/**
 * Web tasks (`POST /lam/run`, docs/web-tasks.md): the runner, the history in the workspace's
 * storage (`web-tasks/`, bounded by `den.webTasks.maxRuns`), the panel and the view.
 */
export class WebTasks implements vscode.Disposable {
  readonly runner: WebTaskRunner;
  readonly panel: WebTaskPanel;
  readonly tree: WebTasksTreeProvider;
  /** The passcode in SecretStorage. */
  readonly passcode: PasscodeStore;
  #historyOf?: { maxRuns: number; history: WebTaskHistory };

  readonly #deps: WebTasksDeps;
  constructor(deps: WebTasksDeps) {
    this.#deps = deps;
    const { connection, logger } = deps;
    this.passcode = deps.passcode;
    this.runner = new WebTaskRunner({
      client: () => connection.requireClient(),
      passcode: () => deps.passcode.get(),
      history: () => this.history(),
      sessionOpenable: (id) => this.#sessionOpenable(id),
      needsYou: (status) => {
        const watch = l10n.t('Watch Live');
        const buttons = status.livestreamUrl ? [watch] : [];
        void Promise.resolve(
          vscode.window.showInformationMessage(
            l10n.t('The web task needs you: {0}', status.message),
            ...buttons,
          ),
        ).then((choice) => {
          if (choice === watch && status.livestreamUrl) void openLive(status.livestreamUrl, false);
        });
      },
      secrets: () => [deps.apiKey(), deps.passcode.value],
      logger,
    });
    this.panel = new WebTaskPanel({
      context: deps.context,
      runner: this.runner,
      passcode: deps.passcode,
      logger,
    });
    this.tree = new WebTasksTreeProvider(this.runner, logger);
  }

  /** Where the runs are stored: the workspace's storage, else the extension's global storage. */
  get storageDir(): string {
    const base = this.#deps.context.storageUri ?? this.#deps.context.globalStorageUri;
    return path.join(base.fsPath, 'web-tasks');
  }

  /** The history, rebuilt when `den.webTasks.maxRuns` changed (the next write evicts beyond it). */
  history(): WebTaskHistory {
    const raw = vscode.workspace.getConfiguration('den').get<number>('webTasks.maxRuns');
    const maxRuns =
      typeof raw === 'number' && Number.isFinite(raw)
        ? Math.min(1000, Math.max(1, Math.floor(raw)))
        : DEFAULT_MAX_RUNS;
    if (this.#historyOf?.maxRuns !== maxRuns) {
      this.#historyOf = {
        maxRuns,
        history: new WebTaskHistory({ dir: this.storageDir, maxRuns, logger: this.#deps.logger }),
      };
    }
    return this.#historyOf.history;
  }

  /** Deletes a run (cancelling it first when it runs). */
  async delete(runId: string): Promise<boolean> {
    this.runner.cancel(runId);
    await this.runner.settled(runId);
    const removed = await this.history().remove(runId);
    this.runner.forget(runId);
    this.panel.forgetRun(runId);
    this.runner.historyEdited();
    return removed;
  }

  /** Deletes every run that is not running. */
  async clear(): Promise<number> {
    const running = new Set(this.runner.runningIds());
    let n = 0;
    for (const r of await this.history().list()) {
      if (running.has(r.id)) continue;
      if (await this.history().remove(r.id)) n++;
      this.runner.forget(r.id);
      this.panel.forgetRun(r.id);
    }
    this.runner.historyEdited();
    return n;
  }

  async #sessionOpenable(sessionId: string): Promise<boolean> {
    if (this.#deps.listedSession(sessionId)) return true;
    try {
      const client = this.#deps.connection.requireClient();
      const signal = AbortSignal.timeout(5_000);
      await client.getSession(sessionId, signal);
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.panel.dispose();
    this.tree.dispose();
    this.runner.dispose();
  }
}
