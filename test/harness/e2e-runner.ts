/**
 * Runs the UI end-to-end tests (dist/test/e2e/**\/*.test.js) with mocha in plain Node, against the
 * packaged extension in code-server + Chromium (see workbench.ts). Prints `N passed, N failed`;
 * exit status 0 only when tests ran and all passed.
 *   DEN_E2E_GREP        only run tests whose title matches
 *   DEN_E2E_QUEUE       a folder shared by runners side by side (scripts/run-e2e.sh, scripts/test-all.sh):
 *                       each runner takes the next file nobody took yet, longest first (`takeNext`),
 *                       and runs it, until none is left; so runners that start at different times
 *                       still end together. Without it, the runner runs every file.
 *   DEN_E2E_NAME        the runner's name in its totals (e.g. `e2e 1/2`; default `e2e`)
 *   DEN_E2E_TIMEOUT_MS  overall timeout (default 1200000: a guard against a hung run, each test has its
 *                       own 60 s; 40 tests in 13 workbenches took 640 s to over 900 s on a 2-core machine)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mocha from 'mocha';
import { addCleanup } from './cleanup';
import { repoRoot } from './paths';
import { settleSuite } from './suite-result';

/**
 * About how long each file takes (seconds, workbench start-ups included, measured on a 2-core
 * machine with two runners side by side), so that the long ones are taken first and the runners end
 * close together; a file not listed counts 30.
 */
const USUAL_SECONDS: Record<string, number> = {
  'panel-flow.test.js': 155,
  'web-tasks.test.js': 117,
  'round-trip.test.js': 90,
  'send-file-apply.test.js': 88,
  'sessions-flow.test.js': 84,
  'files-that-run-code.test.js': 64,
  'two-windows.test.js': 57,
  'walkthrough.test.js': 54,
  'demo.test.js': 50,
  'review-loop.test.js': 48,
  'panel-narrow.test.js': 35,
  'panel-snapshot.test.js': 25,
  'panel-browse.test.js': 55,
  'session-search.test.js': 25,
  'attempts.test.js': 25,
  'chat.test.js': 20,
  'api-probe.test.js': 20,
  'smoke.test.js': 15,
};

/** The files, longest first (ties by name, so every runner sees the same order). */
function longestFirst(files: string[]): string[] {
  const weight = (f: string): number => USUAL_SECONDS[path.basename(f)] ?? 30;
  return [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
}

/**
 * Takes the next file of `order` that no runner sharing `queue` took yet: a file is taken by creating
 * its marker in the queue folder (exclusive create, so two runners never take the same one).
 */
function takeNext(queue: string, order: string[]): string | undefined {
  for (const file of order) {
    try {
      fs.closeSync(fs.openSync(path.join(queue, path.basename(file)), 'wx'));
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return undefined;
}

const SUITE = process.env.DEN_E2E_NAME || 'e2e';

function testFiles(dir: string, depth = 0): string[] {
  if (depth > 8 || !fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? testFiles(path.join(dir, e.name), depth + 1)
        : e.name.endsWith('.test.js')
          ? [path.join(dir, e.name)]
          : [],
    )
    .sort();
}

/**
 * Runs `files` in one mocha run (its reporter appends its totals to DEN_RESULT_FILE); resolves with a
 * harness error, if any: the run did not end by `deadline`.
 */
async function runFiles(root: string, files: string[], deadline: number): Promise<string | undefined> {
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    reporter: path.join(root, 'test', 'count-reporter.js'),
    forbidOnly: true,
    forbidPending: true,
    ...(process.env.DEN_E2E_GREP ? { grep: process.env.DEN_E2E_GREP } : {}),
  });
  for (const f of files) mocha.addFile(f);
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    new Promise<'done'>((resolve) => mocha.run(() => resolve('done'))),
    new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), deadline - Date.now())),
    ),
  ]);
  clearTimeout(timer);
  if (done === 'timeout') return `the run did not finish by its deadline (in ${files.join(', ')})`;
  mocha.dispose();
  return undefined;
}

async function main(): Promise<number> {
  const started = Date.now();
  const root = repoRoot();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'den-e2e-'));
  addCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const reporterFile = path.join(tmp, 'results.jsonl');
  const outer = process.env.DEN_RESULT_FILE;
  // the count reporter writes here; settleSuite then reports to the caller's file
  process.env.DEN_RESULT_FILE = reporterFile;
  process.env.DEN_SUITE = SUITE;
  let harnessError: string | undefined;
  const timeoutMs = Number(process.env.DEN_E2E_TIMEOUT_MS) || 1_200_000;
  const deadline = Date.now() + timeoutMs;
  const files = longestFirst(testFiles(path.join(root, 'dist', 'test', 'e2e')));
  const queue = process.env.DEN_E2E_QUEUE;
  try {
    if (!queue) harnessError = await runFiles(root, files, deadline);
    else
      for (let file = takeNext(queue, files); file && !harnessError; file = takeNext(queue, files))
        harnessError = await runFiles(root, [file], deadline);
  } catch (err) {
    harnessError = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  if (outer === undefined) delete process.env.DEN_RESULT_FILE;
  else process.env.DEN_RESULT_FILE = outer;
  const rc = settleSuite(SUITE, reporterFile, harnessError);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`${SUITE} wall time: ${Date.now() - started} ms (rc=${rc})`);
  return rc;
}

main().then(
  (rc) => process.exit(rc),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
