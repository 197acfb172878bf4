/** Shared factories for the transcript tests: fixtures, folds, a seeded RNG (events: test/support/events.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../../../src/core/client/types';
import { emptyChangeSet } from '../../../../src/core/transcript/change-set';
import type { ChangeSet, ReducerOptions, Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';

// Compiled to dist/test/unit/transcript: the fixtures stay in the source tree.
const FIXTURES = join(__dirname, '../../../../../test/fixtures/events');

/** The events of a recorded log, one JSON object per line. */
export function loadFixture(name: string): AgentEvent[] {
  return readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as AgentEvent);
}

export const SESSION = 'sess-0001';
export const AGENT = 'agent-0001';

/** A transcript with one running turn, as a live session has after `POST /sessions/new`. */
export function liveTranscript(agentMessageId = AGENT): Transcript {
  const t = createTranscript(SESSION);
  beginTurn(t, {
    agentMessageId,
    userMessageId: 'user-0001',
    text: 'Add a whitespace normalizer with tests',
    mode: 'code',
    files: [],
    createdAt: 1_700_000_000_000,
    status: 'running',
  });
  return t;
}

/** Folds events into a fresh live transcript; returns it with every change set. */
export function fold(
  events: AgentEvent[],
  options?: ReducerOptions,
  agentMessageId = AGENT,
): { t: Transcript; changes: ChangeSet[] } {
  const t = liveTranscript(agentMessageId);
  const changes = events.map((ev) => applyEvent(t, agentMessageId, ev, options));
  return { t, changes };
}

/** A change set with nothing changed, to spread expectations over. */
export function noChange(turnId = AGENT): ChangeSet {
  return emptyChangeSet(turnId);
}

/** mulberry32: a small deterministic RNG for bounded fuzzing. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
