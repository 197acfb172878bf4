import type { RawData } from 'ws';
import type { AgentEvent } from '../client/types';
import { isFiniteNumber, isNonNegativeInteger, isRecord, isString, object } from '../shared/schema';

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

/** `payload.status` of a snapshot frame: its phase is all Den reads from it. */
const isSnapshotStatus = object({ phase: isString });
// A plain function rather than `refine(isString, …)`: it runs once or twice per frame.
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * Reads one text frame: the `ack`, the older variant's `state.snapshot`, or an event. Anything
 * else is `malformed` with a reason; this never throws. Only the fields of `AgentEvent` are kept.
 * A tolerant reader on the schema primitives, not one schema: it coerces `event_id`, fills a
 * missing timestamp, drops ill-typed optional fields and names what a refused frame lacks.
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
    return isString(raw.resume_from) ? { type: 'ack', resumeFrom: raw.resume_from } : { type: 'ack' };
  }
  if (raw.kind === 'state.snapshot' || raw.type === 'state.snapshot') {
    const payload = raw.payload;
    if (!isRecord(payload)) return { type: 'malformed', reason: 'snapshot without payload object' };
    const frame: StreamFrame = { type: 'snapshot', payload };
    const id = toEventId(payload.last_event_id);
    if (id !== undefined) frame.lastEventId = id;
    if (isNonEmptyString(payload.last_stream_entry_id))
      frame.lastStreamEntryId = payload.last_stream_entry_id;
    if (isSnapshotStatus(payload.status)) frame.phase = payload.status.phase;
    return frame;
  }
  const eventId = toEventId(raw.event_id);
  if (eventId === undefined) return { type: 'malformed', reason: 'no integer event_id' };
  if (!isNonEmptyString(raw.kind)) return { type: 'malformed', reason: 'no kind' };
  if (!isRecord(raw.payload)) return { type: 'malformed', reason: 'no payload object' };
  // The common frame is exactly an event, well typed: it is the event (no copy per frame).
  if (eventId === raw.event_id && isFiniteNumber(raw.timestamp) && onlyEventFields(raw))
    return { type: 'event', event: raw as unknown as AgentEvent };
  const event: AgentEvent = {
    event_id: eventId,
    kind: raw.kind,
    payload: raw.payload,
    timestamp: isFiniteNumber(raw.timestamp) ? raw.timestamp : Date.now(),
  };
  if (isNonEmptyString(raw.stream_entry_id)) event.stream_entry_id = raw.stream_entry_id;
  if (isString(raw.block_id)) event.block_id = raw.block_id;
  if (isString(raw.message_id)) event.message_id = raw.message_id;
  return { type: 'event', event };
}

/**
 * Whether a frame holds no field but `AgentEvent`'s, each optional one well typed when present. One
 * pass over the keys with a switch (the keys are interned strings: each case is a pointer compare),
 * not a Set lookup per key: this runs once per frame.
 */
function onlyEventFields(raw: Record<string, unknown>): boolean {
  for (const key in raw) {
    switch (key) {
      case 'event_id':
      case 'kind':
      case 'payload':
      case 'timestamp':
        break;
      case 'stream_entry_id':
        if (!isNonEmptyString(raw.stream_entry_id)) return false;
        break;
      case 'block_id':
      case 'message_id':
        if (!isString(raw[key])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** A non-negative integer, also when sent as a string of digits (tolerant reader). */
function toEventId(x: unknown): number | undefined {
  if (isNonNegativeInteger(x)) return x;
  if (isString(x) && /^\d{1,15}$/.test(x)) return Number(x);
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
  // Without an argument (utf8 is the default): `toString('utf8')` looks the encoding up per frame.
  if (Buffer.isBuffer(data)) return data.toString();
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
