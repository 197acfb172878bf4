/**
 * Sample data: realistic completed sessions for the primary user (one pinned, files in the
 * snapshot, coding / plan / deepsearch turns with stored events), one session for the second user,
 * and optional generated sessions for paging.
 */
import { randomUUID } from 'node:crypto';
import type { AgentEvent, FileInfo, Mode } from '../../src/core/client/types';
import type { EmulatorContext } from './context';
import { isTerminalKind, scriptFor, type ScriptStep } from './scripts';
import { PRIMARY_USER, SECOND_USER, type StoredMessage, type StoredSession } from './store';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SeedTurn {
  /** Ending in ", deleting <path>", the turn also deletes that path (written by an earlier turn). */
  task: string;
  mode: Mode;
  /** Stop after this many scripted steps and record an abort. */
  abortAfter?: number;
}

interface SeedSession {
  title: string;
  ageMs: number;
  pinned?: boolean;
  turns: SeedTurn[];
}

const PRIMARY_SEEDS: SeedSession[] = [
  {
    title: 'Refactor auth middleware',
    ageMs: 2 * HOUR,
    pinned: true,
    turns: [
      { task: 'Refactor auth middleware to use async token validation', mode: 'code' },
      { task: 'Add tests for expired tokens in the auth middleware', mode: 'code' },
    ],
  },
  {
    title: 'Plan the Postgres 16 migration',
    ageMs: 9 * HOUR,
    turns: [{ task: 'Plan the migration of the orders database to Postgres 16', mode: 'plan' }],
  },
  {
    title: 'Research vector database options',
    ageMs: 1 * DAY + 3 * HOUR,
    turns: [{ task: 'Compare vector databases for 10M embeddings', mode: 'deepsearch' }],
  },
  {
    title: 'Fix flaky upload test',
    // half a day off a day boundary: its last turn ends some minutes after it started, and at 2 days
    // exactly that end fell in Yesterday in the last minutes before midnight
    ageMs: 2 * DAY + 12 * HOUR,
    turns: [
      { task: 'Run the upload test suite and fail fast on the first error', mode: 'code' },
      { task: 'Fix the race in upload retry logic', mode: 'code' },
    ],
  },
  {
    title: 'Add dark mode to settings page',
    ageMs: 3 * DAY + 5 * HOUR,
    turns: [{ task: 'Add a dark mode toggle to the settings page', mode: 'code', abortAfter: 9 }],
  },
  {
    title: 'Write release notes for v2.3',
    ageMs: 5 * DAY,
    turns: [{ task: 'Write release notes for v2.3 from the changelog', mode: 'auto' }],
  },
  {
    title: 'Compare CSV parsing libraries',
    ageMs: 8 * DAY,
    turns: [{ task: 'Which CSV parser handles quoted newlines fastest in Node?', mode: 'deepsearch' }],
  },
  {
    title: 'Set up CI dependency caching',
    ageMs: 13 * DAY,
    turns: [{ task: 'Set up npm dependency caching in the CI workflow', mode: 'code' }],
  },
];

const TOPICS = [
  'billing export',
  'search ranking',
  'onboarding emails',
  'cache eviction',
  'log rotation',
  'API docs',
];

/** Fills the store with sample data. */
export function seedSessions(ctx: EmulatorContext, withSamples: boolean, extra: number): void {
  const now = Date.now();
  if (withSamples) {
    for (const seed of PRIMARY_SEEDS) addSeedSession(ctx, PRIMARY_USER, seed, now);
    addSeedSession(
      ctx,
      SECOND_USER,
      {
        title: "Second user's notes",
        ageMs: 4 * HOUR,
        turns: [{ task: 'Summarize the meeting notes', mode: 'auto' }],
      },
      now,
    );
  }
  for (let i = 0; i < extra; i++) {
    const at = now - 20 * DAY - i * 60_000;
    const n = String(i + 1).padStart(5, '0');
    const s = ctx.store.createSession(
      PRIMARY_USER,
      randomUUID(),
      `Generated session ${n}: ${TOPICS[i % TOPICS.length]}`,
      at,
    );
    s.updatedAt = at + 30_000;
  }
}

function addSeedSession(ctx: EmulatorContext, userId: string, seed: SeedSession, now: number): void {
  const start = now - seed.ageMs;
  const s = ctx.store.createSession(userId, randomUUID(), seed.title, start);
  s.isPinned = !!seed.pinned;
  let at = start;
  for (const turn of seed.turns) {
    at = (addSeedTurn(ctx, s, turn, at).events.at(-1)?.timestamp ?? at) + 5 * 60_000;
  }
}

/** Records one completed turn with its stored events, timed from `at`; returns its agent message. */
export function addSeedTurn(
  ctx: EmulatorContext,
  s: StoredSession,
  turn: SeedTurn,
  at: number,
): StoredMessage {
  const { agent } = ctx.store.addTurnMessages(s, turn.task, turn.mode, [], at);
  let steps: ScriptStep[] = [
    { kind: 'message.received', payload: { text: turn.task, files: [], references: [] } },
    { kind: 'task.phase', payload: { phase: 'queued', eta_seconds: 0 } },
    ...scriptFor({
      sessionId: s.sessionId,
      task: turn.task,
      mode: turn.mode,
      snapshotKey: (p) => ctx.snapshotKey(s.sessionId, p),
      now: at,
    }),
  ];
  // "…, deleting src/a.ts": the turn also deletes that file of an earlier turn (before it completes).
  const deleting = /, deleting (\S+)$/.exec(turn.task)?.[1];
  if (deleting) {
    const sandbox_id = `sbx_${s.sessionId.slice(0, 8)}`;
    steps.splice(-1, 0, {
      kind: 'sandbox.snapshot',
      payload: { sandbox_id, snapshot: {}, deleted: [deleting] },
    });
    delete s.fileSnapshot[`${s.sessionId}/${deleting}`];
  }
  if (turn.abortAfter !== undefined) {
    steps = [
      ...steps.slice(0, turn.abortAfter),
      { kind: 'task.aborted', payload: { reason: 'Aborted by the user' } },
    ];
    agent.aborted = true;
  }
  let t = at + 800;
  let seq = 0;
  for (const step of steps) {
    t += step.kind === 'markdown.chunk' ? 40 : 350;
    const event: AgentEvent = {
      event_id: agent.events.length + 1,
      stream_entry_id: `${t}-${seq++}`,
      kind: step.kind,
      ...(step.block_id ? { block_id: step.block_id } : {}),
      payload: step.payload,
      timestamp: t,
    };
    agent.events.push(event);
    for (const w of step.writes ?? [])
      ctx.store.putGeneratedFile(
        s,
        w.path,
        w.content,
        ctx.snapshotKey(s.sessionId, w.path),
        w.updatedAt ?? t,
      );
    if (step.kind === 'markdown.chunk') agent.content += String(step.payload.delta ?? '');
    if (isTerminalKind(step.kind)) {
      agent.phase =
        step.kind === 'task.completed' ? 'completed' : step.kind === 'task.aborted' ? 'aborted' : 'error';
      if (step.kind === 'task.error') agent.error = String(step.payload.message ?? 'error');
      if (Array.isArray(step.payload.files)) agent.files = step.payload.files as FileInfo[];
    }
  }
  s.updatedAt = t;
  return agent;
}
