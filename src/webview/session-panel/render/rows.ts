/**
 * The transcript as a flat list of rows, the unit of windowed rendering: per turn, its request, each
 * block (a markdown block as one row per section; two or more consecutive tool calls as one group
 * row, followed by their own rows while the group is open), its plan, its files and its status line.
 * Pure.
 */
import type { Block } from '../../../core/transcript/model';
import { blockKey, type TurnState } from '../state';
import { estimateTextHeight } from '../../shared/windowing';

export type Row =
  | { kind: 'user'; key: string; turnId: string }
  /** `inGroup`: one of a group's calls, shown while the group is open. */
  | { kind: 'block'; key: string; turnId: string; blockId: string; inGroup?: true }
  /** Consecutive tool calls (two or more) as one line; its calls follow it as rows while it is open. */
  | { kind: 'group'; key: string; turnId: string; blockIds: string[] }
  | { kind: 'md'; key: string; turnId: string; blockId: string; part: number }
  | { kind: 'plan' | 'files' | 'status'; key: string; turnId: string };

/** Sizes used to guess the height of rows never rendered. */
export interface Metrics {
  lineHeight: number;
  charsPerLine: number;
}

/** Whether a block is shown (a `message` block repeating the turn's request is not). */
export function isShown(t: TurnState, b: Block): boolean {
  return !(b.type === 'message' && b.text.trim() === t.header.userMessage.text.trim());
}

/** The `ctx.expanded` key of a tool run's open card. */
export function toolOpenKey(turnId: string, blockId: string): string {
  return `tool\u0000${blockKey(turnId, blockId)}`;
}

/** The `ctx.expanded` key of an open group of tool calls (by its row key). */
export function groupOpenKey(groupRowKey: string): string {
  return `group\u0000${groupRowKey}`;
}

/** Whether a group (by its row key) is open. */
export type GroupOpen = (groupRowKey: string) => boolean;

/** The shown blocks of a turn in runs: consecutive tool calls together, every other block alone. */
function runsOf(t: TurnState): Block[][] {
  const runs: Block[][] = [];
  let tools: Block[] = [];
  const flush = (): void => {
    if (tools.length) runs.push(tools);
    tools = [];
  };
  for (const b of t.blocks) {
    if (!isShown(t, b)) continue;
    if (b.type === 'tool') tools.push(b);
    else {
      flush();
      runs.push([b]);
    }
  }
  flush();
  return runs;
}

/**
 * The rows of one turn; `sections` tells how many sections a markdown block has, `open` whether a
 * group of tool calls is open (default: closed).
 */
export function rowsOfTurn(
  t: TurnState,
  sections: (key: string) => number,
  open: GroupOpen = () => false,
): Row[] {
  const turnId = t.header.id;
  const rows: Row[] = [{ kind: 'user', key: `u\u0000${turnId}`, turnId }];
  for (const run of runsOf(t)) {
    if (run.length > 1) {
      const key = `g\u0000${blockKey(turnId, run[0].id)}`;
      rows.push({ kind: 'group', key, turnId, blockIds: run.map((b) => b.id) });
      if (open(key)) {
        for (const b of run)
          rows.push({
            kind: 'block',
            key: `b\u0000${blockKey(turnId, b.id)}`,
            turnId,
            blockId: b.id,
            inGroup: true,
          });
      }
      continue;
    }
    const b = run[0];
    const key = blockKey(turnId, b.id);
    if (b.type === 'markdown') {
      const n = Math.max(1, sections(key));
      for (let part = 0; part < n; part++) {
        rows.push({ kind: 'md', key: `m\u0000${key}\u0000${part}`, turnId, blockId: b.id, part });
      }
    } else rows.push({ kind: 'block', key: `b\u0000${key}`, turnId, blockId: b.id });
  }
  if (t.plan && t.plan.todos.length > 0) rows.push({ kind: 'plan', key: `p\u0000${turnId}`, turnId });
  if (t.files.length > 0) rows.push({ kind: 'files', key: `f\u0000${turnId}`, turnId });
  rows.push({ kind: 'status', key: `s\u0000${turnId}`, turnId });
  return rows;
}

/** All rows of a transcript, in order. */
export function buildRows(
  turns: readonly TurnState[],
  sections: (key: string) => number,
  open?: GroupOpen,
): Row[] {
  const out: Row[] = [];
  for (const t of turns) for (const r of rowsOfTurn(t, sections, open)) out.push(r);
  return out;
}

function lines(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** A guess of a row's height in px, before it is rendered and measured. */
export function estimateRowHeight(
  row: Row,
  turn: TurnState | undefined,
  block: Block | undefined,
  sectionLength: number,
  m: Metrics,
  open = false,
): number {
  const lh = m.lineHeight;
  const text = (s: string): number => estimateTextHeight(s.length, lines(s), m.charsPerLine, lh);
  switch (row.kind) {
    case 'user':
      return 3 * lh + (turn ? text(turn.header.userMessage.text.slice(0, 2000)) : lh);
    case 'md':
      return Math.ceil(estimateTextHeight(sectionLength, sectionLength / 60, m.charsPerLine, lh) * 1.15) + lh;
    case 'plan':
      return (2 + (turn?.plan?.todos.length ?? 0)) * lh * 1.3;
    case 'files':
      return (2 + (turn?.files.length ?? 0)) * lh * 1.4;
    case 'status':
      return 2 * lh;
    case 'group':
      // Its line, and the running call's line under it while one runs.
      return 1.8 * lh;
    case 'block':
      break;
  }
  if (!block) return 2 * lh;
  switch (block.type) {
    case 'thought':
    case 'generic':
      return 1.8 * lh;
    case 'text':
    case 'message':
      return text(block.text.slice(0, 20_000)) + lh;
    case 'tool': {
      if (!open) return 1.6 * lh;
      const params = Math.min(8, Object.keys(block.parameters).length) * 1.5 * lh;
      const segs = block.log.segments;
      const tail = segs.length > 0 ? segs[segs.length - 1].data.slice(-4000) : '';
      const log = block.log.chars > 0 ? Math.min(20, lines(tail)) * lh + lh : 0;
      return 2.5 * lh + params + log + (block.output !== undefined ? 3 * lh : 0);
    }
    default:
      return 3 * lh;
  }
}
