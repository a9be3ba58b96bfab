/**
 * Time and memory of one run, in this process or as a child process.
 *
 * In process, the peak is the largest heap plus external memory seen before any
 * garbage collection during the run (V8's GC profiler reports each collection),
 * while it waits, or at its end, less what was in use before the run. A child process reports its own
 * peak resident set size and CPU time when it exits, through a preloaded module
 * (exitReport.ts).
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** Garbage from one run must not be collected in the next; the bench runs node with --expose-gc. */
export const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

export interface Measured<T> {
  readonly ms: number;
  readonly result: T;
}

export async function timeInProcess<T>(run: () => Promise<T>): Promise<Measured<T>> {
  collectGarbage();
  const started = process.hrtime.bigint();
  const result = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

/**
 * Collects garbage and lets V8 release the buffers it freed (that happens after the
 * collection, off the main thread), so the idle level is not counted high.
 */
async function settle(): Promise<void> {
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 20));
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
}

function heapAndExternal(): number {
  const heap = getHeapStatistics();
  return heap.used_heap_size + heap.external_memory;
}

/**
 * Bytes of heap and external memory above what was in use before the run: the
 * largest seen before any garbage collection, each millisecond the run waits on
 * I/O, or at its end.
 */
export async function peakInProcess(run: () => Promise<unknown>): Promise<number> {
  await settle();
  const baseline = heapAndExternal();
  let sampled = baseline;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, heapAndExternal());
  }, 1);
  const profiler = new GCProfiler();
  profiler.start();
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  const statistics = profiler.stop()?.statistics ?? [];
  let peak = Math.max(sampled, heapAndExternal());
  for (const entry of statistics) {
    const heap = entry.beforeGC.heapStatistics;
    peak = Math.max(peak, heap.usedHeapSize + heap.externalMemory);
  }
  return Math.max(0, peak - baseline);
}

export interface ProcessRun {
  readonly exitCode: number;
  readonly stdoutBytes: number;
  readonly stdout: string;
}

/** Runs `node args...` to its end; the time covers spawn to exit, as a user waits for it. */
export function runNode(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Measured<ProcessRun>> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const stdout = Buffer.concat(chunks);
      if (code !== 0 && code !== 1) {
        reject(new Error(`node ${args.join(' ')} exited with ${code}: ${Buffer.concat(errors).toString('utf8').slice(0, 500)}`));
        return;
      }
      resolve({ ms, result: { exitCode: code ?? -1, stdoutBytes: stdout.length, stdout: stdout.toString('utf8') } });
    });
  });
}

const EXIT_REPORT_MODULE = join(__dirname, 'exitReport.js');

export interface ReportedRun {
  readonly ms: number;
  readonly peakRssBytes: number;
  readonly cpuMs: number;
  readonly exitCode: number;
}

/** Runs `node args...` with exitReport.ts preloaded: wall time, peak RSS and CPU time. */
export async function runNodeReported(args: readonly string[], scratch: string): Promise<ReportedRun> {
  const reportPath = join(scratch, `exit-report-${process.pid}.txt`);
  const run = await runNode(['--require', EXIT_REPORT_MODULE, ...args], { ...process.env, BENCH_EXIT_REPORT_FILE: reportPath });
  const [kilobytes, micros] = (await readFile(reportPath, 'utf8')).trim().split(' ').map(Number);
  await rm(reportPath, { force: true });
  return { ms: run.ms, peakRssBytes: kilobytes * 1024, cpuMs: micros / 1000, exitCode: run.result.exitCode };
}

/** The peak resident set size of `node args...`, in bytes. */
export async function peakRssOfNode(args: readonly string[], scratch: string): Promise<number> {
  return (await runNodeReported(args, scratch)).peakRssBytes;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The value below which `fraction` of the samples lie (nearest rank). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}
