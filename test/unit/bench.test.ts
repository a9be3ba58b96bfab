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
  // The quick run starts real processes (CLI, MCP servers, the peer); a loaded machine needs the slack.
  this.timeout(300_000);

  it('runs every workload, implementation and section, checks each result, and writes the markdown, JSON and SVG', () => {
    fs.rmSync(OUT_DIR, { recursive: true, force: true });
    const run = spawnSync(process.execPath, ['--expose-gc', path.join(REPO_ROOT, 'out', 'bench', 'run.js'), '--quick', '--out', OUT_DIR], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(fs.readFileSync(path.join(OUT_DIR, 'latest.json'), 'utf8')) as {
      cells: { workload: string; implementation: string; runs: number; medianMs: number; peakBytes: number }[];
      sections: {
        manyFiles: { counts: { files: number; runners: Record<string, { medianMs: number; samplesMs: number[] }> }[] };
        mcpLatency: { servers: Record<string, { calls: number; p50Ms: number; p95Ms: number }> };
        editorRoundTrip: { measured: boolean };
        syntaxGate: { refusal: { cpuMs: { refuse: number }; oneParse: { cpuMs: number } } };
        statementScan: { files: number; characters: number; charactersRead: number; scanMs: number; barePassMs: number };
      };
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
    const { manyFiles, mcpLatency, editorRoundTrip, syntaxGate, statementScan } = result.sections;
    assert.ok(statementScan.files > 100 && statementScan.scanMs > 0 && statementScan.barePassMs > 0, 'the scan is timed beside a bare pass over the repository\'s sources');
    assert.ok(statementScan.charactersRead > statementScan.characters * 0.9, 'the scan reads nearly all of the sources');
    assert.ok(syntaxGate.refusal.cpuMs.refuse > 0 && syntaxGate.refusal.oneParse.cpuMs > 0, 'the refusal is measured beside one parse of the same text');
    assert.deepEqual(manyFiles.counts.map((count) => count.files), [4, 20], 'many files runs at two counts');
    for (const count of manyFiles.counts) {
      assert.deepEqual(Object.keys(count.runners).sort(), ['cli', 'cliParsed', 'floorProcess', 'peerProcess']);
      for (const [runner, figures] of Object.entries(count.runners)) {
        assert.ok(figures.samplesMs.length >= 1 && figures.medianMs > 0, `many files, ${count.files}: ${runner} has no figures`);
      }
    }
    for (const server of ['multiEdit', 'peer']) {
      const figures = mcpLatency.servers[server];
      assert.ok(figures.calls >= 10 && figures.p50Ms > 0 && figures.p95Ms >= figures.p50Ms, `MCP latency: ${server} has no figures`);
    }
    assert.equal(editorRoundTrip.measured, false, 'the quick run does not start VS Code');
    const markdown = fs.readFileSync(path.join(OUT_DIR, 'latest.md'), 'utf8');
    assert.match(markdown, /\| 200 unique edits \| 100 KB \|/);
    assert.match(markdown, /## Many files in one request[\s\S]*\| 20 \| 1\.0 MB \|/);
    assert.match(markdown, /## One small edit per MCP call[\s\S]*\| multi-edit mcp, multi_edit \| 10 \|/);
    assert.match(markdown, /## The statement scan[\s\S]*\| statement scan \| [\d.]+ ms \| \d+ M characters\/s \|/);
    assert.match(fs.readFileSync(path.join(OUT_DIR, 'latest.svg'), 'utf8'), /^<svg [^>]*>[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
  });
});
