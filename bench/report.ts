/** The benchmark's results as markdown: the time table, the memory table, start-up and the targets. */
import { IMPLEMENTATIONS, type ImplementationId } from './implementations';
import { table, type Target } from './markdown';
import { SECTIONS } from './sectionList';
import type { BenchSection } from './sections';
import { WORKLOAD_IDS, WORKLOAD_LABELS, type WorkloadId } from './workloads';

export interface Cell {
  readonly workload: WorkloadId;
  /** Input size: the bytes of every file the request reads. */
  readonly bytes: number;
  readonly implementation: ImplementationId;
  readonly runs: number;
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
  /** Heap and external above the idle level (in process), or peak RSS (a process). */
  readonly peakBytes: number;
  readonly responseBytes: number;
  readonly outcome: string;
}

export interface StartupFigures {
  readonly runs: number;
  readonly cliMs: number;
  readonly bareNodeMs: number;
  readonly cliCpuMs: number;
  readonly bareNodeCpuMs: number;
  readonly cliPeakRssBytes: number;
  readonly bareNodePeakRssBytes: number;
}

export interface BenchResult {
  readonly date: string;
  readonly machine: string;
  readonly quick: boolean;
  readonly runsPerCell: number;
  /** The one-minute load average when the run started and when it ended: other jobs on the machine inflate wall times, not CPU times or memory. */
  readonly loadAverage?: { readonly start: number; readonly end: number };
  readonly startup: StartupFigures;
  readonly cells: readonly Cell[];
  /** Each section's figures, under its id (sectionList.ts). */
  readonly sections?: Readonly<Record<string, unknown>>;
}

const MB = 1024 * 1024;

