/**
 * `npm run bench`: every workload at every size, every implementation side by side,
 * in one run on one machine. Prints a markdown table and writes bench/results/
 * latest.md, latest.json and latest.svg; then the sections (sectionList.ts): many files
 * in one request, the small edit over MCP, the editor round trip. `--quick` runs the
 * smallest size with fewer runs and small sections (inside npm test, so the bench
 * cannot rot); `--out DIR` writes elsewhere; `--sizes 1,10` runs only those sizes, in
 * MB (`--sizes none`: no workload grid); `--sections manyFiles,mcpLatency` runs only
 * those sections (`--sections none`: no section).
 *
 * Each cell is timed round-robin (floor, engine, naive, peer, floor process, CLI,
 * then again), after one warm-up run that also checks the result, so a burst of load
 * on the machine slows every implementation alike. Files a run changes are written
 * back, untimed, before the next run.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { arch, cpus, loadavg, platform, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { chartSvg } from './chart';
import { IMPLEMENTATIONS, loadPeer, verify, writeCliRequest, type Implementation, type Outcome } from './implementations';
import { median, runNodeReported, type ReportedRun } from './measure';
import { markdownReport, type BenchResult, type Cell, type StartupFigures } from './report';
import { SECTIONS } from './sectionList';
import type { BenchSection } from './sections';
import { createWorkload, restoreFiles, WORKLOAD_IDS, type Workload } from './workloads';

const KB = 1024;
const MB = 1024 * KB;
const FULL_SIZES = [100 * KB, MB, 10 * MB, 50 * MB];
const QUICK_SIZES = [100 * KB];
const FULL_RUNS = 5;
const QUICK_RUNS = 3;
/** A warm-up slower than this (the naive engine and the peer on large files) is followed by a single counted run. */
const SLOW_RUN_MS = 15_000;
const STARTUP_RUNS = 15;

interface Settings {
  readonly quick: boolean;
  readonly outDir: string;
  readonly sizes: readonly number[];
  readonly sections: readonly BenchSection<unknown>[];
}

function listOption(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value === 'none' ? [] : value.split(',');
}

function parseSettings(args: readonly string[]): Settings {
  const valueOf = (option: string): string | undefined => {
    const at = args.indexOf(option);
    return at === -1 ? undefined : args[at + 1];
  };
  const quick = args.includes('--quick');
  const sizes = listOption(valueOf('--sizes'))?.map((megabytes) => Math.round(Number(megabytes) * MB));
  if (sizes?.some((bytes) => !Number.isFinite(bytes) || bytes <= 0)) {
    throw new Error('--sizes takes sizes in MB, separated by commas, or none');
  }
  const sectionIds = listOption(valueOf('--sections'));
  const unknown = sectionIds?.filter((id) => !SECTIONS.some((section) => section.id === id)) ?? [];
  if (unknown.length > 0) {
    throw new Error(`--sections: no section ${unknown.join(', ')}; the sections are ${SECTIONS.map((section) => section.id).join(', ')}`);
  }
  return {
    quick,
    outDir: valueOf('--out') ?? join(__dirname, '..', '..', 'bench', 'results'),
    sizes: sizes ?? (quick ? QUICK_SIZES : FULL_SIZES),
    sections: sectionIds ? SECTIONS.filter((section) => sectionIds.includes(section.id)) : SECTIONS,
  };
}

async function measureCell(workload: Workload, implementations: readonly Implementation[], runs: number, scratch: string): Promise<Cell[]> {
  const samples = new Map<Implementation, number[]>();
  const outcomes = new Map<Implementation, Outcome>();
  const counted = new Map<Implementation, number>();
  const runOnce = async (implementation: Implementation): Promise<{ ms: number; outcome: Outcome }> => {
    if (workload.writes) {
      await restoreFiles(workload.files);
    }
    const { ms, result } = await implementation.run(workload);
    return { ms, outcome: result };
  };
  for (const implementation of implementations) {
    const warmUp = await runOnce(implementation);
    const problem = await verify(workload, implementation, warmUp.outcome);
    if (problem) {
      throw new Error(`${workload.id} at ${workload.bytes} bytes: ${problem}`);
    }
    outcomes.set(implementation, warmUp.outcome);
    samples.set(implementation, []);
    counted.set(implementation, warmUp.ms > SLOW_RUN_MS ? 1 : runs);
  }
  for (let round = 0; round < runs; round++) {
    for (const implementation of implementations.filter((candidate) => round < (counted.get(candidate) ?? 0))) {
      samples.get(implementation)?.push((await runOnce(implementation)).ms);
    }
  }
  const cells: Cell[] = [];
  for (const implementation of implementations) {
    if (workload.writes) {
      await restoreFiles(workload.files);
    }
    const peakBytes = await implementation.peak(workload, scratch);
    const outcome = outcomes.get(implementation) as Outcome;
    const times = samples.get(implementation) as number[];
    cells.push({
      workload: workload.id,
      bytes: workload.bytes,
      implementation: implementation.id,
      runs: times.length,
      medianMs: median(times),
      samplesMs: times,
      peakBytes,
      responseBytes: outcome.responseBytes,
      outcome: outcome.success ? 'success' : (outcome.errorCode ?? 'failed'),
    });
  }
  return cells;
}

