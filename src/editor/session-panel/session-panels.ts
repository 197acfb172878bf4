import * as vscode from 'vscode';
import type { SessionFileSystem } from '../session-files/session-fs';
import type { Connection } from '../platform/connection';
import type { WebviewPersistedState } from '../../protocol/session-panel/messages';
import type { Logger } from '../../core/shared/log';
import type { SessionHost, TurnRequest } from '../../model/session/session-host';
import type { SessionRegistry } from '../../model/session/session-registry';
import type { PanelAttempts } from '../attempts/composer-attempts';
import type { RevealMatch } from '../../model/session/view-link';
import { SessionPanel } from './session-panel';

/** What the Session panels need from the rest of the extension. */
export interface SessionPanelsDeps {
  context: vscode.ExtensionContext;
  connection: Connection;
  logger: Logger;
  /** The session hosts: a panel shows one, which the registry makes and keeps while it is shown. */
  registry: SessionRegistry;
  /** The `den-session:` file system: where a panel opens the files of its turns. */
  sessionFs: SessionFileSystem;
}

/** A turn to start from a command (New Session, Ask Agent About Selection, File or Open Editors). */
export type PanelTurnRequest = TurnRequest;

/** Two clicks on the same session closer than this are a double-click: it keeps the session open. */
const DOUBLE_CLICK_MS = 500;

/** The context key: the focused Session panel is the preview (Keep Open in its title bar). */
export const PREVIEW_CONTEXT_KEY = 'den.sessionPreview';

/** Whether a single click opens the preview (`workbench.editor.enablePreview`, as for editors). */
function previewEnabled(): boolean {
  return vscode.workspace.getConfiguration('workbench.editor').get<boolean>('enablePreview', true);
}

/**
 * Owns the Session panels (one per session): the webviews, which the registry's hosts post to. A
 * host outlives its panel while one of its turns runs (`model/session/session-registry.ts`).
 *
 * A single click in the Sessions view opens the **preview** (`preview`): at most one panel, reused
 * for the next session clicked, as VS Code reuses a preview editor. A double-click, an edit or a send
 * in it, a running turn or Keep Open keeps its session open (`keepOpen`): the panel is then the
 * session's own, and the next click opens a new preview.
 */
export class SessionPanels implements vscode.Disposable {
  readonly #panels = new Map<string, SessionPanel>();
  #preview: SessionPanel | undefined;
  #lastClick: { sessionId: string; at: number } | undefined;
  /** The click whose session is being painted before it goes into the preview (the latest wins). */
  #pendingPreview: { sessionId: string } | undefined;
  #previewFocused = false;
  readonly #shown = new vscode.EventEmitter<string>();
  /** A session's panel was opened, revealed or became visible (by session id). */
  readonly onDidShowPanel = this.#shown.event;
  readonly #disposables: vscode.Disposable[];
  readonly #registry: SessionRegistry;
  #attempts: PanelAttempts | undefined;

  private readonly deps: SessionPanelsDeps;
  constructor(deps: SessionPanelsDeps) {
    this.deps = deps;
    this.#registry = deps.registry;
    this.#disposables = [
      this.#shown,
      deps.registry.onDidChangeTitle(({ sessionId, title }) => this.#panels.get(sessionId)?.setTitle(title)),
      // A running turn keeps the preview's session open, as unsaved changes pin a preview editor.
      deps.registry.onDidChangeRunningTurns((c) => {
        const p = this.#preview;
        if (p && c.sessions.some((s) => s.sessionId === p.sessionId && s.running)) this.keepOpen(p);
      }),
    ];
  }

