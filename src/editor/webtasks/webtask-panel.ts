import * as vscode from 'vscode';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { cannotWriteText } from '../../core/paths/write-error';
import { compareRuns } from '../../core/webtasks/compare';
import { isServiceSchema, type ServiceSchema } from '../../core/webtasks/service-schema';
import { toCsv, toJsonLines, toPrettyJson } from '../../core/webtasks/writers';
import { panelHtml } from '../session-panel/panel-html';
import { SessionPanel } from '../session-panel/session-panel';
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { checkForm, formFromRequest, hostSchemaReader } from '../../protocol/webtask-panel/webtask-form';
import {
  EMPTY_WEB_TASK_FORM,
  isWebTaskForm,
  isWebTaskWebviewMessage,
  type SaveFormat,
  type WebTaskComparisonView,
  type WebTaskForm,
  type WebTaskHostMessage,
  type WebTaskResultsView,
  type WebTaskStatusView,
  type WebTaskWebviewMessage,
} from '../../protocol/webtask-panel/webtask-messages';
import type { WebTaskRun } from '../../model/webtasks/web-task-history';
import type { PasscodeStore } from './passcode-store';
import { previousRun, saveFileName } from '../../model/webtasks/run-words';
import type { RunChange, WebTaskRunner } from './runner';

/** The webview panel type. */
export const WEB_TASK_VIEW_TYPE = 'den.webTask';

/** `workspaceState` key of the last form run in this workspace (never holds the passcode). */
const LAST_FORM_KEY = 'den.webTasks.lastForm';
/** A remembered form bigger than this forgets its schema text. */
const MAX_REMEMBERED = 256 * 1024;

export interface WebTaskPanelDeps {
  context: vscode.ExtensionContext;
  runner: WebTaskRunner;
  passcode: PasscodeStore;
  logger: Logger;
}

/** What the panel shows when opened. */
export interface WebTaskOpenOptions {
  /** Replaces the form (e.g. a schema file's text). */
  form?: Partial<WebTaskForm>;
  /** A stored run to show (its inputs become the form). */
  runId?: string;
  /** Also compare the run with the previous one. */
  compare?: boolean;
}

/**
 * The "Den: Web Task" panel: one, reused. It shows the form and the latest run started from it, or
 * the run opened from the Web Tasks view; the run itself belongs to the runner and goes on when the
 * panel closes. Every message of the webview is checked (`isWebTaskWebviewMessage`); others are
 * ignored.
 */
export class WebTaskPanel implements vscode.Disposable {
  #panel?: vscode.WebviewPanel;
  #formValue: WebTaskForm;
  #runId?: string;
  #status: WebTaskStatusView | null = null;
  #results: WebTaskResultsView | null = null;
  #comparison: WebTaskComparisonView | null = null;
  readonly #posted = new vscode.EventEmitter<WebTaskHostMessage>();
  /** Every message posted to the webview (tests watch the panel through it). */
  readonly onDidPost = this.#posted.event;
  readonly #shown = new vscode.EventEmitter<string>();
  /** The panel came into view showing a run (its id): the person sees that run. */
  readonly onDidShowRun = this.#shown.event;
  readonly #subscriptions: vscode.Disposable[] = [];
  readonly #handlers: Handlers<WebTaskWebviewMessage>;

  readonly #deps: WebTaskPanelDeps;
  constructor(deps: WebTaskPanelDeps) {
    this.#deps = deps;
    this.#formValue = this.#rememberedForm();
    this.#handlers = this.#makeHandlers();
    this.#subscriptions.push(
      this.#posted,
      this.#shown,
      deps.runner.onDidChange((c) => this.#runChanged(c)),
      deps.passcode.onDidChange(() => this.#post({ type: 'passcode', passcodeSet: !!deps.passcode.value })),
    );
  }

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.#panel !== undefined;
  }

