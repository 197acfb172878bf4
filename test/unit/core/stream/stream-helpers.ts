import { randomUUID } from 'node:crypto';
import type { DenError } from '../../../../src/core/client/errors';
import type { AgentEvent } from '../../../../src/core/client/types';
import type { Logger } from '../../../../src/core/shared/log';
import { SessionStream } from '../../../../src/core/stream/session-stream';
import type {
  SessionStreamOptions,
  StreamDone,
  StreamGap,
  StreamState,
  StreamStateInfo,
} from '../../../../src/core/stream/stream-types';

/** The part of a running emulator these tests use. */
export interface EmulatorLike {
  readonly url: string;
  readonly keys: { primary: string; second: string; readOnly: string };
}

export interface Turn {
  sessionId: string;
  agentMessageId: string;
}

/** Starts a turn over HTTP (`POST /sessions/new`), as Den does, in a new session unless one is given. */
export async function startTurn(
  emu: EmulatorLike,
  task: string,
  sessionId: string = randomUUID(),
): Promise<Turn> {
  const res = await fetch(`${emu.url}/sessions/new`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.keys.primary}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session_id: sessionId, task, mode: 'auto', ace_version: 'fast', files: [] }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200)
    throw new Error(`POST /sessions/new answered ${res.status}: ${JSON.stringify(body)}`);
  const id = body.agent_message_id ?? body.assistant_message_id;
  if (typeof id !== 'string') throw new Error(`no agent message id in ${JSON.stringify(body)}`);
  return { sessionId, agentMessageId: id };
}

/** What a listener saw. */
export interface Recording {
  events: AgentEvent[];
  states: { state: StreamState; info: StreamStateInfo }[];
  snapshots: Record<string, unknown>[];
  protocolErrors: { err: DenError; raw: string }[];
  gaps: StreamGap[];
}

const open = new Set<SessionStream>();

/** Closes every stream made by `recordedStream` (for `afterEach`, so a failed test leaves nothing running). */
export function closeRecordedStreams(): void {
  for (const s of open) s.close();
  open.clear();
}

/** `stream.done`, or an error with the stream's progress if it takes longer than `ms`. */
export async function doneWithin(stream: SessionStream, ms: number): Promise<StreamDone> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const progress = `lastEventId ${stream.lastEventId}, cursor ${stream.cursor}, ${JSON.stringify(stream.stats)}`;
      reject(new Error(`the stream did not finish within ${ms} ms: ${progress}`));
      stream.close();
    }, ms);
  });
  try {
    return await Promise.race([stream.done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A stream whose listener records everything; starts it unless `start: false`. */
export function recordedStream(
  options: SessionStreamOptions,
  start = true,
): { stream: SessionStream; rec: Recording } {
  const rec: Recording = { events: [], states: [], snapshots: [], protocolErrors: [], gaps: [] };
  const stream = new SessionStream(options, {
    onEvent: (ev) => rec.events.push(ev),
    onSnapshot: (s) => rec.snapshots.push(s),
    onState: (state, info) => rec.states.push({ state, info }),
    onProtocolError: (err, raw) => rec.protocolErrors.push({ err, raw }),
    onGap: (g) => rec.gaps.push(g),
  });
  open.add(stream);
  void stream.done.then(() => open.delete(stream));
  if (start) stream.start();
  return { stream, rec };
}

/** Stream options for one turn of the emulator with the primary key and quick retries. */
export function turnOptions(
  emu: EmulatorLike,
  turn: Turn,
  over: Partial<SessionStreamOptions> = {},
): SessionStreamOptions {
  return {
    baseUrl: emu.url,
    apiKey: () => emu.keys.primary,
    sessionId: turn.sessionId,
    messageId: turn.agentMessageId,
    backoff: { initialMs: 5, maxMs: 40, factor: 2, jitter: 0.5 },
    ...over,
  };
}

/** The fields that must match the server's stored events exactly. */
export function essence(
  events: AgentEvent[],
): { event_id: number; kind: string; payload: Record<string, unknown> }[] {
  return events.map((e) => ({ event_id: e.event_id, kind: e.kind, payload: e.payload }));
}

/** Asserts ids are 1..n without holes or repeats; returns a message or undefined. */
export function sequenceProblem(events: AgentEvent[], first = 1): string | undefined {
  for (let i = 0; i < events.length; i++) {
    if (events[i].event_id !== first + i)
      return `position ${i}: expected ${first + i}, got ${events[i].event_id}`;
  }
  return undefined;
}

export function count(rec: Recording, state: StreamState): number {
  return rec.states.filter((s) => s.state === state).length;
}

/** A logger that keeps every line. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}
