// Loaded last (by name): a root hook that closes the unit run with the output-hygiene count.
// Every response that passes through the unit helpers or the CLI tests' parser is checked as
// it is made; this only reports the total, and fails when the wiring checked nothing.
import * as assert from 'node:assert/strict';
import { hygieneReportLine, hygieneTally } from '../shared/hygiene';

after(() => {
  console.log(`    ${hygieneReportLine()}`);
  assert.ok(hygieneTally.checked > 0, 'no response reached the hygiene checker');
});
