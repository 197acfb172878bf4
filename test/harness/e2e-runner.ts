/**
 * Runs the UI end-to-end tests (dist/test/e2e/**\/*.test.js) with mocha in plain Node, against the
 * packaged extension in code-server + Chromium (see workbench.ts). Prints `N passed, N failed`;
 * exit status 0 only when tests ran and all passed.
 *   DEN_E2E_GREP        only run tests whose title matches
 *   DEN_E2E_SHARD       `i/n`: only the i-th of n shares of the test files (scripts/run-e2e.sh runs the
 *                       shares side by side; `shardOf` balances them by each file's usual duration)
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
 * machine), to split the files into shares of about equal length; a file not listed counts 30.
 */
const USUAL_SECONDS: Record<string, number> = {
  'demo.test.js': 75,
  'web-tasks.test.js': 75,
  'panel-flow.test.js': 70,
  'send-file-apply.test.js': 55,
  'round-trip.test.js': 50,
  'review-loop.test.js': 60,
  'sessions-flow.test.js': 50,
  'walkthrough.test.js': 50,
  'two-windows.test.js': 45,
  'files-that-run-code.test.js': 45,
  'panel-snapshot.test.js': 25,
  'chat.test.js': 20,
  'api-probe.test.js': 20,
  'attempts.test.js': 30,
  'smoke.test.js': 15,
};

/** The files of share `index` (0-based) of `count`: longest first, each to the shortest share so far. */
function shardOf(files: string[], index: number, count: number): string[] {
  const shares = Array.from({ length: count }, () => ({ seconds: 0, files: [] as string[] }));
  const weight = (f: string): number => USUAL_SECONDS[path.basename(f)] ?? 30;
  const order = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  for (const f of order) {
    const share = shares.reduce((min, s) => (s.seconds < min.seconds ? s : min));
    share.seconds += weight(f);
    share.files.push(f);
  }
  return shares[index].files.sort();
}

function shard(): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(process.env.DEN_E2E_SHARD ?? '');
  const index = m ? Number(m[1]) - 1 : 0;
  const count = m ? Number(m[2]) : 1;
  if (count < 1 || index < 0 || index >= count) throw new Error(`DEN_E2E_SHARD=${process.env.DEN_E2E_SHARD}`);
  return { index, count };
}

const { index: SHARD, count: SHARDS } = shard();
const SUITE = SHARDS > 1 ? `e2e ${SHARD + 1}/${SHARDS}` : 'e2e';

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
  try {
    const mocha = new Mocha({
      ui: 'bdd',
      timeout: 60_000,
      reporter: path.join(root, 'test', 'count-reporter.js'),
      forbidOnly: true,
      forbidPending: true,
      failZero: true,
      ...(process.env.DEN_E2E_GREP ? { grep: process.env.DEN_E2E_GREP } : {}),
    });
    for (const f of shardOf(testFiles(path.join(root, 'dist', 'test', 'e2e')), SHARD, SHARDS))
      mocha.addFile(f);
    const timeoutMs = Number(process.env.DEN_E2E_TIMEOUT_MS) || 1_200_000;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      new Promise<'done'>((resolve) => mocha.run(() => resolve('done'))),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (done === 'timeout') harnessError = `the run did not finish within ${timeoutMs} ms`;
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