  /** The form as last shown or run. */
  get form(): WebTaskForm {
    return { ...this.#formValue };
  }

  /** Whether the panel is visible and shows that run. */
  isShowing(runId: string): boolean {
    return this.#panel?.visible === true && this.#runId === runId;
  }

  /** The run shown, if any. */
  get shownRunId(): string | undefined {
    return this.#runId;
  }

  /** Opens or reveals the panel, showing what `options` asks. */
  async open(options: WebTaskOpenOptions = {}): Promise<void> {
    if (options.runId) await this.#showRun(options.runId);
    if (options.form) this.#formValue = { ...this.#formValue, ...options.form };
    if (this.#panel) {
      this.#panel.reveal(undefined, false);
      this.#postInit();
    } else this.#create();
    if (this.#runId && this.#panel?.visible) this.#shown.fire(this.#runId);
    if (options.runId && options.compare) await this.#compare(undefined);
  }

  /** Opens the panel with a schema file's text; an open page keeps the rest of its form. */
  async useSchema(schemaText: string, schemaSource: string): Promise<void> {
    this.#formValue = { ...this.#formValue, schemaText, schemaSource };
    if (!this.#panel) return this.open();
    this.#panel.reveal(undefined, false);
    this.#post({ type: 'schema', schemaText, schemaSource });
  }

  /** Handles one message from the webview (public so tests can act as the webview). */
  async handleMessage(raw: unknown): Promise<void> {
    if (!isWebTaskWebviewMessage(raw)) {
      this.#deps.logger.debug('Web Task panel: ignored a malformed message from the webview');
      return;
    }
    try {
      await dispatch(this.#handlers, raw);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      this.#deps.logger.warn(`Web Task panel: ${raw.type} failed: ${text}`);
      void vscode.window.showErrorMessage(l10n.t('Den could not do that: {0}', text));
    }
  }

  /**
   * Restores the panel after a window reload: the page keeps its draft (the webview's own state),
   * and shows the newest run of the history, as it was recorded (a run the closed window left
   * going reads as interrupted).
   */
  serializer(): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel) => {
        if (this.#panel) {
          panel.dispose();
          return;
        }
        const newest = (await this.#history().list())[0];
        if (newest)
          await this.#showRun(newest.id).catch((err: unknown) =>
            this.#deps.logger.warn(`Web Task panel: could not show the newest run again: ${String(err)}`),
          );
        this.#attach(panel);
      },
    };
  }

  #create(): void {
    const { extensionUri } = this.#deps.context;
    this.#attach(
      vscode.window.createWebviewPanel(
        WEB_TASK_VIEW_TYPE,
        l10n.t('Den: Web Task'),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        SessionPanel.webviewOptions(extensionUri),
      ),
    );
  }

  #attach(panel: vscode.WebviewPanel): void {
    const { extensionUri } = this.#deps.context;
    this.#panel = panel;
    // read the passcode now (not at activation): the page hears "set" once it is known
    void this.#deps.passcode.get();
    panel.webview.options = SessionPanel.webviewOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'den.svg');
    const webview = panel.webview;
    const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: uri('dist', 'webtask.js'),
      styleUri: uri('media', 'webtask.css'),
      title: l10n.t('Den: Web Task'),
    });
    const subs = [
      webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.visible && this.#panel === panel && this.#runId) this.#shown.fire(this.#runId);
      }),
      panel.onDidDispose(() => {
        for (const d of subs) d.dispose();
        if (this.#panel === panel) this.#panel = undefined;
      }),
    ];
  }

  #post(message: WebTaskHostMessage): void {
    if (!this.#panel) return;
    void this.#panel.webview.postMessage(message);
    this.#posted.fire(message);
  }

  #postInit(): void {
    this.#post({
      type: 'init',
      form: this.form,
      passcodeSet: !!this.#deps.passcode.value,
      status: this.#status,
      results: this.#results,
      comparison: this.#comparison,
      l10n: vscode.l10n.bundle ?? null,
    });
  }

  #runChanged(c: RunChange): void {
    if (c.status.runId !== this.#runId) return;
    this.#status = c.status;
    this.#post({ type: 'status', status: c.status });
    if (c.results) {
      this.#results = c.results;
      this.#post({ type: 'results', results: c.results });
    }
  }

  /** Makes a stored run the shown one: its inputs, status and results. */
  async #showRun(runId: string): Promise<void> {
    const run = await this.#history().get(runId);
    if (!run) throw new Error(l10n.t('That web task run is no longer in the history.'));
    this.#runId = run.id;
    this.#formValue = formFromRequest(run.inputs);
    this.#status = this.#deps.runner.statusOf(run);
    this.#comparison = null;
    this.#results = this.#deps.runner.recentResults(run.id) ?? (await this.#storedResults(run));
  }

  async #storedResults(run: WebTaskRun): Promise<WebTaskResultsView | null> {
    const data = await this.#history().data(run.id);
    if (!data && run.rowCount === 0 && run.status !== 'DONE') return null;
    const view: WebTaskResultsView = {
      runId: run.id,
      data: data ?? [],
      sessionOpenable: run.sessionId ? await this.#deps.runner.sessionOpenable(run.sessionId) : false,
    };
    if (run.inputs.schema && isServiceSchema(run.inputs.schema)) view.schema = run.inputs.schema;
    if (run.dataDropped) view.dropped = true;
    return view;
  }

  #history() {
    return this.#deps.runner.history();
  }

  #makeHandlers(): Handlers<WebTaskWebviewMessage> {
    return {
      ready: async () => this.#postInit(),
      run: (m) => this.#run(m.form, m.schema),
      cancel: async () => {
        if (this.#runId) this.#deps.runner.cancel(this.#runId);
      },
      watchLive: (m) => this.#watchLive(m.external),
      pickSchema: () => this.#pickSchema(),
      setPasscode: async () => {
        await vscode.commands.executeCommand('den.setWebTaskPasscode');
      },
      openJson: async () => {
        const content = this.#resultsText('json');
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content });
        await vscode.window.showTextDocument(doc, { preview: false });
      },
      save: (m) => this.#save(m.format),
      copy: async (m) => {
        await vscode.env.clipboard.writeText(this.#resultsText(m.format));
      },
      compare: (m) => this.#compare(m.keyField),
      openSession: async () => {
        const id = this.#status?.sessionId;
        if (id) await vscode.commands.executeCommand('den.openSession', id);
      },
    };
  }

  /** Checks the form again, remembers it, and starts a run shown here. */
  async #run(form: WebTaskForm, converted?: ServiceSchema): Promise<void> {
    this.#formValue = { ...form };
    const check = checkForm(form, hostSchemaReader(converted));
    if (!check.request) {
      this.#post({ type: 'formErrors', errors: check.errors as Record<string, string> });
      return;
    }
    await this.#remember(form);
    const runId = await this.#deps.runner.start(check.request);
    this.#runId = runId;
    this.#results = null;
    this.#comparison = null;
    // (the runner published the first status before this panel knew the run's id)
    const status = this.#deps.runner.liveStatus(runId);
    if (status) {
      this.#status = status;
      this.#post({ type: 'status', status });
    }
  }

  #data(): Record<string, unknown>[] {
    if (!this.#results) throw new Error(l10n.t('There are no results to use yet.'));
    return this.#results.data;
  }

  /** The shown results written in a format (CSV puts the schema's fields first). */
  #resultsText(format: SaveFormat): string {
    const data = this.#data();
    if (format === 'jsonl') return toJsonLines(data);
    if (format === 'json') return toPrettyJson(data);
    return toCsv(data, this.#results?.schema ? { schema: this.#results.schema } : {});
  }

  async #watchLive(external: boolean): Promise<void> {
    const url = this.#status?.livestreamUrl;
    if (!url || !/^https?:\/\//i.test(url)) {
      void vscode.window.showInformationMessage(l10n.t('This run has no live view to watch.'));
      return;
    }
    await openLive(url, external);
  }

  async #pickSchema(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: l10n.t('Use Schema'),
      title: l10n.t('Den: Choose a Schema File'),
      filters: { JSON: ['json'] },
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    if (!picked?.[0]) return;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(picked[0]));
    await this.useSchema(text, vscode.workspace.asRelativePath(picked[0], false));
  }

  async #save(format: SaveFormat): Promise<void> {
    const data = this.#data();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = saveFileName(this.#formValue.query, format);
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { [format.toUpperCase()]: [format] },
      title: l10n.t('Den: Save Results as {0}', format.toUpperCase()),
    });
    if (!target) return;
    const where = vscode.workspace.asRelativePath(target, false);
    await writeOrSay(target, new TextEncoder().encode(this.#resultsText(format)), where);
    const open = l10n.t('Open');
    void Promise.resolve(
      vscode.window.showInformationMessage(
        l10n.t('Saved {0} records to {1}.', formatCount(data.length), where),
        open,
      ),
    ).then((choice) => {
      if (choice === open) void vscode.window.showTextDocument(target);
    });
  }

  /** Compares the shown run with the newest earlier run of the same URL and query. */
  async #compare(keyField: string | undefined): Promise<void> {
    const runId = this.#runId;
    if (!runId) return;
    const history = this.#history();
    const runs = await history.list();
    const run = runs.find((r) => r.id === runId);
    // Nothing compared: an empty comparison that says why.
    const empty = (message: string): WebTaskComparisonView => ({
      ...compareRuns([], []),
      runId,
      previous: null,
      message,
    });
    let view: WebTaskComparisonView;
    const prev = run && previousRun(runs, run);
    const after = this.#results?.runId === runId ? this.#results.data : await history.data(runId);
    const before = prev && (await history.data(prev.id));
    if (!run || !after) view = empty(l10n.t('This run has no results to compare.'));
    else if (!prev || !before)
      view = empty(l10n.t('No earlier run of the same app URL and query has results to compare with.'));
    else {
      const c = compareRuns(before, after, keyField ? { keyField } : {});
      view = {
        runId,
        previous: { runId: prev.id, startedAt: prev.startedAt, rowCount: prev.rowCount },
        keySource: c.keySource,
        added: c.added,
        removed: c.removed,
        changed: c.changed,
        unchanged: c.unchanged,
      };
      if (c.keyField !== undefined) view.keyField = c.keyField;
    }
    if (this.#runId !== runId) return;
    this.#comparison = view;
    this.#post({ type: 'comparison', comparison: view });
  }

  /** The last form run in this workspace, or an empty one. */
  #rememberedForm(): WebTaskForm {
    const stored: unknown = this.#deps.context.workspaceState.get(LAST_FORM_KEY);
    return isWebTaskForm(stored) ? { ...stored } : { ...EMPTY_WEB_TASK_FORM };
  }

  async #remember(form: WebTaskForm): Promise<void> {
    const kept =
      JSON.stringify(form).length > MAX_REMEMBERED ? { ...form, schemaText: '', schemaSource: '' } : form;
    await this.#deps.context.workspaceState.update(LAST_FORM_KEY, kept);
  }

  /** Forgets the shown run if it is `runId` (deleted from the history). */
  forgetRun(runId?: string): void {
    if (runId !== undefined && runId !== this.#runId) return;
    this.#runId = undefined;
    this.#status = this.#results = this.#comparison = null;
    this.#postInit();
  }

  /** Closes the panel (tests, reset). */
  close(): void {
    this.#panel?.dispose();
  }

  dispose(): void {
    this.#panel?.dispose();
    for (const d of this.#subscriptions) d.dispose();
  }
}

/** Opens a live view: in the editor's Simple Browser when it exists (and not `external`), else outside. */
export async function openLive(url: string, external: boolean): Promise<void> {
  if (!external) {
    // The built-in Simple Browser registers its command when it activates (on this first call); an
    // editor without it (or with it disabled) opens the link outside instead.
    try {
      await vscode.commands.executeCommand('simpleBrowser.show', url);
      return;
    } catch {
      /* not available: the system browser below */
    }
  }
  await vscode.env.openExternal(vscode.Uri.parse(url));
}

/**
 * Writes a saved file; when the write fails (a full disk, a read-only folder), a file that was not
 * there before is removed again (it may hold a part) and the error says which file and why.
 */
async function writeOrSay(target: vscode.Uri, bytes: Uint8Array, where: string): Promise<void> {
  const existed = await vscode.workspace.fs.stat(target).then(
    () => true,
    () => false,
  );
  try {
    await vscode.workspace.fs.writeFile(target, bytes);
  } catch (err) {
    if (!existed) await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
    throw new Error(cannotWriteText(where, err));
  }
}