export function sizeLabel(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function cellOf(result: BenchResult, workload: WorkloadId, bytes: number, implementation: ImplementationId): Cell | undefined {
  return result.cells.find((cell) => cell.workload === workload && cell.bytes === bytes && cell.implementation === implementation);
}

/** An implementation's median over its floor's, on the same workload and size. */
export function timeRatio(result: BenchResult, cell: Cell): number | undefined {
  const floorId = IMPLEMENTATIONS.find((implementation) => implementation.id === cell.implementation)?.floor;
  const floor = floorId ? cellOf(result, cell.workload, cell.bytes, floorId) : undefined;
  return floor ? cell.medianMs / floor.medianMs : undefined;
}

/** Memory over the input size: above the idle level in process; above a bare node's RSS for a process. */
export function memoryRatio(result: BenchResult, cell: Cell): number {
  const asProcess = IMPLEMENTATIONS.find((implementation) => implementation.id === cell.implementation)?.asProcess ?? false;
  const extra = asProcess ? Math.max(0, cell.peakBytes - result.startup.bareNodePeakRssBytes) : cell.peakBytes;
  return extra / cell.bytes;
}

function sizesOf(result: BenchResult): number[] {
  return [...new Set(result.cells.map((cell) => cell.bytes))].sort((a, b) => a - b);
}

/** Each workload's input sizes, in order (multi-file sizes differ slightly from the single-file ones). */
function rowsOf(result: BenchResult): { workload: WorkloadId; bytes: number }[] {
  return WORKLOAD_IDS.flatMap((workload) => sizesOf(result)
    .filter((bytes) => result.cells.some((cell) => cell.workload === workload && cell.bytes === bytes))
    .map((bytes) => ({ workload, bytes })));
}

function timeText(result: BenchResult, cell: Cell | undefined): string {
  if (!cell) {
    return '–';
  }
  const ratio = timeRatio(result, cell);
  const ms = cell.medianMs >= 100 ? cell.medianMs.toFixed(0) : cell.medianMs.toFixed(1);
  const fewer = cell.runs < result.runsPerCell ? ` (${cell.runs} run)` : '';
  return ratio === undefined ? `${ms}${fewer}` : `${ms} (${ratio.toFixed(2)}×)${fewer}`;
}

function memoryText(result: BenchResult, cell: Cell | undefined): string {
  if (!cell) {
    return '–';
  }
  return `${(cell.peakBytes / MB).toFixed(1)} MB (${memoryRatio(result, cell).toFixed(2)}×)`;
}


function timeTable(result: BenchResult): string {
  const header = ['workload', 'input', ...IMPLEMENTATIONS.map((implementation) => `${implementation.label} ms`), 'envelope bytes', 'outcome'];
  const rows = rowsOf(result).map(({ workload, bytes }) => {
    const engine = cellOf(result, workload, bytes, 'engine');
    return [
      WORKLOAD_LABELS[workload], sizeLabel(bytes),
      ...IMPLEMENTATIONS.map((implementation) => timeText(result, cellOf(result, workload, bytes, implementation.id))),
      String(engine?.responseBytes ?? '–'), engine?.outcome ?? '–',
    ];
  });
  return table(header, rows);
}

function memoryTable(result: BenchResult): string {
  const shown = IMPLEMENTATIONS;
  const header = ['workload', 'input', ...shown.map((implementation) => implementation.label)];
  const rows = rowsOf(result).map(({ workload, bytes }) => [
    WORKLOAD_LABELS[workload], sizeLabel(bytes),
    ...shown.map((implementation) => memoryText(result, cellOf(result, workload, bytes, implementation.id))),
  ]);
  return table(header, rows);
}


const TEN_MB = 10 * MB;

function targets(result: BenchResult): Target[] {
  const list: Target[] = [];
  const overhead = result.startup.cliMs - result.startup.bareNodeMs;
  const cpuOverhead = result.startup.cliCpuMs - result.startup.bareNodeCpuMs;
  list.push({ what: 'CLI start-up over a bare node ≤ 25 ms', measured: `${overhead.toFixed(1)} ms wall, ${cpuOverhead.toFixed(1)} ms CPU`, met: overhead <= 25 });
  const ratioTarget = (workload: WorkloadId, implementation: ImplementationId, limit: number, where: string): void => {
    const cell = result.cells.find((candidate) => candidate.workload === workload && candidate.implementation === implementation && Math.abs(candidate.bytes - TEN_MB) < MB);
    const ratio = cell ? timeRatio(result, cell) : undefined;
    if (ratio !== undefined) {
      list.push({ what: `${where}, ${WORKLOAD_LABELS[workload]}, 10 MB: ≤ ${limit}× its floor`, measured: `${ratio.toFixed(2)}×`, met: ratio <= limit });
    }
  };
  // The gate is on (its default): the three workloads of a request that succeeds, is ambiguous and misses, against one pass.
  ratioTarget('edits200', 'cli', 1.5, 'CLI process');
  ratioTarget('ambiguous', 'cli', 1.5, 'CLI process');
  ratioTarget('notFound', 'cli', 1.5, 'CLI process');
  ratioTarget('ambiguous', 'engine', 1.5, 'engine in process');
  ratioTarget('notFound', 'engine', 1.5, 'engine in process');
  ratioTarget('replaceAll', 'engine', 1.5, 'engine in process');
  const engineCells = result.cells.filter((cell) => cell.implementation === 'engine');
  const worstMemory = (cells: readonly Cell[]): Cell | undefined => cells.reduce<Cell | undefined>((max, cell) => (!max || memoryRatio(result, cell) > memoryRatio(result, max) ? cell : max), undefined);
  const memoryTarget = (what: string, cells: readonly Cell[]): void => {
    const worst = worstMemory(cells);
    if (worst) {
      const ratio = memoryRatio(result, worst);
      list.push({ what, measured: `worst ${ratio.toFixed(2)}× (${WORKLOAD_LABELS[worst.workload]}, ${sizeLabel(worst.bytes)})`, met: ratio <= 4 });
    }
  };
  memoryTarget('engine in process: memory ≤ 4× the input, every workload and size', engineCells);
  memoryTarget('the same from 10 MB up, where fixed costs (search tables, young generation) no longer count', engineCells.filter((cell) => cell.bytes >= 9 * MB));
  for (const { section, figures } of measuredSections(result)) {
    list.push(...section.targets(figures));
  }
  return list;
}

/** The sections this result has figures for, in the report's order. */
export function measuredSections(result: BenchResult): { section: BenchSection<unknown>; figures: unknown }[] {
  return SECTIONS.filter((section) => result.sections?.[section.id] !== undefined).map((section) => ({ section, figures: result.sections?.[section.id] }));
}

function sectionsMarkdown(result: BenchResult): string {
  return measuredSections(result).map(({ section, figures }) => `## ${section.title}\n\n${section.markdown(figures)}\n\n`).join('');
}

/**
 * One row per workload at the largest size near `bytes`: the engine and the CLI
 * against their floors, the naive engine and the peer, and the engine's memory.
 */
export function summaryTable(result: BenchResult, bytes: number): string {
  const header = ['workload', 'floor ms', 'engine', 'CLI process (vs floor process)', 'naive engine', 'peer', 'engine memory'];
  const rows = rowsOf(result).filter((row) => Math.abs(row.bytes - bytes) < bytes / 10).map(({ workload, bytes: size }) => {
    const cell = (implementation: ImplementationId): Cell | undefined => cellOf(result, workload, size, implementation);
    const engine = cell('engine');
    return [
      WORKLOAD_LABELS[workload], timeText(result, cell('floor')), timeText(result, engine), timeText(result, cell('cli')),
      timeText(result, cell('naive')), timeText(result, cell('peer')), engine ? `${memoryRatio(result, engine).toFixed(1)}× input` : '–',
    ];
  });
  return table(header, rows);
}

/** The workload-by-size grid: the summary, the time and the memory tables. */
function gridMarkdown(result: BenchResult): string {
  return `## Summary at 10 MB (ms, and the ratio to the floor)

${summaryTable(result, 10 * MB)}

## Time (ms, and the ratio to the floor)

In-process implementations are divided by the in-process floor, the CLI by the floor as a process.
The floor reads each file, scans it once and writes it back, on every workload (failures and dry
runs included). The engine runs as the CLI does: Node store (lock, synced temp file, check, rename)
and the whole diff.

${timeTable(result)}

## Peak memory (and its ratio to the input size)

In process: heap and external memory above the idle level, sampled before every garbage collection
and every millisecond the run waits. Processes: peak RSS; the ratio counts only what is above a bare
node's RSS (${(result.startup.bareNodePeakRssBytes / MB).toFixed(1)} MB), so it includes garbage not yet collected, V8's young generation and
freed memory not yet returned: the floor as a process shows what that costs even the least a
process can do. The target of 4× the input is held to the engine in process.

${memoryTable(result)}

`;
}

function loadLine(result: BenchResult): string {
  const load = result.loadAverage;
  return load ? `; load average ${load.start.toFixed(1)} at the start and ${load.end.toFixed(1)} at the end` : '';
}

export function markdownReport(result: BenchResult): string {
  const { startup } = result;
  return `# Multi-Edit benchmark${result.quick ? ' (quick)' : ''}

${result.date.slice(0, 16).replace('T', ' ')} UTC; ${result.machine}${loadLine(result)}. Median of ${result.runsPerCell} runs after a warm-up
that also checks the result (the engine, the naive engine and the peer must write exactly what
plain sequential replacement gives; failures must carry the expected code).

${result.cells.length > 0 ? gridMarkdown(result) : ''}## Start-up

\`multi-edit apply\` of one edit to a one-line file against a bare \`node -e 0\`, taking turns, median of
${startup.runs}: ${startup.cliMs.toFixed(1)} ms against ${startup.bareNodeMs.toFixed(1)} ms of wall time (${(startup.cliMs - startup.bareNodeMs).toFixed(1)} ms more), ${startup.cliCpuMs.toFixed(1)} ms
against ${startup.bareNodeCpuMs.toFixed(1)} ms of CPU time (${(startup.cliCpuMs - startup.bareNodeCpuMs).toFixed(1)} ms more); peak RSS ${(startup.cliPeakRssBytes / MB).toFixed(1)} MB against
${(startup.bareNodePeakRssBytes / MB).toFixed(1)} MB. The wall time includes the commit's fsyncs; the CPU time waits neither
for the disk nor for other processes.

${sectionsMarkdown(result)}## Targets

${table(['target', 'measured', 'met'], targets(result).map((target) => [target.what, target.measured, target.met ? 'yes' : 'no']))}

## What differs

- The peer (\`applyFileEdits\` of @modelcontextprotocol/server-filesystem) does not check that an
  old_string is unique (it replaces the first match), has no replace_all, rewrites CRLF as LF, and
  edits one file per call with no all-or-nothing across files; it always builds a diff. It runs
  only the workloads it can express.
- The naive engine scans twice per edit and copies the whole text per edit; its dry run diffs with
  jsdiff. It gives no context, diagnosis or count of matches.
- A warm-up slower than 15 s is followed by a single counted run, marked "(1 run)".
`;
}
