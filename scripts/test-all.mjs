// `npm test`: every stage runs (a failing stage does not hide the others), then one closing line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const stages = ['unit', 'integration', 'ui'];
const resultsDir = path.resolve('test-artifacts', 'results');
fs.rmSync(resultsDir, { recursive: true, force: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
for (const stage of stages) {
  const started = Date.now();
  const run = spawnSync('npm', ['run', `test:${stage}`], { stdio: 'inherit', env: { ...process.env, TEST_STAGE: stage } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  let counts;
  try {
    counts = JSON.parse(fs.readFileSync(path.join(resultsDir, `${stage}.json`), 'utf8'));
  } catch {
    counts = { passed: 0, failed: 1, skipped: 0 };
    lines.push(`${stage}: no results (exit ${run.status}): counted as 1 failure`);
  }
  if (run.status !== 0 && counts.failed === 0) {
    counts.failed = 1;
    lines.push(`${stage}: exited ${run.status} with no failing test: counted as 1 failure`);
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped ?? 0;
  lines.push(`${stage}: ${counts.passed} passed, ${counts.failed} failed in ${seconds}s`);
}

const figures = stages.flatMap((stage) => {
  try {
    return fs.readFileSync(path.join(resultsDir, `${stage}-figures.txt`), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
});
console.log('\n' + [...figures, ...lines].join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
