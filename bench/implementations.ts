/**
 * What the benchmark sets side by side on each workload: the engine in this process
 * and the CLI as a process, each against its one-pass floor; a naive engine; and a
 * peer, applyFileEdits of @modelcontextprotocol/server-filesystem.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { runRequest, type EngineOptions } from '../src/core/index';
import { NodeFileStore } from '../src/node/store/nodeFileStore';
import { onePassFloor } from './floor';
import { importPeerLibrary, type PeerLibrary } from './peerLibrary';
import { peakInProcess, peakRssOfNode, runNode, timeInProcess, type Measured } from './measure';
import { expectedTexts, toolRequest, type Workload, type WorkloadId } from './workloads';

export interface Outcome {
  readonly success: boolean;
  readonly errorCode?: string;
  /** Bytes of the response: the envelope, the CLI's stdout, or the peer's text. */
  readonly responseBytes: number;
}

export const IMPLEMENTATION_IDS = ['floor', 'engine', 'naive', 'peer', 'floorProcess', 'cli'] as const;
export type ImplementationId = (typeof IMPLEMENTATION_IDS)[number];

export interface Implementation {
  readonly id: ImplementationId;
  readonly label: string;
  readonly asProcess: boolean;
  /** The floor its time is divided by; none for the floors. */
  readonly floor?: ImplementationId;
  supports(workload: Workload): boolean;
  run(workload: Workload): Promise<Measured<Outcome>>;
  /** Peak memory in bytes: heap and external above the idle level in process, RSS for a process. */
  peak(workload: Workload, scratch: string): Promise<number>;
}

/** The largest workload is 50 MB; the default limit (32 MB) would refuse it. */
export const MAX_FILE_MB = 64;

export const REPO_ROOT = join(__dirname, '..', '..');
export const CLI_PATH = join(REPO_ROOT, 'dist', 'cli.js');
const FLOOR_PROGRAM = join(__dirname, 'floor.js');

const engineOptions: EngineOptions = {
  store: new NodeFileStore(),
  // As the CLI runs: a person at a terminal gets the whole diff.
  limits: { maxFileBytes: MAX_FILE_MB * 1024 * 1024, maxDiffBytes: Number.POSITIVE_INFINITY },
};

function paths(workload: Workload): string[] {
  return workload.request.files.map((file) => file.file_path);
}

function inProcess(
  id: ImplementationId, label: string, body: (workload: Workload) => Promise<Outcome>,
  options: { floor?: ImplementationId; supports?: (workload: Workload) => boolean } = {},
): Implementation {
  return {
    id,
    label,
    asProcess: false,
    ...(options.floor ? { floor: options.floor } : {}),
    supports: options.supports ?? (() => true),
    run: (workload) => timeInProcess(() => body(workload)),
    peak: (workload) => peakInProcess(() => body(workload)),
  };
}

function asProcess(
  id: ImplementationId, label: string, args: (workload: Workload) => string[], outcome: (stdout: string, bytes: number) => Outcome,
  floor?: ImplementationId,
): Implementation {
  return {
    id,
    label,
    asProcess: true,
    ...(floor ? { floor } : {}),
    supports: () => true,
    run: async (workload) => {
      const measured = await runNode(args(workload));
      return { ms: measured.ms, result: outcome(measured.result.stdout, measured.result.stdoutBytes) };
    },
    peak: (workload, scratch) => peakRssOfNode(args(workload), scratch),
  };
}

async function engine(workload: Workload): Promise<Outcome> {
  const { tool, input } = toolRequest(workload);
  const { response } = await runRequest(tool, input, engineOptions);
  return { success: response.success, ...(response.success ? {} : { errorCode: response.error_code }), responseBytes: JSON.stringify(response).length };
}

/**
 * The naive engine of design §7: per edit, one scan for the match, a second to
 * prove it unique, and a copy of the whole text; a dry run diffs with jsdiff.
 */
async function naive(workload: Workload): Promise<Outcome> {
  const texts = new Map<string, string>();
  for (const file of workload.request.files) {
    let text = await readFile(file.file_path, 'utf8');
    const original = text;
    for (const edit of file.edits) {
      if (edit.replace_all) {
        if (!text.includes(edit.old_string)) {
          return { success: false, errorCode: 'MATCH_NOT_FOUND', responseBytes: 0 };
        }
        text = text.split(edit.old_string).join(edit.new_string);
        continue;
      }
      const first = text.indexOf(edit.old_string);
      if (first === -1) {
        return { success: false, errorCode: 'MATCH_NOT_FOUND', responseBytes: 0 };
      }
      if (text.indexOf(edit.old_string, first + 1) !== -1) {
        return { success: false, errorCode: 'AMBIGUOUS_MATCH', responseBytes: 0 };
      }
      text = text.slice(0, first) + edit.new_string + text.slice(first + edit.old_string.length);
    }
    texts.set(file.file_path, workload.request.dryRun ? createTwoFilesPatch(file.file_path, file.file_path, original, text) : text);
  }
  if (workload.request.dryRun) {
    return { success: true, responseBytes: [...texts.values()].reduce((sum, diff) => sum + diff.length, 0) };
  }
  for (const [path, text] of texts) {
    await writeFile(path, text, 'utf8');
  }
  return { success: true, responseBytes: 0 };
}

