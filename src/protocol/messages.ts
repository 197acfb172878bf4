/**
 * The one typed protocol between the Session panel's host (extension) and its webview. Both sides
 * import this file; nothing else crosses `postMessage`. No `vscode` import: the webview bundle
 * uses it too.
 *
 * The host sends an `init` with the whole view once (on open, on restore, or when the webview
 * asks because it missed messages), then only deltas, grouped into `batch` posts (at most ~30 per
 * second, none while the panel is hidden). Every post carries `seq`, increasing by one; a webview
 * that sees a gap answers `ready` with its `lastSeq` and gets a fresh `init`.
 */
import type { Effort, Mode } from '../core/api/types';

export { EFFORTS, MODES, type Effort, type Mode } from '../core/api/types';
import type { Block, FileChange, Plan, TurnError, TurnStatus, UserMessage } from '../core/transcript/model';

/** A turn without its blocks, plan and files (those travel in their own deltas). */
export interface TurnHeader {
  /** The agent message id (the turn's id everywhere in the panel). May be '' for a user message not yet answered. */
  id: string;
  userMessage: UserMessage;
  status: TurnStatus;
  phase?: string;
  etaSeconds?: number;
  queuePosition?: number;
  error?: TurnError;
  abortReason?: string;
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
  /** Base URL host, shown small in the header (never the key). */
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
}

/** What the live connection of the panel is doing. */
export interface ConnectionView {
  state: 'idle' | 'loading' | 'live' | 'reconnecting' | 'offline' | 'failed';
  message?: string;
}

/** What the person chose for a message held back by a 429. */
export type HeldTurnAction = 'send' | 'sendWhenReady' | 'edit';

export const HELD_TURN_ACTIONS: readonly HeldTurnAction[] = ['send', 'sendWhenReady', 'edit'];

/** A notice's button: runs a Den command, or acts on the panel's held message (a 429). */
export type NoticeAction = { title: string; command: string } | { title: string; heldTurn: HeldTurnAction };

/** A banner above the composer: an error or warning a person can act on. */
export interface Notice {
  level: 'error' | 'warning' | 'info';
  message: string;
  actions: NoticeAction[];
}

/** One change to the view. */
export type Delta =
  /** Creates or updates a turn's header. */
  | { type: 'turn'; turn: TurnHeader }
  /** Creates or replaces a block of a turn (appended at the end when new). */
  | { type: 'block'; turnId: string; block: Block }
  /**
   * The turn's blocks are exactly these, in this order: blocks not listed are removed, the others
   * keep their content (sent after the `block` deltas of the same batch).
   */
  | { type: 'blockOrder'; turnId: string; blockIds: string[] }
  /** Appends text to a markdown/thought/text block, or to a tool block's log (`stream` set). */
  | { type: 'append'; turnId: string; blockId: string; text: string; stream?: 'stdout' | 'stderr' }
  | { type: 'plan'; turnId: string; plan: Plan }
  | { type: 'files'; turnId: string; files: FileChange[] }
  | { type: 'composer'; composer: ComposerState }
  | { type: 'connection'; connection: ConnectionView }
  | { type: 'notice'; notice: Notice | null }
  | { type: 'title'; title: string };

/** Host → webview. */
export type HostMessage =
  | {
      type: 'init';
      seq: number;
      session: SessionHeader;
      turns: TurnView[];
      composer: ComposerState;
      connection: ConnectionView;
      notice: Notice | null;
    }
  | { type: 'batch'; seq: number; deltas: Delta[] }
  /**
   * The whole log of a tool block, after the user asked to "show all": all Den kept of it, and how
   * many characters before that it dropped (its log cap), so the view can keep saying so.
   */
  | { type: 'fullLog'; seq: number; turnId: string; blockId: string; text: string; droppedChars?: number }
  /** Test hook: the webview answers with a `probeResult`. */
  | { type: 'probe'; seq: number; id: string }
  /** Moves keyboard focus to the composer (after "New Session" and similar). */
  | { type: 'focusComposer'; seq: number };

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
  composerText: string;
}

/** Webview → host. */
export type WebviewMessage =
  /** The webview loaded (or reloaded); `lastSeq` is what it has already applied (null: nothing). */
  | { type: 'ready'; lastSeq: number | null }
  | { type: 'send'; text: string; mode: Mode; effort: Effort; continueTurnId?: string }
  | { type: 'stop' }
  | { type: 'pickAttachments' }
  | { type: 'removeAttachment'; id: string }
  /** The user clicked a link in agent output. The host decides whether and how to open it. */
  | { type: 'openLink'; href: string }
  /** The user clicked a file of a snapshot. */
  | { type: 'openFile'; turnId: string; path: string }
  | { type: 'copy'; text: string }
  | { type: 'showFullLog'; turnId: string; blockId: string }
  /** Reconnect / reload now (after a failure). */
  | { type: 'retry' }
  /** Send the message held back by a 429 now, or when the wait is over, or give it back to edit. */
  | { type: 'heldTurn'; action: HeldTurnAction }
  | { type: 'probeResult'; id: string; digest: WebviewDigest }
  /** Mode or fast/think changed in the composer (kept as the panel's choice). */
  | { type: 'composerChoice'; mode: Mode; effort: Effort };

/** State the webview keeps with `setState` (small: the transcript comes back from the host). */
export interface WebviewPersistedState {
  sessionId: string;
  draft: string;
  mode?: Mode;
  effort?: Effort;
  scrollTop?: number;
}

/** Whether a value looks like a WebviewMessage (the host never trusts the webview blindly). */
export function isWebviewMessage(v: unknown): v is WebviewMessage {
  if (!v || typeof v !== 'object') return false;
  const t = (v as { type?: unknown }).type;
  return (
    typeof t === 'string' &&
    [
      'ready',
      'send',
      'stop',
      'pickAttachments',
      'removeAttachment',
      'openLink',
      'openFile',
      'copy',
      'showFullLog',
      'retry',
      'heldTurn',
      'probeResult',
      'composerChoice',
    ].includes(t)
  );
}
