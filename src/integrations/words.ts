/** What the chat participant and the tools say about a turn. */
import type * as vscode from 'vscode';
import type { DenTurnSnapshot } from '../api/types';

/** The turn's end, in words; empty for a turn that completed with an answer. */
export function turnOutcome(t: DenTurnSnapshot): string {
  if (t.needsInput !== undefined)
    return `**The agent needs your input:** ${t.needsInput}\n\nAnswer here (\`@den …\`) or in the session's panel to go on.`;
  switch (t.status) {
    case 'completed':
      return t.answer.trim() ? '' : '_The turn completed without an answer._';
    case 'aborted':
      return `_The turn was stopped${t.error && t.error !== 'Stopped.' ? `: ${t.error}` : '.'}_`;
    case 'error':
      return `**The turn failed:** ${t.error ?? 'the service gave no reason.'} Open the session to see what it did, then try again.`;
    default:
      return '';
  }
}

const KIND: Record<DenTurnSnapshot['files'][number]['kind'], string> = {
  added: 'added',
  updated: 'changed',
  deleted: 'deleted',
  output: 'output',
};

/** "Files: `a.ts` (added), …" (at most 20 named). */
export function filesLine(t: DenTurnSnapshot): string {
  if (!t.files.length) return '';
  const named = t.files.slice(0, 20).map((f) => `\`${f.path.replace(/`/g, "'")}\` (${KIND[f.kind]})`);
  const more = t.files.length > 20 ? `, and ${t.files.length - 20} more` : '';
  return `**Files:** ${named.join(', ')}${more}.`;
}

/** Open Session always; Review Changes when the turn has files. */
export function turnButtons(t: DenTurnSnapshot): vscode.Command[] {
  const out: vscode.Command[] = [
    { command: 'den.openSession', title: 'Open Session', arguments: [t.sessionId] },
  ];
  if (t.files.length)
    out.push({
      command: 'den.reviewTurn',
      title: 'Review Changes',
      arguments: [t.sessionId, t.agentMessageId],
    });
  return out;
}

/** A turn as plain text for a language model: status, answer (bounded), files, error. */
export function turnText(t: DenTurnSnapshot, maxAnswer = 8000): string {
  const lines = [
    `Session ${t.sessionId}, turn ${t.agentMessageId}: ${t.status}${t.mode ? ` (mode ${t.mode})` : ''}.`,
  ];
  lines.push(`Task: ${t.task}`);
  if (t.needsInput) lines.push(`The agent waits for the person: ${t.needsInput}`);
  if (t.error) lines.push(`Error: ${t.error}`);
  if (t.todos.length) lines.push(`Plan: ${t.todos.map((x) => `[${x.status}] ${x.text}`).join('; ')}`);
  if (t.files.length) lines.push(`Files: ${t.files.map((f) => `${f.path} (${KIND[f.kind]})`).join(', ')}`);
  if (t.answer) {
    const cut = t.answer.length > maxAnswer;
    lines.push(
      `Answer${cut ? ` (first ${maxAnswer} of ${t.answer.length} characters)` : ''}:`,
      cut ? t.answer.slice(0, maxAnswer) : t.answer,
    );
  }
  return lines.join('\n');
}
