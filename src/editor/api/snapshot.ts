/** Den's transcript model as the public API's plain snapshots (`types.ts`). */
import { l10n } from '../../core/shared/l10n';
import { isTerminalStatus, type Transcript, type Turn } from '../../core/transcript/model';
import type { DenSessionSnapshot, DenTurnSnapshot } from './types';

export function turnSnapshot(sessionId: string, turn: Turn): DenTurnSnapshot {
  const answer: string[] = [];
  const tools: { name: string; status: 'running' | 'success' | 'error' }[] = [];
  for (const b of turn.blocks) {
    if (b.type === 'markdown' || b.type === 'text') answer.push(b.text);
    else if (b.type === 'tool') tools.push({ name: b.name, status: b.status });
  }
  const files: DenTurnSnapshot['files'][number][] = turn.files.map((f) => ({ path: f.path, kind: f.change }));
  const seen = new Set(files.map((f) => f.path));
  for (const f of turn.outputFiles ?? []) if (!seen.has(f.name)) files.push({ path: f.name, kind: 'output' });
  const error =
    turn.error?.message ?? (turn.status === 'aborted' ? (turn.abortReason ?? l10n.t('Stopped.')) : undefined);
  return {
    sessionId,
    agentMessageId: turn.agentMessageId,
    task: turn.userMessage.text,
    ...(turn.userMessage.mode ? { mode: turn.userMessage.mode } : {}),
    status: turn.status,
    ...(turn.needsInput !== undefined ? { needsInput: turn.needsInput } : {}),
    ...(turn.asks !== undefined ? { asks: turn.asks } : {}),
    answer: answer.join('\n\n'),
    tools,
    files,
    todos: (turn.plan?.todos ?? []).map((t) => ({ text: t.content, status: t.status })),
    ...(error !== undefined ? { error } : {}),
  };
}

export function sessionSnapshot(t: Transcript, fallbackTitle: string): DenSessionSnapshot {
  return {
    sessionId: t.sessionId,
    title: t.title || fallbackTitle,
    turns: t.turns.filter((turn) => turn.agentMessageId).map((turn) => turnSnapshot(t.sessionId, turn)),
  };
}

export function isEnded(turn: DenTurnSnapshot): boolean {
  return isTerminalStatus(turn.status);
}
