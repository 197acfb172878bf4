import path from 'node:path';
import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { WebTaskStatusView } from '../../protocol/webtask-panel/webtask-messages';
import { isLiveStatus } from '../../protocol/webtask-panel/webtask-states';
import type { Connection } from '../platform/connection';
import { WebTaskHistory } from '../../model/webtasks/web-task-history';
import type { PasscodeStore } from './passcode-store';
import { notifyNeedsPerson } from '../../model/webtasks/run-words';
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
  #notice: string | undefined;
  readonly #subscriptions: vscode.Disposable[] = [];

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
      needsYou: (status) => this.#needsPerson(status),
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
    this.#subscriptions.push(
      // a later run started: the earlier run's notice is no longer current
      this.runner.onDidChange((c) => {
        if (this.#notice !== undefined && c.status.runId !== this.#notice && isLiveStatus(c.status))
          this.#withdrawNotice();
      }),
      // the person looks at the run: its notice has done its work
      this.panel.onDidShowRun((runId) => {
        if (runId === this.#notice && this.windowFocused()) this.#withdrawNotice();
      }),
    );
  }

  /** Whether the window has focus (tests replace it: a test window's focus cannot be set). */
  windowFocused: () => boolean = () => vscode.window.state.focused;

  /** The run whose "needs a person" notice is current (undefined: none). */
  get noticeRunId(): string | undefined {
    return this.#notice;
  }

  /**
   * A run waits for, or ended needing, a person: a notification with Watch Live and Open, unless
   * the person looks at that run or a later run started (`notifyNeedsPerson`). VS Code cannot close
   * a notification (microsoft/vscode#163298): once the notice is withdrawn (a later run started,
   * the run was seen), its buttons open that run in the panel, which says what is true now.
   */
  #needsPerson(status: WebTaskStatusView): void {
    const looking = {
      windowFocused: this.windowFocused(),
      panelShowsRun: this.panel.isShowing(status.runId),
      newerRunStarted: this.runner.newestRunId !== undefined && this.runner.newestRunId !== status.runId,
    };
    if (!notifyNeedsPerson(looking)) {
      this.#deps.logger.info(`Web task ${status.runId}: needs a person (seen in the panel: no notification)`);
      return;
    }
    this.#notice = status.runId;
    const watch = l10n.t('Watch Live');
    const open = l10n.t('Open Web Task');
    const buttons = status.livestreamUrl ? [watch, open] : [open];
    // (true of both states that need a person: waiting for them, or over and needing them)
    void Promise.resolve(
      vscode.window.showInformationMessage(
        l10n.t('Den: a web task needs a person: {0}', status.message),
        ...buttons,
      ),
    ).then(async (choice) => {
      if (choice === undefined) return;
      const current = this.#notice === status.runId;
      if (current) this.#withdrawNotice();
      if (choice === watch && current && status.livestreamUrl) await openLive(status.livestreamUrl, false);
      else await this.panel.open({ runId: status.runId });
    });
  }

  #withdrawNotice(): void {
    this.#notice = undefined;
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

  /** The sessions the runs recorded here made (`properties.sessionId`), for the Sessions view. */
  async sessionIds(): Promise<Set<string>> {
    const runs = await this.history().list();
    return new Set(runs.flatMap((r) => (r.sessionId ? [r.sessionId] : [])));
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
    for (const d of this.#subscriptions) d.dispose();
    this.panel.dispose();
    this.tree.dispose();
    this.runner.dispose();
  }
}
