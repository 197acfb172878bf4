/**
 * Hunk by hunk: the agent's changes to a file as hunks (base → agent), each with its state in the
 * workspace file (still to apply, already there, or in conflict with the workspace's own edits),
 * and the workspace text after accepting or rejecting a chosen subset, through the same three-way
 * merge as Apply (`merge.ts`). Pure; no vscode, no Node.
 *
 * - The hunks are the agent's: a line diff of what the agent saw (the base) against its version,
 *   so they stay the same while the workspace changes (accepting one does not renumber the rest).
 *   Without a base they are the diff of the workspace against the agent (what the review diff
 *   shows), all still to apply: Den cannot tell the agent's edits from the workspace's then.
 *   A file the agent created (no base, no workspace file) is one hunk: all its lines.
 * - A hunk is `applied` when the workspace has the agent's very lines there, `pending` when the
 *   workspace still has the base's lines there and around them, else `conflict` (both changed the
 *   same or adjacent lines, as `merge3` decides).
 * - Accepting merges a version of the agent's file that has only the chosen hunks (and the
 *   workspace's lines everywhere else stay); an accepted conflict is written with conflict markers,
 *   as Apply does. Rejecting an applied hunk puts the base's lines back (a revert through the same
 *   merge); rejecting one still to apply writes nothing.
 * - Line endings, the byte order mark and the trailing newline follow `merge3`'s rules; accepting
 *   every hunk is exactly Apply's merge (the agent's trailing-newline change included).
 */
import { diffLines, type Hunk } from './line-diff';
import { asLines, merge3, sameLines, sideRange, type Conflict, type Content, type LineRange } from './merge';
import { contents, joinLines, type Line } from './text';

export type HunkState = 'pending' | 'applied' | 'conflict';

/** One of the agent's changes to a file. */
export interface AgentHunk {
  /** Its place among the file's hunks, from 0. */
  index: number;
  /** The base's lines it replaces (the workspace's, without a base). */
  base: LineRange;
  /** The agent's lines that replace them (in the agent's file: the review diff's right side). */
  agent: LineRange;
  /** Where it stands in the workspace file now: its lines there (empty for a pure insertion). */
  workspace: LineRange;
  state: HunkState;
}

export interface HunkInput {
  /** What the agent saw; undefined: not known. */
  base?: Content;
  /** The workspace file now (an editor's text when it has unsaved changes); undefined: none. */
  workspace?: Content;
  /** The agent's version; undefined: the agent deleted the file. */
  agent?: Content;
}

export type HunksResult =
  | {
      ok: true;
      hunks: AgentHunk[];
      /** Whether a base was known (else the hunks are the workspace → agent diff). */
      hasBase: boolean;
    }
  | {
      ok: false;
      /** `deleted`: the agent deleted the file (one decision, Apply's); `binary`: no lines. */
      reason: 'deleted' | 'binary';
    };

/** The agent's hunks of a file and each one's state in the workspace (see the rules above). */
export function agentHunks(input: HunkInput): HunksResult {
  const v = versions(input);
  if (!v.ok) return v;
  const { base, ours, theirs } = v;
  const mine = diffLines(contents(base), contents(theirs));
  const yours = diffLines(contents(base), contents(ours));
  return { ok: true, hunks: classify(mine, yours, ours, theirs), hasBase: input.base !== undefined };
}

/** How many of a file's hunks are applied, and how many it has. */
export function hunkCounts(hunks: readonly AgentHunk[]): { applied: number; total: number } {
  return { applied: hunks.filter((h) => h.state === 'applied').length, total: hunks.length };
}

export interface HunkChoice {
  /** Hunks (by index) to write into the workspace: pending ones merge, conflicts get markers. */
  accept?: readonly number[];
  /** Hunks to keep out: applied ones get the base's lines back; the others need no write. */
  reject?: readonly number[];
}

export type HunkApply =
  | { ok: true; text: string; conflicts: Conflict[]; changed: boolean }
  | { ok: false; reason: 'deleted' | 'binary' };

/**
 * The workspace text after accepting and rejecting the chosen hunks; `changed` is false when
 * nothing needs writing (only pending hunks rejected, or accepted hunks already there). Indices
 * not among the file's hunks are ignored.
 */
