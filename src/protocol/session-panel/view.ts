/**
 * The view types the host ⇄ webview messages carry (turn headers, blocks' turns, composer,
 * connection, notices, the webview's saved state). No imports beyond the core's browser-safe
 * types: the webview bundle uses it.
 */
import type { Effort, Mode } from '../../core/client/types';
import type { Block, ContextUsage, FileChange, Plan, Turn, TurnStatus } from '../../core/transcript/model';

/** What the person chose for a message held back by a 429. */
export const HELD_TURN_ACTIONS = ['send', 'sendWhenReady', 'edit'] as const;
export type HeldTurnAction = (typeof HELD_TURN_ACTIONS)[number];

/**
 * A turn without its blocks, plan and files (those travel in their own deltas). Its `contextUsage`
 * travels here: the panel's header shows the latest turn's.
 */
export interface TurnHeader extends Pick<
  Turn,
  | 'userMessage'
  | 'status'
  | 'phase'
  | 'etaSeconds'
  | 'etaAt'
  | 'queuePosition'
  | 'error'
  | 'abortReason'
  | 'needsInput'
  | 'asks'
  | 'contextUsage'
> {
  /** The agent message id (the turn's id everywhere in the panel). May be '' for a user message not yet answered. */
  id: string;
  /** Whether the turn ended with continuation data (the composer offers to continue it). */
  hasContinuation: boolean;
  createdAt: number;
}

/** A whole turn, as sent in `init`. */
export interface TurnView extends TurnHeader {
  blocks: Block[];
  plan?: Plan;
  files: FileChange[];
}

export interface SessionHeader {
  sessionId: string;
  title: string;
  /** Base URL host, in the connection state's tooltip (never the key). */
  service: string;
}

export interface AttachmentView {
  id: string;
  name: string;
  size: number;
  status: 'uploading' | 'ready' | 'error';
  /** 0..1 while uploading. */
  progress?: number;
  error?: string;
  /** The content is an editor's unsaved text, not the file on disk. */
  unsaved?: boolean;
}

export interface ComposerState {
  mode: Mode;
  effort: Effort;
  attachments: AttachmentView[];
  /** A turn of this session is running (Stop is offered; Send queues a follow-up). */
  running: boolean;
  /** Turns waiting behind the running one. */
  queued: number;
  /** Unix ms until which the service asked us to wait (429). */
  rateLimitedUntil?: number;
  /**
   * The task of a message the service refused with a 429, which the host holds to send later
   * (the notice offers the choices). The composer does not also keep it as a draft.
   */
  held?: string;
  /** Why sending is impossible right now (signed out, no URL), shown instead of Send. */
  disabledReason?: string;
  /** A send is on its way (Send shows progress, double sends are ignored). */
  sending: boolean;
  /** A new session with no turn yet: the composer offers to run the task as 2–4 attempts. */
  attempts?: boolean;
}

/** What the live connection of the panel is doing. */
export interface ConnectionView {
  state: 'idle' | 'loading' | 'live' | 'reconnecting' | 'offline' | 'failed';
  message?: string;
}

/** A notice's button: runs a Den command, or acts on the panel's held message (a 429). */
export type NoticeAction = { title: string; command: string } | { title: string; heldTurn: HeldTurnAction };

/** A banner above the composer: an error or warning a person can act on. */
export interface Notice {
  level: 'error' | 'warning' | 'info';
  message: string;
  actions: NoticeAction[];
}

/** What the webview reports of its own state for tests (`probe`). */
export interface WebviewDigest {
  lastSeq: number;
  turns: {
    id: string;
    status: TurnStatus;
    blocks: { id: string; type: string; text: string }[];
    todos: number;
    files: number;
  }[];
  /** Rendered DOM rows (windowed rendering keeps this small for long transcripts). */
  renderedBlocks: number;
  /** What the header's context window meter shows; absent while it is hidden. */
  contextUsage?: ContextUsage;
  composerText: string;
  /** The find bar while it is open: its query and what its count says. */
  find?: {
    query: string;
    count: string;
    /** The current match: its field's `addressKey` and where it starts in the field. */
    current?: { address: string; start: number };
  };
  /** The turn outline while it is open: its turn and the text of each entry, per section. */
  outline?: { turnId: string; steps: string[]; files: string[]; failures: string[] };
}

/** State the webview keeps with `setState` (small: the transcript comes back from the host). */
export interface WebviewPersistedState {
  sessionId: string;
  draft: string;
  mode?: Mode;
  effort?: Effort;
  scrollTop?: number;
  /** A send the host has not answered yet (its `sendResult` may reach a reloaded page). */
  pendingSend?: { id: string; text: string };
  /** The panel is the preview (a restored panel is the preview again). */
  preview?: boolean;
  /**
   * Where the transcript was scrolled in each session this page showed last (the preview panel
   * shows one after another; going back lands there). Newest last; a few at most.
   */
  scrolls?: SessionScroll[];
}

/** A session's scroll position: the row at the top and how far into it, or following the end. */
export interface SessionScroll {
  sessionId: string;
  /** The row's key and the pixels of it above the viewport; absent: following the end. */
  anchor?: { key: string; delta: number };
}

/** What applying one of the agent's files would do to the workspace (see `model/session-files/file-status.ts`). */
export type FileState =
  'new' | 'modified' | 'partly' | 'deleted' | 'identical' | 'conflicts' | 'refused' | 'failed';

/** A file's state against the workspace and the lines applying would add and remove. */
export interface FileStatusView {
  /** The agent's path of the file (as the session's files and the turns' changes name it). */
  path: string;
  state: FileState;
  added: number;
  removed: number;
  /** Conflict hunks (`conflicts` only). */
  conflicts?: number;
  /** The agent's hunks already in the workspace, of all of them (`partly`: accepted hunk by hunk). */
  hunks?: { applied: number; total: number };
  /** Why, in words (for `refused` and `failed` above all). */
  reason?: string;
  /**
   * The file can run code, and why (a clause, see `core/paths/runs-code.ts`): shown as its own
   * state (`runs code · new · +3`); Apply writes it only after a separate confirmation.
   */
  runsCode?: string;
}
