import * as vscode from 'vscode';
import type { ApiClient } from '../../core/client/client';
import type { LamRunRequest, LamRunResponse } from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { checkResult } from '../../core/webtasks/result-check';
import type { ServiceSchema } from '../../core/webtasks/service-schema';
import type { WebTaskRequest } from '../../protocol/webtask-panel/webtask-form';
import type { WebTaskResultsView, WebTaskStatusView } from '../../protocol/webtask-panel/webtask-messages';
import { webTaskState } from '../../protocol/webtask-panel/webtask-states';
import type { WebTaskHistory, WebTaskProblemCounts, WebTaskRun } from '../../model/webtasks/web-task-history';
import {
  CANCELLED,
  errorOutcome,
  failureHint,
  INTERRUPTED,
  interruptedOutcome,
  needsPersonHint,
  phaseOf,
} from '../../model/webtasks/run-words';

/** What the runner needs from the rest of the extension. */
export interface RunnerDeps {
  /** The client for the current service and key (throws a `config` error when there is none). */
  client: () => ApiClient;
  /** The passcode from SecretStorage, if set. */
  passcode: () => Promise<string | undefined>;
  /** This workspace's history (a new object after `den.webTasks.maxRuns` changes). */
  history: () => WebTaskHistory;
  /** Whether Den can open the session of that id (false on any failure). */
  sessionOpenable: (sessionId: string) => Promise<boolean>;
  /** A run waits for, or ended needing, a person (HUMAN_INTERACTION): tell them (once per run). */
  needsYou: (status: WebTaskStatusView) => void;
  /** Secrets no message may quote (the API key). */
  secrets: () => (string | undefined)[];
  logger: Logger;
}

/** A change of one run: its status, and its results once it has finished with them. */
export interface RunChange {
  status: WebTaskStatusView;
  results?: WebTaskResultsView;
}

interface ActiveRun {
  status: WebTaskStatusView;
  controller: AbortController;
  schema?: ServiceSchema;
  done: Promise<void>;
  notified: boolean;
}

/** Final statuses and results kept in memory (hints and dropped data are not in the history). */
const KEEP_FINISHED = 20;

/**
 * Runs web tasks (`POST /lam/run`), independent of any panel: a run goes on when its panel closes.
 * Each run is recorded in the history as it starts and as its status changes; every change is
 * published through `onDidChange` to whoever shows the run.
 */
export class WebTaskRunner implements vscode.Disposable {
  readonly #active = new Map<string, ActiveRun>();
  readonly #finished = new Map<string, RunChange>();
  readonly #changed = new vscode.EventEmitter<RunChange>();
  readonly onDidChange = this.#changed.event;
  readonly #historyChanged = new vscode.EventEmitter<void>();
  /** A run was added, changed or removed in the history. */
  readonly onDidChangeHistory = this.#historyChanged.event;

  #newest: string | undefined;

  readonly #deps: RunnerDeps;
  constructor(deps: RunnerDeps) {
    this.#deps = deps;
  }

