/**
 * Apply: the agent's files into a workspace folder, safely. The folder is chosen, the plan made
 * (`model/apply/apply-plan.ts`: nothing written yet), and its summary shown in a modal first; the
 * person applies everything (confirming the questions, conflict markers included), only what
 * needs no question, reviews the diff, or cancels. Then one WorkspaceEdit writes it all
 * (`apply-edit.ts`), and a message says what was written, what was refused and how to undo.
 */
import { isDenError } from '../../core/client/errors';
import { formatCount, l10n } from '../../core/shared/l10n';
import { runsCodeMatcher } from '../../core/paths/runs-code';
import type { BaseLookup, PlanEntry, PlanFolder, PlanInput } from '../../model/apply/apply-plan';
import { planApply, writes, writesOf, type ApplyPlan } from '../../model/apply/apply-plan';
import { applyChoices, type ApplyChoice } from '../../model/apply/apply-choices';
import { problemsCapped, problemsOf, problemsText, summaryText } from '../../model/apply/apply-summary';
import * as vscode from 'vscode';
import { applyEntries } from './apply-edit';
import { chooseFolder, fileUri, planFolder } from './apply-folder';
import { revertApply, type RevertOutcome } from './apply-revert';
import type { ApplyPreviews } from './apply-review';
import type { ShownReview } from './review-actions';
import type { AgentFiles } from './apply-sources';
import { stepDone } from '../platform/walkthrough-steps';

