/**
 * Attempts (`docs/review-and-apply.md`, "Attempts"): one task run as 2–4 sessions started together,
 * kept as a group so they can be compared and one chosen. The groups live in a `Memento`-like
 * storage (the editor gives `workspaceState`), bounded, and are checked on read: a stored value of
 * another shape is dropped, never trusted. No `vscode` import.
 */
import { EFFORTS, MODES, type Effort, type Mode } from '../../core/client/types';
import { Emitter, type Listen } from '../../core/shared/emitter';
import {
  arrayOf,
  isFiniteNumber,
  object,
  oneOf,
  optional,
  refine,
  stringOfLength,
  type Infer,
} from '../../core/shared/schema';

/** Where the store keeps its groups: VS Code's `Memento` has this shape. */
export interface AttemptStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The fewest and the most attempts of one task. */
export const MIN_ATTEMPTS = 2;
export const MAX_ATTEMPTS = 4;

/** Where an attempt's first turn stands (`failed`: it did not start). */
export const ATTEMPT_STATES = [
  'starting',
  'queued',
  'running',
  'needsInput',
  'completed',
  'error',
  'aborted',
  'failed',
] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/** An attempt's state that will not change any more. */
export function isEndedState(s: AttemptState): boolean {
  return s === 'completed' || s === 'error' || s === 'aborted' || s === 'failed';
}

/** Stored text is bounded: a task, an answer's first lines, an error. */
export const MAX_TASK_CHARS = 4000;
export const MAX_ANSWER_CHARS = 600;
const MAX_ID_CHARS = 128;

const isId = refine(stringOfLength(MAX_ID_CHARS), (s) => s.length > 0);

const isAttempt = object({
  sessionId: isId,
  /** The first turn's agent message id, once started. */
  agentMessageId: optional(isId),
  state: oneOf(ATTEMPT_STATES),
  /** Unix ms the first turn ended (its duration runs from the group's `createdAt`). */
  endedAt: optional(isFiniteNumber),
  /** The answer's first lines (or why it failed), at most `MAX_ANSWER_CHARS`. */
  answer: optional(stringOfLength(MAX_ANSWER_CHARS)),
});
export type Attempt = Infer<typeof isAttempt>;

const isGroup = refine(
  object({
    id: isId,
    task: stringOfLength(MAX_TASK_CHARS),
    mode: oneOf(MODES),
    effort: oneOf(EFFORTS),
    createdAt: isFiniteNumber,
    attempts: arrayOf(isAttempt),
    /** The attempt chosen (Apply this attempt, or Choose): turns after the first go to it. */
    chosen: optional(isId),
  }),
  (g) =>
    g.attempts.length >= 1 &&
    g.attempts.length <= MAX_ATTEMPTS &&
    new Set(g.attempts.map((a) => a.sessionId)).size === g.attempts.length &&
    (g.chosen === undefined || g.attempts.some((a) => a.sessionId === g.chosen)),
);
export type AttemptGroup = Infer<typeof isGroup>;

/** What `AttemptStore.add` takes: a new group's task and sessions. */
export interface NewAttemptGroup {
  id: string;
  task: string;
  mode: Mode;
  effort: Effort;
  createdAt: number;
  sessionIds: readonly string[];
}

/** The storage key of the groups. */
export const ATTEMPTS_KEY = 'den.attempts.groups';

/** Groups kept; the oldest dropped first. */
const DEFAULT_MAX_GROUPS = 30;

/** Reads stored groups: each one of the right shape, newest first, at most `max`; the rest dropped. */
export function readGroups(stored: unknown, max = DEFAULT_MAX_GROUPS): AttemptGroup[] {
  if (!Array.isArray(stored)) return [];
  const seen = new Set<string>();
  const out: AttemptGroup[] = [];
  for (const g of stored) {
    if (!isGroup(g)) continue;
    // A session belongs to one group: the first (newest) read keeps it.
    if (seen.has(g.id) || g.attempts.some((a) => seen.has(a.sessionId))) continue;
    seen.add(g.id);
    for (const a of g.attempts) seen.add(a.sessionId);
    out.push(g);
  }
  return out.sort((a, b) => b.createdAt - a.createdAt).slice(0, max);
}

