/**
 * Review and apply on one surface: the diffs Den opens (Review Changes, Compare with Workspace, and
 * Apply's Review…) carry **Apply** and **Discard** in their title bar while they are the active
 * editor. Each review Den opens is registered here under what identifies its tab (a diff's
 * right-hand URI, a multi-file diff's title); `den.reviewShown` says whether the active tab is one,
 * and the title bar's commands act on it: Apply applies what it shows (the turn's, the session's or
 * the file's files; for Apply's own review, the pending apply goes on), Discard closes its tabs and
 * writes nothing (for Apply's review, the pending apply is declined).
 */
import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import type { ReviewTarget } from '../../model/review/review-marks';
import type { AgentScope } from './apply-sources';

/** One agent file a review shows, at the version it shows (what a reviewed mark is made on). */
export interface ShownFile extends ReviewTarget {
  sessionId: string;
  /** The agent's side as the diff shows it (a URI string), when there is one. */
  uri?: string;
}

/** What a shown review does with its title bar's actions. */
export interface ShownReview {
  /** Applies what the review shows (resolves when the apply it started ended). */
  apply(): Thenable<unknown>;
  /** A file of a turn shown alone: applies that whole turn (the title bar's Apply the Whole Turn). */
  applyTurn?(): Thenable<unknown>;
  /** Writes nothing; called once its tabs are closed. */
  discard?(): void;
  /** The agent's files it shows (Review Changes and Compare; not Apply's own review). */
  files?: readonly ShownFile[];
  /** The session and scope it shows (Review Changes), for Review Unreviewed Changes from its title. */
  scope?: { sessionId: string; scope: AgentScope };
}

/** Most review keys kept (a window seldom has more review tabs open). */
const MAX_REVIEWS = 500;

/** The context key: the active editor is a review Den opened. */
export const REVIEW_SHOWN_KEY = 'den.reviewShown';
/** The context key: the active review shows one file of a turn (Apply the Whole Turn is offered). */
export const REVIEW_IN_TURN_KEY = 'den.reviewShownInTurn';

export class ReviewActions implements vscode.Disposable {
  readonly #reviews = new Map<string, ShownReview>();
  readonly #disposables: vscode.Disposable[];
  #shown = false;
  #inTurn = false;

  constructor() {
    this.#disposables = [
      vscode.window.tabGroups.onDidChangeTabs(() => this.#update()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.#update()),
      vscode.commands.registerCommand('den.applyReviewed', () => this.applyActive()),
      vscode.commands.registerCommand('den.discardReview', () => this.discardActive()),
      vscode.commands.registerCommand('den.applyReviewedTurn', () => this.applyTurnActive()),
    ];
  }

  /**
   * Registers a review about to open under the keys of its tab (a diff's right-hand URI as a
   * string, or a multi-file diff's title). A newer review under the same key replaces the older.
   */
  register(keys: readonly string[], review: ShownReview): void {
    for (const k of keys) {
      this.#reviews.delete(k);
      this.#reviews.set(k, review);
    }
    // Bounded: the oldest reviews' keys go first (their tabs, if still open, lose the title bar's actions).
    for (const k of this.#reviews.keys()) {
      if (this.#reviews.size <= MAX_REVIEWS) break;
      this.#reviews.delete(k);
    }
    this.#update();
  }

  /** Forgets a review (its apply ended, or it was discarded). */
  forget(review: ShownReview): void {
    for (const [k, r] of this.#reviews) if (r === review) this.#reviews.delete(k);
    this.#update();
  }

  /** The review the active tab shows, if Den opened it. */
  active(): ShownReview | undefined {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    return tab && this.#reviewOf(tab);
  }

  /** Apply in the title bar: applies what the active review shows. */
  async applyActive(): Promise<unknown> {
    const review = this.active();
    if (!review) {
      void vscode.window.showInformationMessage(l10n.t('Den: the active editor is not a review Den opened.'));
      return undefined;
    }
    return review.apply();
  }

  /** Apply the Whole Turn in the title bar: the turn of the one file the active review shows. */
  async applyTurnActive(): Promise<unknown> {
    const review = this.active();
    if (!review?.applyTurn) {
      void vscode.window.showInformationMessage(
        l10n.t('Den: the active editor is not a review of one of a turn’s files.'),
      );
      return undefined;
    }
    return review.applyTurn();
  }

  /** Discard in the title bar: closes the active review's tabs and writes nothing. */
  async discardActive(): Promise<void> {
    const review = this.active();
    if (!review) return;
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => this.#reviewOf(t) === review);
    await vscode.window.tabGroups.close(tabs);
    this.forget(review);
    review.discard?.();
  }

  #reviewOf(tab: vscode.Tab): ShownReview | undefined {
    const input = tab.input;
    if (input instanceof vscode.TabInputTextDiff) {
      return this.#reviews.get(input.modified.toString()) ?? this.#reviews.get(tab.label);
    }
    if (input instanceof vscode.TabInputText) return this.#reviews.get(input.uri.toString());
    // A multi-file diff's tab is its title with the count VS Code adds: "Den: Changes of … (2 files)".
    const label = tab.label.replace(/ \(\d+ files?\)$/, '');
    return this.#reviews.get(tab.label) ?? this.#reviews.get(label);
  }

  #update(): void {
    const active = this.active();
    const shown = active !== undefined;
    const inTurn = active?.applyTurn !== undefined;
    if (shown !== this.#shown) {
      this.#shown = shown;
      void vscode.commands.executeCommand('setContext', REVIEW_SHOWN_KEY, shown);
    }
    if (inTurn !== this.#inTurn) {
      this.#inTurn = inTurn;
      void vscode.commands.executeCommand('setContext', REVIEW_IN_TURN_KEY, inTurn);
    }
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
    this.#reviews.clear();
  }
}
