import * as vscode from 'vscode';
import { formatCount, l10n, setL10nBundle } from './core/shared/l10n';
import { createDenApi } from './editor/api/den-api';
import type { DenExtensionApi, DenSessionChangeEvent } from './editor/api/types';
import { seedDemoKey } from './editor/platform/demo-key';
import { KeyStore } from './editor/platform/key-store';
import { registerAttachCommands } from './editor/commands/attach-commands';
import { registerApplyCommands } from './editor/commands/apply-commands';
import { offerWalkthrough, registerAuthCommands, registerGetStarted } from './editor/commands/auth-commands';
import { registerFileCommands } from './editor/commands/file-commands';
import { registerPanelCommands } from './editor/commands/panel-commands';
import { registerReviewCommands } from './editor/commands/review-commands';
import { registerSessionCommands } from './editor/commands/session-commands';
import { linkOf, sessionUriHandler } from './editor/commands/session-link-commands';
import { registerTurnCommands } from './editor/commands/turn-commands';
import { registerAttemptCommands } from './editor/attempts/attempt-commands';
import { ComposerAttempts } from './editor/attempts/composer-attempts';
import { Attempts } from './editor/attempts/attempts';
import { AttemptsTreeProvider } from './editor/attempts/attempts-tree';
import { AttemptStore } from './model/attempts/attempt-store';
import { registerWebTaskCommands } from './editor/commands/webtask-commands';
import { parseSettings } from './editor/platform/settings';
import { redactingLogger, type Logger } from './core/shared/log';
import { SessionFileSystem } from './editor/session-files/session-fs';
import { ApplyPreviews } from './editor/apply/apply-review';
import { ReviewActions } from './editor/apply/review-actions';
import { ReviewComments } from './editor/review-comments/review-comments';
import { CounterpartFeed } from './editor/review-comments/counterpart-feed';
import { Counterparts } from './model/review/counterparts';
import { HunkActions } from './editor/apply/hunk-actions';
import { ReviewMarkCommands } from './editor/apply/review-marks';
import { ReviewMarks } from './model/review/review-marks';
import { KeptOutHunks } from './model/apply/kept-out';
import { WorkspaceFileStatus } from './editor/session-files/workspace-file-status';
import { BaseStore } from './model/apply/bases';
import { Connection } from './editor/platform/connection';
import { hostSettings } from './editor/platform/host-settings';
import { forgetSteps, isStepDone, stepDone } from './editor/platform/walkthrough-steps';
import { Attention } from './editor/session-panel/attention-signals';
import { SessionPanels } from './editor/session-panel/session-panels';
import { SessionRegistry } from './model/session/session-registry';
import { SessionFiles } from './model/session-files/session-files';
import {
  MARKDOWN_SCHEME,
  SessionMarkdownProvider,
  openSessionMarkdown,
} from './editor/sessions-view/markdown-view';
import { SessionDropController } from './editor/sessions-view/session-drop';
import { SessionsTreeProvider } from './editor/sessions-view/sessions-tree';
import { StatusBar } from './editor/sessions-view/status-bar';
import { PasscodeStore } from './editor/webtasks/passcode-store';
import { WEB_TASK_VIEW_TYPE } from './editor/webtasks/webtask-panel';
import { WebTasks } from './editor/webtasks/web-tasks';
import { createSessionSearch } from './editor/search/session-search';
import { SearchView } from './editor/search/search-view';
import { registerIntegrations } from './editor/integrations/register';
import { publishForTests } from './editor/api/test-internals';

export type * from './editor/api/types';

function readSettings() {
  return parseSettings((name) => {
    const dot = name.indexOf('.');
    const config = vscode.workspace.getConfiguration(name.slice(0, dot));
    const key = name.slice(dot + 1);
    // The service's address comes from user settings only: a workspace's settings (a cloned
    // repository's) must not send the API key to another service. Not a `machine` scope: that
    // would ignore the user's own setting in a remote window.
    return name === 'den.baseUrl' ? config.inspect(key)?.globalValue : config.get(key);
  });
}

/**
 * Builds the pieces and registers them. Makes no network call. Returns exactly the public API
 * (docs/api.md): every other extension reads it, so nothing reachable from it leads to the key,
 * the passcode or an authenticated client.
 */
