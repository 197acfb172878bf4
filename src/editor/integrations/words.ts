/** What the chat participant and the tools say about a turn. */
import * as vscode from 'vscode';
import type { DenTurnSnapshot } from '../api/types';

/** The turn's end, in words; empty for a turn that completed with an answer. */
export function turnOutcome(t: DenTurnSnapshot): string {
  if (t.needsInput !== undefined) {
    const how =
      t.asks === 'reply'
        ? vscode.l10n.t("Answer here (`@den …`) or in the session's panel to go on.")
        : vscode.l10n.t(
            "Answer here: `@den approve`, `@den reject` (and why), or say what to change; or in the session's panel.",
          );
    return `${vscode.l10n.t('**The agent needs your input:** {0}', t.needsInput)}\n\n${how}`;
  }
  switch (t.status) {
    case 'completed':
      return t.answer.trim() ? '' : vscode.l10n.t('_The turn completed without an answer._');
    case 'aborted':
      return t.error && t.error !== 'Stopped.'
        ? vscode.l10n.t('_The turn was stopped: {0}_', t.error)
        : vscode.l10n.t('_The turn was stopped._');
    case 'error':
      return vscode.l10n.t(
        '**The turn failed:** {0} Open the session to see what it did, then try again.',
        t.error ?? vscode.l10n.t('the service gave no reason.'),
      );
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

/** The word shown for a kind of file change. */
function kindWord(kind: DenTurnSnapshot['files'][number]['kind']): string {
  switch (kind) {
    case 'added':
      return vscode.l10n.t('added');
    case 'updated':
      return vscode.l10n.t('changed');
    case 'deleted':
      return vscode.l10n.t('deleted');
    case 'output':
      return vscode.l10n.t('output');
  }
}

/** "Files: `a.ts` (added), …" (at most 20 named). */
export function filesLine(t: DenTurnSnapshot): string {
  if (!t.files.length) return '';
  const named = t.files
    .slice(0, 20)
    .map((f) => `\`${f.path.replace(/`/g, "'")}\` (${kindWord(f.kind)})`)
    .join(', ');
  return t.files.length > 20
    ? vscode.l10n.t(
        '**Files:** {0}, and {1} more.',
        named,
        (t.files.length - 20).toLocaleString(vscode.env.language),
      )
    : vscode.l10n.t('**Files:** {0}.', named);
}

/** Open Session always; Review Changes when the turn has files. */
export function turnButtons(t: DenTurnSnapshot): vscode.Command[] {
  const out: vscode.Command[] = [
    { command: 'den.openSession', title: vscode.l10n.t('Open Session'), arguments: [t.sessionId] },
  ];
  if (t.files.length)
    out.push({
      command: 'den.reviewTurn',
      title: vscode.l10n.t('Review Changes'),
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
