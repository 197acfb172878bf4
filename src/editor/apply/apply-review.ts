/**
 * "Review…" of an apply: the workspace file beside what Apply would write, in VS Code's diff
 * editor (one file) or multi-diff editor (several). The right side is a read-only document of the
 * private `den-apply:` scheme holding the planned contents (after merging: what would really be
 * written), kept only for the last plan reviewed. The same scheme shows Apply's plain-text lists
 * (`showText`: every refused path and why), the last few kept.
 */
import { formatCount, l10n } from '../../core/shared/l10n';
import type { PlanEntry } from '../../model/apply/apply-plan';
import * as vscode from 'vscode';
import { fileUri } from './apply-folder';
import type { ReviewActions, ShownReview } from './review-actions';

export const APPLY_SCHEME = 'den-apply';

/** An empty read-only document: the missing side of a one-file diff (a new or a deleted file). */
export const EMPTY_URI = vscode.Uri.from({ scheme: APPLY_SCHEME, path: '/empty' });

export class ApplyPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  #contents = new Map<string, string>();
  /** `showText`'s documents by URI, the most recent last. */
  readonly #texts = new Map<string, string>();
  readonly #changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;
  readonly #registration = vscode.workspace.registerTextDocumentContentProvider(APPLY_SCHEME, this);

  /** `actions`: where the review's title bar Apply and Discard are registered. */
  constructor(private readonly actions?: ReviewActions) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.toString() === EMPTY_URI.toString()) return '';
    const text = this.#texts.get(uri.toString());
    if (text !== undefined) return text;
    return this.#contents.get(uri.toString()) ?? l10n.t('Den no longer holds this preview: run Apply again.');
  }

  /**
   * Opens the diff of the entries that write (all but deletions show the planned text); `decide`:
   * what its title bar's Apply and Discard do (the pending apply's answer).
   */
  async review(
    folder: vscode.WorkspaceFolder,
    entries: readonly PlanEntry[],
    decide?: ShownReview,
  ): Promise<void> {
    const next = new Map<string, string>();
    const pairs: [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined][] = [];
    for (const e of entries) {
      const target = fileUri(folder, e.relPath!);
      const preview = vscode.Uri.from({ scheme: APPLY_SCHEME, path: target.path });
      const text =
        e.action === 'delete'
          ? ''
          : e.binary
            ? l10n.t(
                '(binary file, {0} bytes: no text to compare)',
                formatCount(e.newContent?.byteLength ?? 0),
              )
            : new TextDecoder('utf-8').decode(e.newContent);
      next.set(preview.toString(), text);
      const original = e.expected === null ? undefined : target;
      pairs.push([target, original, e.action === 'delete' ? undefined : preview]);
    }
    this.#contents = next;
    for (const key of next.keys()) this.#changed.fire(vscode.Uri.parse(key));
    if (pairs.length === 1) {
      const [target, original, preview] = pairs[0];
      const left = original ?? EMPTY_URI;
      const right = preview ?? EMPTY_URI;
      const name = vscode.workspace.asRelativePath(target);
      const title = l10n.t('{0} ↔ Den: what Apply writes', name);
      if (decide) this.actions?.register([right.toString(), title], decide);
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
      return;
    }
    const title = l10n.t('Den: What Apply Writes');
    if (decide) this.actions?.register([title], decide);
    await vscode.commands.executeCommand('vscode.changes', title, pairs);
  }

  /** Forgets a pending review's title bar actions (its apply was answered). */
  decided(decide: ShownReview): void {
    this.actions?.forget(decide);
  }

  /** Opens `text` in a read-only editor named `name` (e.g. `Refused by Den.txt`). */
  async showText(name: string, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: APPLY_SCHEME, path: `/${name}` });
    const key = uri.toString();
    this.#texts.delete(key);
    this.#texts.set(key, text);
    while (this.#texts.size > 5) this.#texts.delete(this.#texts.keys().next().value!);
    this.#changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    this.#registration.dispose();
    this.#texts.clear();
    this.#changed.dispose();
    this.#contents.clear();
  }
}
