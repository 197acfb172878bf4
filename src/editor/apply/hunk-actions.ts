/**
 * Hunk by hunk in the review (docs/review-and-apply.md, "Hunk by hunk";
 * docs/decisions/2026-11-27-per-hunk-review.md): each of the agent's hunks of a file (base → agent,
 * `core/merge/hunks.ts`) can be accepted into the workspace or rejected (kept out), one at a time
 * or all at once, from the review diff of that file (its right side is the agent's `den-session:`
 * document) or the agent's file opened by itself.
 *
 * - Where: commands on the hunk at the cursor (the diff's title bar, the editor's context menu,
 *   the palette, keys), a CodeLens above each hunk of a `den-session:` document (shown in a diff
 *   editor when `diffEditor.codeLens` is on), next and previous hunk.
 * - Guarantees of Apply: the three-way merge from the recorded base, the entry checked again right
 *   before one `WorkspaceEdit` (`apply-edit.ts`: an editor with unsaved changes is edited in
 *   memory, nothing outside the folder), files that run code confirmed first, conflict markers only
 *   after a question; the message offers **Undo** (`apply-revert.ts`), and the editor's own undo
 *   takes the edit back.
 * - A rejected hunk still to apply writes nothing: Den remembers it (`model/apply/kept-out.ts`, in
 *   the workspace state, so a reload keeps it; until the agent's file changes) and its lens says
 *   so; rejecting an applied hunk puts the base's lines back.
 */
import * as vscode from 'vscode';
import type { AgentHunk } from '../../core/merge/hunks';
import { hunkCounts } from '../../core/merge/hunks';
import { contentHash } from '../../core/merge/hash';
import { runsCodeMatcher } from '../../core/paths/runs-code';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { BaseLookup } from '../../model/apply/apply-types';
import type { KeptOutFile, KeptOutHunks } from '../../model/apply/kept-out';
import { hunkEntry, hunksOfFile, readHunkFile, type HunkFile } from '../../model/apply/hunk-plan';
import { workspacePaths } from '../../model/apply/workspace-paths';
import { applyEntries } from './apply-edit';
import { fileUri, planFolder } from './apply-folder';
import { revertApply, type RevertOutcome } from './apply-revert';
import { parseSessionFileUri, SESSION_FS_SCHEME } from '../session-files/session-fs';

export interface HunkDeps {
  /** What the agent saw of the session's files (`BaseStore`). */
  bases: (sessionId: string) => BaseLookup;
  /** The `den.apply.filesThatRunCode` globs. */
  filesThatRunCode?: () => readonly string[];
  /** The hunks kept out (rejected while still to apply), kept in the workspace state. */
  keptOut: KeptOutHunks;
}

/** What a hunk command did, for tests and other extensions. */
export interface HunkResult {
  /** `accepted` / `rejected`: written or kept out; `nothing`: no hunk, declined, or nothing to do. */
  done: 'accepted' | 'rejected' | 'nothing';
  /** The hunks acted on (indices among the file's hunks). */
  hunks: number[];
  /** The agent's hunks in the workspace after it, of all of them. */
  counts?: { applied: number; total: number };
  message?: string;
  /** Settles when the person answered the message: what Undo did, or undefined. */
  undone?: Promise<RevertOutcome | 'unmarked' | undefined>;
}

/** The agent's file a review shows and where it goes in the workspace. */
interface Target {
  /** The `den-session:` document (the diff's right side). */
  uri: vscode.Uri;
  sessionId: string;
  path: string;
  folder: vscode.WorkspaceFolder;
  relPath: string;
}

interface Read {
  ok: true;
  file: HunkFile;
  hunks: AgentHunk[];
  /** The file and its versions (the agent's, the base) as kept-out marks name them. */
  at: KeptOutFile;
}

const NOTHING: HunkResult = { done: 'nothing', hunks: [] };

/**
 * Context key: the focused text editor is a side of a review of an agent's file (its `den-session:`
 * side, or the workspace file beside it), also inside Review Changes' multi-file diff, where
 * `resourceScheme` names the multi-file diff, not the focused file. The menus and keys use it.
 */
export const HUNK_REVIEW_KEY = 'den.hunkReview';