export interface ApplyDeps {
  previews: ApplyPreviews;
  /** What the agent saw of the session's files (`BaseStore`); without it, nothing is known. */
  bases?: (sessionId: string) => BaseLookup;
  /** The `den.apply.filesThatRunCode` globs (default: none beyond the built-in list). */
  filesThatRunCode?: () => readonly string[];
  /** Whether the workspace is trusted (default: `vscode.workspace.isTrusted`). */
  isTrusted?: () => boolean;
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
  /** Settles when the person answered that message: what Undo did, or undefined (another choice). */
  undone?: Promise<RevertOutcome | undefined>;
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
  const codeRules = {
    runsCode: runsCodeMatcher(deps.filesThatRunCode?.() ?? []),
    trusted: deps.isTrusted?.() ?? vscode.workspace.isTrusted,
  };
  const plan = await planWithProgress(source, reader, base, codeRules);
  if (!plan) return { written: [] };
  const all = writesOf(plan, true);
  const safe = writesOf(plan, false);
  const code = plan.entries.filter((e) => writes(e) && e.runsCode !== undefined);
  const refused = plan.entries.filter((e) => e.action === 'refused').map((e) => e.path);
  const summary = summaryText(plan);
  const problems = problemsOf(plan).length;
  const showAll = problemsCapped(plan) ? l10n.t('Show All Refused ({0})', formatCount(problems)) : undefined;
  const listProblems = (): Promise<void> =>
    deps.previews.showText(
      l10n.t('Refused by Den.txt'),
      problemsText(
        plan,
        l10n.t(
          'Den did not apply these {0} paths of {1} (“{2}”) to {3}:',
          formatCount(problems),
          source.what,
          source.title,
          folder.name,
        ),
      ),
    );
  if (all.length === 0 && code.length === 0) {
    const message = l10n.t('Den: nothing to apply from {0} to {1}. {2}', source.what, folder.name, summary);
    const shown =
      refused.length > 0
        ? vscode.window.showWarningMessage(message, ...(showAll ? [showAll] : []))
        : vscode.window.showInformationMessage(message);
    void Promise.resolve(shown).then((a) => (a !== undefined && a === showAll ? listProblems() : undefined));
    return { plan, written: [], message };
  }
  const questions = plan.summary.needsConfirmation.length > 0 || code.length > 0;
  const applySafe = l10n.t('Apply Except Files Needing Confirmation');
  const review = l10n.t('Review…');
  const label: Record<ApplyChoice, string> = {
    apply: plan.summary.conflicts > 0 ? l10n.t('Apply with Conflict Markers') : l10n.t('Apply'),
    applySafe,
    review,
  };
  // The first button is the default: Review… when a file would be replaced without a merge.
  const buttons = [
    ...applyChoices(plan, safe.length, code.length > 0).map((c) => label[c]),
    ...(showAll ? [showAll] : []),
  ];
  const headline = headlineOf(source, folder.name);
  const warn = questions || refused.length > 0;
  const show = (text: string, modal: boolean, choices: string[]): Thenable<string | undefined> => {
    const opts: vscode.MessageOptions = modal ? { modal: true, detail: summary } : {};
    return warn
      ? vscode.window.showWarningMessage(text, opts, ...choices)
      : vscode.window.showInformationMessage(text, opts, ...choices);
  };
  let answer = await show(headline, true, buttons);
  // Review… and Show All Refused open a document, then ask again in a notification (not modal: the
  // document stays usable while the person decides); each at most once.
  const left = [...buttons];
  for (let k = 0; k < 2 && answer !== undefined && (answer === review || answer === showAll); k++) {
    // After Review…, the diff's title bar answers too (Apply, Discard): the question stays where
    // the person looks, even once the notification went into the bell.
    let decide: ShownReview | undefined;
    const fromTitle = new Promise<string | undefined>((resolve) => {
      decide = { apply: () => Promise.resolve(resolve(label.apply)), discard: () => resolve(undefined) };
    });
    if (answer === review) {
      stepDone('apply');
      await deps.previews.review(folder, writesOf(plan, true, true), decide);
    } else await listProblems();
    left.splice(left.indexOf(answer), 1);
    answer = await Promise.race([show(l10n.t('{0} {1}', headline, summary), false, left), fromTitle]);
    if (decide) deps.previews.decided(decide);
  }
  if (answer === undefined || answer === review || answer === showAll) return { plan, written: [] };
  let entries = answer === applySafe ? safe : all;
  if (answer !== applySafe && code.length > 0) {
    const withCode = await confirmCode(code, entries.length > 0);
    if (withCode === undefined) return { plan, written: [] };
    if (withCode) entries = writesOf(plan, true, true);
  }
  const outcome = await applyEntries(folder, reader, entries);
  if (!outcome.ok) {
    void vscode.window.showWarningMessage(l10n.t('Den: {0}', outcome.message));
    return { plan, written: [], message: outcome.message };
  }
  if (outcome.written.length > 0) stepDone('apply');
  let message = reportOf(outcome.written, plan, refused, folder.name);
  if (outcome.unsaved)
    message = l10n.t(
      '{0} But {1} could not be saved (the disk may be full): the new text is in the editor, unsaved. Free some space, then save.',
      message,
      outcome.unsaved.join(', '),
    );
  const undo = l10n.t('Undo');
  const conflicted = outcome.written.filter((e) => e.action === 'mergeWithConflicts');
  const openConflicted =
    conflicted.length > 0
      ? conflicted.length === 1
        ? l10n.t('Open Conflicted File')
        : l10n.t('Open Conflicted Files')
      : undefined;
  const after = [undo, ...(openConflicted ? [openConflicted] : []), ...(showAll ? [showAll] : [])];
  const reported =
    refused.length > 0 || outcome.unsaved
      ? vscode.window.showWarningMessage(message, ...after)
      : vscode.window.showInformationMessage(message, ...after);
  const undone = Promise.resolve(reported).then(async (a) => {
    if (a === undefined) return undefined;
    if (a === showAll) return void (await listProblems());
    if (a === openConflicted) {
      for (const e of conflicted)
        await vscode.window.showTextDocument(fileUri(folder, e.relPath!), { preview: false });
      return undefined;
    }
    if (a !== undo) return undefined;
    const r = await revertApply(folder, outcome.written, outcome.before);
    const told = undoneText(r, folder.name);
    void (r.kept.length > 0
      ? vscode.window.showWarningMessage(told)
      : vscode.window.showInformationMessage(told));
    return r;
  });
  return { plan, written: outcome.written, message, undone };
}

