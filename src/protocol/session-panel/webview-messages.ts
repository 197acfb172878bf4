/**
 * Webview → host: every message the Session panel's webview may post, written once as a schema.
 * Its type is derived from it, and the host acts on nothing that fails it: the webview renders
 * untrusted agent output, so nothing it sends is taken on trust (a type not listed here is refused).
 * Every message also carries `session`: the session the page showed when it posted (absent before
 * its first `init`). One page shows session after session when it is the preview panel, so the host
 * drops what a page said about a session it no longer shows (`messageSession`).
 * No `vscode` import: the webview bundle uses it too.
 */
import { EFFORTS, MODES } from '../../core/client/types';
import { ANSWER_KINDS } from '../../core/transcript/answers';
import {
  arrayOf,
  custom,
  isFiniteNumber,
  isNonNegativeInteger,
  isUnknown,
  nullable,
  oneOf,
  optional,
  refine,
  stringOfLength,
  variant,
  type Infer,
} from '../../core/shared/schema';
import { HELD_TURN_ACTIONS, type WebviewDigest } from './view';

/** Largest text accepted from the webview (a task, a copy): 1 MB of characters. */
const MAX_TEXT = 1_000_000;
/** Largest id (turn, block, attachment, probe) or command name. */
const MAX_ID = 1_000;
const MAX_HREF = 10_000;
const MAX_PATH = 4_096;
/** Most URIs one drop may carry, and the longest URI. */
export const MAX_DROPPED_URIS = 1_000;
const MAX_URI = 8_192;

const id = stringOfLength(MAX_ID);
const text = stringOfLength(MAX_TEXT);
const mode = oneOf(MODES);
const effort = oneOf(EFFORTS);
/** The digest is the webview's own report for tests: only its presence is checked. */
const digest = custom<WebviewDigest>((v) => typeof v === 'object' && v !== null);

/** Whether a value is a well-formed WebviewMessage (the host never trusts the webview blindly). */
export const isWebviewMessage = variant('type', {
  /** The webview loaded (or reloaded); `lastSeq` is what it has already applied (null: nothing). */
  ready: { lastSeq: nullable(isNonNegativeInteger) },
  /**
   * The composer's message. `sendId` (the webview's own) comes back in a `sendResult` delta saying
   * whether a turn started, so a refused send always returns its text to the composer. `attempts`
   * (a new session only): the task run as that many sessions (2–4; 1 or left out: one turn). Any
   * number is carried; the host checks it (`model/attempts/attempt-routing.ts`) and says why not.
   */
  send: {
    text,
    mode,
    effort,
    continueTurnId: optional(id),
    sendId: optional(id),
    attempts: optional(isFiniteNumber),
  },
  stop: {},
  pickAttachments: {},
  removeAttachment: { id },
  /**
   * Files or folders dropped on the panel (VS Code's Explorer or editor tabs, with Shift held): their
   * URIs as the drag carried them. The host attaches only those inside the workspace. `otherFiles`
   * counts dropped files that came without a URI (from another application).
   */
  dropUris: {
    uris: refine(arrayOf(stringOfLength(MAX_URI)), (a) => a.length <= MAX_DROPPED_URIS),
    otherFiles: optional(isNonNegativeInteger),
  },
  /** The user clicked a link in agent output. The host decides whether and how to open it. */
  openLink: { href: stringOfLength(MAX_HREF) },
  /** The user clicked a file of a snapshot. */
  openFile: { turnId: id, path: stringOfLength(MAX_PATH) },
  copy: { text },
  showFullLog: { turnId: id, blockId: id },
  /** Reconnect / reload now (after a failure). */
  retry: {},
  /**
   * The person's answer to a turn that waits for them (Approve, Reject, Revise…, or a reply):
   * sent over that turn's socket, never queued as a new turn. `sendId` as for `send`.
   */
  answer: { turnId: id, kind: oneOf(ANSWER_KINDS), text: optional(text), sendId: optional(id) },
  /** Send the message held back by a 429 now, or when the wait is over, or give it back to edit. */
  heldTurn: { action: oneOf(HELD_TURN_ACTIONS) },
  probeResult: { id, digest },
  /** Mode or fast/think changed in the composer (the session's composer choice). */
  composerChoice: { mode, effort },
  /** A notice's button: runs a command, only Den's own (see `isAllowedCommand`). */
  runCommand: { command: id, args: optional(arrayOf(isUnknown)) },
  /**
   * Keep the preview panel's session open in a panel of its own (its Keep Open button, or the first
   * edit in its composer): the next single click opens another panel instead of replacing it.
   */
  keepOpen: {},
});

/** Webview → host. */
export type WebviewMessage = Infer<typeof isWebviewMessage>;

/** The session a webview message was posted about (`session`), if it says one. */
export function messageSession(v: unknown): string | undefined {
  const s = typeof v === 'object' && v !== null ? (v as { session?: unknown }).session : undefined;
  return typeof s === 'string' ? s : undefined;
}

/** The message when it is well-formed, else undefined. */
export function checkWebviewMessage(v: unknown): WebviewMessage | undefined {
  return isWebviewMessage(v) ? v : undefined;
}

/** Whether a link from agent output may be opened: http and https only. */
export function isOpenableLink(href: string): boolean {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Whether the webview may run this command: Den's own (`den.*`) only. */
export function isAllowedCommand(command: string): boolean {
  return /^den\.[A-Za-z0-9_.-]+$/.test(command);
}
