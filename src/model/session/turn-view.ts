/**
 * Turns of the host's transcript as the webview sees them (`protocol.ts`): headers without blocks,
 * whole turns for `init`. No `vscode` import.
 */
import { isTerminalStatus, type Block, type Transcript, type Turn } from '../../core/transcript/model';
import type { TurnHeader, TurnView } from '../../protocol/session-panel/messages';

/** A turn's header: everything but its blocks, plan and files. Absent fields are left out. */
export function turnHeader(t: Turn): TurnHeader {
  const h: TurnHeader = {
    id: t.agentMessageId,
    userMessage: t.userMessage,
    status: t.status,
    hasContinuation: t.continuation !== undefined && t.continuation !== '',
    createdAt: t.userMessage.createdAt,
  };
  if (t.phase !== undefined) h.phase = t.phase;
  if (t.etaSeconds !== undefined) h.etaSeconds = t.etaSeconds;
  if (t.etaAt !== undefined) h.etaAt = t.etaAt;
  if (t.queuePosition !== undefined) h.queuePosition = t.queuePosition;
  if (t.error !== undefined) h.error = t.error;
  if (t.abortReason !== undefined) h.abortReason = t.abortReason;
  if (t.needsInput !== undefined) h.needsInput = t.needsInput;
  if (t.asks !== undefined) h.asks = t.asks;
  if (t.contextUsage !== undefined) h.contextUsage = t.contextUsage;
  return h;
}

/** A whole turn, as `init` carries it. */
export function turnView(t: Turn): TurnView {
  const v: TurnView = { ...turnHeader(t), blocks: t.blocks, files: t.files };
  if (t.plan) v.plan = t.plan;
  return v;
}

export function transcriptViews(t: Transcript): TurnView[] {
  return t.turns.map(turnView);
}

/** Turns that have an agent message and have not ended (running or queued). */
export function openTurns(t: Transcript): Turn[] {
  return t.turns.filter((x) => x.agentMessageId && !isTerminalStatus(x.status));
}

/**
 * The whole text of a block for "show all", and for a tool's log how many characters before it
 * were dropped by the log cap (said beside the log, not mixed into it).
 */
export function fullBlockText(block: Block): { text: string; droppedChars: number } {
  if (block.type === 'tool') {
    return { text: block.log.segments.map((s) => s.data).join(''), droppedChars: block.log.truncatedChars };
  }
  return { text: 'text' in block ? block.text : JSON.stringify(block.payload, null, 2), droppedChars: 0 };
}
