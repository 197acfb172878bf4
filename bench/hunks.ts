import { agentHunks, applyHunks, hunkCounts } from '../src/core/merge/hunks';
import { merge3 } from '../src/core/merge/merge';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface HunksResult {
  files: number;
  hunks: number;
  /** The whole turn's hunks and states (`agentHunks` of every file), median ms. */
  reviewMs: number;
  /** Baseline, same run: Apply's three-way merge of every file (what the file states already do). */
  mergeAllMs: number;
  /** One hunk accepted (the new text) and the file's hunks and counts again, median ms over `actions`. */
  actionMs: number;
  actionP99Ms: number;
  actions: number;
  /** Baseline, same run: one file's three-way merge, median ms. */
  mergeOneMs: number;
  /** The same action in one file of `bigHunks` hunks, median ms; its baseline merge. */
  bigHunks: number;
  bigActionMs: number;
  bigMergeMs: number;
}

/** A file of `blocks` blocks of `size` lines; the agent changes one line a block (`every`-th ones). */
function fileOf(tag: string, blocks: number, size: number): { base: string; agent: string } {
  const base: string[] = [];
  const agent: string[] = [];
  for (let b = 0; b < blocks; b++) {
    for (let k = 0; k < size; k++) {
      const line = `  const ${tag}_${b}_${k} = compute(${b}, ${k}); // a line of block ${b}`;
      base.push(line);
      agent.push(k === 1 ? `${line} // changed by the agent` : line);
    }
  }
  return { base: base.join('\n') + '\n', agent: agent.join('\n') + '\n' };
}

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/**
 * A turn of `files` files with `perFile` separated hunks each (1,000 hunks for 200 × 5): computing
 * every file's hunks for the review, and per-hunk actions (accept one hunk: the merged text, then
 * the file's hunks and counts again, as the lenses and the message need), each against the
 * three-way merge Apply and the file states already run on the same files, in the same run.
 */
export function benchHunks(files = 200, perFile = 5, rounds = 7): HunksResult {
  const turn = Array.from({ length: files }, (_, f) => fileOf(`f${f}`, perFile, 60));
  const review: number[] = [];
  const mergeAll: number[] = [];
  let total = 0;
  for (let r = 0; r <= rounds; r++) {
    let n = 0;
    const t = time(() => {
      for (const f of turn) {
        const h = agentHunks({ base: f.base, workspace: f.base, agent: f.agent });
        if (h.ok) n += h.hunks.length;
      }
    });
    const m = time(() => {
      for (const f of turn) merge3({ base: f.base, ours: f.base, theirs: f.agent });
    });
    if (r === 0) continue; // warm-up
    total = n;
    review.push(t);
    mergeAll.push(m);
  }
  const action: number[] = [];
  const mergeOne: number[] = [];
  for (const [i, f] of turn.entries()) {
    let workspace = f.base;
    for (let k = 0; k < perFile; k++) {
      const hunk = (i + k) % perFile;
      action.push(
        time(() => {
          const r = applyHunks({ base: f.base, workspace, agent: f.agent }, { accept: [hunk] });
          if (!r.ok) throw new Error('no text');
          workspace = r.text;
          const after = agentHunks({ base: f.base, workspace, agent: f.agent });
          if (!after.ok || hunkCounts(after.hunks).applied !== k + 1) throw new Error('not applied');
        }),
      );
      mergeOne.push(time(() => merge3({ base: f.base, ours: workspace, theirs: f.agent })));
    }
  }
  const bigHunks = 1_000;
  const big = fileOf('big', bigHunks, 6);
  const bigAction: number[] = [];
  const bigMerge: number[] = [];
  let bigWorkspace = big.base;
  for (let k = 0; k < 21; k++) {
    bigAction.push(
      time(() => {
        const r = applyHunks(
          { base: big.base, workspace: bigWorkspace, agent: big.agent },
          { accept: [k * 37] },
        );
        if (!r.ok) throw new Error('no text');
        bigWorkspace = r.text;
        agentHunks({ base: big.base, workspace: bigWorkspace, agent: big.agent });
      }),
    );
    bigMerge.push(time(() => merge3({ base: big.base, ours: bigWorkspace, theirs: big.agent })));
  }
  const sorted = [...action].sort((a, b) => a - b);
  return {
    files,
    hunks: total,
    reviewMs: median(review),
    mergeAllMs: median(mergeAll),
    actionMs: median(action),
    actionP99Ms: sorted[Math.floor(sorted.length * 0.99)],
    actions: action.length,
    mergeOneMs: median(mergeOne),
    bigHunks,
    bigActionMs: median(bigAction.slice(1)),
    bigMergeMs: median(bigMerge.slice(1)),
  };
}
