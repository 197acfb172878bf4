import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

function pgrep(args: string[]): number[] {
  let out: string;
  try {
    out = execFileSync('pgrep', args, { encoding: 'utf8' });
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  return out
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** All descendants of `pid` (children found with `pgrep -P`, recursively), bounded in depth. */
export function descendants(pid: number, depth = 0): number[] {
  if (depth > 16) return [];
  return pgrep(['-P', String(pid)]).flatMap((k) => [k, ...descendants(k, depth + 1)]);
}

/** True while the process exists and is not a zombie (a reparented zombie may never be reaped here). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Adds to `known` the live members of the tree: descendants of every known live process and the
 * members of the process group `pid` leads (which still finds children spawned while the root was
 * being stopped, after they were reparented). Returns the live ones.
 */
function refresh(pid: number, known: Set<number>): number[] {
  for (const p of [...known].filter(isAlive)) for (const d of descendants(p)) known.add(d);
  for (const g of pgrep(['-g', String(pid)])) known.add(g);
  return [...known].filter(isAlive);
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      // already gone
    }
  }
}

/**
 * Stops a process and everything below it: SIGTERM to the whole tree, then SIGKILL to whatever is
 * still alive after `graceMs`. Children are listed before signalling and again while waiting, because
 * once their parent dies they are reparented and invisible to `pgrep -P`.
 */
export async function killTree(pid: number, graceMs = 3000): Promise<void> {
  const known = new Set([pid]);
  signal(refresh(pid, known), 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    const alive = refresh(pid, known);
    if (!alive.length) return;
    signal(alive, 'SIGTERM'); // late arrivals
    await new Promise((r) => setTimeout(r, 100));
  }
  for (let round = 0; round < 3; round++) {
    const alive = refresh(pid, known);
    if (!alive.length) return;
    signal(alive, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Synchronous variant for exit and signal handlers: SIGTERM, up to `graceMs` of waiting, then SIGKILL. */
export function killTreeSync(pid: number, graceMs = 1000): void {
  const sleep = (ms: number): void => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  };
  const known = new Set([pid]);
  signal(refresh(pid, known), 'SIGTERM');
  for (let waited = 0; waited < graceMs; waited += 50) {
    const alive = refresh(pid, known);
    if (!alive.length) return;
    signal(alive, 'SIGTERM');
    sleep(50);
  }
  for (let round = 0; round < 3; round++) {
    const alive = refresh(pid, known);
    if (!alive.length) return;
    signal(alive, 'SIGKILL');
    sleep(50);
  }
}
