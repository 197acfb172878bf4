import { randomUUID } from 'node:crypto';
import { ApiClient } from '../src/core/client/client';
import type { AgentEvent } from '../src/core/client/types';
import { SessionStream } from '../src/core/stream/session-stream';
import { startEmulator } from '../test/emulator';

/** Result of the forced-drop benchmark. */
export interface ResumeResult {
  drops: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  lost: number;
  duplicated: number;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/**
 * Follows `streams` turns at once against the emulator while it cuts every socket after
 * `dropEvery` frames (TCP destroyed, no close frame), with Den's default backoff. Measures, for
 * each drop, the time from the drop to the next delivered event, and compares every delivered
 * sequence with the server's stored events.
 */
export async function benchResume(
  streams = 10,
  eventsPerTurn = 1_000,
  dropEvery = 10,
): Promise<ResumeResult> {
  const emu = await startEmulator({ seed: false, eventDelayMs: 0, maxConcurrent: streams + 1 });
  const client = new ApiClient({ baseUrl: emu.url, apiKey: () => emu.keys.primary });
  emu.faults = { dropAfterFrames: dropEvery };
  const gaps: number[] = [];
  let lost = 0;
  let duplicated = 0;
  try {
    await Promise.all(
      Array.from({ length: streams }, async () => {
        const sessionId = randomUUID();
        const turn = await client.startTurn({
          sessionId,
          task: `stream ${eventsPerTurn} events`,
          mode: 'auto',
        });
        const got: AgentEvent[] = [];
        let droppedAt: number | undefined;
        const stream = new SessionStream(
          { baseUrl: emu.url, apiKey: () => emu.keys.primary, sessionId, messageId: turn.agentMessageId },
          {
            onEvent(ev) {
              got.push(ev);
              if (droppedAt !== undefined) {
                gaps.push(performance.now() - droppedAt);
                droppedAt = undefined;
              }
            },
            onState(state) {
              if (state === 'reconnecting' && droppedAt === undefined) droppedAt = performance.now();
            },
          },
        );
        stream.start();
        await stream.done;
        stream.close();
        await emu.turnEnded(sessionId, turn.agentMessageId);
        const stored = emu.storedEvents(sessionId, turn.agentMessageId).map((e) => e.event_id);
        const ids = got.map((e) => e.event_id);
        duplicated += ids.length - new Set(ids).size;
        const seen = new Set(ids);
        lost += stored.filter((id) => !seen.has(id)).length;
      }),
    );
  } finally {
    await emu.close();
  }
  return {
    drops: gaps.length,
    p50Ms: pct(gaps, 50),
    p99Ms: pct(gaps, 99),
    maxMs: Math.max(0, ...gaps),
    lost,
    duplicated,
  };
}
