import * as vscode from 'vscode';
import { attachUris, droppedUris } from '../attachments/attach';
import type { AttachCounts } from '../attachments/attach-limits';
import type { ApiClient } from '../../core/client/client';
import type { FileInfo } from '../../core/client/types';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { findTurn } from '../../core/transcript/reducer';
import { openGeneratedFile } from '../session-files/open-file';
import type { SessionFileSystem } from '../session-files/session-fs';
import type { BatcherStats } from '../../model/session/delta-batcher';
import { sessionFilePath } from '../../model/session-files/file-index';
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import {
  checkWebviewMessage,
  messageSession,
  type HostMessage,
  type WebviewDigest,
  type WebviewMessage,
} from '../../protocol/session-panel/messages';
import { isAllowedCommand, isOpenableLink } from '../../protocol/session-panel/webview-messages';
import { panelHtml } from './panel-html';
import { composerAttempts } from '../../model/attempts/attempt-routing';
import type { SendOutcome } from '../../protocol/session-panel/messages';
import type { PanelAttempts } from '../attempts/composer-attempts';
import type { SessionHost, SessionMessage } from '../../model/session/session-host';
import type { Transcript } from '../../core/transcript/model';
import type { RevealMatch } from '../../model/session/view-link';

/** The webview panel type (package.json, the serializer). */
export const PANEL_VIEW_TYPE = 'den.session';

export interface SessionPanelDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  sessionFs: SessionFileSystem;
  client: () => ApiClient;
  /** The largest file that may be attached, in bytes (`den.attachments.maxFileSizeMB`). */
  maxFileBytes: () => number;
  /** The panel was closed. */
  onDidDispose: (panel: SessionPanel) => void;
  /** Attempts from the composer (a new session's task as 2–4 sessions, follow-ups to the chosen one). */
  attempts?: () => PanelAttempts | undefined;
  /** The preview panel is to keep its session open (Keep Open, an edit, a send). */
  keepOpen?: (panel: SessionPanel) => void;
}

/** What a person does in a preview panel that keeps its session open, as an edit pins a preview editor. */
const KEEPS_OPEN: ReadonlySet<WebviewMessage['type']> = new Set([
  'keepOpen',
  'send',
  'answer',
  'pickAttachments',
  'dropUris',
  'removeAttachment',
  'heldTurn',
]);

/**
 * One session's webview panel: its page, its messages, and what needs the editor (links, files,
 * clipboard, the file dialog). The transcript and turns live in its `SessionHost`. The preview panel
 * shows one session after another in the same page (`show`): no new webview per click.
 */
export class SessionPanel implements vscode.Disposable {
  readonly #subscriptions: vscode.Disposable[] = [];
  /** What every message of the webview does: the session's handlers and the editor's. */
  #handlers: Handlers<WebviewMessage>;
  #host: SessionHost;
  #preview = false;
  readonly #post: (m: HostMessage) => void;

