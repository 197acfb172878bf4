/**
 * Apply: the agent's files into a workspace folder, safely. The folder is chosen, the plan made
 * (`session/apply-plan.ts`: nothing written yet), and its summary shown in a modal first; the
 * person applies everything (confirming the questions, conflict markers included), only what
 * needs no question, reviews the diff, or cancels. Then one WorkspaceEdit writes it all
 * (`apply-edit.ts`), and a message says what was written, what was refused and how to undo.
 */
import { isDenError } from '../core/api/errors';
import { formatCount, l10n } from '../core/l10n';
import type { BaseLookup, PlanEntry, PlanFolder } from '../session/apply-plan';
import { planApply, writesOf, type ApplyPlan } from '../session/apply-plan';
import { applyChoices, type ApplyChoice } from '../session/apply-choices';
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
    const message = l10n.t('Den: nothing to apply from {0} to {1}. {2}', source.what, folder.name, summary);
    void (refused.length > 0
      ? vscode.window.showWarningMessage(message)
      : vscode.window.showInformationMessage(message));
    return { plan, written: [], message };
  }
  const questions = plan.summary.needsConfirmation.length > 0;
  const applySafe = l10n.t('Apply Only Unquestioned');
  const review = l10n.t('Review…');
  const label: Record<ApplyChoice, string> = {
    apply: plan.summary.conflicts > 0 ? l10n.t('Apply with Conflict Markers') : l10n.t('Apply'),
    applySafe,
    review,
  };
  // The first button is the default: Review… when a file would be replaced without a merge.
  const buttons = applyChoices(plan, safe.length).map((c) => label[c]);
  const headline = l10n.t('Apply {0} from “{1}” to {2}?', source.what, source.title, folder.name);
  const warn = questions || refused.length > 0;
  const show = (text: string, modal: boolean, choices: string[]): Thenable<string | undefined> => {
    const opts: vscode.MessageOptions = modal ? { modal: true, detail: summary } : {};
    return warn
      ? vscode.window.showWarningMessage(text, opts, ...choices)
      : vscode.window.showInformationMessage(text, opts, ...choices);
  };
  let answer = await show(headline, true, buttons);
  if (answer === review) {
    await deps.previews.review(folder, all);
    // Not modal: the diff stays usable while the person decides.
    answer = await show(
      l10n.t('{0} {1}', headline, summary),
      false,
      buttons.filter((b) => b !== review),
    );
  }
  if (answer === undefined || answer === review) return { plan, written: [] };
  const entries = answer === applySafe ? safe : all;
  const outcome = await applyEntries(folder, reader, entries);
  if (!outcome.ok) {
    void vscode.window.showWarningMessage(l10n.t('Den: {0}', outcome.message));
    return { plan, written: [], message: outcome.message };
  }
  let message = reportOf(outcome.written, plan, refused, folder.name);
  if (outcome.unsaved)
    message = l10n.t(
      '{0} But {1} could not be saved (the disk may be full): the new text is in the editor, unsaved. Free some space, then save.',
      message,
      outcome.unsaved.join(', '),
    );
  void (refused.length > 0 || outcome.unsaved
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
        title: l10n.t('Den: reading {0}…', source.what),
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
  const n = formatCount(written.length);
  const [a, r, d] = [formatCount(added), formatCount(removed), formatCount(deleted)];
  const parts = [
    written.length === 1
      ? deleted
        ? l10n.t('Den applied 1 file to {0} (+{1} −{2} lines, {3} deleted).', folder, a, r, d)
        : l10n.t('Den applied 1 file to {0} (+{1} −{2} lines).', folder, a, r)
      : deleted
        ? l10n.t('Den applied {0} files to {1} (+{2} −{3} lines, {4} deleted).', n, folder, a, r, d)
        : l10n.t('Den applied {0} files to {1} (+{2} −{3} lines).', n, folder, a, r),
  ];
  if (conflicts.length > 0) parts.push(l10n.t('Resolve the conflict markers in {0}.', conflicts.join(', ')));
  const dirty = written.filter((e) => e.dirty).length;
  if (dirty === 1) parts.push(l10n.t('1 editor has the change unsaved.'));
  else if (dirty > 1) parts.push(l10n.t('{0} editors have the change unsaved.', formatCount(dirty)));
  const skipped = plan.entries.length - plan.summary.refused - written.length;
  if (skipped > 0) {
    parts.push(l10n.t('{0} not written (no change needed, failed or not confirmed).', formatCount(skipped)));
  }
  if (refused.length > 0) {
    parts.push(
      refused.length > 5
        ? l10n.t(
            'Refused: {0} and {1} more.',
            refused.slice(0, 5).join(', '),
            formatCount(refused.length - 5),
          )
        : l10n.t('Refused: {0}.', refused.join(', ')),
    );
  }
  parts.push(
    l10n.t(
      'To undo it all: Edit ▸ Undo in the editor of any file it changed or created (undone text is unsaved until you save).',
    ),
  );
  return parts.join(' ');
}
