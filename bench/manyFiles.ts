/**
 * One request over many files of 50 KB, one edit each, as whole processes: the CLI,
 * the floor (read, scan and write the same files) and the peer applying the same
 * edits file by file. Run at two file counts, so the per-file cost shows how the
 * commit scales.
 */
import { readFile } from 'node:fs/promises';
import { cliProcessArgs, floorProcessArgs, peerProcessArgs, writeCliRequest } from './implementations';
import { msText, ratioText, table, type Target } from './markdown';
import { median, runNodeReported, type ReportedRun } from './measure';
import type { BenchSection } from './sections';
import { expectedTexts, multiFileWorkload, restoreFiles, type Workload } from './workloads';

const FULL_COUNTS = [200, 1000] as const;
const QUICK_COUNTS = [4, 20] as const;
const FULL_RUNS = 5;
const QUICK_RUNS = 2;

/** Each runner's edits rename a word in every file, or with `gateParses` add an argument, which the syntax gate parses. */
const RUNNERS = {
  floorProcess: { label: 'floor as a process', args: floorProcessArgs, writesEdits: false, gateParses: false },
  cli: { label: 'CLI process', args: cliProcessArgs, writesEdits: true, gateParses: false },
  cliParsed: { label: 'CLI process, edits the gate parses', args: cliProcessArgs, writesEdits: true, gateParses: true },
  peerProcess: { label: 'peer as a process (validatePath + applyFileEdits per file)', args: peerProcessArgs, writesEdits: true, gateParses: false },
} as const;
type RunnerId = keyof typeof RUNNERS;
const RUNNER_IDS = Object.keys(RUNNERS) as RunnerId[];

interface RunnerFigures {
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
  readonly cpuMs: number;
  readonly peakRssBytes: number;
}

interface CountFigures {
  readonly files: number;
  readonly bytes: number;
  readonly runners: Record<RunnerId, RunnerFigures>;
}

export interface ManyFilesFigures {
  readonly counts: readonly CountFigures[];
}

async function checkWritten(workload: Workload, runner: RunnerId): Promise<void> {
  for (const [path, text] of expectedTexts(workload)) {
    if ((await readFile(path, 'utf8')) !== text) {
      throw new Error(`many files: ${runner} wrote ${path} differently from plain sequential replacement`);
    }
  }
}

async function measureCount(files: number, runs: number, scratch: string): Promise<CountFigures> {
  const renames = await multiFileWorkload(files, scratch);
  const parsed = await multiFileWorkload(files, scratch, true);
  await writeCliRequest(renames);
  await writeCliRequest(parsed);
  const workloadOf = (runner: RunnerId): Workload => (RUNNERS[runner].gateParses ? parsed : renames);
  const runOnce = async (runner: RunnerId): Promise<ReportedRun> => {
    const workload = workloadOf(runner);
    await restoreFiles(workload.files);
    const run = await runNodeReported(RUNNERS[runner].args(workload), scratch);
    if (run.exitCode !== 0) {
      throw new Error(`many files: ${runner} exited with ${run.exitCode} on ${files} files`);
    }
    return run;
  };
  for (const runner of RUNNER_IDS) {
    await runOnce(runner);
    if (RUNNERS[runner].writesEdits) {
      await checkWritten(workloadOf(runner), runner);
    }
  }
  const samples = new Map<RunnerId, ReportedRun[]>(RUNNER_IDS.map((runner) => [runner, []]));
  // Round-robin, so a burst of load on the machine slows each alike.
  for (let round = 0; round < runs; round++) {
    for (const runner of RUNNER_IDS) {
      samples.get(runner)?.push(await runOnce(runner));
    }
  }
  await restoreFiles(renames.files);
  await restoreFiles(parsed.files);
  const figuresOf = (runs: readonly ReportedRun[]): RunnerFigures => ({
    medianMs: median(runs.map((run) => run.ms)),
    samplesMs: runs.map((run) => run.ms),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    peakRssBytes: median(runs.map((run) => run.peakRssBytes)),
  });
  const runners = Object.fromEntries(RUNNER_IDS.map((runner) => [runner, figuresOf(samples.get(runner) ?? [])])) as Record<RunnerId, RunnerFigures>;
  return { files, bytes: renames.bytes, runners };
}

/** The CLI's time per file at the largest count over that at the smallest. */
function scaling(figures: ManyFilesFigures, runner: RunnerId): number | undefined {
  const first = figures.counts[0];
  const last = figures.counts[figures.counts.length - 1];
  if (!first || !last || first === last) {
    return undefined;
  }
  return (last.runners[runner].medianMs / last.files) / (first.runners[runner].medianMs / first.files);
}