  /** Options of the webview: scripts on; only dist/ and media/ may be loaded. */
  static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist'),
        vscode.Uri.joinPath(extensionUri, 'media'),
      ],
    };
  }

  /** A new panel in the active editor group (`preserveFocus`: the focus stays where it is). */
  static create(host: SessionHost, deps: SessionPanelDeps, preserveFocus = false): SessionPanel {
    const panel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      host.title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus },
      SessionPanel.webviewOptions(deps.extensionUri),
    );
    return new SessionPanel(panel, host, deps);
  }

  /** Takes over a panel (new, or restored after a window reload). */
  readonly #deps: SessionPanelDeps;
  constructor(
    readonly panel: vscode.WebviewPanel,
    host: SessionHost,
    deps: SessionPanelDeps,
  ) {
    this.#deps = deps;
    this.#host = host;
    this.#handlers = this.#handlersFor(host);
    const webview = panel.webview;
    webview.options = SessionPanel.webviewOptions(deps.extensionUri);
    panel.title = host.title;
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'den.svg');
    this.#subscriptions.push(
      webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      panel.onDidChangeViewState(() => {
        this.#host.link.setVisible(panel.visible);
        if (panel.active) this.#host.lookedAt();
      }),
      // Back in this window: a turn may have been started in another one meanwhile.
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && panel.visible) this.#host.lookedAt();
      }),
      panel.onDidDispose(() => {
        this.#host.link.detach();
        for (const d of this.#subscriptions) d.dispose();
        deps.onDidDispose(this);
      }),
    );
    this.#post = (m) => void webview.postMessage(m);
    host.link.attach(this.#post);
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview
        .asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview.js'))
        .toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'media', 'panel.css')).toString(),
      title: host.title,
    });
    if (!panel.visible) host.link.setVisible(false);
  }

  /** The session the panel shows (the preview panel shows one after another). */
  get host(): SessionHost {
    return this.#host;
  }

  get sessionId(): string {
    return this.#host.sessionId;
  }

  /** Whether the panel is the preview: the next single click in the Sessions view shows another session here. */
  get preview(): boolean {
    return this.#preview;
  }

  setPreview(preview: boolean): void {
    this.#preview = preview;
    this.#host.view.setPreview(preview);
  }

  /**
   * Shows another session in this panel's page (the preview's next single click): the page keeps
   * running and gets the session's `init` (no new webview), and it keeps where the person was in the
   * session it leaves. What the page still says about that session is dropped (`handleMessage`).
   */
  show(host: SessionHost): void {
    const old = this.#host;
    if (old === host) return;
    old.link.detach();
    old.view.setPreview(false);
    this.#host = host;
    this.#handlers = this.#handlersFor(host);
    host.view.setPreview(this.#preview);
    this.panel.title = host.title;
    host.link.attach(this.#post);
    // The page is loaded and says no `ready` for the new session: it gets its `init` now. A hidden
    // page is reloaded when shown, and its `ready` brings the `init` then.
    if (this.panel.visible) host.link.ready(null);
    else host.link.setVisible(false);
  }

  #handlersFor(host: SessionHost): Handlers<WebviewMessage> {
    return { ...host.handlers, ...this.#editorHandlers(), send: (m) => this.#send(m) };
  }

  /** The host's model of the session (tests). */
  get transcript(): Transcript {
    return this.host.transcript;
  }

  /** Posts and deltas sent to the webview (tests, benchmarks). */
  get stats(): BatcherStats {
    return this.host.stats;
  }

  /** Whether the panel is shown (VS Code's view). */
  get visible(): boolean {
    return this.panel.visible;
  }

  /** Opens the webview's find bar (with `query` typed in when given). */
  openFind(query?: string): void {
    this.host.link.send(query === undefined ? { type: 'openFind' } : { type: 'openFind', query });
  }

  /** Opens the find bar at one match (Search in Sessions); sent once the webview is ready. */
  revealMatch(m: Omit<RevealMatch, 'type'>): void {
    this.host.link.revealMatch({ type: 'revealMatch', ...m });
  }

  /** Opens the webview's outline of the turn in view. */
  openOutline(): void {
    this.host.link.send({ type: 'openOutline' });
  }

  /** What the webview shows (tests). */
  probe(timeoutMs?: number): Promise<WebviewDigest> {
    return this.host.link.probe(timeoutMs);
  }

  setTitle(title: string): void {
    this.panel.title = title;
  }

  /** Brings the panel to the front (`preserveFocus`: without taking the focus). */
  reveal(preserveFocus = false): void {
    this.panel.reveal(undefined, preserveFocus);
  }

  /** Handles one message from the webview (public so tests can act as the webview). */
  async handleMessage(raw: unknown): Promise<void> {
    const msg = checkWebviewMessage(raw);
    if (!msg) {
      this.#deps.logger.debug('Session panel: ignored a malformed message from the webview');
      return;
    }
    const about = messageSession(raw);
    if (about !== undefined && about !== this.sessionId) {
      // Posted before the page drew the session the preview shows now: about one it left.
      this.#deps.logger.debug(`Session panel: ignored ${msg.type} about a session the panel no longer shows`);
      return;
    }
    if (this.#preview && KEEPS_OPEN.has(msg.type)) this.#deps.keepOpen?.(this);
    try {
      await dispatch(this.#handlers, msg);
    } catch (err) {
      this.#deps.logger.warn(
        `Session panel: ${msg.type} failed: ${err instanceof Error ? err.message : err}`,
      );
      this.host.view.showError(err, 'do that');
    }
  }

  /**
   * The composer's send: as 2–4 attempts when it asks for them (a new session with no turn yet only,
   * checked here),
   * else to the chosen attempt when this session is another attempt of its task and the person says
   * so, else the session's own turn.
   */
  async #send(m: Extract<WebviewMessage, { type: 'send' }>): Promise<void> {
    const host = this.host;
    const settle = (outcome: SendOutcome): void => {
      if (m.sendId !== undefined) host.view.settleSend(m.sendId, outcome);
    };
    const asked = composerAttempts(m.attempts, !host.isNew);
    if ('error' in asked) {
      host.view.setNotice({ level: 'error', message: asked.error, actions: [] });
      return settle('refused');
    }
    const attempts = this.#deps.attempts?.();
    const send = { text: m.text, mode: m.mode, effort: m.effort };
    let outcome: SendOutcome | 'handled' = 'refused';
    try {
      if (asked.attempts > 1) {
        if (!attempts) throw new Error(l10n.t('attempts are not available here.'));
        if (m.text.trim() && (await attempts.start(host, { ...send, attempts: asked.attempts })))
          outcome = 'started';
        return;
      }
      if (attempts && m.continueTurnId === undefined && !host.waitingTurn() && m.text.trim()) {
        const route = await attempts.route(host, send);
        if (route !== 'here') {
          if (route === 'chosen') outcome = 'started';
          return;
        }
      }
      // The session's own handler settles the send.
      outcome = 'handled';
      await host.handlers.send(m);
    } finally {
      if (outcome !== 'handled') settle(outcome);
    }
  }

  /** The messages that need the editor: commands, links, files, the clipboard, the file dialog. */
  #editorHandlers(): Handlers<Exclude<WebviewMessage, SessionMessage>> {
    const { logger } = this.#deps;
    return {
      runCommand: async (m) => {
        if (isAllowedCommand(m.command)) await vscode.commands.executeCommand(m.command, ...(m.args ?? []));
        else logger.warn(`Session panel: refused to run ${m.command} for the webview`);
      },
      openLink: async (m) => {
        if (isOpenableLink(m.href)) await vscode.env.openExternal(vscode.Uri.parse(m.href));
        else logger.info(`Session panel: ignored a link that is not http(s): ${m.href.slice(0, 200)}`);
      },
      openFile: (m) => this.#openFile(m.turnId, m.path),
      copy: async (m) => {
        await vscode.env.clipboard.writeText(m.text);
      },
      pickAttachments: () => this.#pickAttachments(),
      dropUris: (m) => this.#attachDropped(m.uris, m.otherFiles ?? 0),
      // Done before any handler runs (`handleMessage`).
      keepOpen: () => undefined,
    };
  }

  async #pickAttachments(): Promise<void> {
    const uris = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: l10n.t('Attach'),
      title: l10n.t('Den: Attach Files to the Next Turn'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    if (uris?.length) await this.attach(uris);
  }

  /** Files dropped on the panel: those inside the workspace are attached, the others said why not. */
  async #attachDropped(raw: string[], otherFiles: number): Promise<void> {
    const { uris, refused } = droppedUris(raw);
    const notes: string[] = [];
    if (refused.length) {
      const shown = refused.slice(0, 3).join('; ');
      notes.push(
        refused.length > 3
          ? l10n.t(
              'Not attached (only files of the workspace are): {0}; and {1} more.',
              shown,
              formatCount(refused.length - 3),
            )
          : l10n.t('Not attached (only files of the workspace are): {0}.', shown),
      );
    }
    if (otherFiles) {
      notes.push(
        l10n.t(
          'Files from other applications cannot be dropped here: use Attach files…, or drop them from the Explorer with Shift held.',
        ),
      );
    }
    if (notes.length) this.#warn(notes.join(' '));
    if (uris.length) await this.attach(uris);
  }

  /** Attaches files and folders to this panel's composer (tests call it as the menus do). */
  async attach(
    uris: readonly vscode.Uri[],
    opts: { confirmFolders?: boolean } = {},
  ): Promise<AttachCounts | undefined> {
    let client: ApiClient;
    try {
      client = this.#deps.client();
    } catch (err) {
      this.host.view.showError(err, 'attach files');
      return undefined;
    }
    return attachUris(uris, {
      client,
      target: this.host,
      maxFileBytes: this.#deps.maxFileBytes(),
      warn: (message) => this.#warn(message),
      ...opts,
    });
  }

  #warn(message: string): void {
    this.host.view.setNotice({ level: 'warning', message, actions: [] });
  }

  /**
   * Opens a file of a turn beside the panel, read-only, through the `den-session:` file system (in
   * whatever editor VS Code has for it). The path must be one the turn changed or produced.
   */
  async #openFile(turnId: string, path: string): Promise<void> {
    const turn = findTurn(this.host.transcript, turnId);
    const change = turn?.files.find((f) => f.path === path);
    const output = turn?.outputFiles?.find((f) => f.key === path || f.name === path);
    if (!turn || (!change && !output)) {
      this.#notice('warning', l10n.t('{0} is not a file of this turn.', path));
      return;
    }
    if (change?.change === 'deleted') {
      this.#notice('info', l10n.t('The turn deleted {0}: there is no content to show.', path));
      return;
    }
    const info: FileInfo = change ? { key: change.key, name: change.name, size: 0 } : (output as FileInfo);
    if (change?.updatedAt !== undefined) info.updatedAt = change.updatedAt;
    const file = sessionFilePath(this.sessionId, change ? change.path : info.key, info);
    const t = this.host.transcript;
    let deletedLater = false;
    for (const later of t.turns.slice(t.turns.indexOf(turn) + 1)) {
      for (const f of later.files)
        if (sessionFilePath(this.sessionId, f.path) === file) deletedLater = f.change === 'deleted';
    }
    try {
      // A file the transcript shows is there, whatever the stored snapshot says.
      if (!deletedLater) await this.#deps.sessionFs.files.ensure(this.sessionId, file, info);
      const outcome = await openGeneratedFile(this.#deps.sessionFs, this.sessionId, file, {
        beside: true,
        version: info,
      });
      if (outcome === 'missing') {
        this.#notice(
          'info',
          l10n.t("{0} is no longer among the session's files: a later turn deleted or moved it.", file),
        );
      } else if (outcome === 'directory') {
        this.#notice('info', l10n.t("{0} is a folder of the session's files, not a file.", file));
      }
    } catch (err) {
      this.host.view.showError(err, `open ${file}`);
    }
  }

  #notice(level: 'info' | 'warning', message: string): void {
    this.host.view.setNotice({ level, message, actions: [] });
  }

  dispose(): void {
    this.panel.dispose();
  }
}
