/** What every part of a running emulator shares: resolved options and the live state. */
import type { FaultState } from './faults';
import type { Variant } from './shapes';
import type { Store } from './store';
import type { TimerSet } from './timers';
import type { TurnRunner } from './turn-runner';
import type { SocketRecord } from './types';

export interface ResolvedOptions {
  variant: Variant;
  liveStreamEntryIds: boolean;
  replayStreamEntryIds: boolean;
  stateSnapshot: boolean;
  snapshotReplay: 'before' | 'after';
  replayScope: 'session' | 'message';
  closeAfterTerminal: boolean;
  eventDelayMs: number;
  maxConcurrent: number;
  downloads: 'template' | 'absolute-url' | 'none';
  lamSessions: boolean;
  listUpdatedAt: boolean;
}

export interface EmulatorContext {
  opts: ResolvedOptions;
  store: Store;
  runner: TurnRunner;
  faults: FaultState;
  timers: TimerSet;
  /** Every socket connection accepted, oldest first. */
  sockets: SocketRecord[];
  /** `/lam/run` request bodies as received, oldest first (the last 100). */
  lamRequests: Record<string, unknown>[];
  /** Runs so far per query and app URL (`drift`). */
  lamRuns: Map<string, number>;
  /** `http://127.0.0.1:PORT`, known once the server listens. */
  url(): string;
  /** The fileSnapshot key of a generated file, per the `downloads` option. */
  snapshotKey(sessionId: string, path: string): string;
}

/** Error object body of the service. */
export function errorBody(
  error: string,
  message: string,
  details?: Record<string, unknown>,
): Record<string, unknown> {
  return details ? { error, message, details } : { error, message };
}

/** `<ms>-<seq>` to a comparable pair; undefined when malformed. */
export function parseStreamEntryId(s: string): [number, number] | undefined {
  const m = /^(\d+)-(\d+)$/.exec(s);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

export function streamEntryAfter(a: [number, number], b: [number, number]): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}