export function applyHunks(input: HunkInput, choice: HunkChoice): HunkApply {
  const v = versions(input);
  if (!v.ok) return v;
  const found = agentHunks(input);
  if (!found.ok) return found;
  const hunks = found.hunks;
  const accept = new Set((choice.accept ?? []).filter((k) => hunks[k] && hunks[k].state !== 'applied'));
  const revert = new Set((choice.reject ?? []).filter((k) => hunks[k]?.state === 'applied'));
  const workspaceText = joinLines(v.ours, v.oursBom);
  if (accept.size === 0 && revert.size === 0) {
    return { ok: true, text: workspaceText, conflicts: [], changed: false };
  }
  const everyPending = hunks.every((h) => h.state === 'applied' || accept.has(h.index));
  // Every hunk accepted and none reverted: Apply's own merge, with the whole agent file. A revert
  // is the agent's hunk taken out again: the base has it, the other side has the base's lines.
  const theirs =
    everyPending && revert.size === 0 ? v.theirs : withHunks(v.base, v.theirs, hunks, [...accept]);
  const base = revert.size === 0 ? v.base : withHunks(v.base, v.theirs, hunks, [...revert]);
  const merged = merge3({
    base: joinLines(base),
    ours: workspaceText,
    theirs: joinLines(theirs),
  });
  if (merged.binary) return { ok: false, reason: 'binary' };
  const conflicts = merged.clean ? [] : merged.conflicts;
  return { ok: true, text: merged.text, conflicts, changed: merged.text !== workspaceText };
}

type Versions =
  | { ok: true; base: Line[]; ours: Line[]; oursBom: boolean; theirs: Line[] }
  | { ok: false; reason: 'deleted' | 'binary' };

function versions(input: HunkInput): Versions {
  if (input.agent === undefined) return { ok: false, reason: 'deleted' };
  const theirs = asLines(input.agent);
  const ours = asLines(input.workspace ?? '');
  // Without a base, the workspace file stands for it (the diff the review shows).
  const base = input.base === undefined ? ours : asLines(input.base);
  if (!theirs || !ours || !base) return { ok: false, reason: 'binary' };
  return { ok: true, base: base.lines, ours: ours.lines, oursBom: ours.bom, theirs: theirs.lines };
}

/**
 * Each agent hunk's state, grouping hunks of both sides into regions as `merge3` does: a region
 * takes in every hunk of either side that starts inside it or touches its end.
 */
function classify(mine: Hunk[], yours: Hunk[], ours: Line[], theirs: Line[]): AgentHunk[] {
  const out: AgentHunk[] = [];
  let i = 0;
  let j = 0;
  /** The offset of the workspace's line numbers from the base's after the last region. */
  let d = 0;
  while (j < mine.length) {
    const i0 = i;
    const j0 = j;
    const first = i < yours.length && yours[i].aStart <= mine[j].aStart ? yours[i++] : mine[j++];
    const start = first.aStart;
    let end = first.aEnd;
    for (;;) {
      if (i < yours.length && yours[i].aStart <= end) end = Math.max(end, yours[i++].aEnd);
      else if (j < mine.length && mine[j].aStart <= end) end = Math.max(end, mine[j++].aEnd);
      else break;
    }
    const o = sideRange(yours, i0, i, start, end, d);
    d = o.end - end;
    if (j === j0) continue;
    const t = sideRange(mine, j0, j, start, end, 0);
    const state: HunkState = i === i0 ? 'pending' : sameLines(ours, o, theirs, t) ? 'applied' : 'conflict';
    for (let k = j0; k < j; k++) {
      const h = mine[k];
      const workspace =
        state === 'pending' ? { start: h.aStart + o.start - start, end: h.aEnd + o.start - start } : o;
      out.push({
        index: k,
        base: { start: h.aStart, end: h.aEnd },
        agent: { start: h.bStart, end: h.bEnd },
        workspace,
        state,
      });
    }
  }
  return out;
}

/**
 * The base with the chosen hunks of the agent in place. Every line but the last keeps (or gets) an
 * ending, so joining never glues two lines; the last line's ending is the agent's when the last
 * hunk chosen reaches the end of the file, else the base's.
 */
function withHunks(base: Line[], theirs: Line[], hunks: readonly AgentHunk[], chosen: number[]): Line[] {
  const set = new Set(chosen);
  const out: Line[] = [];
  let pos = 0;
  for (const h of hunks) {
    if (!set.has(h.index)) continue;
    for (let k = pos; k < h.base.start; k++) out.push(base[k]);
    for (let k = h.agent.start; k < h.agent.end; k++) out.push(theirs[k]);
    pos = h.base.end;
  }
  for (let k = pos; k < base.length; k++) out.push(base[k]);
  const eol = firstEol(base) ?? firstEol(theirs) ?? '\n';
  for (let k = 0; k < out.length - 1; k++) if (out[k].eol === '') out[k] = { text: out[k].text, eol };
  return out;
}

function firstEol(lines: Line[]): '\n' | '\r\n' | undefined {
  for (const l of lines) if (l.eol !== '') return l.eol;
  return undefined;
}