export class HunkActions implements vscode.CodeLensProvider, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.#changed.event;
  readonly #disposables: vscode.Disposable[];

  readonly #deps: HunkDeps;
  #focused: boolean | undefined;
  /** The hunk command running now (or settled): the next one starts after it. */
  #last: Promise<unknown> = Promise.resolve();
  constructor(deps: HunkDeps) {
    this.#deps = deps;
    // One at a time, in the order given: Next Hunk then Accept Hunk pressed quickly must accept the
    // hunk Next Hunk moved to, not the one the cursor was on while Next Hunk still read the files.
    const cmd = (id: string, run: (uri?: unknown, index?: unknown) => Promise<unknown>): vscode.Disposable =>
      vscode.commands.registerCommand(id, (uri?: unknown, index?: unknown) =>
        this.#serial(() => run(uri, index)),
      );
    this.#disposables = [
      this.#changed,
      vscode.languages.registerCodeLensProvider({ scheme: SESSION_FS_SCHEME }, this),
      cmd('den.acceptHunk', (uri, index) => this.act('accept', uri, index)),
      cmd('den.rejectHunk', (uri, index) => this.act('reject', uri, index)),
      cmd('den.acceptAllHunks', (uri) => this.act('accept', uri, 'all')),
      cmd('den.rejectAllHunks', (uri) => this.act('reject', uri, 'all')),
      cmd('den.nextHunk', (uri) => this.go(1, uri)),
      cmd('den.previousHunk', (uri) => this.go(-1, uri)),
      // The lenses follow the workspace: an edit, a save or a file change anywhere may move a hunk.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme !== SESSION_FS_SCHEME && e.contentChanges.length > 0) this.#changed.fire();
      }),
      vscode.workspace.onDidSaveTextDocument(() => this.#changed.fire()),
      deps.keptOut.onDidChange(() => this.#changed.fire()),
      vscode.window.onDidChangeActiveTextEditor(() => this.#updateKey()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.#updateKey()),
    ];
    this.#updateKey();
  }

  /** Runs `task` after the hunk command before it settled (whatever its outcome). */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#last.then(task, task);
    this.#last = run.catch(() => undefined);
    return run;
  }

  /** Whether the focused editor is a side of an agent file's review (`den.hunkReview`). */
  get reviewFocused(): boolean {
    return this.#focused ?? false;
  }

  #updateKey(): void {
    const focused = targetOf(activeAgentUri()) !== undefined;
    if (focused === this.#focused) return;
    this.#focused = focused;
    void vscode.commands.executeCommand('setContext', HUNK_REVIEW_KEY, focused);
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const target = targetOf(doc.uri);
    if (!target) return [];
    const read = await this.#read(target).catch(() => undefined);
    if (!read?.ok || read.hunks.length === 0) return [];
    const { hunks } = read;
    const kept = this.#deps.keptOut.get(read.at);
    const counts = hunkCounts(hunks);
    const at = (line: number): vscode.Range => {
      const l = Math.max(0, Math.min(line, doc.lineCount - 1));
      return new vscode.Range(l, 0, l, 0);
    };
    const lens = (line: number, title: string, command: string, args: unknown[], tooltip?: string) =>
      new vscode.CodeLens(at(line), { title, command, arguments: args, tooltip });
    const lenses = [
      lens(0, countsText(counts), 'den.nextHunk', [doc.uri], l10n.t('Go to the next hunk still to apply')),
      lens(0, l10n.t('Accept All Hunks'), 'den.acceptAllHunks', [doc.uri]),
      lens(0, l10n.t('Reject All Hunks'), 'den.rejectAllHunks', [doc.uri]),
    ];
    for (const h of hunks) {
      const n = h.index + 1;
      const args = [doc.uri, h.index];
      if (h.state === 'applied') {
        lenses.push(
          lens(h.agent.start, l10n.t('Hunk {0}: applied', n), 'den.rejectHunk', args, l10n.t('Reject Hunk')),
          lens(h.agent.start, l10n.t('Reject Hunk'), 'den.rejectHunk', args),
        );
        continue;
      }
      const accept =
        h.state === 'conflict' ? l10n.t('Accept Hunk with Conflict Markers') : l10n.t('Accept Hunk');
      const label = kept.has(h.index)
        ? l10n.t('Hunk {0}: kept out', n)
        : h.state === 'conflict'
          ? l10n.t('Hunk {0}: conflicts with your edits', n)
          : l10n.t('Hunk {0}', n);
      lenses.push(
        lens(h.agent.start, label, 'den.acceptHunk', args, accept),
        lens(h.agent.start, accept, 'den.acceptHunk', args),
      );
      if (!kept.has(h.index)) lenses.push(lens(h.agent.start, l10n.t('Reject Hunk'), 'den.rejectHunk', args));
    }
    return lenses;
  }

  /**
   * Accepts or rejects hunks of the file `uri` names (default: the active review's): `index` one
   * hunk, `'all'` every one (accept: those not applied; reject: all), none: the hunk at the cursor.
   */
  async act(kind: 'accept' | 'reject', uri?: unknown, index?: unknown): Promise<HunkResult> {
    const target = targetOf(agentUriOf(uri));
    if (!target) {
      void vscode.window.showInformationMessage(
        l10n.t(
          'Den: open the review of an agent’s file (Compare with Workspace) to accept or reject its hunks.',
        ),
      );
      return NOTHING;
    }
    const read = await this.#read(target);
    if (!read.ok) {
      void vscode.window.showInformationMessage(
        read.reason === 'deleted'
          ? l10n.t('Den: the agent deleted {0}; Apply to Workspace… applies it whole.', target.relPath)
          : l10n.t(
              'Den: {0} is not text, so it has no hunks; Apply to Workspace… applies it whole.',
              target.relPath,
            ),
      );
      return NOTHING;
    }
    const { hunks } = read;
    const chosen =
      index === 'all'
        ? hunks.filter((h) => kind === 'reject' || h.state !== 'applied')
        : typeof index === 'number'
          ? hunks.filter((h) => h.index === index)
          : hunks.filter((h) => h === hunkAtCursor(target, hunks));
    if (chosen.length === 0) {
      void vscode.window.showInformationMessage(
        typeof index === 'number' || index === 'all'
          ? l10n.t(
              'Den: no hunk of {0} to {1}.',
              target.relPath,
              kind === 'accept' ? l10n.t('accept') : l10n.t('reject'),
            )
          : l10n.t('Den: the cursor is not on a hunk of {0}. Next Hunk goes to one.', target.relPath),
      );
      return NOTHING;
    }
    return kind === 'accept' ? this.#accept(target, read, chosen) : this.#reject(target, read, chosen);
  }

  /** Moves the cursor of the agent's side to the next (or previous) hunk that is not applied. */
  async go(direction: 1 | -1, uri?: unknown): Promise<number | undefined> {
    const target = targetOf(agentUriOf(uri));
    const editor = target && editorOf(target.uri);
    if (!target || !editor) return undefined;
    const read = await this.#read(target);
    const open = read.ok ? read.hunks.filter((h) => h.state !== 'applied') : [];
    if (open.length === 0) return undefined;
    const line = editor.selection.active.line;
    const next =
      direction === 1
        ? (open.find((h) => h.agent.start > line) ?? open[0])
        : ([...open].reverse().find((h) => h.agent.start < line) ?? open[open.length - 1]);
    const l = Math.min(next.agent.start, editor.document.lineCount - 1);
    editor.selection = new vscode.Selection(l, 0, l, 0);
    editor.revealRange(new vscode.Range(l, 0, l, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return next.index;
  }

  async #accept(target: Target, read: Read, chosen: AgentHunk[]): Promise<HunkResult> {
    const indices = chosen.filter((h) => h.state !== 'applied').map((h) => h.index);
    if (indices.length === 0) {
      const message = l10n.t(
        'Den: {0} of {1} is already in the workspace.',
        hunkNames(chosen),
        target.relPath,
      );
      void vscode.window.showInformationMessage(message);
      return { done: 'nothing', hunks: [], message };
    }
    const conflicts = chosen.filter((h) => h.state === 'conflict').length;
    if (conflicts > 0) {
      const write = l10n.t('Accept with Conflict Markers');
      const answer = await vscode.window.showWarningMessage(
        conflicts === 1
          ? l10n.t('Write 1 conflict with conflict markers into {0}?', target.relPath)
          : l10n.t(
              'Write {0} conflicts with conflict markers into {1}?',
              formatCount(conflicts),
              target.relPath,
            ),
        {
          modal: true,
          detail: l10n.t('You and the agent changed the same lines. Resolve the markers after.'),
        },
        write,
      );
      if (answer !== write) return NOTHING;
    }
    const runsCode = runsCodeMatcher(this.#deps.filesThatRunCode?.() ?? [])(target.relPath);
    if (runsCode !== undefined) {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          l10n.t(
            'Den: {0} can run code ({1}), and this workspace is not trusted: nothing written.',
            target.relPath,
            runsCode,
          ),
        );
        return NOTHING;
      }
      const write = l10n.t('Write the File That Runs Code');
      const answer = await vscode.window.showWarningMessage(
        l10n.t('Also write {0}? It can run code.', target.relPath),
        { modal: true, detail: l10n.t('{0}: {1}', target.relPath, runsCode) },
        write,
      );
      if (answer !== write) return NOTHING;
    }
    const written = await this.#write(target, read.file, { accept: indices }, chosen, 'accepted');
    // Taken in: no longer kept out (unless the write was refused, when nothing changed).
    if (written?.done !== 'nothing') await this.#deps.keptOut.remove(read.at, indices);
    return written ?? { done: 'nothing', hunks: indices, message: l10n.t('Den: already in the workspace.') };
  }

  async #reject(target: Target, read: Read, chosen: AgentHunk[]): Promise<HunkResult> {
    const applied = chosen.filter((h) => h.state === 'applied').map((h) => h.index);
    const open = chosen.filter((h) => h.state !== 'applied').map((h) => h.index);
    const added = await this.#deps.keptOut.add(read.at, open);
    const unmark = async (): Promise<'unmarked'> => {
      await this.#deps.keptOut.remove(read.at, added);
      return 'unmarked';
    };
    if (applied.length > 0) {
      const written = await this.#write(target, read.file, { reject: applied }, chosen, 'rejected', unmark);
      if (written) return written;
    }
    this.#changed.fire();
    const counts = await this.#counts(target);
    const message = l10n.t(
      'Den kept {0} of {1} out of the workspace ({2}).',
      hunkNames(chosen),
      target.relPath,
      countsText(counts),
    );
    const undone = Promise.resolve(vscode.window.showInformationMessage(message, l10n.t('Undo'))).then((a) =>
      a === undefined ? undefined : unmark(),
    );
    return { done: 'rejected', hunks: chosen.map((h) => h.index), counts, message, undone };
  }

  /** Writes a choice through Apply's edit and reports it with Undo; undefined when nothing changes. */
  async #write(
    target: Target,
    file: HunkFile,
    choice: { accept?: number[]; reject?: number[] },
    chosen: AgentHunk[],
    done: 'accepted' | 'rejected',
    alsoUndo?: () => unknown,
  ): Promise<HunkResult | undefined> {
    const planned = hunkEntry(file, choice);
    if (!planned.ok || !planned.entry) return undefined;
    const reader = planFolder(target.folder);
    const outcome = await applyEntries(target.folder, reader, [planned.entry]);
    const hunks = chosen.map((h) => h.index);
    if (!outcome.ok) {
      const message = l10n.t('Den: {0}', outcome.message);
      void vscode.window.showWarningMessage(message);
      return { done: 'nothing', hunks, message };
    }
    this.#changed.fire();
    const counts = await this.#counts(target);
    const names = hunkNames(chosen);
    const message =
      done === 'accepted'
        ? planned.conflicts > 0
          ? l10n.t(
              'Den accepted {0} into {1} with conflict markers ({2}).',
              names,
              target.relPath,
              countsText(counts),
            )
          : l10n.t('Den accepted {0} into {1} ({2}).', names, target.relPath, countsText(counts))
        : l10n.t('Den took {0} back out of {1} ({2}).', names, target.relPath, countsText(counts));
    const undo = l10n.t('Undo');
    const undone = Promise.resolve(vscode.window.showInformationMessage(message, undo)).then(async (a) => {
      if (a !== undo) return undefined;
      await alsoUndo?.();
      const r = await revertApply(target.folder, outcome.written, outcome.before);
      this.#changed.fire();
      if (r.kept.length > 0) {
        void vscode.window.showWarningMessage(
          l10n.t('Den: {0} changed since, so it was kept as it is now.', target.relPath),
        );
      }
      return r;
    });
    return { done, hunks, counts, message, undone };
  }

  /** The file's versions and hunks; `at` names the file and its versions (for kept-out marks). */
  async #read(target: Target): Promise<Read | { ok: false; reason: 'deleted' | 'binary' }> {
    const agent = await vscode.workspace.fs.readFile(target.uri);
    const file = await readHunkFile(
      planFolder(target.folder),
      this.#deps.bases(target.sessionId),
      { path: target.path, relPath: target.relPath },
      agent,
    );
    const r = hunksOfFile(file);
    if (!r.ok) return r;
    // The hunks are counted on the base and the agent's version: a mark holds for those two.
    const at: KeptOutFile = {
      sessionId: target.sessionId,
      file: `${fileUri(target.folder, target.relPath).toString()}\n${target.path}`,
      version: `${contentHash(agent)}:${file.base ? contentHash(file.base) : '-'}`,
    };
    return { ok: true, file, hunks: r.hunks, at };
  }

  async #counts(target: Target): Promise<{ applied: number; total: number }> {
    const read = await this.#read(target).catch(() => undefined);
    return hunkCounts(read?.ok ? read.hunks : []);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}

