/**
 * Den's internals for its own integration tests (test/ext): what they may reach, and where Den puts
 * it in Test mode only. Never part of the public API (`activate` returns `DenExtensionApi` alone).
 */
import * as vscode from 'vscode';
import type { DenExtensionApi } from './types';
import type { Attempts } from '../attempts/attempts';
import type { AttemptsTreeProvider } from '../attempts/attempts-tree';
import type { ReviewActions } from '../apply/review-actions';
import type { HunkActions } from '../apply/hunk-actions';
import type { IntegrationsHandle } from '../integrations/register';
import type { Connection } from '../platform/connection';
import type { KeyStore } from '../platform/key-store';
import type { WalkthroughStep } from '../platform/walkthrough-steps';
import type { ReviewComments } from '../review-comments/review-comments';
import type { SearchView } from '../search/search-view';
import type { SessionSearch } from '../search/session-search';
import type { Attention } from '../session-panel/attention-signals';
import type { SessionPanels } from '../session-panel/session-panels';
import type { SessionFileSystem } from '../session-files/session-fs';
import type { WorkspaceFileStatus } from '../session-files/workspace-file-status';
import type { SessionDropController } from '../sessions-view/session-drop';
import type { SessionsTreeProvider } from '../sessions-view/sessions-tree';
import type { StatusBar } from '../sessions-view/status-bar';
import type { WebTasks } from '../webtasks/web-tasks';
import type { KeptOutHunks } from '../../model/apply/kept-out';
import type { ReviewMarks } from '../../model/review/review-marks';
import type { SessionRegistry } from '../../model/session/session-registry';

/**
 * Den's live pieces, for Den's own integration tests only: never returned by `activate` (another
 * extension would read the key through them). Published on `TEST_INTERNALS` when, and only when,
 * VS Code runs Den as the extension under test (docs/decisions/2026-11-26-exports-are-the-public-api.md).
 */
export interface DenTestInternals extends DenExtensionApi {
  readonly connection: Connection;
  readonly keys: KeyStore;
  readonly sessions: SessionsTreeProvider;
  readonly status: StatusBar;
  /** The session hosts, with or without a panel: running turns, followed turns, their events. */
  readonly registry: SessionRegistry;
  /** The Session panels (webviews) over the registry's hosts. */
  readonly panels: SessionPanels;
  /** Drops on the Sessions view (the integration tests drop through it). */
  readonly sessionDrop: SessionDropController;
  /** The `den-session:` file system of sessions' generated files. */
  readonly files: SessionFileSystem;
  /** Each session file's state against the workspace (the tree and the panels show it). */
  readonly fileStatus: WorkspaceFileStatus;
  /** The reviewed marks of the sessions' files (the tree, the panels and the review commands show them). */
  readonly reviewMarks: ReviewMarks;
  /** The agent's hunks kept out of the workspace (hunk by hunk in the review). */
  readonly keptOutHunks: KeptOutHunks;
  /** Hunk by hunk in the review: the commands, the lenses, the `den.hunkReview` key. */
  readonly hunkActions: HunkActions;
  /** Notifications and the Sessions view's badge for turns that finish or need input unseen. */
  readonly attention: Attention;
  /** Opens `<scheme>://<extension id>/session/<id>` links (registered with the window). */
  readonly uriHandler: vscode.UriHandler;
  /** Web tasks (`POST /lam/run`): the runner, the panel, the view, the passcode. */
  readonly webTasks: WebTasks;
  /** The reviews Den opened and their title bar's Apply / Apply the Whole Turn / Discard. */
  readonly reviewActions: ReviewActions;
  /** Line comments on the agent's files and Send Feedback. */
  readonly comments: ReviewComments;
  /** The chat participant and the language model tools (tests watch `@den`'s answers). */
  readonly integrations: IntegrationsHandle;
  /** A task run as several sessions: the groups, the Attempts view. */
  readonly attempts: Attempts;
  readonly attemptsTree: AttemptsTreeProvider;
  /** Search in Sessions: the local index of session contents, its feeder and QuickPick. */
  readonly search: SessionSearch;
  /** The Search in Sessions view (its provider). */
  readonly searchView: SearchView;
  /** Whether each walkthrough step's work was done in this window (its context key set); `forget`: none was. */
  readonly walkthroughSteps: { done(step: WalkthroughStep): boolean; forget(): void };
  /** How long `activate` took, in ms (reported by the integration tests). */
  readonly activationMs: number;
}

/**
 * Where Den puts its `DenTestInternals` in Test mode (`globalThis[Symbol.for(...)]`; test/ext/helpers.ts
 * reads it). In any other mode nothing is put there.
 */
const TEST_INTERNALS_KEY = 'den-dev.den.testInternals';

/**
 * Publishes the internals for Den's integration tests, only in `ExtensionMode.Test`: VS Code gives
 * that mode to the extension under development that `extensionTestsPath` tests, never to an
 * installed one. Removed when Den deactivates.
 */
export function publishForTests(context: vscode.ExtensionContext, internals: DenTestInternals): void {
  if (context.extensionMode !== vscode.ExtensionMode.Test) return;
  const slot = Symbol.for(TEST_INTERNALS_KEY);
  const global = globalThis as Record<symbol, unknown>;
  Object.defineProperty(global, slot, { value: internals, configurable: true, enumerable: false });
  context.subscriptions.push({
    dispose: () => {
      if (global[slot] === internals) delete global[slot];
    },
  });
}