export const manyFilesSection: BenchSection<ManyFilesFigures> = {
  id: 'manyFiles',
  title: 'Many files in one request',
  async measure({ scratch, quick }) {
    const counts: CountFigures[] = [];
    for (const files of quick ? QUICK_COUNTS : FULL_COUNTS) {
      counts.push(await measureCount(files, quick ? QUICK_RUNS : FULL_RUNS, scratch));
      const line = RUNNER_IDS.map((runner) => `${runner} ${counts[counts.length - 1].runners[runner].medianMs.toFixed(0)}`).join(', ');
      console.error(`many files, ${files}: ${line} ms`);
    }
    return { counts };
  },
  markdown(figures) {
    const rows = figures.counts.map((count) => {
      const floor = count.runners.floorProcess.medianMs;
      const timed = (runner: RunnerId): string => {
        const ms = count.runners[runner].medianMs;
        return runner === 'floorProcess' ? msText(ms) : `${msText(ms)} (${ratioText(ms / floor)})`;
      };
      return [
        String(count.files), `${(count.bytes / 1024 / 1024).toFixed(1)} MB`, ...RUNNER_IDS.map(timed),
        msText(count.runners.cli.medianMs / count.files), msText(count.runners.cli.cpuMs),
        `${(count.runners.cli.peakRssBytes / 1024 / 1024).toFixed(0)} MB`,
      ];
    });
    const header = ['files', 'input', ...RUNNER_IDS.map((runner) => `${RUNNERS[runner].label} ms`), 'CLI ms per file', 'CLI CPU ms', 'CLI peak RSS'];
    const factors = RUNNER_IDS.map((runner) => {
      const factor = scaling(figures, runner);
      return factor === undefined ? undefined : `${RUNNERS[runner].label} ${ratioText(factor)}`;
    }).filter((text): text is string => text !== undefined);
    const counts = figures.counts.map((count) => count.files);
    return `One request (multi_edit_files) over files of 50 KB, one edit in the middle of each, every
implementation a whole process timed from spawn to exit (ratios to the floor as a process). The
floor reads, scans and writes each file; the peer runs, per file, what its edit_file tool runs;
the CLI takes its locks, syncs, checks and renames as always. Its edits rename a word, which the
syntax gate settles by reading the words; a second CLI run adds an argument to the same call in
each file instead, so the gate scans each TypeScript file and parses the statements around its
edit. Median of each, round-robin.

${table(header, rows)}

Time per file at ${counts[counts.length - 1]} files over that at ${counts[0]} (1.00× is linear): ${factors.join('; ')}.`;
  },
  targets(figures) {
    const last = figures.counts[figures.counts.length - 1];
    if (!last) {
      return [];
    }
    const list: Target[] = [];
    const cli = last.runners.cli.medianMs;
    const floorRatio = cli / last.runners.floorProcess.medianMs;
    list.push({ what: `CLI process, ${last.files} files of 50 KB: ≤ 3× the floor process`, measured: ratioText(floorRatio), met: floorRatio <= 3 });
    const parsedRatio = last.runners.cliParsed.medianMs / last.runners.floorProcess.medianMs;
    list.push({ what: `CLI process, ${last.files} files of 50 KB, edits the syntax gate parses: ≤ 3× the floor process`, measured: ratioText(parsedRatio), met: parsedRatio <= 3 });
    const peerRatio = cli / last.runners.peerProcess.medianMs;
    list.push({ what: `CLI process, ${last.files} files of 50 KB: faster than the peer process`, measured: `${ratioText(peerRatio)} the peer's time`, met: peerRatio < 1 });
    const factor = scaling(figures, 'cli');
    if (factor !== undefined) {
      list.push({ what: `CLI time per file at ${last.files} files ≤ 1.3× that at ${figures.counts[0].files}`, measured: ratioText(factor), met: factor <= 1.3 });
    }
    return list;
  },
  bars(figures) {
    const last = figures.counts[figures.counts.length - 1];
    if (!last) {
      return [];
    }
    const bars = [
      { label: `CLI / floor process, ${last.files} files`, ratio: last.runners.cli.medianMs / last.runners.floorProcess.medianMs, target: 3 },
      { label: `CLI, edits the gate parses / floor process, ${last.files} files`, ratio: last.runners.cliParsed.medianMs / last.runners.floorProcess.medianMs, target: 3 },
      { label: `CLI / peer process, ${last.files} files`, ratio: last.runners.cli.medianMs / last.runners.peerProcess.medianMs, target: 1 },
    ];
    const factor = scaling(figures, 'cli');
    return factor === undefined ? bars : [...bars, { label: `CLI per file, ${last.files} vs ${figures.counts[0].files} files`, ratio: factor, target: 1.3 }];
  },
};