/**
 * The CLI applying one edit to a one-line file, against a bare `node -e 0`: what
 * start-up costs. Two requests take turns, so every run really writes.
 */
async function measureStartup(scratch: string, runs: number): Promise<StartupFigures> {
  const file = join(scratch, 'one-line.txt');
  await writeFile(file, 'hello\n', 'utf8');
  const requests = [['hello', 'hallo'], ['hallo', 'hello']].map((pair, index) => {
    const path = join(scratch, `one-line-${index}.json`);
    return { path, text: JSON.stringify({ file_path: file, edits: [{ old_string: pair[0], new_string: pair[1] }] }) };
  });
  for (const request of requests) {
    await writeFile(request.path, request.text, 'utf8');
  }
  const cli = (round: number): string[] => [join(__dirname, '..', '..', 'dist', 'cli.js'), 'apply', requests[round % 2].path];
  const bare = ['-e', '0'];
  const cliRuns: ReportedRun[] = [];
  const bareRuns: ReportedRun[] = [];
  await runNodeReported(cli(0), scratch);
  await runNodeReported(bare, scratch);
  for (let round = 1; round <= runs; round++) {
    const run = await runNodeReported(cli(round), scratch);
    if (run.exitCode !== 0) {
      throw new Error('the start-up request failed');
    }
    cliRuns.push(run);
    bareRuns.push(await runNodeReported(bare, scratch));
  }
  const medianOf = (list: readonly ReportedRun[], figure: 'ms' | 'cpuMs' | 'peakRssBytes'): number => median(list.map((run) => run[figure]));
  return {
    runs,
    cliMs: medianOf(cliRuns, 'ms'),
    bareNodeMs: medianOf(bareRuns, 'ms'),
    cliCpuMs: medianOf(cliRuns, 'cpuMs'),
    bareNodeCpuMs: medianOf(bareRuns, 'cpuMs'),
    cliPeakRssBytes: medianOf(cliRuns, 'peakRssBytes'),
    bareNodePeakRssBytes: medianOf(bareRuns, 'peakRssBytes'),
  };
}

function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, ${platform()} ${arch()}, Node ${process.version}`;
}

async function main(): Promise<void> {
  const settings = parseSettings(process.argv.slice(2));
  const sizes = settings.sizes;
  const runs = settings.quick ? QUICK_RUNS : FULL_RUNS;
  const loadAtStart = loadavg()[0];
  await loadPeer();
  const scratch = await mkdtemp(join(tmpdir(), 'multi-edit-bench-'));
  // The runs keep their request history, as users' do, but in the scratch folder: each workload's
  // temporary root would otherwise leave a history in the user's state folder.
  process.env.MULTI_EDIT_HISTORY_DIR ??= join(scratch, 'history');
  try {
    const startup = await measureStartup(scratch, settings.quick ? 5 : STARTUP_RUNS);
    const cells: Cell[] = [];
    for (const bytes of sizes) {
      for (const id of WORKLOAD_IDS) {
        const workload = await createWorkload(id, bytes, scratch);
        await writeCliRequest(workload);
        const implementations = IMPLEMENTATIONS.filter((implementation) => implementation.supports(workload));
        const measured = await measureCell(workload, implementations, runs, scratch);
        cells.push(...measured);
        const line = measured.map((cell) => `${cell.implementation} ${cell.medianMs.toFixed(1)}`).join(', ');
        console.error(`${id} ${(workload.bytes / MB).toFixed(2)} MB: ${line} ms`);
        await rm(join(scratch, `${id}-${bytes}`), { recursive: true, force: true });
      }
    }
    const sections: Record<string, unknown> = {};
    for (const section of settings.sections) {
      sections[section.id] = await section.measure({ scratch: await mkdtemp(join(scratch, `${section.id}-`)), quick: settings.quick });
    }
    const result: BenchResult = {
      date: new Date().toISOString(),
      machine: machine(),
      quick: settings.quick,
      runsPerCell: runs,
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
      startup,
      cells,
      sections,
    };
    const markdown = markdownReport(result);
    console.log(markdown);
    await mkdir(settings.outDir, { recursive: true });
    await writeFile(join(settings.outDir, 'latest.md'), markdown, 'utf8');
    await writeFile(join(settings.outDir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`, 'utf8');
    await writeFile(join(settings.outDir, 'latest.svg'), chartSvg(result), 'utf8');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
