/**
 * The transcript reducer: a deterministic fold of agent events into the view model, updated in place.
 * Each call returns a `ChangeSet` saying exactly what changed, so a host can post deltas.
 */
import type { AgentEvent, Effort, FileInfo, Mode } from '../client/types';
import { emptyChangeSet } from './change-set';
import { applyKind, type EventContext } from './event-kinds';
import {
  DEFAULT_MAX_LOG_CHARS,
  type ChangeSet,
  type ReducerOptions,
  type Transcript,
  type Turn,
  type TurnStatus,
} from './model';
import { isRecord } from '../shared/schema';
import { num, rec, str } from './read';

export function createTranscript(sessionId: string, title?: string): Transcript {
  const t: Transcript = { sessionId, turns: [] };
  if (title !== undefined) t.title = title;
  return t;
}

/** The turn of an agent message (searched from the newest, where live events land). */
export function findTurn(t: Transcript, agentMessageId: string): Turn | undefined {
  for (let i = t.turns.length - 1; i >= 0; i--) {
    if (t.turns[i].agentMessageId === agentMessageId) return t.turns[i];
  }
  return undefined;
}

/** A turn with an empty request, `running`, no events yet. */
export function newTurn(agentMessageId: string, createdAt: number): Turn {
  return {
    userMessage: { id: '', text: '', files: [], createdAt },
    agentMessageId,
    status: 'running',
    blocks: [],
    files: [],
    lastEventId: 0,
  };
}

/** What is known when a turn starts (the request and `POST /sessions/new`'s answer). */
export interface TurnStart {
  userMessageId?: string;
  agentMessageId: string;
  text: string;
  mode?: Mode;
  effort?: Effort;
  files?: FileInfo[];
  /** `running` or `queued` as the service answered (anything else reads as `running`). */
  status?: TurnStatus | string;
  queuePosition?: number;
  /** Unix ms; defaults to now. */
  createdAt?: number;
}

/**
 * Adds a turn for a request (or fills in the request of a turn already learnt from its events).
 * The status given applies only while the turn has seen no events.
 */
export function beginTurn(t: Transcript, start: TurnStart): ChangeSet {
  const cs = emptyChangeSet(start.agentMessageId);
  let turn = findTurn(t, start.agentMessageId);
  if (turn) cs.turnInfoChanged = true;
  else {
    turn = newTurn(start.agentMessageId, start.createdAt ?? Date.now());
    t.turns.push(turn);
    cs.turnCreated = true;
  }
  const user = turn.userMessage;
  if (start.userMessageId !== undefined) user.id = start.userMessageId;
  user.text = start.text;
  if (start.mode !== undefined) user.mode = start.mode;
  if (start.effort !== undefined) user.effort = start.effort;
  if (start.files !== undefined) user.files = start.files.map((f) => ({ ...f }));
  if (start.createdAt !== undefined) user.createdAt = start.createdAt;
  if (turn.lastEventId === 0 && turn.blocks.length === 0) {
    const status: TurnStatus = start.status === 'queued' ? 'queued' : 'running';
    if (status !== turn.status) {
      turn.status = status;
      if (!cs.turnCreated) cs.statusChanged = true;
    }
    if (status === 'queued' && start.queuePosition !== undefined) turn.queuePosition = start.queuePosition;
    else delete turn.queuePosition;
  }
  return cs;
}

/**
 * Applies one event of agent message `messageId`. Never throws, whatever the event holds: ill-typed
 * fields read as absent, unknown kinds become generic blocks, an unknown message gets a new turn.
 * Events whose `event_id` is at or below the turn's `lastEventId` are duplicates and are ignored;
 * events without a usable `event_id` are applied without advancing it. `messageId` decides the turn
 * (an event's own `message_id` is not consulted). Of several terminal events, the last one wins.
 */
export function applyEvent(
  t: Transcript,
  messageId: string,
  ev: AgentEvent,
  options?: ReducerOptions,
): ChangeSet {
  const cs = emptyChangeSet(messageId);
  const raw: unknown = ev;
  if (!isRecord(raw)) {
    cs.ignored = true;
    return cs;
  }
  const eventId = num(raw.event_id);
  let turn = findTurn(t, messageId);
  if (eventId !== undefined && eventId <= (turn?.lastEventId ?? 0)) {
    cs.ignored = true;
    return cs;
  }
  if (!turn) {
    turn = newTurn(messageId, num(raw.timestamp) ?? 0);
    t.turns.push(turn);
    cs.turnCreated = true;
  }
  if (eventId !== undefined) turn.lastEventId = eventId;
  const entry = str(raw.stream_entry_id);
  if (entry !== undefined) turn.lastStreamEntryId = entry;

  const max = options?.maxLogChars;
  // Every field set, in one order, even when undefined: one shape for every event.
  const context: EventContext = {
    transcript: t,
    turn,
    cs,
    kind: str(raw.kind) ?? '',
    raw: raw.payload,
    payload: rec(raw.payload),
    eventId,
    blockId: str(raw.block_id),
    timestamp: num(raw.timestamp),
    maxLogChars: max !== undefined && Number.isFinite(max) && max >= 0 ? max : DEFAULT_MAX_LOG_CHARS,
  };
  applyKind(context);
  return cs;
}
