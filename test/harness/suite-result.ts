import fs from 'node:fs';

/** One suite's totals, as test/count-reporter.js appends them. */
export interface SuiteCounts {
  suite: string;
  passed: number;
  failed: number;
  pending: number;
  /** Full titles of the failed tests and hooks (absent in lines written before they were kept). */
  failures?: string[];
}

/**
 * Turns what a suite's reporter wrote (one line per mocha run, summed) into the final verdict: prints `N passed, N failed`, appends the
 * line to `$DEN_RESULT_FILE` and returns the exit code. A broken harness (`harnessError`, or no totals
 * at all) counts as one failed test, so it can never read as green.
 */
export function settleSuite(suite: string, reporterFile: string, harnessError?: string): number {
  let counts: SuiteCounts | undefined;
  try {
    // One line per mocha run (a runner that takes files from a queue runs mocha once per file).
    const lines = fs.readFileSync(reporterFile, 'utf8').trim().split('\n').filter(Boolean);
    for (const line of lines) {
      const c = JSON.parse(line) as SuiteCounts;
      counts = {
        suite,
        passed: (counts?.passed ?? 0) + c.passed,
        failed: (counts?.failed ?? 0) + c.failed,
        pending: (counts?.pending ?? 0) + c.pending,
        failures: [...(counts?.failures ?? []), ...(c.failures ?? [])],
      };
    }
  } catch {
    // no totals: handled below
  }
  const result: SuiteCounts = counts
    ? {
        suite,
        passed: counts.passed,
        failed: counts.failed,
        pending: counts.pending,
        failures: counts.failures ?? [],
      }
    : { suite, passed: 0, failed: 0, pending: 0, failures: [] };
  const problem = harnessError ?? (counts ? undefined : 'the test run reported no totals');
  if (problem) {
    console.error(`${suite}: harness failure: ${problem}`);
    result.failed += 1;
    result.failures?.push(`harness: ${problem}`);
  }
  if (result.passed + result.failed === 0) {
    console.error(`${suite}: no test ran`);
    result.failed = 1;
  }
  if (process.env.DEN_RESULT_FILE)
    fs.appendFileSync(process.env.DEN_RESULT_FILE, JSON.stringify(result) + '\n');
  console.log(`${result.passed} passed, ${result.failed} failed`);
  return result.failed > 0 ? 1 : 0;
}
