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

/**
 * Entry point the extension host calls (`extensionTestsPath`): runs every `*.test.js` bundled next to
 * this file with mocha and the repo's count reporter; rejects when a test fails or none ran.
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
  });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  const unmark = markReporterOutput();
  return new Promise<void>((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
    } catch (err) {
      // e.g. a test file that throws while loading: say so in the runner's output, not only in the log
      console.log(OUTPUT_MARK + 'mocha could not run: ' + format(err));
      reject(err);
    }
  }).finally(unmark);
}
