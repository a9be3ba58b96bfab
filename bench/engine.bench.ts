/**
 * The engine against the physical floor and a naive engine on a 10 MB file
 * (design §7). Run with `npm run bench`. Each run is a real request on a real temp
 * file (odd runs undo even ones); the median and the fastest run are shown, with
 * their ratios to the floor: read the file, scan it once, write it. Rows with the
 * real store, whose writes are atomic, are compared with a floor that writes the
 * same way.
 */
import { mkdtemp, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPatch } from 'diff';
import { type EngineResponse, type FileStore, runRequest, unifiedDiff } from '../src/core/index';
import { NodeFileStore } from '../src/node/nodeFileStore';

type EditPair = { old_string: string; new_string: string };

const TARGET_BYTES = 10 * 1024 * 1024;
const RUNS = 15;
/** The naive engine takes seconds per run on 200 edits. */
const NAIVE_RUNS = 4;
const ABSENT = 'this text does not occur in the file';

/** Plain readFile/writeFile, so the engine's own cost is what the ratios show. */
const plainStore: FileStore = {
  async stat(path) {
    const stats = await stat(path);
    return { ok: true, value: { kind: stats.isDirectory() ? 'directory' as const : 'file' as const, size: stats.size } };
  },
  async read(path) {
    return { ok: true, value: { text: await readFile(path, 'utf8'), bom: false } };
  },
  async write(planned) {
    await writeFile(planned.path, planned.text, 'utf8');
    return { ok: true, value: undefined };
  },
};

