/**
 * The `@den` chat participant: `/code`, `/plan`, `/deepsearch`, `/slides` (and plain `@den …` for
 * `auto`) start a turn: a new session, or the one this conversation already has. Progress, tool
 * activity and the answer stream into the chat; the result offers Open Session and Review Changes.
 */
import * as vscode from 'vscode';
import type { DenExtensionApi, DenMode, DenTurnAnswer, DenTurnRef, DenTurnSnapshot } from '../api/types';
import { followUntilEnd } from './follow';
import { CHAT_PARTICIPANT_ID } from './names';
import { filesLine, turnButtons, turnOutcome } from './words';

/** What a `@den` answer keeps for follow-ups (`ChatResult.metadata`). */
export interface DenChatMetadata {
  sessionId: string;
  agentMessageId: string;
  status: DenTurnSnapshot['status'];
  /** The turn waits for the person: the next `@den` message answers it (see `chatAnswer`). */
  asks?: 'approval' | 'reply';
}

const MODES: Record<string, DenMode> = {
  code: 'code',
  plan: 'plan',
  deepsearch: 'deepsearch',
  slides: 'slides',
};

/** The conversation's last `@den` answer's metadata (its session, its turn), if any. */
function lastMetadata(history: vscode.ChatContext['history']): Partial<DenChatMetadata> | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== CHAT_PARTICIPANT_ID) continue;
    const m = turn.result.metadata as Partial<DenChatMetadata> | undefined;
    if (typeof m?.sessionId === 'string' && m.sessionId) return m;
  }
  return undefined;
}

/** The session the conversation's last `@den` answer was in, if any. */
export function conversationSession(history: vscode.ChatContext['history']): string | undefined {
  return lastMetadata(history)?.sessionId;
}

/**
 * A message to a turn that waits for the person, as its answer: to a plan, `approve` (or
 * `approved`) approves, `reject …` rejects (the rest is why), anything else asks for that revision;
 * to a question, the message is the reply.
 */
export function chatAnswer(asks: 'approval' | 'reply', prompt: string): DenTurnAnswer {
  const text = prompt.trim();
  if (asks === 'reply') return { kind: 'reply', text };
  if (/^approved?[.!]?$/i.test(text)) return { kind: 'approve' };
  const reject = /^reject(?:ed)?\b[\s:,.-]*(.*)$/is.exec(text);
  if (reject) return reject[1] ? { kind: 'reject', text: reject[1] } : { kind: 'reject' };
  return { kind: 'revise', text };
}

/** `#file` and selection references as attachments (other kinds are left to the prompt text). */
export function referenceFiles(
  refs: readonly vscode.ChatPromptReference[],
): (vscode.Uri | vscode.Location)[] {
  const out: (vscode.Uri | vscode.Location)[] = [];
  for (const r of refs)
    if (r.value instanceof vscode.Uri || r.value instanceof vscode.Location) out.push(r.value);
  return out;
}

/** One `@den` request as the participant answered it: what tests and the log see. */
export interface ChatExchange {
  prompt: string;
  command?: string;
  /** Each stream call, in order: `markdown: …`, `progress: …`, `button: <title> <command>`, … */
  parts: string[];
  result: vscode.ChatResult;
}

/** A stream that forwards every call and notes it in `parts` (the stream is frozen: no Proxy). */
function noting(stream: vscode.ChatResponseStream, parts: string[]): vscode.ChatResponseStream {
  const note = (kind: string, text: string): void => void parts.push(`${kind}: ${text}`);
  return {
    markdown: (v) => (note('markdown', typeof v === 'string' ? v : v.value), stream.markdown(v)),
    progress: (v) => (note('progress', v), stream.progress(v)),
    button: (c) => (note('button', `${c.title} ${c.command}`), stream.button(c)),
    anchor: (v, title) => (note('anchor', title ?? ''), stream.anchor(v, title)),
    reference: (v, icon) => (note('reference', v.toString()), stream.reference(v, icon)),
    filetree: (v, base) => (note('filetree', base.toString()), stream.filetree(v, base)),
    push: (part) => (note('push', part.constructor.name), stream.push(part)),
  };
}

export async function handleChat(
  api: DenExtensionApi,
  request: vscode.ChatRequest,
  chat: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  answered?: (exchange: ChatExchange) => void,
): Promise<vscode.ChatResult> {
  const parts: string[] = [];
  const result = await answer(api, request, chat, noting(stream, parts), token);
  answered?.({
    prompt: request.prompt,
    ...(request.command ? { command: request.command } : {}),
    parts,
    result,
  });
  return result;
}