export function activate(context: vscode.ExtensionContext): DenExtensionApi {
  const started = performance.now();
  // Every text Den writes goes through core/l10n's `l10n.t`, which reads VS Code's bundle from here.
  setL10nBundle(vscode.l10n.bundle, vscode.env.language);
  const channel = vscode.window.createOutputChannel('Den', { log: true });
  const keys = new KeyStore(context.secrets, process.env.DEN_API_KEY);
  const passcode = new PasscodeStore(context.secrets);
  const logger: Logger = redactingLogger(
    {
      debug: (m) => channel.debug(m),
      info: (m) => channel.info(m),
      warn: (m) => channel.warn(m),
      error: (m) => channel.error(m),
    },
    () => [keys.key, passcode.value],
  );
  // Reading SecretStorage can take a round trip to the UI (code-server keeps it in the browser):
  // activation does not wait for it; the tree waits for `connection.ready` instead.
  const keysReady = keys
    .load()
    .then(() => seedDemoKey(keys, context.globalState, process.env.DEN_DEMO_API_KEY, logger))
    .then(() => undefined);
  const connection = new Connection(readSettings(), keys, logger, keysReady);
  // Set after the connection's first keys: until then (and before activation) no welcome that
  // depends on them may show, or "needs the address of your service" flashes when a URL is set.
  void vscode.commands.executeCommand('setContext', 'den.ready', true);
  const status = new StatusBar();
  const sessions = new SessionsTreeProvider(connection, logger, context.workspaceState);
  const drop = new SessionDropController((sessionId, uris) =>
    vscode.commands.executeCommand('den.attachToSession', { uris, session: sessionId }),
  );
  const view = vscode.window.createTreeView('den.sessions', {
    treeDataProvider: sessions,
    showCollapseAll: true,
    dragAndDropController: drop,
  });
  sessions.attach(view);
  status.setState(connection.state);
  // Editors restored with a den-session: file can ask before the stored key is read: they wait for it.
  const sessionFiles = new SessionFiles({
    fetch: async (id) => {
      await connection.ready;
      return connection.requireClient().getSession(id);
    },
    download: async (file, ctx) => {
      await connection.ready;
      return (await connection.requireClient().downloadFile(file, ctx)).content;
    },
  });
  const files = new SessionFileSystem(sessionFiles, logger);
  // What the agent saw of attached files, recorded at send and read by Apply (the folder is created
  // on first record).
  const bases = new BaseStore({ dir: vscode.Uri.joinPath(context.globalStorageUri, 'bases').fsPath, logger });
  const baseLookup = (sessionId: string) => async (relPath: string) => bases.get(sessionId, relPath);
  // Each file's state against the workspace, for the Sessions tree's Files groups and the panels.
  const fileStatus = new WorkspaceFileStatus({
    client: () => connection.requireClient(),
    listedUpdatedAt: (id) => sessions.get(id)?.updatedAt,
    bases: baseLookup,
    onDidChangeSessionFiles: (listener) => sessionFiles.onDidChange(listener),
    filesThatRunCode: () => connection.settings.filesThatRunCode,
    logger,
  });
  sessions.setFileStatus(fileStatus.model);
  // Which versions of the agent's files a person marked reviewed, kept across windows and reloads.
  const reviewMarks = new ReviewMarks(context.globalState);
  sessions.setReviewMarks(reviewMarks);
  // Which workspace files are copies of agents' files (they take line comments), as files are learned.
  const counterparts = new Counterparts(context.workspaceState);
  // The agent's hunks a person kept out of this workspace, kept across reloads.
  const keptOutHunks = new KeptOutHunks(context.workspaceState);
  const hunkActions = new HunkActions({
    bases: baseLookup,
    filesThatRunCode: () => connection.settings.filesThatRunCode,
    keptOut: keptOutHunks,
  });
  const registry = new SessionRegistry({
    connection,
    logger,
    apiKey: () => keys.key,
    settings: () => hostSettings(connection),
    titleOf: (id) => sessions.get(id)?.title,
    cacheDir: vscode.Uri.joinPath(context.globalStorageUri, 'transcripts').fsPath,
    filesChanged: (sessionId, update) => {
      files.files.update(sessionId, update);
      counterparts.learnUpdate(sessionId, update);
    },
    recordBase: (sessionId, path, content) => bases.record(sessionId, path, content),
    fileStatus: fileStatus.model,
    reviewed: reviewMarks,
  });
  const panels = new SessionPanels({ context, connection, logger, registry, sessionFs: files });
  // The public API's event is a vscode.Event (a listener that throws is VS Code's to report).
  const sessionChanged = new vscode.EventEmitter<DenSessionChangeEvent>();

  const followed = new Map<string, number>();
  // A task run as several sessions (`den.newSessionAttempts`), compared in the Attempts view.
  const attemptStore = new AttemptStore(context.workspaceState);
  const attention = new Attention({
    settings: () => connection.settings.attention,
    attemptGroupOf: (id) => attemptStore.groupOf(id)?.group,
    // A turn someone follows through the API (the chat shows it) is looked at like a visible panel.
    panelVisible: (id) => (panels.panel(id)?.visible ?? false) || followed.has(id),
    open: (id) => panels.open(id),
    answer: (id, turnId, a) => registry.answer(id, a, turnId),
    setBadge: (n) => {
      view.badge =
        n > 0
          ? {
              value: n,
              tooltip:
                n === 1
                  ? l10n.t('1 turn finished unseen')
                  : l10n.t('{0} turns finished unseen', formatCount(n)),
            }
          : undefined;
    },
  });
  const extensionId = context.extension.id;
  const uriHandler = sessionUriHandler({
    check: async (id) => {
      await connection.ready;
      return sessions.detail(id);
    },
    open: (id) => panels.open(id),
  });

  const reviewActions = new ReviewActions();
  const previews = new ApplyPreviews(reviewActions);
  // Line comments on the agent's files; Send Feedback makes them the session's next turn.
  const comments = new ReviewComments({
    state: context.workspaceState,
    counterparts,
    read: (id, path) => sessionFiles.read(id, path),
    send: (id, task) =>
      panels.open(id, { turn: { task, mode: 'code', effort: connection.settings.defaultEffort } }),
    busy: (id) => registry.runningTurns().some((t) => t.sessionId === id),
    onDidEndTurn: (listener) => registry.onDidEndTurn(listener),
    titleOf: (id) => sessions.get(id)?.title || registry.host(id)?.title || undefined,
    logger,
  });
  const webTasks = new WebTasks({
    context,
    connection,
    passcode,
    logger,
    apiKey: () => keys.key,
    listedSession: (id) => sessions.get(id) !== undefined,
  });
  const webTasksView = vscode.window.createTreeView('den.webTasks', { treeDataProvider: webTasks.tree });
  // A web task's own session is grouped under Web Tasks in the Sessions view, one read of the
  // history after another (so an older read never lands last).
  let marking = Promise.resolve();
  const markWebTaskSessions = (): void => {
    marking = marking
      .then(async () => sessions.setWebTaskSessions(await webTasks.sessionIds()))
      .catch((err: unknown) =>
        logger.warn(`Sessions view: could not read the web task runs: ${String(err)}`),
      );
  };
  markWebTaskSessions();
  const attempts = new Attempts(attemptStore, registry);
  const attemptsTree = new AttemptsTreeProvider(attemptStore, fileStatus.model);
  const attemptsView = vscode.window.createTreeView('den.attempts', {
    treeDataProvider: attemptsTree,
    showCollapseAll: true,
  });
  sessions.setAttemptMark((id) => attempts.markOf(id));
  panels.setAttempts(
    new ComposerAttempts({ attempts, open: (id, turn) => panels.open(id, turn ? { turn } : {}) }),
  );

  context.subscriptions.push(
    channel,
    keys,
    connection,
    status,
    sessions,
    view,
    connection.onDidChangeState((s) => status.setState(s)),
    files,
    files.register(),
    sessionFiles,
    fileStatus,
    sessions.model.onDidChange((c) => {
      if (c.kind === 'removed') {
        sessionFiles.forget(c.sessionId);
        fileStatus.forget(c.sessionId);
        void comments.forget(c.sessionId);
        void reviewMarks.forget(c.sessionId);
        void keptOutHunks.forget(c.sessionId);
      }
    }),
    keys.onDidChange(() => {
      sessionFiles.forget();
      fileStatus.forget();
      connection.keyChanged();
      void sessions.refresh({ forgetProblem: true });
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        e.affectsConfiguration('den') ||
        e.affectsConfiguration('http.proxy') ||
        e.affectsConfiguration('http.proxyStrictSSL') ||
        e.affectsConfiguration('http.noProxy')
      ) {
        connection.updateSettings(readSettings());
        attention.settingsChanged();
        sessionFiles.forget();
        fileStatus.forget();
        void sessions.refresh({ forgetProblem: true });
      }
    }),
    vscode.workspace.registerTextDocumentContentProvider(
      MARKDOWN_SCHEME,
      new SessionMarkdownProvider(sessions),
    ),
    ...registerAuthCommands(keys, connection, channel),
    registerGetStarted(context.extension.id),
    // Panels first: each lets go of its host before the registry lets go of them all.
    panels,
    registry,
    registry.onDidChangeRunningTurns(({ turns, sessions: changed }) => {
      void vscode.commands.executeCommand('setContext', 'den.turnRunning', turns.length > 0);
      for (const c of changed) sessions.setRunning(c.sessionId, c.running);
      const queued = turns.filter((t) => t.queued).length;
      status.setRunningTurns(turns.length - queued, queued);
    }),
    registry.onDidStartTurn((id) => {
      stepDone('task');
      void sessions.remember(id);
      if (!sessions.get(id)) void sessions.refresh();
    }),
    sessionChanged,
    registry.onDidChangeSession((e) => sessionChanged.fire(e)),
    attention,
    registry.onDidChangeTurn((a) => attention.turnChanged(a)),
    panels.onDidShowPanel((id) => attention.seen(id)),
    view.onDidChangeVisibility((e) => {
      if (e.visible) attention.seen();
    }),
    uriHandler,
    registry.onDidEndTurn((t) => sessions.model.setEnded(t.sessionId, t.status)),
    ...registerPanelCommands(registry, panels),
    vscode.window.registerWebviewPanelSerializer('den.session', panels.serializer()),
    vscode.window.registerWebviewPanelSerializer(WEB_TASK_VIEW_TYPE, webTasks.panel.serializer()),
    ...registerSessionCommands(sessions, connection, {
      open: (id) => panels.open(id),
      exportMarkdown: (id) => openSessionMarkdown(sessions, id),
      linkOf: (id) => linkOf(extensionId, id),
    }),
    ...registerTurnCommands({ connection, registry, panels, sessions }),
    ...registerAttachCommands({ connection, registry, panels, sessions }),
    ...registerFileCommands(files),
    reviewActions,
    previews,
    ...registerApplyCommands(connection, {
      previews,
      bases: baseLookup,
      filesThatRunCode: () => connection.settings.filesThatRunCode,
    }),
    ...registerReviewCommands(connection, files, reviewActions, comments),
    comments,
    counterparts,
    new CounterpartFeed({
      counterparts,
      threadSessions: () => comments.threads().map((t) => t.sessionId),
      refreshLabels: () => comments.refreshLabels(),
      listed: () => sessions.sessions,
      listedSession: (id) => sessions.get(id),
      onDidChangeList: (listener) => sessions.model.onDidChange(listener),
      isLocal: (id) => sessions.isLocal(id),
      turnsOf: (id) => registry.host(id)?.transcript.turns,
      onDidChangeTranscript: (listener) => registry.onDidChangeTranscript(listener),
      onDidShowPanel: (listener) => panels.onDidShowPanel(listener),
    }),
    // The Session panel's Send Feedback bar: the session's open comments, kept current.
    comments.onDidChange((id) => registry.host(id)?.view.setReviewComments(comments.openCount(id))),
    panels.onDidShowPanel((id) => registry.host(id)?.view.setReviewComments(comments.openCount(id))),
    hunkActions,
    keptOutHunks,
    reviewMarks,
    new ReviewMarkCommands({
      marks: reviewMarks,
      connection,
      actions: reviewActions,
      fs: files,
      sessions: () => sessions.sessions,
    }),
    passcode,
    webTasks,
    webTasksView,
    ...registerWebTaskCommands(webTasks),
    webTasks.runner.onDidChangeHistory(markWebTaskSessions),
    attemptStore,
    attempts,
    attemptsTree,
    attemptsView,
    attemptStore.onDidChange(() => sessions.setAttemptMark((id) => attempts.markOf(id))),
    ...registerAttemptCommands({
      connection,
      attempts,
      tree: attemptsTree,
      open: (id, turn) => panels.open(id, turn ? { turn } : {}),
    }),
  );
  // Search in Sessions: the index fills in the background after the tree's first paint.
  const search = createSessionSearch({
    context,
    connection,
    registry,
    sessions,
    open: (id) => panels.open(id),
    reveal: (id, at) => panels.revealMatch(id, at),
    logger,
  });
  const searchView = new SearchView(search, context.extensionUri, logger);
  context.subscriptions.push(search, ...search.commands(), ...searchView.register());
  const api = createDenApi({
    connection,
    registry,
    panels,
    webTasks,
    titleOf: (id) => sessions.get(id)?.title,
    onDidChangeSession: sessionChanged.event,
    apiKey: () => keys.key,
    followed,
  });
  const integrations = registerIntegrations(context, api);
  context.subscriptions.push(integrations);
  // After activation, once: a new person's empty editor area shows the walkthrough.
  void offerWalkthrough(context.globalState).catch((err) =>
    logger.warn(`The walkthrough did not open: ${err}`),
  );
  const activationMs = performance.now() - started;
  logger.info(`Den activated in ${activationMs.toFixed(1)} ms.`);
  publishForTests(context, {
    ...api,
    connection,
    keys,
    sessions,
    status,
    registry,
    panels,
    sessionDrop: drop,
    files,
    fileStatus,
    reviewMarks,
    keptOutHunks,
    hunkActions,
    attention,
    uriHandler,
    webTasks,
    integrations,
    comments,
    reviewActions,
    attempts,
    attemptsTree,
    search,
    searchView,
    walkthroughSteps: { done: isStepDone, forget: forgetSteps },
    activationMs,
  });
  return api;
}

export function deactivate(): void {}
