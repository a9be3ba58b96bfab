/**
 * The benchmark's quick mode runs here, so `npm run bench` cannot rot: every
 * workload and implementation runs, each result is checked by the bench itself, and
 * the three result files are written. No time is asserted.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const OUT_DIR = path.join(REPO_ROOT, 'test-artifacts', 'bench-quick');

describe('benchmark (npm run bench -- --quick)', function () {
  this.timeout(120_000);

  it('runs every workload and implementation, checks each result, and writes the markdown, JSON and SVG', () => {
    fs.rmSync(OUT_DIR, { recursive: true, force: true });
    const run = spawnSync(process.execPath, ['--expose-gc', path.join(REPO_ROOT, 'out', 'bench', 'run.js'), '--quick', '--out', OUT_DIR], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(fs.readFileSync(path.join(OUT_DIR, 'latest.json'), 'utf8')) as {
      cells: { workload: string; implementation: string; runs: number; medianMs: number; peakBytes: number }[];
    };
    const workloads = new Set(result.cells.map((cell) => cell.workload));
    assert.deepEqual([...workloads].sort(), ['ambiguous', 'dryRunDiff', 'edits200', 'multiFile', 'notFound', 'replaceAll']);
    for (const workload of workloads) {
      const implementations = result.cells.filter((cell) => cell.workload === workload).map((cell) => cell.implementation);
      for (const expected of ['floor', 'engine', 'naive', 'floorProcess', 'cli']) {
        assert.ok(implementations.includes(expected), `${workload}: ${expected} did not run`);
      }
    }
    assert.equal(result.cells.filter((cell) => cell.implementation === 'peer').length, 4, 'the peer runs the four workloads it can express');
    for (const cell of result.cells) {
      assert.ok(cell.runs >= 1 && Number.isFinite(cell.medianMs) && cell.peakBytes >= 0, `${cell.workload}/${cell.implementation}: no figures`);
    }
    const markdown = fs.readFileSync(path.join(OUT_DIR, 'latest.md'), 'utf8');
    assert.match(markdown, /\| 200 unique edits \| 100 KB \|/);
    assert.match(fs.readFileSync(path.join(OUT_DIR, 'latest.svg'), 'utf8'), /^<svg [^>]*>[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
  });
});
