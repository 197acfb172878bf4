/**
 * Apply: the agent's files into a workspace folder, safely. The folder is chosen, the plan made
 * (`session/apply-plan.ts`: nothing written yet), and its summary shown in a modal first; the
 * person applies everything (confirming the questions, conflict markers included), only what
 * needs no question, reviews the diff, or cancels. Then one WorkspaceEdit writes it all
 * (`apply-edit.ts`), and a message says what was written, what was refused and how to undo.
 */
import { isDenError } from '../core/api/errors';
import type { BaseLookup, PlanEntry, PlanFolder } from '../session/apply-plan';
import { planApply, writesOf, type ApplyPlan } from '../session/apply-plan';
import { summaryText } from '../session/apply-summary';
import * as vscode from 'vscode';
import { applyEntries } from './apply-edit';
import { chooseFolder, planFolder } from './apply-folder';
import type { ApplyPreviews } from './apply-review';
import type { AgentFiles } from './apply-sources';

export interface ApplyDeps {
  previews: ApplyPreviews;
  /** What the agent saw of the session's files (`BaseStore`); without it, nothing is known. */
  bases?: (sessionId: string) => BaseLookup;
}

export interface ApplyOptions {
  /** The workspace folder (URI string); default: the only one, or a quick pick. */
  folder?: string;
}

/** What an apply did, for tests and other extensions. */
export interface ApplyResult {
  plan?: ApplyPlan;
  /** The entries written (none when declined, cancelled, or when the workspace changed meanwhile). */
  written: PlanEntry[];
  /** The message shown at the end. */
  message?: string;
}

const APPLY_ALL = 'Apply';
const APPLY_MARKERS = 'Apply with Conflict Markers';
const APPLY_SAFE = 'Apply Only Unquestioned';
const REVIEW = 'Review…';

/** Plans, asks, writes and reports. Never throws for a refusal or a decline; errors propagate. */
export async function applyAgentFiles(
  deps: ApplyDeps,
  sessionId: string,
  source: AgentFiles,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const folder = await chooseFolder(options.folder);
  if (!folder) return { written: [] };
  const reader = planFolder(folder);
  const base = deps.bases?.(sessionId) ?? (async () => undefined);
  const plan = await planWithProgress(source, reader, base);
  if (!plan) return { written: [] };
  const all = writesOf(plan, true);
  const safe = writesOf(plan, false);
  const refused = plan.entries.filter((e) => e.action === 'refused').map((e) => e.path);
  const summary = summaryText(plan);
  if (all.length === 0) {
    const message = `Den: nothing to apply from ${source.what} to ${folder.name}. ${summary}`;
    void (refused.length > 0
      ? vscode.window.showWarningMessage(message)
      : vscode.window.showInformationMessage(message));
    return { plan, written: [], message };
  }
  const questions = plan.summary.needsConfirmation.length > 0;
  const buttons = [
    plan.summary.conflicts > 0 ? APPLY_MARKERS : APPLY_ALL,
    ...(questions && safe.length > 0 ? [APPLY_SAFE] : []),
    REVIEW,
  ];
  const headline = `Apply ${source.what} from “${source.title}” to ${folder.name}?`;
  const warn = questions || refused.length > 0;
  const show = (text: string, modal: boolean, choices: string[]): Thenable<string | undefined> => {
    const opts: vscode.MessageOptions = modal ? { modal: true, detail: summary } : {};
    return warn
      ? vscode.window.showWarningMessage(text, opts, ...choices)
      : vscode.window.showInformationMessage(text, opts, ...choices);
  };
  let answer = await show(headline, true, buttons);
  if (answer === REVIEW) {
    await deps.previews.review(folder, all);
    // Not modal: the diff stays usable while the person decides.
    answer = await show(
      `${headline} ${summary}`,
      false,
      buttons.filter((b) => b !== REVIEW),
    );
  }
  if (answer === undefined || answer === REVIEW) return { plan, written: [] };
  const entries = answer === APPLY_SAFE ? safe : all;
  const outcome = await applyEntries(folder, reader, entries);
  if (!outcome.ok) {
    void vscode.window.showWarningMessage(`Den: ${outcome.message}`);
    return { plan, written: [], message: outcome.message };
  }
  const message = reportOf(outcome.written, plan, refused, folder.name);
  void (refused.length > 0
    ? vscode.window.showWarningMessage(message)
    : vscode.window.showInformationMessage(message));
  return { plan, written: outcome.written, message };
}

/** The plan, with a cancellable progress notification; undefined when cancelled. */
async function planWithProgress(
  source: AgentFiles,
  reader: PlanFolder,
  base: BaseLookup,
): Promise<ApplyPlan | undefined> {
  try {
    return await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Den: reading ${source.what}…`,
        cancellable: true,
      },
      (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return planApply({ files: source.files, folder: reader, base, signal: abort.signal });
      },
    );
  } catch (err) {
    if (isDenError(err) && err.code === 'aborted') return undefined;
    throw err;
  }
}

/** "Applied 3 files to app (+40 −12 lines). …" with what was left and how to undo. */
export function reportOf(
  written: readonly PlanEntry[],
  plan: ApplyPlan,
  refused: readonly string[],
  folder: string,
): string {
  const added = written.reduce((n, e) => n + e.stats.added, 0);
  const removed = written.reduce((n, e) => n + e.stats.removed, 0);
  const deleted = written.filter((e) => e.action === 'delete').length;
  const conflicts = written.filter((e) => e.action === 'mergeWithConflicts').map((e) => e.relPath);
  const files = written.length === 1 ? '1 file' : `${written.length} files`;
  const parts = [
    `Den applied ${files} to ${folder} (+${added} −${removed} lines${deleted ? `, ${deleted} deleted` : ''}).`,
  ];
  if (conflicts.length > 0) parts.push(`Resolve the conflict markers in ${conflicts.join(', ')}.`);
  const dirty = written.filter((e) => e.dirty).length;
  if (dirty > 0) parts.push(`${dirty === 1 ? '1 editor has' : `${dirty} editors have`} the change unsaved.`);
  const skipped = plan.entries.length - plan.summary.refused - written.length;
  if (skipped > 0) parts.push(`${skipped} not written (no change needed, failed or not confirmed).`);
  if (refused.length > 0) {
    parts.push(
      `Refused: ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ` and ${refused.length - 5} more` : ''}.`,
    );
  }
  parts.push(
    'To undo it all: Edit ▸ Undo in the editor of any file it changed or created (undone text is unsaved until you save).',
  );
  return parts.join(' ');
}
