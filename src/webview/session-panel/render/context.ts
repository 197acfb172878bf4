/** What every row view is given: the store, a way to talk to the host, and the UI-only state. */
import type { WebviewMessage } from '../../../protocol/session-panel/messages';
import type { Store } from '../state';
import type { AnswerDrafts } from './answer-box';
import type { Row } from './rows';

export interface ViewContext {
  store: Store;
  post: (m: WebviewMessage) => void;
  /**
   * UI state that must survive re-renders and windowing (a row leaving the DOM and coming back):
   * open thoughts and generic blocks, open tool lines and groups, expanded parameter values, logs
   * shown whole.
   */
  expanded: Set<string>;
  /** The Markdown text of one section of a markdown block (fence prefix included). */
  sectionText(turnId: string, blockId: string, part: number): string;
  /** What the person typed to answer a waiting turn, and whether it is on its way. */
  answers: AnswerDrafts;
  /** Redraws a turn's status line (its answer box changed). */
  redraw(turnId: string): void;
  /** Rebuilds the rows (a group of tool calls was opened or closed: its calls' rows come or go). */
  regroup(): void;
}

/** One rendered row of the transcript. */
export interface RowView {
  readonly el: HTMLElement;
  /**
   * Views that can show another row of their kind once their own left the DOM (see `RowPool`):
   * `el` and what it holds are kept, and patched to show `row` from the store.
   */
  rebind?(row: Row): void;
  /** Re-renders from the store (the row's data changed). */
  update(): void;
  /** Tool rows: text appended to the log (rendered incrementally). */
  appendLog?(text: string, stream: 'stdout' | 'stderr'): void;
  /** Group rows: the group's calls changed (one more streamed in). */
  setBlocks?(blockIds: readonly string[]): void;
}
