import type { RawData } from 'ws';
import type { AgentEvent } from '../api/types';

/** One server frame of the session socket, classified. */
export type StreamFrame =
  | { type: 'ack'; resumeFrom?: string }
  | {
      type: 'snapshot';
      payload: Record<string, unknown>;
      lastEventId?: number;
      lastStreamEntryId?: string;
      /** `payload.status.phase`, e.g. `running` or `completed`. */
      phase?: string;
    }
  | { type: 'event'; event: AgentEvent }
  | { type: 'malformed'; reason: string };

/**
 * Reads one text frame: the `ack`, the older variant's `state.snapshot`, or an event. Anything
 * else is `malformed` with a reason; this never throws. Only the fields of `AgentEvent` are kept.
 */
export function parseFrame(text: string): StreamFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { type: 'malformed', reason: 'not JSON' };
  }
  if (!isRecord(raw)) return { type: 'malformed', reason: 'not a JSON object' };
  if (raw.type === 'ack') {
    return typeof raw.resume_from === 'string'
      ? { type: 'ack', resumeFrom: raw.resume_from }
      : { type: 'ack' };
  }
  if (raw.kind === 'state.snapshot' || raw.type === 'state.snapshot') {
    if (!isRecord(raw.payload)) return { type: 'malformed', reason: 'snapshot without payload object' };
    const frame: StreamFrame = { type: 'snapshot', payload: raw.payload };
    const id = toEventId(raw.payload.last_event_id);
    if (id !== undefined) frame.lastEventId = id;
    const sid = raw.payload.last_stream_entry_id;
    if (typeof sid === 'string' && sid) frame.lastStreamEntryId = sid;
    const status = raw.payload.status;
    if (isRecord(status) && typeof status.phase === 'string') frame.phase = status.phase;
    return frame;
  }
  const eventId = toEventId(raw.event_id);
  if (eventId === undefined) return { type: 'malformed', reason: 'no integer event_id' };
  if (typeof raw.kind !== 'string' || !raw.kind) return { type: 'malformed', reason: 'no kind' };
  if (!isRecord(raw.payload)) return { type: 'malformed', reason: 'no payload object' };
  const event: AgentEvent = {
    event_id: eventId,
    kind: raw.kind,
    payload: raw.payload,
    timestamp:
      typeof raw.timestamp === 'number' && Number.isFinite(raw.timestamp) ? raw.timestamp : Date.now(),
  };
  if (typeof raw.stream_entry_id === 'string' && raw.stream_entry_id)
    event.stream_entry_id = raw.stream_entry_id;
  if (typeof raw.block_id === 'string') event.block_id = raw.block_id;
  if (typeof raw.message_id === 'string') event.message_id = raw.message_id;
  return { type: 'event', event };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A non-negative integer, also when sent as a string of digits (tolerant reader). */
function toEventId(x: unknown): number | undefined {
  if (typeof x === 'number') return Number.isSafeInteger(x) && x >= 0 ? x : undefined;
  if (typeof x === 'string' && /^\d{1,15}$/.test(x)) return Number(x);
  return undefined;
}

/** How a turn ended, by its terminal event kind; undefined for every other kind. */
export function terminalKind(kind: string): 'completed' | 'aborted' | 'error' | undefined {
  if (kind === 'task.completed') return 'completed';
  if (kind === 'task.aborted') return 'aborted';
  if (kind === 'task.error') return 'error';
  return undefined;
}

/** The same, from the older variant's `status.phase`. */
export function terminalPhase(phase: string | undefined): 'completed' | 'aborted' | 'error' | undefined {
  if (phase === 'completed' || phase === 'aborted') return phase;
  if (phase === 'error' || phase === 'failed') return 'error';
  return undefined;
}

/** The text of a frame as `ws` hands it over (one buffer, fragments, or an ArrayBuffer). */
export function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
