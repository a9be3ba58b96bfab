// Spec output for people, plus a counts file for the closing "N passed, N failed" line.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const stage = process.env.TEST_STAGE || 'unit';
    // Named again in the closing summary, so a failure shows in the last lines a CI log keeps.
    const failures = [];
    runner.on('fail', (test, error) => {
      const firstLine = String(error?.message ?? error).split('\n')[0].slice(0, 300);
      failures.push(`${test.fullTitle()}: ${firstLine}`);
    });
    runner.once('end', () => {
      const dir = path.resolve('test-artifacts', 'results');
      fs.mkdirSync(dir, { recursive: true });
      const { passes, pending } = this.stats;
      fs.writeFileSync(path.join(dir, `${stage}.json`), JSON.stringify({ passed: passes, failed: this.stats.failures, skipped: pending, failures }));
    });
  }
}

module.exports = CountingSpecReporter;