  /** Records a new run and starts it; resolves with its id once recorded. */
  async start(request: WebTaskRequest): Promise<string> {
    const run = await this.#deps.history().add(request);
    const entry: ActiveRun = {
      status: {
        runId: run.id,
        phase: 'running',
        taskStatus: 'STARTING',
        message: l10n.t('Starting the web task…'),
        startedAt: run.startedAt,
      },
      controller: new AbortController(),
      notified: false,
      done: Promise.resolve(),
    };
    if (request.schema) entry.schema = request.schema;
    this.#active.set(run.id, entry);
    this.#newest = run.id;
    this.#deps.logger.info(`Web task ${run.id}: started against ${request.appUrl}`);
    entry.done = this.#execute(entry, request).finally(() => this.#active.delete(run.id));
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: l10n.t('Den: web task running') },
      () => entry.done,
    );
    this.#publish({ status: entry.status });
    this.#historyChanged.fire();
    return run.id;
  }

  /** This workspace's history. */
  history(): WebTaskHistory {
    return this.#deps.history();
  }

  /** Cancels a running run; false when it is not running. */
  cancel(runId: string): boolean {
    const entry = this.#active.get(runId);
    if (!entry) return false;
    entry.controller.abort();
    return true;
  }

  /** The run started last in this window (undefined: none yet). */
  get newestRunId(): string | undefined {
    return this.#newest;
  }

  isRunning(runId: string): boolean {
    return this.#active.has(runId);
  }

  /** Resolves when the run has finished (at once when it is not running). */
  async settled(runId: string): Promise<void> {
    await this.#active.get(runId)?.done;
  }

  /** Ids of the runs going now. */
  runningIds(): string[] {
    return [...this.#active.keys()];
  }

  /** The status of a run this window ran: live while it runs, then as it ended (else undefined). */
  liveStatus(runId: string): WebTaskStatusView | undefined {
    const live = this.#active.get(runId)?.status ?? this.#finished.get(runId)?.status;
    return live && { ...live };
  }

  /** The status of a stored run: live while it runs, else as recorded. */
  statusOf(run: WebTaskRun): WebTaskStatusView {
    const live = this.liveStatus(run.id);
    if (live) return live;
    const phase = phaseOf(run.status, false);
    const view: WebTaskStatusView = {
      runId: run.id,
      phase,
      taskStatus: run.status,
      message: run.message,
      startedAt: run.startedAt,
    };
    if (phase === 'interrupted') {
      // recorded as cut off (its advice fits the mode it ran in), or left running by a closed window
      const words = interruptedOutcome(
        run.status === INTERRUPTED ? (run.inputs.stream === false ? 'answer' : 'stream') : 'window',
      );
      if (run.status !== INTERRUPTED) view.message = words.message;
      view.hint = words.hint;
    }
    if (phase === 'failed') view.hint = failureHint(run.message);
    if (phase === 'needs-person') view.hint = needsPersonHint(!!run.livestreamUrl);
    if (run.livestreamUrl) view.livestreamUrl = run.livestreamUrl;
    if (run.sessionId) view.sessionId = run.sessionId;
    if (run.finishedAt !== undefined) view.finishedAt = run.finishedAt;
    return view;
  }

  /** The results of a run that finished in this window (also those too big for the history). */
  recentResults(runId: string): WebTaskResultsView | undefined {
    return this.#finished.get(runId)?.results;
  }

  /** Whether Den can open the session of that id. */
  sessionOpenable(sessionId: string): Promise<boolean> {
    return this.#deps.sessionOpenable(sessionId);
  }

  /** Tells listeners the history changed outside the runner (a delete). */
  historyEdited(): void {
    this.#historyChanged.fire();
  }

  async #execute(entry: ActiveRun, request: WebTaskRequest): Promise<void> {
    const { signal } = entry.controller;
    const id = entry.status.runId;
    let passcode: string | undefined;
    try {
      const client = this.#deps.client();
      passcode = await this.#deps.passcode();
      const { stream, ...fields } = request;
      const req: LamRunRequest = { ...fields };
      if (passcode) req.servicePasscode = passcode;
      let last: LamRunResponse | undefined;
      if (stream) {
        for await (const state of client.lamRunStream(req, signal)) {
          last = state;
          await this.#progress(entry, state);
        }
      } else {
        last = await client.lamRun(req, signal);
      }
      if (signal.aborted) throw new Error('cancelled');
      if (!last) throw new Error(l10n.t('the service sent no state'));
      await this.#finish(entry, last);
    } catch (err) {
      const outcome = signal.aborted
        ? { taskStatus: CANCELLED, message: l10n.t('Cancelled.') }
        : errorOutcome(err, { stream: request.stream }, passcode, ...this.#deps.secrets());
      this.#deps.logger.warn(`Web task ${id}: ${outcome.taskStatus}: ${outcome.message}`);
      const status: WebTaskStatusView = {
        ...entry.status,
        phase: phaseOf(outcome.taskStatus, false),
        taskStatus: outcome.taskStatus,
        message: outcome.message,
        finishedAt: Date.now(),
      };
      if ('hint' in outcome && outcome.hint) status.hint = outcome.hint;
      else delete status.hint;
      await this.#record(id, {
        status: outcome.taskStatus,
        message: outcome.message,
        finishedAt: status.finishedAt,
      });
      this.#end({ status });
    }
  }

  /** A state while the run goes: shown, and recorded when its status or links change. */
  async #progress(entry: ActiveRun, state: LamRunResponse): Promise<void> {
    const before = entry.status;
    const status: WebTaskStatusView = {
      ...before,
      phase: phaseOf(state.taskStatus, true),
      taskStatus: state.taskStatus,
      message: state.message,
    };
    if (state.livestreamUrl) status.livestreamUrl = state.livestreamUrl;
    if (state.sessionId) status.sessionId = state.sessionId;
    entry.status = status;
    if (
      before.taskStatus !== status.taskStatus ||
      before.livestreamUrl !== status.livestreamUrl ||
      before.sessionId !== status.sessionId
    ) {
      await this.#record(status.runId, {
        status: status.taskStatus,
        message: status.message,
        livestreamUrl: status.livestreamUrl,
        sessionId: status.sessionId,
      });
    }
    this.#needsYou(entry);
    this.#publish({ status });
  }

  #needsYou(entry: ActiveRun): void {
    if (!webTaskState(entry.status.phase).needsPerson || entry.notified) return;
    entry.notified = true;
    try {
      this.#deps.needsYou({ ...entry.status });
    } catch (err) {
      // telling the person is not the run: a failing notice never ends it
      this.#deps.logger.warn(`Web task ${entry.status.runId}: could not notify: ${String(err)}`);
    }
  }

  async #finish(entry: ActiveRun, last: LamRunResponse): Promise<void> {
    const id = entry.status.runId;
    const phase = phaseOf(last.taskStatus, false);
    const status: WebTaskStatusView = {
      ...entry.status,
      phase,
      taskStatus: last.taskStatus,
      message:
        phase === 'error'
          ? last.message
            ? l10n.t('The service ended the task with status {0}: {1}', last.taskStatus, last.message)
            : l10n.t('The service ended the task with status {0}.', last.taskStatus)
          : last.message,
      finishedAt: Date.now(),
    };
    if (last.livestreamUrl) status.livestreamUrl = last.livestreamUrl;
    if (last.sessionId) status.sessionId = last.sessionId;
    if (phase === 'failed') status.hint = failureHint(last.message);
    if (phase === 'needs-person') status.hint = needsPersonHint(!!status.livestreamUrl);
    if (phase === 'error')
      status.hint = l10n.t('Run it again; if it keeps happening, Den: Show Log says more.');
    entry.status = status;
    const problems = entry.schema ? problemCounts(last.data, entry.schema) : undefined;
    const stored = await this.#record(id, {
      status: last.taskStatus,
      message: last.message,
      finishedAt: status.finishedAt,
      problems,
      livestreamUrl: status.livestreamUrl,
      sessionId: status.sessionId,
      data: last.data,
    });
    this.#deps.logger.info(`Web task ${id}: ${last.taskStatus}, ${last.data.length} records`);
    this.#needsYou(entry);
    let results: WebTaskResultsView | undefined;
    if (phase === 'done' || last.data.length > 0) {
      results = {
        runId: id,
        data: last.data,
        sessionOpenable: status.sessionId ? await this.sessionOpenable(status.sessionId) : false,
      };
      if (entry.schema) results.schema = entry.schema;
      if (stored?.dataDropped) results.dropped = true;
    }
    this.#end(results ? { status, results } : { status });
  }

  /** Writes to the history; a failing write is logged, never the end of the run. */
  async #record(id: string, patch: Parameters<WebTaskHistory['update']>[1]): Promise<WebTaskRun | undefined> {
    try {
      const r = await this.#deps.history().update(id, patch);
      this.#historyChanged.fire();
      return r;
    } catch (err) {
      this.#deps.logger.warn(
        `Web task ${id}: could not record it: ${err instanceof Error ? err.message : err}`,
      );
      return undefined;
    }
  }

  #end(change: RunChange): void {
    this.#finished.set(change.status.runId, change);
    while (this.#finished.size > KEEP_FINISHED)
      this.#finished.delete(this.#finished.keys().next().value as string);
    this.#publish(change);
  }

  #publish(change: RunChange): void {
    this.#changed.fire(change);
  }

  /** Forgets what memory holds of a run (after it was deleted). */
  forget(runId: string): void {
    this.#finished.delete(runId);
  }

  dispose(): void {
    for (const e of this.#active.values()) e.controller.abort();
    this.#changed.dispose();
    this.#historyChanged.dispose();
  }
}

/** The issue totals of results checked against the schema. */
export function problemCounts(data: unknown, schema: ServiceSchema): WebTaskProblemCounts {
  const t = checkResult(data, schema).totals;
  return { missing: t.missing, null: t.null, empty: t.empty, wrongShape: t.wrongShape };
}
