/**
 * Checks every field of a message from the webview before the host acts on it: the webview renders
 * untrusted agent output, so nothing it sends is taken on trust. No `vscode` import.
 */
import { EFFORTS, MODES, type Effort, type Mode } from '../core/api/types';
import { HELD_TURN_ACTIONS, isWebviewMessage, type HeldTurnAction, type WebviewMessage } from './messages';

/** Largest text accepted from the webview (a task, a copy): 1 MB of characters. */
const MAX_TEXT = 1_000_000;
const MAX_ID = 1_000;

/** A command the webview may ask to run (a notice's button). Only Den's own commands are allowed. */
export interface RunCommandMessage {
  type: 'runCommand';
  command: string;
  args?: unknown[];
}

export type CheckedMessage = WebviewMessage | RunCommandMessage;

const isStr = (v: unknown, max = MAX_ID): v is string => typeof v === 'string' && v.length <= max;
const isMode = (v: unknown): v is Mode => MODES.includes(v as Mode);
const isEffort = (v: unknown): v is Effort => EFFORTS.includes(v as Effort);

/** The message when it is well-formed, else undefined. */
export function checkWebviewMessage(v: unknown): CheckedMessage | undefined {
  if (isRunCommand(v)) return v;
  if (!isWebviewMessage(v)) return undefined;
  const m = v as WebviewMessage & Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return m.lastSeq === null || (Number.isInteger(m.lastSeq) && m.lastSeq >= 0) ? m : undefined;
    case 'send':
      return isStr(m.text, MAX_TEXT) &&
        isMode(m.mode) &&
        isEffort(m.effort) &&
        (m.continueTurnId === undefined || isStr(m.continueTurnId))
        ? m
        : undefined;
    case 'composerChoice':
      return isMode(m.mode) && isEffort(m.effort) ? m : undefined;
    case 'removeAttachment':
      return isStr(m.id) ? m : undefined;
    case 'openLink':
      return isStr(m.href, 10_000) ? m : undefined;
    case 'openFile':
      return isStr(m.turnId) && isStr(m.path, 4_096) ? m : undefined;
    case 'copy':
      return isStr(m.text, MAX_TEXT) ? m : undefined;
    case 'showFullLog':
      return isStr(m.turnId) && isStr(m.blockId) ? m : undefined;
    case 'heldTurn':
      return HELD_TURN_ACTIONS.includes(m.action as HeldTurnAction) ? m : undefined;
    case 'probeResult':
      return isStr(m.id) && typeof m.digest === 'object' && m.digest !== null ? m : undefined;
    default:
      return m;
  }
}

function isRunCommand(v: unknown): v is RunCommandMessage {
  if (!v || typeof v !== 'object') return false;
  const m = v as Record<string, unknown>;
  return m.type === 'runCommand' && isStr(m.command) && (m.args === undefined || Array.isArray(m.args));
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
