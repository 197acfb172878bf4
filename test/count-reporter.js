// Mocha reporter: the spec reporter's output, plus the totals appended as a JSON line to
// $DEN_RESULT_FILE so scripts/test-all.sh can print one final "N passed, N failed" line, and the
// titles of the failed tests (printed again at the very end, where CI's excerpt shows them), and the
// five slowest top-level suites with their hooks (where a tier's wall time goes: start-ups, sign-ins).
const Mocha = require('mocha');
const fs = require('fs');

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const took = [];
    const failures = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test) => failures.push(test.fullTitle()));
    runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent && suite.parent.root) started.set(suite, Date.now());
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite) => {
      const t0 = started.get(suite);
      if (t0 !== undefined) took.push([Date.now() - t0, suite.title]);
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.DEN_RESULT_FILE;
      const s = runner.stats || {};
      const line = {
        suite: process.env.DEN_SUITE || 'unit',
        passed: s.passes || 0,
        failed: s.failures || 0,
        pending: s.pending || 0,
        failures,
      };
      if (file) fs.appendFileSync(file, JSON.stringify(line) + '\n');
      took.sort((a, b) => b[0] - a[0]);
      if (took.length > 1) {
        console.log('slowest suites (with their hooks):');
        for (const [ms, title] of took.slice(0, 5)) console.log(`  ${(ms / 1000).toFixed(1)} s  ${title}`);
      }
    });
  }
}
module.exports = CountReporter;
