// Mocha reporter: the spec reporter's output, plus the totals appended as a JSON line to
// $DEN_RESULT_FILE so scripts/test-all.sh can print one final "N passed, N failed" line.
const Mocha = require('mocha');
const fs = require('fs');

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.DEN_RESULT_FILE;
      const s = runner.stats || {};
      const line = {
        suite: process.env.DEN_SUITE || 'unit',
        passed: s.passes || 0,
        failed: s.failures || 0,
        pending: s.pending || 0,
      };
      if (file) fs.appendFileSync(file, JSON.stringify(line) + '\n');
    });
  }
}
module.exports = CountReporter;
