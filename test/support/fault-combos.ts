/**
 * Every combination of the service's stream faults (cuts, duplicates, reordering, frames without
 * `stream_entry_id`) crossed with one more switch a suite picks (e.g. whether the service sends a
 * `state.snapshot`): 32 combinations, each with the emulator's fault plan and a name for the test.
 */
import type { FaultPlan } from '../emulator';

/** The faults of one combination. `entryIds` false: frames come without `stream_entry_id`. */
export interface FaultSwitches {
  cuts: boolean;
  duplicates: boolean;
  reordering: boolean;
  entryIds: boolean;
}

/** One combination: the faults, and the suite's own switch under `key`. */
export type Combo<K extends string, V> = FaultSwitches & Record<K, V>;

/** All 32 combinations; `values` are the suite's switch off (first) and on. */
export function combos<K extends string, V>(key: K, values: readonly [V, V]): Combo<K, V>[] {
  const out: Combo<K, V>[] = [];
  for (let n = 0; n < 32; n++) {
    const switches: FaultSwitches = {
      cuts: (n & 2) !== 0,
      duplicates: (n & 4) !== 0,
      reordering: (n & 8) !== 0,
      entryIds: (n & 16) === 0,
    };
    out.push({ [key]: values[n & 1], ...switches } as Combo<K, V>);
  }
  return out;
}

/** The test name: `first` (the suite's switch, if it says anything) and the faults that are on. */
export function comboName(c: FaultSwitches, first?: string): string {
  const parts = first ? [first] : [];
  if (c.cuts) parts.push('cuts');
  if (c.duplicates) parts.push('duplicates');
  if (c.reordering) parts.push('reordering');
  if (!c.entryIds) parts.push('no stream_entry_ids');
  return parts.length ? parts.join(' + ') : 'no faults';
}

/** The emulator's fault plan for a combination; a cut comes after `dropAfterFrames` frames. */
export function comboFaults(c: FaultSwitches, seed: number, dropAfterFrames: number): FaultPlan {
  return {
    seed,
    ...(c.cuts ? { dropAfterFrames, dropAfterSnapshot: 0.3 } : {}),
    ...(c.duplicates ? { duplicateRate: 0.3 } : {}),
    ...(c.reordering ? { reorderRate: 0.3 } : {}),
  };
}
