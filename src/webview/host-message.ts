/**
 * Shape checks of what arrives on `window.onmessage`: anything that is not a well-formed HostMessage
 * is ignored before it reaches the store. Pure.
 */
import type { Delta, HostMessage } from '../protocol/messages';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function isBlock(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.id) &&
    isStr(v.type) &&
    (v.type !== 'tool' || (isObj(v.log) && Array.isArray(v.log.segments)))
  );
}

function isHeader(v: unknown): v is Obj {
  return (
    isObj(v) &&
    isStr(v.id) &&
    isStr(v.status) &&
    isObj(v.userMessage) &&
    isStr(v.userMessage.text) &&
    Array.isArray(v.userMessage.files)
  );
}

function isTurnView(v: unknown): boolean {
  return isHeader(v) && Array.isArray(v.blocks) && v.blocks.every(isBlock) && Array.isArray(v.files);
}

function isComposer(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.mode) &&
    isStr(v.effort) &&
    Array.isArray(v.attachments) &&
    typeof v.queued === 'number'
  );
}

/** Whether one delta is well-formed. */
export function isDelta(v: unknown): v is Delta {
  if (!isObj(v)) return false;
  switch (v.type) {
    case 'turn':
      return isHeader(v.turn);
    case 'block':
      return isStr(v.turnId) && isBlock(v.block);
    case 'blockOrder':
      return isStr(v.turnId) && Array.isArray(v.blockIds) && v.blockIds.every(isStr);
    case 'append':
      return (
        isStr(v.turnId) &&
        isStr(v.blockId) &&
        isStr(v.text) &&
        (v.stream === undefined || v.stream === 'stdout' || v.stream === 'stderr')
      );
    case 'plan':
      return isStr(v.turnId) && isObj(v.plan) && Array.isArray(v.plan.todos);
    case 'files':
      return isStr(v.turnId) && Array.isArray(v.files);
    case 'composer':
      return isComposer(v.composer);
    case 'connection':
      return isObj(v.connection) && isStr(v.connection.state);
    case 'notice':
      return (
        v.notice === null || (isObj(v.notice) && isStr(v.notice.message) && Array.isArray(v.notice.actions))
      );
    case 'title':
      return isStr(v.title);
    default:
      return false;
  }
}

/** Whether a posted value is a HostMessage the webview can apply. */
export function isHostMessage(v: unknown): v is HostMessage {
  if (!isObj(v) || !Number.isInteger(v.seq)) return false;
  switch (v.type) {
    case 'init':
      return (
        isObj(v.session) &&
        isStr(v.session.sessionId) &&
        Array.isArray(v.turns) &&
        v.turns.every(isTurnView) &&
        isComposer(v.composer) &&
        isObj(v.connection) &&
        (v.notice === null || isObj(v.notice))
      );
    case 'batch':
      return Array.isArray(v.deltas) && v.deltas.every(isDelta);
    case 'fullLog':
      return (
        isStr(v.turnId) &&
        isStr(v.blockId) &&
        isStr(v.text) &&
        (v.droppedChars === undefined ||
          (typeof v.droppedChars === 'number' && Number.isSafeInteger(v.droppedChars) && v.droppedChars >= 0))
      );
    case 'probe':
      return isStr(v.id);
    case 'focusComposer':
      return true;
    default:
      return false;
  }
}
