import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settleSuite } from '../../harness/suite-result';

// The verdict a VS Code tier reports to scripts/test-all.sh: its totals and the titles of what
// failed, which the whole run prints again at its end (where CI's excerpt of the log shows them).
describe('settleSuite: a tier’s totals and the titles of its failures', () => {
  let dir: string;
  let outer: string | undefined;
  let log: typeof console.log;
  let err: typeof console.error;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-suite-result-'));
    outer = process.env.DEN_RESULT_FILE;
    process.env.DEN_RESULT_FILE = path.join(dir, 'results');
    log = console.log;
    err = console.error;
    console.log = () => undefined;
    console.error = () => undefined;
  });
  afterEach(() => {
    console.log = log;
    console.error = err;
    if (outer === undefined) delete process.env.DEN_RESULT_FILE;
    else process.env.DEN_RESULT_FILE = outer;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const written = () =>
    fs
      .readFileSync(path.join(dir, 'results'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('sums every mocha run’s line and keeps each failed title in order', () => {
    const reporter = path.join(dir, 'reporter');
    fs.writeFileSync(
      reporter,
      [
        { suite: 'e2e', passed: 3, failed: 1, pending: 0, failures: ['A panel reloads'] },
        { suite: 'e2e', passed: 2, failed: 0, pending: 0 },
        { suite: 'e2e', passed: 1, failed: 2, pending: 0, failures: ['B "before all" hook', 'B applies'] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    assert.equal(settleSuite('e2e', reporter), 1);
    assert.deepEqual(written(), [
      {
        suite: 'e2e',
        passed: 6,
        failed: 3,
        pending: 0,
        failures: ['A panel reloads', 'B "before all" hook', 'B applies'],
      },
    ]);
  });

  it('counts a broken harness as a failure and names it', () => {
    const reporter = path.join(dir, 'reporter');
    fs.writeFileSync(reporter, JSON.stringify({ suite: 'ext', passed: 4, failed: 0, pending: 0 }) + '\n');
    assert.equal(settleSuite('ext', reporter, 'VS Code exited with 1'), 1);
    assert.deepEqual(written()[0].failures, ['harness: VS Code exited with 1']);
    assert.equal(written()[0].failed, 1);
  });

  it('reads no totals as a failure, and a green run as green', () => {
    assert.equal(settleSuite('ext', path.join(dir, 'missing')), 1);
    const reporter = path.join(dir, 'reporter');
    fs.writeFileSync(
      reporter,
      JSON.stringify({ suite: 'ext', passed: 4, failed: 0, pending: 0, failures: [] }) + '\n',
    );
    assert.equal(settleSuite('ext', reporter), 0);
    assert.deepEqual(
      written().map((l) => [l.failed, l.failures]),
      [
        [1, ['harness: the test run reported no totals']],
        [0, []],
      ],
    );
  });
});