function sourceLines(): string[] {
  const lines: string[] = [];
  let bytes = 0;
  for (let index = 0; bytes < TARGET_BYTES; index++) {
    const line = `  const value${index} = compute(${index}, "item-${index}"); // line ${index}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return lines;
}

/** About 10 MB in which "retry();" occurs exactly 100,000 times. */
function ambiguousFile(): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let index = 0; index < 100_000; index++) {
    const line = `if (attempt${index} > limit) { retry(); } // padding to make the file ten megabytes long ${'.'.repeat(16)}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  const filler = '// filler line without the pattern';
  while (bytes < TARGET_BYTES) {
    lines.push(filler);
    bytes += filler.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** `count` edits of whole lines spread evenly through the file, each made distinct by its line number. */
function spreadEdits(lines: readonly string[], count: number): EditPair[] {
  return Array.from({ length: count }, (_, index) => {
    const line = lines[Math.floor(((index + 0.5) * lines.length) / count)];
    return { old_string: line, new_string: line.replace('compute(', 'recompute(') };
  });
}

/** The edits on even rounds; on odd rounds, the edits that undo them. */
function alternating(edits: readonly EditPair[], round: number): EditPair[] {
  return round % 2 === 0 ? [...edits] : edits.map((edit) => ({ old_string: edit.new_string, new_string: edit.old_string }));
}

/** The floor's read and its one scan over the text. */
async function readAndScan(path: string): Promise<string> {
  const text = await readFile(path, 'utf8');
  if (text.indexOf(ABSENT) !== -1) {
    throw new Error('the floor scan found its absent needle');
  }
  return text;
}

async function floor(path: string): Promise<void> {
  await writeFile(path, await readAndScan(path), 'utf8');
}

/** The floor for a store that writes safely: a temp file, synced, renamed over the file. */
async function atomicFloor(path: string): Promise<void> {
  const text = await readAndScan(path);
  const temp = `${path}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

/** The naive engine of design §7: per edit, scan for the match, scan again for a second, copy the text. */
async function naive(path: string, edits: readonly EditPair[]): Promise<string> {
  let text = await readFile(path, 'utf8');
  for (const edit of edits) {
    const first = text.indexOf(edit.old_string);
    if (first === -1 || text.indexOf(edit.old_string, first + 1) !== -1) {
      throw new Error('the naive engine found no unique match');
    }
    text = text.slice(0, first) + edit.new_string + text.slice(first + edit.old_string.length);
  }
  await writeFile(path, text, 'utf8');
  return text;
}

async function engine(store: FileStore, path: string, edits: readonly EditPair[]): Promise<EngineResponse> {
  const response = (await runRequest('multi_edit', { file_path: path, edits }, { store })).response;
  if (!response.success) {
    throw new Error(`the engine failed: ${response.summary}`);
  }
  return response;
}

async function dryRun(path: string, edits: readonly EditPair[]): Promise<void> {
  const response = (await runRequest('multi_edit', { file_path: path, edits, dry_run: true }, { store: plainStore })).response;
  if (!response.success || !response.files[0].diff) {
    throw new Error('the dry run did not return a diff');
  }
}

/** A replace_all over thousands of lines: the case where a Myers diff is quadratic. */
function sweepingChange(): { before: string; after: string } {
  const before = Array.from({ length: 4000 }, (_, line) => `  total_${line} = price * quantity;\n  log(total_${line});\n\n`).join('');
  return { before, after: before.split('price * quantity').join('price * quantity * rate') };
}

async function ambiguousEnvelope(path: string): Promise<void> {
  const response = (await runRequest('multi_edit', { file_path: path, edits: [{ old_string: 'retry();', new_string: 'retryOnce();' }] }, { store: plainStore })).response;
  if (response.success || response.error_code !== 'AMBIGUOUS_MATCH' || response.context?.total_matches !== 100_000) {
    throw new Error('the ambiguous request did not report 100,000 matches');
  }
}

/** Garbage from one run must not be collected in the next; run node with --expose-gc. */
const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface Scenario {
  readonly name: string;
  /** The scenario this one's time is divided by; none for the floors themselves and for absolute figures. */
  readonly floor?: Scenario;
  readonly rounds: number;
  readonly run: (round: number) => Promise<unknown>;
}

interface Timing {
  readonly median: number;
  readonly min: number;
}

/**
 * Times every scenario round-robin, so a burst of load on the machine slows all of
 * them alike instead of one; each scenario works on its own copy of the file.
 */
async function measure(scenarios: readonly Scenario[]): Promise<Map<Scenario, Timing>> {
  const samples = new Map<Scenario, number[]>(scenarios.map((scenario) => [scenario, []]));
  for (const scenario of scenarios) {
    await scenario.run(0);
    await scenario.run(1);
  }
  const rounds = Math.max(...scenarios.map((scenario) => scenario.rounds));
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios.filter((candidate) => round < candidate.rounds)) {
      collectGarbage();
      const started = process.hrtime.bigint();
      await scenario.run(round);
      samples.get(scenario)?.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return new Map([...samples].map(([scenario, times]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return [scenario, { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0] }];
  }));
}

function row(scenario: Scenario, timings: Map<Scenario, Timing>): string {
  const timing = timings.get(scenario) as Timing;
  const floorTiming = scenario.floor ? timings.get(scenario.floor) : undefined;
  const ratios = floorTiming ? `${(timing.median / floorTiming.median).toFixed(2).padStart(7)}x ${(timing.min / floorTiming.min).toFixed(2).padStart(7)}x` : '';
  return `${scenario.name.padEnd(54)} ${timing.median.toFixed(1).padStart(9)} ${timing.min.toFixed(1).padStart(9)} ${ratios}`;
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'multi-edit-bench-'));
  try {
    const lines = sourceLines();
    const original = `${lines.join('\n')}\n`;
    const oneEdit = spreadEdits(lines, 1);
    const manyEdits = spreadEdits(lines, 200);
    let copies = 0;
    const copy = async (text: string): Promise<string> => {
      const path = join(directory, `copy${copies++}.ts`);
      await writeFile(path, text, 'utf8');
      return path;
    };

    // The engine must give byte for byte what plain sequential replacement gives.
    const checked = await copy(original);
    const expected = await naive(checked, manyEdits);
    await writeFile(checked, original, 'utf8');
    await engine(plainStore, checked, manyEdits);
    if ((await readFile(checked, 'utf8')) !== expected) {
      throw new Error('the engine and sequential replacement disagree');
    }

    const editing = async (
      name: string, reference: Scenario, rounds: number, edits: readonly EditPair[],
      apply: (path: string, edits: EditPair[]) => Promise<unknown>,
    ): Promise<Scenario> => {
      const path = await copy(original);
      return { name, floor: reference, rounds, run: (round) => apply(path, alternating(edits, round)) };
    };
    const floorPath = await copy(original);
    const atomicFloorPath = await copy(original);
    const ambiguousPath = await copy(ambiguousFile());
    const nodeStore = new NodeFileStore();
    const plainFloor: Scenario = { name: 'floor: read + one indexOf scan + write', rounds: RUNS, run: () => floor(floorPath) };
    const safeFloor: Scenario = { name: 'atomic floor: read + scan + temp file, fsync, rename', rounds: RUNS, run: () => atomicFloor(atomicFloorPath) };
    const sweep = sweepingChange();
    const resyncDiff: Scenario = { name: 'diff of 4,000 changed lines: resyncing line diff', rounds: RUNS, run: async () => unifiedDiff('f.ts', sweep.before, sweep.after) };
    const dryRunPath = await copy(original);
    const scenarios: Scenario[] = [
      plainFloor,
      await editing('engine, 1 edit', plainFloor, RUNS, oneEdit, (path, edits) => engine(plainStore, path, edits)),
      await editing('engine, 200 edits', plainFloor, RUNS, manyEdits, (path, edits) => engine(plainStore, path, edits)),
      await editing('naive, 1 edit (indexOf twice + splice per edit)', plainFloor, RUNS, oneEdit, naive),
      await editing('naive, 200 edits', plainFloor, NAIVE_RUNS, manyEdits, naive),
      safeFloor,
      await editing('engine + NodeFileStore (atomic write), 1 edit', safeFloor, RUNS, oneEdit, (path, edits) => engine(nodeStore, path, edits)),
      await editing('engine + NodeFileStore (atomic write), 200 edits', safeFloor, RUNS, manyEdits, (path, edits) => engine(nodeStore, path, edits)),
      { name: 'ambiguous: 100,000 matches, time to the envelope', rounds: RUNS, run: () => ambiguousEnvelope(ambiguousPath) },
      { name: 'engine dry run with diff, 200 edits', floor: plainFloor, rounds: RUNS, run: () => dryRun(dryRunPath, manyEdits) },
      resyncDiff,
      { name: 'same change, Myers diff (jsdiff): ratio to the row above', floor: resyncDiff, rounds: 2, run: async () => createPatch('f.ts', sweep.before, sweep.after) },
    ];
    const timings = await measure(scenarios);

    console.log(`file: ${(Buffer.byteLength(original) / 1024 / 1024).toFixed(1)} MB, ${lines.length} lines; ${RUNS} runs (${NAIVE_RUNS} for naive, 200 edits); Node ${process.version}`);
    console.log(`${'scenario'.padEnd(54)} ${'median ms'.padStart(9)} ${'min ms'.padStart(9)} ${'median'.padStart(8)} ${'min'.padStart(8)}`);
    for (const scenario of scenarios) {
      console.log(row(scenario, timings));
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
