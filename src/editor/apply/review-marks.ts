/**
 * Reviewed marks in the editor (`docs/review-and-apply.md`, "Reviewed marks"): the commands that
 * mark an agent's file reviewed or not, and Review Unreviewed Changes, which opens only what is not
 * yet reviewed. The marks and their rules are `model/review/review-marks.ts` (kept in `globalState`).
 *
 * - `den.markReviewed(fileRow | den-session: URI?, selectedRows?)`, `den.markNotReviewed(…)`: the
 *   file of a Sessions tree row (or each selected row), of a `den-session:` URI, else of the active
 *   review (a diff's agent side; in a multi-file review, the focused file or a quick pick), else a
 *   quick pick of a session and its files.
 * - `den.setReviewed(sessionId, path, version, reviewed)`: one version of a file (the Session panel).
 * - `den.reviewUnreviewed(sessionRow | turnRow | sessionId?, turnId?, options?)`: Review Changes of
 *   the session's or the turn's files not yet reviewed; without arguments, the active review's scope,
 *   else a quick pick of a session. When every file is reviewed, a message says so.
 *
 * Context keys for the review's title bar: `den.reviewMarkable` (the active review shows agent
 * files) and `den.reviewAllReviewed` (all of them are marked reviewed).
 */
import * as vscode from 'vscode';
import type { Session } from '../../core/client/types';
import { formatCount, l10n } from '../../core/shared/l10n';
import { isRecord } from '../../core/shared/schema';
import {
  snapshotTarget,
  unreviewed,
  type ReviewMarks,
  type ReviewTarget,
} from '../../model/review/review-marks';
import { FileLookupError } from '../../model/session-files/session-files';
import type { ReviewedVersionOf } from '../../protocol/session-panel/reviewed';
import type { Connection } from '../platform/connection';
import { showError } from '../platform/show-error';
import { parseSessionFileUri, type SessionFileSystem } from '../session-files/session-fs';
import type { SessionNode } from '../sessions-view/tree-nodes';
import { agentVersionsOf, type AgentScope } from './apply-sources';
import type { ReviewActions, ShownFile } from './review-actions';
import { applyOf, openReview, reviewEntries, type ReviewOptions, type ReviewResult } from './review-changes';

export const REVIEW_MARKABLE_KEY = 'den.reviewMarkable';
export const REVIEW_ALL_REVIEWED_KEY = 'den.reviewAllReviewed';

export interface ReviewMarkDeps {
  marks: ReviewMarks;
  connection: Connection;
  actions: ReviewActions;
  fs: SessionFileSystem;
  /** The sessions loaded in the Sessions view (the quick pick's). */
  sessions(): readonly Session[];
}

/** What Review Unreviewed Changes did: a review's result, and how many files were already reviewed. */
export type UnreviewedResult = ReviewResult & { reviewed: number };

export class ReviewMarkCommands implements vscode.Disposable {
  readonly #deps: ReviewMarkDeps;
  readonly #disposables: vscode.Disposable[];
  #keys = '';
  #updates = 0;

