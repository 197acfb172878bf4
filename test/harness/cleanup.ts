/** Synchronous clean-ups still pending, run on process exit, SIGINT and SIGTERM (newest first). */
const pending = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const fn of [...pending].reverse()) {
    pending.delete(fn);
    try {
      fn();
    } catch {
      // best effort: the process is going away
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(sig, () => {
      runAll();
      process.exit(code);
    });
  }
}

/**
 * Registers a synchronous clean-up (kill a process tree, remove a temp folder) for the case the
 * process ends before the normal path runs it; returns the function that unregisters it.
 */
export function addCleanup(fn: () => void): () => void {
  install();
  pending.add(fn);
  return () => {
    pending.delete(fn);
  };
}
