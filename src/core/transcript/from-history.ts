/**
 * Builds a transcript from stored history (`GET /sessions/{id}`), current or legacy variant, with the
 * same reducer live frames go through, so a stored turn and a followed one fold to the same model.
 */
import type { Message, SessionDetail } from '../client/types';
import { addBlock, newMarkdown } from './blocks';
import { emptyChangeSet } from './change-set';
import { applyLegacyState } from './legacy';
import { DEFAULT_MAX_LOG_CHARS, type ReducerOptions, type Transcript, type Turn } from './model';
import { applyEvent, createTranscript, findTurn, newTurn } from './reducer';

function startTurn(t: Transcript, user: Message | undefined, agentMessageId: string): Turn {
  // Built directly (not through beginTurn): repeated or empty agent ids must still get their own turn.
  const turn = newTurn(agentMessageId, user?.createdAt ?? 0);
  if (user) {
    turn.userMessage.id = user.id;
    turn.userMessage.text = typeof user.content === 'string' ? user.content : '';
    if (user.inputMode !== undefined) turn.userMessage.mode = user.inputMode;
    turn.userMessage.files = Array.isArray(user.files) ? user.files.map((f) => ({ ...f })) : [];
  }
  t.turns.push(turn);
  return turn;
}

/**
 * Folds one stored agent message into its turn (the last of `t`): its events, or the older
 * variant's blocks and status, or its text alone; its `aborted` flag.
 */
export function foldAgentMessage(t: Transcript, turn: Turn, m: Message, options?: ReducerOptions): void {
  const events = Array.isArray(m.events) ? m.events : [];
  for (const ev of events) applyEvent(t, m.id, ev, options);
  if (events.length === 0 && (Array.isArray(m.blocks) || m.status)) {
    const max = options?.maxLogChars ?? DEFAULT_MAX_LOG_CHARS;
    applyLegacyState(turn, { blocks: m.blocks, status: m.status }, max, emptyChangeSet(m.id));
  }
  if (events.length === 0 && !m.blocks?.length && m.content) {
    // An answer stored only as text: nothing will follow, so it is complete.
    const answer = newMarkdown('answer:main', m.content);
    answer.final = true;
    addBlock(turn.blocks, answer);
    if (turn.status === 'running') turn.status = 'completed';
  }
  if (m.aborted) {
    turn.status = 'aborted';
    delete turn.queuePosition;
  }
}

/**
 * Pairs each user message with the agent message after it. An agent message without a user message
 * gets an empty request; a user message without an answer becomes a `queued` turn with an empty agent
 * message id. A turn with no terminal event and no `aborted` flag stays `running`: follow it live.
 */
export function transcriptFromDetail(detail: SessionDetail, options?: ReducerOptions): Transcript {
  const t = createTranscript(detail.session.sessionId, detail.session.title);
  let pending: Message | undefined;
  const flushPending = (): void => {
    if (!pending) return;
    const turn = startTurn(t, pending, '');
    turn.status = 'queued';
    pending = undefined;
  };
  for (const m of detail.messages) {
    if (m.type === 'user') {
      flushPending();
      pending = m;
      continue;
    }
    const existing = findTurn(t, m.id);
    const turn = existing && !pending ? existing : startTurn(t, pending, m.id);
    pending = undefined;
    foldAgentMessage(t, turn, m, options);
  }
  flushPending();
  return t;
}