let applyFileEdits: PeerLibrary['applyFileEdits'] | undefined;

/** The peer is an ES module; it is loaded once, before the first run. */
export async function loadPeer(): Promise<void> {
  applyFileEdits = (await importPeerLibrary()).applyFileEdits;
}

/**
 * The peer edits one file per call, with no uniqueness check (an ambiguous edit
 * replaces the first match) and no replace_all, so those two workloads are not
 * its to run; it also rewrites CRLF as LF, which these LF files do not show.
 */
const PEER_WORKLOADS: ReadonlySet<WorkloadId> = new Set(['edits200', 'notFound', 'multiFile', 'dryRunDiff']);

async function peer(workload: Workload): Promise<Outcome> {
  if (!applyFileEdits) {
    throw new Error('loadPeer() was not called');
  }
  let responseBytes = 0;
  for (const file of workload.request.files) {
    try {
      const edits = file.edits.map((edit) => ({ oldText: edit.old_string, newText: edit.new_string }));
      responseBytes += (await applyFileEdits(file.file_path, edits, workload.request.dryRun)).length;
    } catch {
      return { success: false, errorCode: 'MATCH_NOT_FOUND', responseBytes };
    }
  }
  return { success: true, responseBytes };
}

function requestPath(workload: Workload): string {
  return join(dirname(paths(workload)[0]), 'request.json');
}

/** Writes the request file the CLI reads; done once per workload, before any run. */
export async function writeCliRequest(workload: Workload): Promise<void> {
  await writeFile(requestPath(workload), JSON.stringify(toolRequest(workload).input), 'utf8');
}

/** `node` arguments of the floor as a process: every file the request names. */
export function floorProcessArgs(workload: Workload): string[] {
  return [FLOOR_PROGRAM, ...paths(workload)];
}

/** `node` arguments of the CLI applying the workload's request file. */
export function cliProcessArgs(workload: Workload): string[] {
  return [CLI_PATH, 'apply', '--max-file-size', String(MAX_FILE_MB), requestPath(workload)];
}

/** `node` arguments of the peer as a process, applying the same request file (peerProcess.ts). */
export function peerProcessArgs(workload: Workload): string[] {
  return [join(__dirname, 'peerProcess.js'), requestPath(workload)];
}

function cliOutcome(stdout: string, bytes: number): Outcome {
  const response = JSON.parse(stdout) as { success: boolean; error_code?: string };
  return { success: response.success, ...(response.error_code ? { errorCode: response.error_code } : {}), responseBytes: bytes };
}

export const IMPLEMENTATIONS: readonly Implementation[] = [
  inProcess('floor', 'floor (read, scan, write)', async (workload) => {
    await onePassFloor(paths(workload));
    return { success: true, responseBytes: 0 };
  }),
  inProcess('engine', 'engine', engine, { floor: 'floor' }),
  inProcess('naive', 'naive engine', naive, { floor: 'floor' }),
  inProcess('peer', 'peer (applyFileEdits)', peer, { floor: 'floor', supports: (workload) => PEER_WORKLOADS.has(workload.id) }),
  asProcess('floorProcess', 'floor as a process', floorProcessArgs, () => ({ success: true, responseBytes: 0 })),
  asProcess('cli', 'CLI process', cliProcessArgs, cliOutcome, 'floorProcess'),
];

/** Whether a run did what the workload expects: the right error, or exactly the sequential result. */
export async function verify(workload: Workload, implementation: Implementation, outcome: Outcome): Promise<string | undefined> {
  if (implementation.id === 'floor' || implementation.id === 'floorProcess') {
    return undefined;
  }
  const expected = workload.expected;
  if (!expected.success) {
    return outcome.success ? `${implementation.id} succeeded where ${expected.errorCode} was expected` : undefined;
  }
  if (!outcome.success) {
    return `${implementation.id} failed with ${outcome.errorCode}`;
  }
  if (!workload.writes) {
    return undefined;
  }
  for (const [path, text] of expectedTexts(workload)) {
    if ((await readFile(path, 'utf8')) !== text) {
      return `${implementation.id} wrote ${path} differently from plain sequential replacement`;
    }
  }
  return undefined;
}