  constructor(deps: ReviewMarkDeps) {
    this.#deps = deps;
    const update = (): void => void this.#updateKeys();
    this.#disposables = [
      vscode.window.tabGroups.onDidChangeTabs(update),
      vscode.window.tabGroups.onDidChangeTabGroups(update),
      vscode.window.onDidChangeActiveTextEditor(update),
      deps.marks.onDidChange(update),
      this.#command('den.markReviewed', l10n.t('mark the file reviewed'), (a, b) => this.#mark(true, a, b)),
      this.#command('den.markNotReviewed', l10n.t('mark the file not reviewed'), (a, b) =>
        this.#mark(false, a, b),
      ),
      this.#command('den.setReviewed', l10n.t('mark the file reviewed'), (...args) => this.#set(args)),
      this.#command('den.reviewUnreviewed', l10n.t('review the unreviewed changes'), (a, b, c) =>
        this.#reviewUnreviewed(a, b, c),
      ),
    ];
  }

  /** Marks the files the arguments name (see the header) reviewed or not; resolves to the files marked. */
  async #mark(reviewed: boolean, arg: unknown, selected: unknown): Promise<ShownFile[] | undefined> {
    const files = await this.#filesOf(arg, selected, reviewed);
    if (!files?.length) return undefined;
    const bySession = new Map<string, ShownFile[]>();
    for (const f of files) bySession.set(f.sessionId, [...(bySession.get(f.sessionId) ?? []), f]);
    for (const [sessionId, list] of bySession) await this.#deps.marks.set(sessionId, list, reviewed);
    return files;
  }

  /** `den.setReviewed(sessionId, path, version, reviewed)`, checked: the panel's webview passes them. */
  async #set(args: unknown[]): Promise<boolean> {
    const [sessionId, path, version, reviewed] = args;
    const v = isRecord(version) ? version : undefined;
    if (
      typeof sessionId !== 'string' ||
      typeof path !== 'string' ||
      !v ||
      typeof reviewed !== 'boolean' ||
      (v.key !== undefined && typeof v.key !== 'string') ||
      (v.updatedAt !== undefined && typeof v.updatedAt !== 'number') ||
      (v.deleted !== undefined && typeof v.deleted !== 'boolean')
    ) {
      void vscode.window.showWarningMessage(
        l10n.t('Den: nothing was marked: the command needs a session, a file and its version.'),
      );
      return false;
    }
    const target: ReviewTarget = { path, ...(v as ReviewedVersionOf) };
    return this.#deps.marks.set(sessionId, [target], reviewed);
  }

  /** The files a mark command acts on; a quick pick when the arguments and the editor name none. */
  async #filesOf(arg: unknown, selected: unknown, reviewed: boolean): Promise<ShownFile[] | undefined> {
    const rows = Array.isArray(selected) ? (selected as unknown[]).filter(isFileRow) : [];
    if (rows.length) return rows.map(rowFile);
    if (isFileRow(arg)) return [rowFile(arg)];
    if (arg instanceof vscode.Uri) {
      const f = await this.#uriFile(arg);
      return f ? [f] : missingFile();
    }
    const active = await this.#activeFiles();
    if (active?.focused) return [active.focused];
    if (active?.files.length === 1) return active.files;
    if (active?.files.length) return this.#pickFiles(active.files, reviewed);
    const sessionId = await this.#pickSession();
    if (!sessionId) return undefined;
    const session = this.#deps.sessions().find((s) => s.sessionId === sessionId);
    const files = Object.entries(session?.fileSnapshot ?? {}).map(([key, info]) => ({
      sessionId,
      ...snapshotTarget(sessionId, key, info),
    }));
    if (!files.length) {
      void vscode.window.showInformationMessage(l10n.t('Den: the session has no files yet.'));
      return undefined;
    }
    return this.#pickFiles(files, reviewed);
  }

  /** The agent's files the active editor shows: a review's (and the one focused), or a `den-session:` file. */
  async #activeFiles(): Promise<{ files: ShownFile[]; focused?: ShownFile } | undefined> {
    const review = this.#deps.actions.active();
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) {
      const f = await this.#uriFile(input.modified);
      return f ? { files: [f], focused: f } : undefined;
    }
    const editor = vscode.window.activeTextEditor?.document.uri;
    if (review?.files?.length) {
      const shown = editor?.toString();
      return { files: [...review.files], focused: review.files.find((f) => f.uri === shown) };
    }
    if (input instanceof vscode.TabInputText && editor?.toString() === input.uri.toString()) {
      const f = await this.#uriFile(editor);
      return f ? { files: [f], focused: f } : undefined;
    }
    return undefined;
  }

  /** The file a `den-session:` URI names, at its version (the current one when it names none). */
  async #uriFile(uri: vscode.Uri): Promise<ShownFile | undefined> {
    const target = parseSessionFileUri(uri);
    if (!target?.path) return undefined;
    const { sessionId, path, version } = target;
    if (version) return { sessionId, path, ...version, uri: uri.toString() };
    const st = await this.#deps.fs.files.stat(sessionId, path).catch((err: unknown) => {
      if (err instanceof FileLookupError) return undefined;
      throw err;
    });
    if (st?.type !== 'file') return undefined;
    const at = st.file.updatedAt;
    return { sessionId, path, key: st.file.key, ...(at !== undefined ? { updatedAt: at } : {}) };
  }

  async #pickFiles(files: ShownFile[], reviewed: boolean): Promise<ShownFile[] | undefined> {
    const marked = (f: ShownFile): boolean => this.#deps.marks.isReviewed(f.sessionId, f);
    const items = files.map((f) => ({
      label: f.path,
      description: marked(f) ? l10n.t('reviewed') : undefined,
      picked: marked(f) !== reviewed,
      file: f,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: reviewed ? l10n.t('Den: Mark as Reviewed') : l10n.t('Den: Mark as Not Reviewed'),
      placeHolder: l10n.t('The agent’s files to mark'),
      canPickMany: true,
    });
    return picked?.map((p) => p.file);
  }

  async #pickSession(): Promise<string | undefined> {
    const sessions = this.#deps.sessions();
    if (!sessions.length) {
      void vscode.window.showInformationMessage(
        l10n.t('Den: open a review, or choose a file in the Sessions view, to mark it reviewed.'),
      );
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      sessions.map((s) => ({
        label: s.title || l10n.t('Untitled session'),
        detail: s.sessionId,
        sessionId: s.sessionId,
      })),
      { title: l10n.t('Den: Which Session?'), placeHolder: l10n.t('The session whose files to review') },
    );
    return picked?.sessionId;
  }

  /** Review Changes of what is not yet reviewed of a session or a turn (see the header). */
  async #reviewUnreviewed(
    arg: unknown,
    turnId: unknown,
    options: unknown,
  ): Promise<UnreviewedResult | undefined> {
    const row = isRecord(arg) ? (arg as SessionNode) : undefined;
    let sessionId = typeof arg === 'string' ? arg : row && 'sessionId' in row ? row.sessionId : undefined;
    let scope: AgentScope | undefined =
      row?.kind === 'turn'
        ? { kind: 'turn', turnId: row.message.id }
        : typeof turnId === 'string'
          ? { kind: 'turn', turnId }
          : sessionId
            ? { kind: 'session' }
            : undefined;
    if (!sessionId || !scope) {
      const shown = this.#deps.actions.active()?.scope;
      sessionId = shown?.sessionId ?? (await this.#pickSession());
      scope = shown?.scope ?? { kind: 'session' };
    }
    if (!sessionId) return undefined;
    const opts = isRecord(options) ? (options as ReviewOptions) : undefined;
    return this.reviewUnreviewed(sessionId, scope, opts);
  }

  /** Opens the review of the files of `scope` not yet reviewed; says so when all are. */
  async reviewUnreviewed(
    sessionId: string,
    scope: AgentScope,
    options?: ReviewOptions,
  ): Promise<UnreviewedResult> {
    const source = await agentVersionsOf(this.#deps.connection.requireClient(), sessionId, scope);
    const all = reviewEntries(sessionId, source, scope.kind === 'turn');
    const left = unreviewed(all, (e) => !!e.mark && this.#deps.marks.isReviewed(sessionId, e.mark));
    const reviewed = all.length - left.length;
    if (all.length > 0 && left.length === 0) {
      void vscode.window.showInformationMessage(
        scope.kind === 'file'
          ? l10n.t('Den: {0} is marked reviewed; nothing is left to review.', source.what)
          : l10n.t(
              'Den: all of {0} are marked reviewed ({1}); nothing is left to review.',
              source.what,
              formatCount(all.length),
            ),
      );
      return { opened: 'none', pairs: [], refused: [], reviewed };
    }
    const title =
      source.turn !== undefined
        ? l10n.t('Den: Unreviewed Changes of {0} — {1}', source.turn, source.title)
        : l10n.t('Den: Unreviewed Changes of “{0}”', source.title);
    const result = await openReview(left, { title, what: source.what }, options, {
      actions: this.#deps.actions,
      apply: applyOf(sessionId, scope),
      scope: { sessionId, scope },
    });
    return { ...result, reviewed };
  }

  /** Sets the title bar's context keys for the active editor (the last update wins). */
  async #updateKeys(): Promise<void> {
    const n = ++this.#updates;
    let files: ShownFile[] = [];
    try {
      files = this.#deps.actions.active() ? ((await this.#activeFiles())?.files ?? []) : [];
    } catch {
      files = [];
    }
    if (n !== this.#updates) return;
    const all = files.length > 0 && files.every((f) => this.#deps.marks.isReviewed(f.sessionId, f));
    const keys = `${files.length > 0}/${all}`;
    if (keys === this.#keys) return;
    this.#keys = keys;
    await vscode.commands.executeCommand('setContext', REVIEW_MARKABLE_KEY, files.length > 0);
    await vscode.commands.executeCommand('setContext', REVIEW_ALL_REVIEWED_KEY, all);
  }

  #command(id: string, doing: string, fn: (...args: unknown[]) => Promise<unknown>): vscode.Disposable {
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await this.#deps.connection.ready;
        return await fn(...args);
      } catch (err) {
        void showError(err, doing);
        return undefined;
      }
    });
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}

function isFileRow(v: unknown): v is Extract<SessionNode, { kind: 'file' }> {
  return isRecord(v) && v.kind === 'file' && typeof v.sessionId === 'string' && isRecord(v.file);
}

/** A Sessions tree file row as the file at its current version. */
function rowFile(n: Extract<SessionNode, { kind: 'file' }>): ShownFile {
  return { sessionId: n.sessionId, ...snapshotTarget(n.sessionId, n.path, n.file) };
}

function missingFile(): undefined {
  void vscode.window.showInformationMessage(l10n.t('Den: that editor shows none of the agent’s files.'));
  return undefined;
}
