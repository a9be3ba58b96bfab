// `npm test`: the unit tests, then the integration and UI suites on every VS Code version of
// scripts/vscode-test/versions.json (MULTI_EDIT_VSCODE narrows it). Every stage runs (a failing
// stage does not hide the others); each reports its time and the peak memory of its process tree,
// then one closing line counts them all.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { watchTreeMemory } from './processTreeMemory.mjs';
import { selectVersions } from './vscode-test/versions.mjs';

const resultsDir = path.resolve('test-artifacts', 'results');
const versions = selectVersions(process.env.MULTI_EDIT_VSCODE || 'all');

/** `results` names the counts file the stage writes; a stage without one only has to succeed. */
const stages = [
  // FUSE file systems that ignore case (the unit stage mounts them) and Wine, once.
  { name: 'platform setup', command: 'bash', args: ['scripts/platform-test/install.sh'] },
  { name: 'unit', command: 'npm', args: ['run', 'test:unit'], results: 'unit' },
  // The CLI's scenarios and the store under Node for Windows, in Wine (docs/platforms.md); the unit stage built them.
  { name: 'windows (wine)', command: 'node', args: ['scripts/platform-test/wine.mjs'], results: 'wine' },
  { name: 'setup', command: 'bash', args: ['scripts/vscode-test/install.sh', ...versions.map((version) => version.vscode)] },
  ...versions.flatMap((version) => {
    const env = { MULTI_EDIT_VSCODE: version.vscode };
    return [
      { name: `integration ${version.vscode}`, command: 'node', args: ['scripts/vscode-test/drive.mjs'], env, results: `integration-${version.vscode}` },
      // Multi-Edit installed from its .vsix (production mode), as another extension sees it.
      { name: `integration installed ${version.vscode}`, command: 'node', args: ['scripts/vscode-test/drive.mjs', 'installed'], env, results: `installed-${version.vscode}` },
      { name: `ui ${version.vscode}`, command: 'node', args: ['test/ui/runner/ui.mjs'], env, results: `ui-${version.vscode}` },
    ];
  }),
];

function runStage(stage) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(stage.command, stage.args, { stdio: 'inherit', env: { ...process.env, ...stage.env } });
    const memory = watchTreeMemory(child.pid);
    const finish = (status) => resolve({ status, seconds: (Date.now() - started) / 1000, peakBytes: memory.stop() });
    child.once('error', () => finish(-1));
    child.once('exit', (code) => finish(code));
  });
}

/** The stage's counts; a non-zero exit is never "0 failed". */
function readCounts(stage, status) {
  if (!stage.results) return { passed: 0, failed: status === 0 ? 0 : 1, skipped: 0 };
  try {
    const counts = JSON.parse(fs.readFileSync(path.join(resultsDir, `${stage.results}.json`), 'utf8'));
    if (status !== 0 && counts.failed === 0) {
      return { ...counts, failed: 1, skipped: counts.skipped ?? 0, note: ` (exit ${status} with no failing test: counted as 1 failure)` };
    }
    return { passed: counts.passed, failed: counts.failed, skipped: counts.skipped ?? 0, note: '', failures: counts.failures ?? [] };
  } catch {
    return { passed: 0, failed: 1, skipped: 0, note: ` (no results, exit ${status}: counted as 1 failure)` };
  }
}

function describe(stage, counts, run) {
  const memory = run.peakBytes === undefined ? '' : `, peak ${(run.peakBytes / 2 ** 30).toFixed(2)} GiB`;
  const timing = `in ${run.seconds.toFixed(1)} s${memory}`;
  if (!stage.results) return `${stage.name}: ${counts.failed === 0 ? 'done' : `failed (exit ${run.status}): counted as 1 failure`} ${timing}`;
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
  return `${stage.name}: ${counts.passed} passed, ${counts.failed} failed${skipped} ${timing}${counts.note}`;
}

fs.rmSync(resultsDir, { recursive: true, force: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
const started = Date.now();
for (const stage of stages) {
  const run = await runStage(stage);
  const counts = readCounts(stage, run.status);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  lines.push(describe(stage, counts, run), ...(counts.failures ?? []).map((failure) => `  failed: ${failure}`));
}
lines.push(`all stages: ${((Date.now() - started) / 1000).toFixed(1)} s`);

const figures = stages.flatMap((stage) => {
  try {
    return fs.readFileSync(path.join(resultsDir, `${stage.results}-figures.txt`), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
});
console.log('\n' + [...figures, ...lines].join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
