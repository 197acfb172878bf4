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

/**
 * Owns the Session panels (one per session): the webviews, which the registry's hosts post to. A
 * host outlives its panel while one of its turns runs (`model/session/session-registry.ts`).
 */
export class SessionPanels implements vscode.Disposable {
  readonly #panels = new Map<string, SessionPanel>();
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
    ];
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
        const id = (state as Partial<WebviewPersistedState> | undefined)?.sessionId;
        if (typeof id !== 'string' || !id || this.#panels.has(id)) {
          panel.dispose();
          return;
        }
        const host = this.#registry.attach(id);
        this.#adopt(host, panel);
        await host.open();
      },
    };
  }

  /** A panel for a host the registry keeps for it (`attach`), until the panel closes (`detach`). */
  #adopt(host: SessionHost, existing?: vscode.WebviewPanel): SessionPanel {
    const sessionId = host.sessionId;
    const deps = {
      extensionUri: this.deps.context.extensionUri,
      logger: this.deps.logger,
      sessionFs: this.deps.sessionFs,
      client: () => this.deps.connection.requireClient(),
      maxFileBytes: () => this.deps.connection.settings.maxAttachmentBytes,
      onDidDispose: (p: SessionPanel) => this.#panelClosed(p),
      attempts: () => this.#attempts,
    };
    const p = existing ? new SessionPanel(existing, host, deps) : SessionPanel.create(host, deps);
    this.#panels.set(sessionId, p);
    // Disposed with the panel.
    p.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.visible) this.#shown.fire(sessionId);
    });
    return p;
  }

  #panelClosed(p: SessionPanel): void {
    if (this.#panels.get(p.sessionId) !== p) return;
    this.#panels.delete(p.sessionId);
    this.#registry.detach(p.sessionId);
  }

  dispose(): void {
    for (const p of [...this.#panels.values()]) p.dispose();
    for (const d of this.#disposables) d.dispose();
  }
}