export class AttemptStore {
  #groups: AttemptGroup[];
  readonly #changed = new Emitter<void>();
  /** The groups changed (added, an attempt's state, chosen, removed). */
  readonly onDidChange: Listen<void> = this.#changed.event;

  readonly #storage: AttemptStorage;
  readonly #max: number;
  constructor(storage: AttemptStorage, maxGroups = DEFAULT_MAX_GROUPS) {
    this.#storage = storage;
    this.#max = Math.max(1, maxGroups);
    this.#groups = readGroups(storage.get(ATTEMPTS_KEY), this.#max);
  }

  /** The groups, newest first. */
  groups(): readonly AttemptGroup[] {
    return this.#groups;
  }

  get(groupId: string): AttemptGroup | undefined {
    return this.#groups.find((g) => g.id === groupId);
  }

  /** The group a session is an attempt of, and its place (0-based, in the order started). */
  groupOf(sessionId: string): { group: AttemptGroup; index: number } | undefined {
    for (const group of this.#groups) {
      const index = group.attempts.findIndex((a) => a.sessionId === sessionId);
      if (index >= 0) return { group, index };
    }
    return undefined;
  }

  /** Adds a group (its attempts `starting`); the oldest groups past the bound are dropped. */
  async add(g: NewAttemptGroup): Promise<AttemptGroup> {
    const ids = [...new Set(g.sessionIds)].filter((id) => isId(id));
    if (ids.length < 1 || ids.length > MAX_ATTEMPTS || !isId(g.id))
      throw new RangeError(`An attempt group holds 1 to ${MAX_ATTEMPTS} sessions.`);
    const group: AttemptGroup = {
      id: g.id,
      task: g.task.slice(0, MAX_TASK_CHARS),
      mode: g.mode,
      effort: g.effort,
      createdAt: g.createdAt,
      attempts: ids.map((sessionId) => ({ sessionId, state: 'starting' })),
    };
    const others = this.#groups.filter(
      (x) => x.id !== group.id && !x.attempts.some((a) => ids.includes(a.sessionId)),
    );
    this.#groups = [group, ...others].slice(0, this.#max);
    await this.#save();
    return group;
  }

  /**
   * Records what is known of an attempt now (its state, its turn, when it ended, the answer's first
   * lines); false when the session is no attempt or nothing changed. An ended state is not moved
   * back to a running one.
   */
  async update(sessionId: string, patch: Partial<Omit<Attempt, 'sessionId'>>): Promise<boolean> {
    const found = this.groupOf(sessionId);
    if (!found) return false;
    const old = found.group.attempts[found.index];
    if (patch.state && isEndedState(old.state) && !isEndedState(patch.state)) return false;
    const next: Attempt = { ...old, ...definedOf(patch) };
    if (next.answer !== undefined) next.answer = next.answer.slice(0, MAX_ANSWER_CHARS);
    if (JSON.stringify(next) === JSON.stringify(old) || !isAttempt(next)) return false;
    this.#replace(found.group, {
      ...found.group,
      attempts: found.group.attempts.map((a, i) => (i === found.index ? next : a)),
    });
    await this.#save();
    return true;
  }

  /** Marks the attempt chosen in its group; false when the session is no attempt. */
  async choose(sessionId: string): Promise<boolean> {
    const found = this.groupOf(sessionId);
    if (!found) return false;
    if (found.group.chosen !== sessionId) {
      this.#replace(found.group, { ...found.group, chosen: sessionId });
      await this.#save();
    }
    return true;
  }

  /** Forgets a group (its sessions stay). */
  async remove(groupId: string): Promise<void> {
    const before = this.#groups.length;
    this.#groups = this.#groups.filter((g) => g.id !== groupId);
    if (this.#groups.length !== before) await this.#save();
  }

  dispose(): void {
    this.#changed.dispose();
  }

  #replace(old: AttemptGroup, next: AttemptGroup): void {
    this.#groups = this.#groups.map((g) => (g === old ? next : g));
  }

  async #save(): Promise<void> {
    const saved = this.#storage.update(ATTEMPTS_KEY, this.#groups);
    try {
      this.#changed.fire();
    } finally {
      await saved;
    }
  }
}

function definedOf<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