/** `2 of 5 hunks applied`. */
function countsText(c: { applied: number; total: number }): string {
  return c.total === 1
    ? l10n.t('{0} of 1 hunk applied', c.applied)
    : l10n.t('{0} of {1} hunks applied', c.applied, c.total);
}

/** `hunk 2`, `hunks 1, 3`. */
function hunkNames(hunks: readonly AgentHunk[]): string {
  const n = hunks.map((h) => String(h.index + 1));
  return n.length === 1 ? l10n.t('hunk {0}', n[0]) : l10n.t('hunks {0}', n.join(', '));
}

/**
 * The agent's file a `den-session:` URI names, and its place in the workspace: for a review's right
 * side (`den-session:<workspace path>?session=…&file=…`) the folder holding that path; for the
 * agent's file opened by itself, the first folder (as the file states compare). The path maps
 * exactly as Apply maps it; a refused one has no target.
 */
function targetOf(uri: vscode.Uri | undefined): Target | undefined {
  const parsed = uri && parseSessionFileUri(uri);
  if (!uri || !parsed?.path) return undefined;
  const mapped = workspacePaths([parsed.path])[0];
  if (!mapped.ok) return undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const shownAt = new URLSearchParams(uri.query).has('session');
  const folder = shownAt ? folders.find((f) => fileUri(f, mapped.relPath).path === uri.path) : folders[0];
  return folder && { uri, sessionId: parsed.sessionId, path: parsed.path, folder, relPath: mapped.relPath };
}

