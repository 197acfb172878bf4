/**
 * Agent events for tests and benchmarks, shaped as one agent message's stream carries them: ids,
 * stream entry ids and timestamps that increase by one per event.
 */
import type { AgentEvent } from '../../src/core/client/types';

/** Makes the next event of the stream: its kind, payload (`{}` if left out) and block. */
export type EventMaker = (kind: string, payload?: unknown, blockId?: string) => AgentEvent;

export interface EventFactoryOptions {
  /** The first event's `event_id`. Default 1. */
  start?: number;
  /** Sets `message_id` on every event, as the session socket sends them. Default: left out. */
  messageId?: string;
}

/** Builds events with increasing ids, like one agent message's stream. */
export function eventFactory(options: EventFactoryOptions = {}): EventMaker {
  let id = options.start ?? 1;
  return (kind, payload = {}, blockId) => {
    const n = id++;
    const ev = {
      event_id: n,
      stream_entry_id: `1700000000000-${n}`,
      kind,
      payload,
      timestamp: 1_700_000_000_000 + n,
    } as AgentEvent;
    if (options.messageId !== undefined) ev.message_id = options.messageId;
    if (blockId !== undefined) ev.block_id = blockId;
    return ev;
  };
}
