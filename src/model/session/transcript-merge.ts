/**
 * Brings a transcript the view already shows (from the cache, or followed live) up to date with a
 * fresh one from `GET /sessions/{id}`, and says what changed as ChangeSets, so the view gets deltas
 * instead of a repaint. Turn objects of `current` are updated in place. No `vscode` import.
 */
import { emptyChangeSet, noteCreated, noteUpdated } from '../../core/transcript/change-set';
import {
  isTerminalStatus,
  type Block,
  type ChangeSet,
  type Transcript,
  type Turn,
} from '../../core/transcript/model';
import { turnHeader } from './turn-view';

export interface MergeResult {
  transcript: Transcript;
  /** What changed compared with `current`; undefined when the view must be repainted (`init`). */
  changes?: ChangeSet[];
}

/**
 * The fresh transcript, except that a turn followed live further than the fresh copy keeps its live
 * state, and turns started here that the fresh copy does not list yet (and that have not ended) stay
 * at the end.
 */
export function mergeFresh(current: Transcript, fresh: Transcript): MergeResult {
  const byId = new Map<string, Turn>();
  for (const t of current.turns) if (t.agentMessageId) byId.set(t.agentMessageId, t);
  const seen = new Set<string>();
  const turns = fresh.turns.map((f) => {
    const c = f.agentMessageId ? byId.get(f.agentMessageId) : undefined;
    if (f.agentMessageId) seen.add(f.agentMessageId);
    if (!c) return f;
    return c.lastEventId > f.lastEventId ? c : keepRequest(f, c);
  });
  for (const c of current.turns) {
    if (c.agentMessageId && !seen.has(c.agentMessageId) && !isTerminalStatus(c.status)) turns.push(c);
  }
  const changes = diffTurns(current.turns, turns);
  // A turn keeps its object (its new content moved in), so whoever holds it sees it change.
  const kept = turns.map((t) => {
    const c = t.agentMessageId ? byId.get(t.agentMessageId) : undefined;
    if (!c || c === t) return t;
    for (const k of Object.keys(c)) delete (c as unknown as Record<string, unknown>)[k];
    Object.assign(c, t);
    return c;
  });
  const transcript: Transcript = { sessionId: current.sessionId, turns: kept };
  const title = fresh.title ?? current.title;
  if (title !== undefined) transcript.title = title;
  return { transcript, changes };
}

/**
 * The stored turn, with what the shown one knew of its request that the service does not store
 * (the fast/think choice, a mode): the turn's badges read the same live and after it ended.
 */
function keepRequest(fresh: Turn, shown: Turn): Turn {
  const mine = shown.userMessage;
  const theirs = fresh.userMessage;
  if (
    (mine.effort === undefined || theirs.effort !== undefined) &&
    (mine.mode === undefined || theirs.mode !== undefined)
  )
    return fresh;
  const userMessage = { ...theirs };
  if (theirs.effort === undefined && mine.effort !== undefined) userMessage.effort = mine.effort;
  if (theirs.mode === undefined && mine.mode !== undefined) userMessage.mode = mine.mode;
  return { ...fresh, userMessage };
}

function diffTurns(before: Turn[], after: Turn[]): ChangeSet[] | undefined {
  if (after.length < before.length) return undefined;
  const out: ChangeSet[] = [];
  for (let i = 0; i < after.length; i++) {
    const a = before[i];
    const b = after[i];
    if (!a) {
      const cs = emptyChangeSet(b.agentMessageId);
      cs.turnCreated = true;
      out.push(cs);
      continue;
    }
    if (a.agentMessageId !== b.agentMessageId) return undefined;
    if (a === b) continue;
    const cs = diffTurn(a, b);
    if (!cs) return undefined;
    out.push(cs);
  }
  return out;
}

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);

/**
 * Replaces what the events of a turn make (status, blocks, plan, files, errors, result, cursors)
 * with that of `stored`, the same agent message folded from `GET /sessions/{id}`, in place: whoever
 * holds `shown` sees the stored content. The request stays as shown (the service stores less of it,
 * e.g. no fast/think choice) unless nothing of it is known. Returns what changed, as deltas can
 * show it, or undefined when only a repaint can (a plan taken away).
 */
export function reconcileTurn(shown: Turn, stored: Turn): ChangeSet | undefined {
  const mine = shown.userMessage;
  const next: Turn = {
    ...stored,
    agentMessageId: shown.agentMessageId,
    userMessage: mine.text || mine.id ? mine : stored.userMessage,
  };
  const cs = diffTurn(shown, next);
  for (const k of Object.keys(shown)) delete (shown as unknown as Record<string, unknown>)[k];
  Object.assign(shown, next);
  return cs;
}

/**
 * What turns `a` into `b` as deltas. Blocks are matched by id: only those whose content differs are
 * sent (text that only grew as an append), new ones are created, and when blocks were removed or
 * moved the order is sent whole, so rows that did not change are never rebuilt.
 */
function diffTurn(a: Turn, b: Turn): ChangeSet | undefined {
  const cs = emptyChangeSet(b.agentMessageId);
  if (a.status !== b.status) cs.statusChanged = true;
  if (!same(turnHeader(a), turnHeader(b))) cs.turnInfoChanged = true;
  const before = new Map(a.blocks.map((x) => [x.id, x]));
  for (const y of b.blocks) {
    const x = before.get(y.id);
    if (!x) noteCreated(cs, y.id);
    else if (!same(x, y)) noteUpdated(cs, y.id, grownBy(x, y));
  }
  // Without an order delta the view keeps its blocks in their order, new ones at the end.
  const implied = [...a.blocks.map((x) => x.id), ...cs.blocksCreated];
  if (
    !same(
      implied,
      b.blocks.map((y) => y.id),
    )
  )
    cs.orderChanged = true;
  // A plan cannot be taken away by a delta.
  if (a.plan && !b.plan) return undefined;
  if (!same(a.plan, b.plan)) cs.planChanged = true;
  if (!same(a.files, b.files)) cs.filesChanged = true;
  return cs;
}

/** The text appended to a text block, when that is all that changed. */
function grownBy(x: Block, y: Block): { text: string } | undefined {
  if (x.type !== y.type || !('text' in x) || !('text' in y) || x.type === 'message') return undefined;
  if (y.text.length <= x.text.length || !y.text.startsWith(x.text)) return undefined;
  return same({ ...x, text: '' }, { ...y, text: '' }) ? { text: y.text.slice(x.text.length) } : undefined;
}