/**
 * "Apply the changes of “Add a VS Code task” in “Session” to app?" for a turn's files: the turn by
 * what it asked (as the panel heads it); else what is applied and the session.
 */
export function headlineOf(source: AgentFiles, folder: string): string {
  if (source.turn)
    return l10n.t('Apply the changes of {0} in “{1}” to {2}?', source.turn, source.title, folder);
  return l10n.t('Apply {0} from “{1}” to {2}?', source.what, source.title, folder);
}

/**
 * The separate confirmation of the files that can run code, naming each and why. True: write them
 * too; false: write the rest without them (offered when there is a rest); undefined: cancel it all.
 */
async function confirmCode(code: readonly PlanEntry[], rest: boolean): Promise<boolean | undefined> {
  const write =
    code.length === 1 ? l10n.t('Write the File That Runs Code') : l10n.t('Write the Files That Run Code');
  const skip = l10n.t('Apply Without Them');
  const names = code.map((e) => l10n.t('{0}: {1}', e.relPath ?? e.path, e.runsCode ?? ''));
  const question =
    code.length === 1
      ? l10n.t('Also write {0}? It can run code.', code[0].relPath ?? code[0].path)
      : l10n.t('Also write {0} files that can run code?', formatCount(code.length));
  const detail = [
    ...names,
    '',
    l10n.t('Check what the agent wrote in them (Review… shows it) before you let them into the workspace.'),
  ].join('\n');
  const answer = await vscode.window.showWarningMessage(
    question,
    { modal: true, detail },
    // The first button is the default: leaving them out, when there is something else to write.
    ...(rest ? [skip] : []),
    write,
  );
  return answer === write ? true : answer === skip ? false : undefined;
}

/** The plan, with a cancellable progress notification; undefined when cancelled. */
async function planWithProgress(
  source: AgentFiles,
  reader: PlanFolder,
  base: BaseLookup,
  code: Pick<PlanInput, 'runsCode' | 'trusted'>,
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
        return planApply({ files: source.files, folder: reader, base, signal: abort.signal, ...code });
      },
    );
  } catch (err) {
    if (isDenError(err) && err.code === 'aborted') return undefined;
    throw err;
  }
}

/** What Undo did: "Den undid the apply to app: 2 files are as they were." and what it kept. */
export function undoneText(r: RevertOutcome, folder: string): string {
  const n = r.undone.length;
  const head =
    n === 0
      ? l10n.t('Den undid nothing in {0}.', folder)
      : n === 1
        ? l10n.t('Den undid the apply to {0}: 1 file is as it was.', folder)
        : l10n.t('Den undid the apply to {0}: {1} files are as they were.', folder, formatCount(n));
  return r.kept.length > 0
    ? l10n.t('{0} Kept as they are now (changed since the apply): {1}.', head, r.kept.join(', '))
    : head;
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
  const held = plan.entries.filter((e) => e.runsCode !== undefined && !written.includes(e));
  if (held.length > 0) {
    parts.push(
      l10n.t(
        'Not written, as they can run code and were not confirmed: {0}.',
        held.map((e) => e.relPath ?? e.path).join(', '),
      ),
    );
  }
  const skipped = plan.entries.length - plan.summary.refused - written.length;
  if (skipped > 0) {
    parts.push(l10n.t('{0} not written (no change needed, failed or not confirmed).', formatCount(skipped)));
  }
  if (refused.length > 0) {
    parts.push(
      refused.length > 5
        ? l10n.t(
            'Refused: {0} and {1} more (Show All Refused lists every one).',
            refused.slice(0, 5).join(', '),
            formatCount(refused.length - 5),
          )
        : l10n.t('Refused: {0}.', refused.join(', ')),
    );
  }
  parts.push(l10n.t('Undo puts back every file it wrote.'));
  return parts.join(' ');
}