  /**
   * A single click on a session in the Sessions view: shows it in the preview panel (made if there is
   * none) without taking the focus from the view; a second click on it within a double-click's time
   * keeps it open and focuses it. A session with a panel already is revealed. With
   * `workbench.editor.enablePreview` off, the same as `open`. `title`: the session's, as the view
   * lists it (shown until its history names it).
   */
  async preview(sessionId: string, title?: string): Promise<void> {
    if (!previewEnabled()) return this.open(sessionId, title ? { title } : {});
    const now = Date.now();
    const double = this.#lastClick?.sessionId === sessionId && now - this.#lastClick.at < DOUBLE_CLICK_MS;
    this.#lastClick = double ? undefined : { sessionId, at: now };
    // The latest click wins over one still waiting for its session's transcript.
    const ticket = { sessionId };
    this.#pendingPreview = ticket;
    if (this.#revealShown(sessionId, double)) return;
    const host = this.#registry.attach(sessionId, title ? { title } : {});
    if (this.#preview) {
      // The page is there: the session goes into it once its cached transcript is painted, so it
      // shows whole in one post (from memory when it was shown lately) instead of its title first.
      await host.paint().catch(() => undefined);
      if (this.#pendingPreview !== ticket) {
        // A later click on this session holds the host (or its panel does).
        if (this.#pendingPreview?.sessionId !== sessionId && !this.#panels.has(sessionId))
          this.#registry.detach(sessionId);
        return;
      }
      if (this.#revealShown(sessionId, double)) return;
    }
    const p = this.#preview;
    if (p) {
      const left = p.sessionId;
      this.#panels.delete(left);
      p.show(host);
      this.#panels.set(sessionId, p);
      this.#registry.detach(left);
      // Shown already: a reveal would only make the workbench lay the group out again.
      if (double || !p.panel.visible) p.reveal(!double);
    } else {
      this.#preview = this.#adopt(host, undefined, !double);
      this.#preview.setPreview(true);
      this.#updatePreviewContext();
    }
    this.#shown.fire(sessionId);
    if (double || host.runningTurns().length > 0) this.keepOpen(this.#preview!);
    void host.open();
  }

  /** A session with a panel already: revealed (a double-click keeps it open and focuses it). */
  #revealShown(sessionId: string, double: boolean): boolean {
    const existing = this.#panels.get(sessionId);
    if (!existing) return false;
    if (double) this.keepOpen(existing);
    existing.reveal(!double);
    this.#shown.fire(sessionId);
    return true;
  }

  /** Keeps the preview's session open in its panel: the next single click opens a new preview. */
  keepOpen(panel: SessionPanel | undefined = this.#preview): void {
    if (!panel || panel !== this.#preview) return;
    this.#preview = undefined;
    panel.setPreview(false);
    this.#updatePreviewContext();
  }

  /** The preview panel, if one is open. */
  get previewPanel(): SessionPanel | undefined {
    return this.#preview;
  }

  /**
   * Opens or reveals the panel of a session; with `turn`, starts that turn in it. `isNew`: the
   * session is not on the service yet (its first turn creates it).
   */
  async open(
    sessionId: string,
    options: { turn?: PanelTurnRequest; title?: string; isNew?: boolean } = {},
  ): Promise<void> {
    const host = this.#registry.attach(sessionId, { title: options.title, isNew: options.isNew });
    const existing = this.#panels.get(sessionId);
    if (existing) existing.reveal();
    else this.#adopt(host);
    this.#shown.fire(sessionId);
    if (options.turn) {
      await this.#registry.startTurn(sessionId, options.turn);
      // The panel may have been closed while the turn was being started.
      if (!this.#panels.has(sessionId)) return;
      host.link.focusComposer();
    }
    void host.open();
  }

  /** Opens or reveals a session's panel at one match of a search (its find bar on the query). */
  async revealMatch(sessionId: string, m: Omit<RevealMatch, 'type'>): Promise<void> {
    await this.open(sessionId);
    this.#panels.get(sessionId)?.revealMatch(m);
  }

  /** What the panels' composers do with attempts (set once the attempts exist). */
  setAttempts(attempts: PanelAttempts): void {
    this.#attempts = attempts;
  }

  /** The open panel of a session (tests). */
  panel(sessionId: string): SessionPanel | undefined {
    return this.#panels.get(sessionId);
  }

  /** The panel that has focus, if any. */
  activePanel(): SessionPanel | undefined {
    return [...this.#panels.values()].find((p) => p.panel.active);
  }

  /** Where "Attach to Den" goes without asking: the focused panel, else the only one shown or open. */
  attachPanel(): SessionPanel | undefined {
    const all = [...this.#panels.values()];
    const visible = all.filter((p) => p.visible);
    return this.activePanel() ?? (visible.length === 1 ? visible[0] : all.length === 1 ? all[0] : undefined);
  }

  /** Closes every panel and stops following every turn (sign-out, tests). */
  closeAll(): void {
    for (const p of [...this.#panels.values()]) p.dispose();
    this.#registry.closeAll();
  }

  /** Restores panels after a window reload from the webview's saved state, then catches up. */
  serializer(): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        const saved = state as Partial<WebviewPersistedState> | undefined;
        const id = saved?.sessionId;
        if (typeof id !== 'string' || !id || this.#panels.has(id)) {
          panel.dispose();
          return;
        }
        const host = this.#registry.attach(id);
        const p = this.#adopt(host, panel);
        // The preview before the reload is the preview again (one at most).
        if (saved?.preview === true && !this.#preview) {
          this.#preview = p;
          p.setPreview(true);
          this.#updatePreviewContext();
        }
        await host.open();
      },
    };
  }

  /** A panel for a host the registry keeps for it (`attach`), until the panel closes (`detach`). */
  #adopt(host: SessionHost, existing?: vscode.WebviewPanel, preserveFocus = false): SessionPanel {
    const sessionId = host.sessionId;
    const deps = {
      extensionUri: this.deps.context.extensionUri,
      logger: this.deps.logger,
      sessionFs: this.deps.sessionFs,
      client: () => this.deps.connection.requireClient(),
      maxFileBytes: () => this.deps.connection.settings.maxAttachmentBytes,
      onDidDispose: (p: SessionPanel) => this.#panelClosed(p),
      attempts: () => this.#attempts,
      keepOpen: (p: SessionPanel) => this.keepOpen(p),
    };
    const p = existing
      ? new SessionPanel(existing, host, deps)
      : SessionPanel.create(host, deps, preserveFocus);
    this.#panels.set(sessionId, p);
    // Disposed with the panel.
    p.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.visible) this.#shown.fire(p.sessionId);
      this.#updatePreviewContext();
    });
    return p;
  }

  /** Sets the context key that shows Keep Open: the focused panel is the preview. */
  #updatePreviewContext(): void {
    const focused = this.#preview !== undefined && this.#preview.panel.active;
    if (focused === this.#previewFocused) return;
    this.#previewFocused = focused;
    void vscode.commands.executeCommand('setContext', PREVIEW_CONTEXT_KEY, focused);
  }

  #panelClosed(p: SessionPanel): void {
    if (p === this.#preview) {
      this.#preview = undefined;
      this.#updatePreviewContext();
    }
    if (this.#panels.get(p.sessionId) !== p) return;
    this.#panels.delete(p.sessionId);
    this.#registry.detach(p.sessionId);
  }

  dispose(): void {
    for (const p of [...this.#panels.values()]) p.dispose();
    for (const d of this.#disposables) d.dispose();
  }
}
