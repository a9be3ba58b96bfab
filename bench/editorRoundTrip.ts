/**
 * The editor round trip: 50 edits on a 1 MB open document through vscode.lm.invokeTool
 * against a bare workspace.applyEdit of the same changes. It can only be measured in
 * a real VS Code extension host, so the benchmark runs that one integration test
 * (test/integration/hostBench.test.ts) and reads the figures it writes.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './implementations';
import { msText, ratioText, table } from './markdown';
import type { BenchSection } from './sections';

/** Where hostBench.test.ts writes its figures when the variable is set. */
export const HOST_BENCH_FIGURES_VARIABLE = 'MULTI_EDIT_HOST_BENCH_FIGURES';
const HOST_BENCH_GREP = 'extension host benchmark';

/** What hostBench.test.ts measures, as it writes it. */
export interface HostBenchFigures {
  readonly vscodeVersion: string;
  readonly documentBytes: number;
  readonly editsPerCall: number;
  readonly calls: number;
  readonly toolP50Ms: number;
  readonly toolP95Ms: number;
  readonly bareP50Ms: number;
  readonly bareP95Ms: number;
  /** invokeTool of a one-edit dry run on a small file: the tool channel's round trips, next to no work. */
  readonly channelP50Ms: number;
  readonly channelP95Ms: number;
}

/**
 * The tool channel alone (15 ms and more) exceeds half a bare applyEdit of these edits, so the
 * tool call is held to the channel plus the bare edit: what the engine adds on top of both.
 */
const ROUND_TRIP_TARGET = 1.3;

function overChannelAndEdit(host: HostBenchFigures): { p50: number; p95: number } {
  return { p50: host.toolP50Ms / (host.channelP50Ms + host.bareP50Ms), p95: host.toolP95Ms / (host.channelP95Ms + host.bareP95Ms) };
}

export type EditorRoundTripFigures = { readonly measured: true; readonly host: HostBenchFigures } | { readonly measured: false; readonly why: string };

function runHostBench(figuresPath: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(REPO_ROOT, 'scripts', 'vscode-test', 'run.sh')], {
      cwd: REPO_ROOT,
      env: { ...process.env, MULTI_EDIT_TEST_GREP: HOST_BENCH_GREP, [HOST_BENCH_FIGURES_VARIABLE]: figuresPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve(`the integration runner did not start: ${error.message}`));
    child.on('close', (code) => resolve(code === 0 ? undefined : `the integration runner exited with ${code}: ${output.trim().split('\n').slice(-3).join(' / ')}`));
  });
}

export const editorRoundTripSection: BenchSection<EditorRoundTripFigures> = {
  id: 'editorRoundTrip',
  title: 'The editor round trip',
  async measure({ scratch, quick }) {
    if (quick) {
      return { measured: false, why: 'the quick run does not start VS Code' };
    }
    const figuresPath = join(scratch, 'host-bench.json');
    const problem = await runHostBench(figuresPath);
    if (problem) {
      console.error(`editor round trip: ${problem}`);
      return { measured: false, why: problem };
    }
    const host = JSON.parse(await readFile(figuresPath, 'utf8')) as HostBenchFigures;
    console.error(`editor round trip: invokeTool p50 ${host.toolP50Ms.toFixed(1)} ms, bare applyEdit p50 ${host.bareP50Ms.toFixed(1)} ms`);
    return { measured: true, host };
  },
  markdown(figures) {
    if (!figures.measured) {
      return `Not measured in this run: ${figures.why}.`;
    }
    const { host } = figures;
    const rows = [
      ['multi_edit through vscode.lm.invokeTool', `${msText(host.toolP50Ms)} (${ratioText(host.toolP50Ms / host.bareP50Ms)})`, `${msText(host.toolP95Ms)} (${ratioText(host.toolP95Ms / host.bareP95Ms)})`],
      ['a bare workspace.applyEdit of the same replacements', msText(host.bareP50Ms), msText(host.bareP95Ms)],
      ['the tool channel alone: invokeTool of a one-edit dry run on a small file', msText(host.channelP50Ms), msText(host.channelP95Ms)],
    ];
    return `${host.editsPerCall} edits a call on a ${(host.documentBytes / 1024 / 1024).toFixed(1)} MB open plain-text document, ${host.calls} calls each, in the
VS Code ${host.vscodeVersion} extension host (test/integration/hostBench.test.ts, run by the benchmark). Ratios are
to the bare applyEdit. Every tool call pays the tool channel's round trips (the workbench asks the extension to
prepare the call, then to run it, then hands the answer back), which a bare applyEdit does not.

${table(['path', 'p50 ms', 'p95 ms'], rows)}`;
  },
  targets(figures) {
    if (!figures.measured) {
      return [];
    }
    const { p50, p95 } = overChannelAndEdit(figures.host);
    return [{ what: `editor round trip: invokeTool ≤ ${ROUND_TRIP_TARGET}× the tool channel alone plus a bare applyEdit (p50 and p95)`, measured: `p50 ${ratioText(p50)}, p95 ${ratioText(p95)}`, met: p50 <= ROUND_TRIP_TARGET && p95 <= ROUND_TRIP_TARGET }];
  },
  bars(figures) {
    return figures.measured ? [{ label: 'editor: invokeTool p50 / (channel + bare applyEdit)', ratio: overChannelAndEdit(figures.host).p50, target: ROUND_TRIP_TARGET }] : [];
  },
};