/**
 * The agent's file a command names: its `den-session:` URI argument, else (none, or another URI:
 * the multi-file diff's title bar passes its own) the focused review's.
 */
function agentUriOf(arg: unknown): vscode.Uri | undefined {
  return arg instanceof vscode.Uri && arg.scheme === SESSION_FS_SCHEME ? arg : activeAgentUri();
}

/** The agent's side of the active review: the active editor's, or the diff's other side's. */
function activeAgentUri(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (!active || active.scheme === SESSION_FS_SCHEME) return active;
  // The workspace side of a review diff is focused: its right side shows the same path.
  return vscode.window.visibleTextEditors.find(
    (e) => e.document.uri.scheme === SESSION_FS_SCHEME && e.document.uri.path === active.path,
  )?.document.uri;
}

function editorOf(uri: vscode.Uri): vscode.TextEditor | undefined {
  const key = uri.toString();
  const active = vscode.window.activeTextEditor;
  if (active?.document.uri.toString() === key) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key);
}

/**
 * The hunk at the cursor: on the agent's side, the hunk whose lines hold it (a removal: the line
 * at it or just above); on the workspace side of the diff, the same by the hunk's workspace lines.
 */
function hunkAtCursor(target: Target, hunks: readonly AgentHunk[]): AgentHunk | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const line = editor.selection.active.line;
  const agentSide = editor.document.uri.toString() === target.uri.toString();
  // Else the workspace side of the same review: the workspace file itself, nothing else.
  if (!agentSide && editor.document.uri.toString() !== fileUri(target.folder, target.relPath).toString())
    return undefined;
  const range = (h: AgentHunk) => (agentSide ? h.agent : h.workspace);
  return (
    hunks.find((h) => line >= range(h).start && line < range(h).end) ??
    hunks.find(
      (h) => range(h).start === range(h).end && (line === range(h).start || line === range(h).start - 1),
    )
  );
}
