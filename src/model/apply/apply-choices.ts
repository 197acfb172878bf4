/**
 * The buttons of Apply's modal, in order: the first is the default (Enter presses it; VS Code's
 * modal focuses its first button, and Escape or its close button is Cancel). No `vscode` import.
 */
import type { ApplyPlan } from './apply-types';

export type ApplyChoice =
  /** Everything, the questions confirmed ("Apply", or "Apply with Conflict Markers"). */
  | 'apply'
  /** Only the entries that need no question. */
  | 'applySafe'
  /** The diff of what Apply writes, then the question again. */
  | 'review';

/**
 * The choices of a plan that writes something. When it would replace a workspace file without a
 * merge (`askOverwrite`: the person's lines not in the agent's version are lost), the default is
 * `review`, which writes nothing; otherwise `apply`, as before. Files that can run code
 * (`runsCode`) are questions too: Apply Except Files Needing Confirmation leaves them out.
 */
export function applyChoices(plan: ApplyPlan, safeWrites: number, runsCode = false): ApplyChoice[] {
  const questions = plan.summary.needsConfirmation.length > 0 || runsCode;
  const choices: ApplyChoice[] = ['apply', ...(questions && safeWrites > 0 ? ['applySafe' as const] : [])];
  return replacesWithoutMerge(plan) ? ['review', ...choices] : [...choices, 'review'];
}

/** Whether applying everything replaces a workspace file that Den cannot merge. */
export function replacesWithoutMerge(plan: ApplyPlan): boolean {
  return plan.entries.some((e) => e.action === 'askOverwrite');
}
