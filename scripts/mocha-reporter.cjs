// Spec output for people, plus a counts file for the closing "N passed, N failed" line.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const stage = process.env.TEST_STAGE || 'unit';
    runner.once('end', () => {
      const dir = path.resolve('test-artifacts', 'results');
      fs.mkdirSync(dir, { recursive: true });
      const { passes, failures, pending } = this.stats;
      fs.writeFileSync(path.join(dir, `${stage}.json`), JSON.stringify({ passed: passes, failed: failures, skipped: pending }));
    });
  }
}

module.exports = CountingSpecReporter;
