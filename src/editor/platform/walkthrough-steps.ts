import * as vscode from 'vscode';

/**
 * The walkthrough's work steps, ticked wherever the work is done. `onCommand:` completion events
 * see only commands the workbench runs (the palette, a menu, a key): a command Den runs itself, or
 * work done from the Session panel (a turn sent from its composer, files dropped on it, Review
 * Changes in it), never reaches them. So each step also completes on a context key Den sets the
 * first time the work is done, from anywhere (`package.json` → `walkthroughs` → `completionEvents`).
 */
export const WALKTHROUGH_STEP_KEYS = {
  /** A turn started: from the panel, a command, the chat participant, the API, an attempt. */
  task: 'den.walkthrough.taskStarted',
  /** Files attached to a composer (a command, a drop, the panel's Attach). */
  attach: 'den.walkthrough.filesAttached',
  /** The agent's files reviewed (a review opened) or applied. */
  apply: 'den.walkthrough.filesReviewed',
} as const;

export type WalkthroughStep = keyof typeof WALKTHROUGH_STEP_KEYS;

const done = new Set<WalkthroughStep>();

/** The work of `step` was done: its context key turns true (once per window). */
export function stepDone(step: WalkthroughStep): void {
  if (done.has(step)) return;
  done.add(step);
  void vscode.commands.executeCommand('setContext', WALKTHROUGH_STEP_KEYS[step], true);
}

/** Whether `stepDone(step)` ran in this window (its key is set). */
export function isStepDone(step: WalkthroughStep): boolean {
  return done.has(step);
}

/** For tests: no step counts as done, as in a new window (the keys already set stay set). */
export function forgetSteps(): void {
  done.clear();
}