async function answer(
  api: DenExtensionApi,
  request: vscode.ChatRequest,
  chat: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const task = request.prompt.trim();
  if (!task) {
    stream.markdown(vscode.l10n.t('Tell Den what to do, e.g. `@den /code add tests for the parser`.'));
    return {};
  }
  const last = lastMetadata(chat.history);
  if (last?.asks && last.sessionId && last.agentMessageId && !request.command) {
    const answered = await answerWaiting(
      api,
      { sessionId: last.sessionId, agentMessageId: last.agentMessageId },
      chatAnswer(last.asks, task),
      stream,
      token,
    );
    if (answered) return answered;
  }
  const sessionId = last?.sessionId;
  const files = referenceFiles(request.references);
  stream.progress(
    sessionId ? vscode.l10n.t('Continuing the Den session…') : vscode.l10n.t('Starting a Den session…'),
  );
  let ref: DenTurnRef;
  try {
    ref = await api.startTurn({
      task,
      mode: (request.command && MODES[request.command]) || 'auto',
      ...(sessionId ? { sessionId } : {}),
      ...(files.length ? { files } : {}),
    });
  } catch (err) {
    // Shown by the chat as the answer's error (what went wrong and what to do).
    return { errorDetails: { message: err instanceof Error ? err.message : String(err) } };
  }
  return followToResult(api, ref, stream, token);
}

/**
 * Answers the conversation's waiting turn and follows it on; undefined when it no longer waits
 * (the message then starts a turn as usual).
 */
async function answerWaiting(
  api: DenExtensionApi,
  ref: DenTurnRef,
  answer: DenTurnAnswer,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult | undefined> {
  try {
    if (!(await api.answerTurn(ref, answer))) return undefined;
  } catch (err) {
    return { errorDetails: { message: err instanceof Error ? err.message : String(err) } };
  }
  stream.progress(vscode.l10n.t('Answer sent; the agent goes on…'));
  return followToResult(api, ref, stream, token, true);
}

/** Follows a turn into the chat, then says how it ended and offers its next steps. */
async function followToResult(
  api: DenExtensionApi,
  ref: DenTurnRef,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  answered = false,
): Promise<vscode.ChatResult> {
  const last = await follow(api, ref, stream, token, answered);
  const outcome = turnOutcome(last);
  if (outcome) stream.markdown(`\n\n${outcome}`);
  const named = filesLine(last);
  if (named) stream.markdown(`\n\n${named}`);
  for (const b of turnButtons(last)) stream.button(b);
  const metadata: DenChatMetadata = {
    sessionId: ref.sessionId,
    agentMessageId: ref.agentMessageId,
    status: last.status,
    ...(last.needsInput !== undefined ? { asks: last.asks ?? 'reply' } : {}),
  };
  return last.status === 'error'
    ? { metadata, errorDetails: { message: last.error ?? vscode.l10n.t('The turn failed.') } }
    : { metadata };
}

/**
 * Streams a turn into the chat: each new tool as progress, the answer's appended text as markdown.
 * `answered`: the turn goes on after the person's answer; what it showed before is not repeated.
 */
function follow(
  api: DenExtensionApi,
  ref: DenTurnRef,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  answered = false,
): Promise<DenTurnSnapshot> {
  let sent = '';
  let tools = 0;
  let queued = false;
  let first = answered;
  return followUntilEnd(
    api,
    ref,
    token,
    (snap) => {
      if (first) {
        first = false;
        sent = snap.answer;
        tools = snap.tools.length;
      }
      if (snap.status === 'queued' && !queued)
        stream.progress(vscode.l10n.t('Waiting in the service’s queue…'));
      queued = snap.status === 'queued';
      for (; tools < snap.tools.length; tools++)
        stream.progress(vscode.l10n.t('Running {0}…', snap.tools[tools].name));
      if (snap.answer.startsWith(sent)) {
        if (snap.answer.length > sent.length) stream.markdown(snap.answer.slice(sent.length));
      } else {
        // Text that was replaced, not appended: show the new answer whole.
        stream.markdown(`\n\n---\n\n${snap.answer}`);
      }
      sent = snap.answer;
    },
    answered,
  );
}

/** After an answer: nothing to suggest but the session's own next steps (the buttons). */
export function chatFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const m = result.metadata as Partial<DenChatMetadata> | undefined;
  if (!m?.sessionId || m.status !== 'completed') return [];
  return [
    {
      prompt: vscode.l10n.t('Continue'),
      label: vscode.l10n.t('Continue in the same session'),
      participant: CHAT_PARTICIPANT_ID,
    },
  ];
}
