import fs from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/**
 * Prefix of every line mocha's reporter prints. The workbench forwards the extension host's console
 * mixed with its own log lines (`window.codeAutomationLog`); the runner prints only the marked ones.
 * VS Code locks `console.log` in the extension host (non-configurable), so only the reporter is marked;
 * the tests' own console output shows with DEN_EXT_VERBOSE=1.
 */
const OUTPUT_MARK = '[den-ext] ';

/** Marks the reporter's output until the returned undo runs. */
function markReporterOutput(): () => void {
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const saved = base.consoleLog;
  base.consoleLog = (...args) => saved(OUTPUT_MARK + format(...args));
  return () => {
    base.consoleLog = saved;
  };
}

/** Runs before every other file: it checks what happens while Den is still inactive. */
const FIRST_FILE = 'activation.test.js';

/** A seeded random number generator (mulberry32), so that an order that fails can be run again. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Shuffles the tests of a suite and of every suite inside it, and the order of those suites. */
function shuffleSuite(suite: Mocha.Suite, random: () => number): void {
  suite.tests = shuffled(suite.tests, random);
  suite.suites = shuffled(suite.suites, random);
  for (const s of suite.suites) shuffleSuite(s, random);
}

/**
 * Entry point the extension host calls (`extensionTestsPath`): runs every `*.test.js` bundled next to
 * this file with mocha and the repo's count reporter; rejects when a test fails or none ran.
 * `DEN_EXT_GREP` runs only the tests whose full title matches it (mocha's `--grep`).
 * `DEN_EXT_SHUFFLE=<seed>` runs the files after the first, and the tests inside each, in an order
 * drawn from that seed: no test may depend on another having run before it.
 */
export function run(): Promise<void> {
  // dist/test/ext/index.js → the repo root is three levels up
  const root = path.resolve(__dirname, '..', '..', '..');
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    color: false,
    reporter: path.join(root, 'test', 'count-reporter.js'),
    forbidOnly: true,
    forbidPending: true,
    failZero: true,
    ...(process.env.DEN_EXT_GREP ? { grep: process.env.DEN_EXT_GREP } : {}),
  });
  // Activation happens once per extension host: the file that watches it goes first, whatever the names.
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .sort((a, b) => Number(b === FIRST_FILE) - Number(a === FIRST_FILE));
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  const unmark = markReporterOutput();
  return new Promise<void>((resolve, reject) => {
    try {
      const seed = process.env.DEN_EXT_SHUFFLE;
      if (seed) {
        // (public in mocha 12, missing from its typings)
        const loader = mocha as unknown as { loadFiles(): void; lazyLoadFiles(enable: boolean): void };
        loader.loadFiles();
        loader.lazyLoadFiles(true); // loaded already: `run` must not load them again
        const random = seededRandom(Number(seed) || 1);
        const [first, ...rest] = mocha.suite.suites;
        mocha.suite.suites = [first, ...shuffled(rest, random)];
        for (const s of rest) shuffleSuite(s, random);
        console.log(`${OUTPUT_MARK}test order shuffled with seed ${seed}`);
      }
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
    } catch (err) {
      // e.g. a test file that throws while loading: say so in the runner's output, not only in the log
      console.log(OUTPUT_MARK + 'mocha could not run: ' + format(err));
      reject(err);
    }
  }).finally(unmark);
}
