/**
 * Writes latest.md and latest.svg again from a latest.json, without running
 * anything: `node out/bench/render.js bench/results/latest.json`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chartSvg } from './chart';
import { markdownReport, type BenchResult } from './report';

const resultPath = process.argv[2];
if (!resultPath) {
  console.error('usage: node out/bench/render.js <latest.json>');
  process.exit(2);
}
const result = JSON.parse(readFileSync(resultPath, 'utf8')) as BenchResult;
writeFileSync(join(dirname(resultPath), 'latest.md'), markdownReport(result), 'utf8');
writeFileSync(join(dirname(resultPath), 'latest.svg'), chartSvg(result), 'utf8');
