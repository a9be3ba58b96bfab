/**
 * The syntax gate's statement scan (src/shared/syntax/statementStarts.ts) over the
 * repository's own TypeScript, in process, against the least any scan that looks at each
 * character in JavaScript does: one pass that reads every character once through a table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanStatementStarts } from '../src/shared/syntax/statementStarts';
import { REPO_ROOT } from './implementations';
import { msText, ratioText, table } from './markdown';
import { median } from './measure';
import type { BenchSection } from './sections';

const FOLDERS = ['src', 'test', 'bench'];
const PASSES = { full: 31, quick: 2 };
const WARM_UP_PASSES = { full: 10, quick: 1 };

export interface StatementScanFigures {
  readonly files: number;
  readonly characters: number;
  /** Characters the scan read before it stopped, over all files (it stops where it cannot tell what comes). */
  readonly charactersRead: number;
  readonly passes: number;
  readonly scanMs: number;
  readonly barePassMs: number;
}

function typeScriptUnder(directory: string, found: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      typeScriptUnder(path, found);
    } else if (entry.name.endsWith('.ts')) {
      found.push(path);
    }
  }
  return found;
}

/** The characters a scan must stop at are about one in sixteen; this table marks as many, so the bare pass branches as often. */
const STOPS = new Uint8Array(128);
for (const character of '\'"`/()[]{}<-\\\r') {
  STOPS[character.charCodeAt(0)] = 1;
}

/** Counts the characters that are beyond ASCII or marked: every character read once, nothing else done. */
function barePass(text: string): number {
  let marked = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128 || STOPS[code] === 1) {
      marked++;
    }
  }
  return marked;
}

/** The median time of `passes` passes of `work` over every text, after `warmUp` passes that are not counted. */
function timePasses(texts: readonly string[], passes: number, warmUp: number, work: (text: string) => number): { ms: number; total: number } {
  let total = 0;
  const samples: number[] = [];
  for (let pass = 0; pass < warmUp + passes; pass++) {
    const started = process.hrtime.bigint();
    total = 0;
    for (const text of texts) {
      total += work(text);
    }
    if (pass >= warmUp) {
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return { ms: median(samples), total };
}

const throughput = (figures: StatementScanFigures, ms: number): string => `${(figures.characters / ms / 1000).toFixed(0)} M characters/s`;

export const statementScanSection: BenchSection<StatementScanFigures> = {
  id: 'statementScan',
  title: 'The statement scan',
  async measure({ quick }) {
    const texts = FOLDERS.flatMap((folder) => typeScriptUnder(join(REPO_ROOT, folder))).sort().map((path) => readFileSync(path, 'utf8'));
    const passes = quick ? PASSES.quick : PASSES.full;
    const warmUp = quick ? WARM_UP_PASSES.quick : WARM_UP_PASSES.full;
    // Taking turns would warm each up on the other's behalf as little as running them apart: the scan first, then the bare pass.
    const scan = timePasses(texts, passes, warmUp, (text) => scanStatementStarts(text, 'typescript').readTo);
    const bare = timePasses(texts, passes, warmUp, barePass);
    const figures = { files: texts.length, characters: texts.reduce((sum, text) => sum + text.length, 0), charactersRead: scan.total, passes, scanMs: scan.ms, barePassMs: bare.ms };
    console.error(`statement scan: ${scan.ms.toFixed(2)} ms a pass over ${figures.files} files (${throughput(figures, scan.ms)}), a bare pass ${bare.ms.toFixed(2)} ms (${(scan.ms / bare.ms).toFixed(2)}x)`);
    return figures;
  },
  markdown(figures) {
    return `The syntax gate scans a JavaScript or TypeScript file from its start up to its last edit, to find the top-level
statements around each edit (it then parses only those). Here it scans each of the repository's own ${figures.files} TypeScript files
(${(figures.characters / 1e6).toFixed(2)} M characters, of which it read ${(100 * figures.charactersRead / figures.characters).toFixed(1)}% before stopping where it could not tell what comes), in
process, median of ${figures.passes} passes after warm-up. The bare pass reads every character once through a table and counts
those a scan must stop at: no scan that looks at each character in JavaScript does less.

${table(['pass over the sources', 'time a pass', 'throughput', 'ratio'], [
  ['statement scan', `${msText(figures.scanMs)} ms`, throughput(figures, figures.scanMs), ratioText(figures.scanMs / figures.barePassMs)],
  ['bare pass, each character once', `${msText(figures.barePassMs)} ms`, throughput(figures, figures.barePassMs), '1×'],
])}`;
  },
  targets() {
    return [];
  },
  bars() {
    return [];
  },
};
