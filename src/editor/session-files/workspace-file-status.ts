/**
 * The VS Code side of the files' states (`model/session-files/file-status.ts`): which folder they are shown
 * against, that folder as the planner reads it (`planFolder`: an editor with unsaved changes counts
 * with its text), the session's current files (`currentFilesOf`) and the bases Apply uses; and the
 * workspace changes that make states stale (a file watcher, edits in editors, folders added or
 * removed), reported to the model in batches.
 *
 * The folder: the only workspace folder; with several, the first (the bases Den records name a
 * path inside a folder, not the folder, so there is no better guess; Apply still asks); with none,
 * no states at all.
 */
import type { ApiClient } from '../../core/client/client';
import type { SessionDetail } from '../../core/client/types';
import type { Logger } from '../../core/shared/log';
import { RecentMap } from '../../core/shared/recent-map';
import type { BaseLookup } from '../../model/apply/apply-plan';
import { FileStatusModel } from '../../model/session-files/file-status';
import type { FileEvent } from '../../model/session-files/session-files';
import { planFolder } from '../apply/apply-folder';
import { currentFilesOf } from '../apply/apply-sources';
import * as vscode from 'vscode';

export interface WorkspaceFileStatusDeps {
  client(): ApiClient;
  /** When the Sessions list last saw the session change (undefined: not listed). */
  listedUpdatedAt(sessionId: string): number | undefined;
  /** What the agent saw of a session's files, as Apply looks it up. */
  bases(sessionId: string): BaseLookup;
  /** The session files' changes (`SessionFiles.onDidChange`). */
  onDidChangeSessionFiles(listener: (events: FileEvent[]) => void): { dispose(): void };
  logger: Logger;
  /** The `den.apply.filesThatRunCode` globs (default: none). */
  filesThatRunCode?(): readonly string[];
  /** How long workspace changes are gathered before the states go stale (default 300 ms). */
  settleMs?: number;
}

/** The folder the states are shown against (see above); undefined when there is none. */
export function statusFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

/** Stored histories kept for file states: the sessions a person has open at once, and some more. */
const DETAILS_KEPT = 16;

export class WorkspaceFileStatus implements vscode.Disposable {
  readonly model: FileStatusModel;
  readonly #subscriptions: vscode.Disposable[] = [];
  /** Changed folder-relative paths not yet reported; `all`: anything may have changed. */
  #pending = new Set<string>();
  #pendingAll = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The most recently asked sessions as last fetched; fetched again when dropped, when their files
   * changed or when the list has them newer. Bounded: a stored history can hold thousands of events.
   */
  readonly #details = new RecentMap<string, SessionDetail>(DETAILS_KEPT);
  readonly #refetch = new Set<string>();
  #watching = false;

  readonly #deps: WorkspaceFileStatusDeps;
  constructor(deps: WorkspaceFileStatusDeps) {
    this.#deps = deps;
    this.model = new FileStatusModel({
      load: async (sessionId) => {
        this.#watchWorkspace();
        const folder = statusFolder();
        if (!folder) return undefined;
        const detail = await this.#detail(sessionId);
        return {
          files: currentFilesOf(deps.client(), detail),
          folder: planFolder(folder),
          base: deps.bases(sessionId),
          filesThatRunCode: deps.filesThatRunCode?.() ?? [],
          trusted: vscode.workspace.isTrusted,
        };
      },
    });
    // Which files can run code, and whether they are refused, changed: every state may have.
    this.#subscriptions.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.model.workspaceChanged()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('den.apply.filesThatRunCode')) this.model.workspaceChanged();
      }),
    );
    this.#subscriptions.push({
      dispose: deps.onDidChangeSessionFiles((events) => {
        for (const id of new Set(events.map((e) => e.sessionId))) {
          this.#refetch.add(id);
          this.model.sessionChanged(id);
        }
      }).dispose,
    });
  }

  /**
   * Listens for workspace changes from the first state asked for on (not at activation: a window
   * that never shows a state watches nothing).
   */
  #watchWorkspace(): void {
    if (this.#watching) return;
    this.#watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const changed = (uri: vscode.Uri): void => this.#changed(uri);
    this.#subscriptions.push(
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidChange(changed),
      watcher.onDidDelete(changed),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.#changed(e.document.uri);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.#changed(undefined)),
    );
  }

  /** Forgets what is kept of a session (deleted), or of every session (another key or service). */
  forget(sessionId?: string): void {
    if (sessionId === undefined) this.#details.clear();
    else this.#details.delete(sessionId);
    this.model.forget(sessionId);
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    for (const s of this.#subscriptions) s.dispose();
    this.model.dispose();
  }

  async #detail(sessionId: string): Promise<SessionDetail> {
    const kept = this.#details.get(sessionId);
    const listed = this.#deps.listedUpdatedAt(sessionId);
    const fresh =
      kept && !this.#refetch.has(sessionId) && (listed === undefined || listed <= kept.session.updatedAt);
    if (fresh) return kept;
    const detail = await this.#deps.client().getSession(sessionId);
    this.#refetch.delete(sessionId);
    this.#details.set(sessionId, detail);
    return detail;
  }

  /** Gathers a change (undefined: anything) and reports the batch once changes settle. */
  #changed(uri: vscode.Uri | undefined): void {
    if (uri === undefined) this.#pendingAll = true;
    else {
      const rel = relativeTo(statusFolder(), uri);
      if (rel === undefined) return;
      this.#pending.add(rel);
    }
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#flush(), this.#deps.settleMs ?? 300);
  }

  #flush(): void {
    this.#timer = undefined;
    const paths = this.#pendingAll ? undefined : [...this.#pending];
    this.#pending = new Set();
    this.#pendingAll = false;
    try {
      this.model.workspaceChanged(paths);
    } catch (err) {
      this.#deps.logger.warn(`File states: a listener failed: ${String(err)}`);
    }
  }
}

/** The `/`-separated path of `uri` inside `folder`; undefined outside it (or without a folder). */
export function relativeTo(folder: vscode.WorkspaceFolder | undefined, uri: vscode.Uri): string | undefined {
  if (!folder) return undefined;
  const root = folder.uri;
  if (uri.scheme !== root.scheme || uri.authority !== root.authority) return undefined;
  const prefix = root.path.endsWith('/') ? root.path : `${root.path}/`;
  return uri.path.startsWith(prefix) ? uri.path.slice(prefix.length) : undefined;
}
