/**
 * The multi-edit command-line program (bundled to dist/cli.js).
 * Exit codes: 0 success; 1 an error envelope was printed; 2 usage error or a
 * request that is not JSON (message on stderr, nothing on stdout); 70 an internal
 * error. When the report cannot be written (stdout closed or full), the exit code is
 * still the request's own, and stderr says the report was lost in one line.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { version } from '../../../package.json';
import { type DiffPieces, type EngineResponse, escapeControls, type HistoryEntry, isRecord, type Limits, storeFailureFromError, type SuccessResponseWith, type SyntaxCheckPolicy, TOOL_MULTI_EDIT_PATCH, toolForRequest } from '../../core/index';
import { historySettingsFromEnv } from '../../shared/history/historyBook';
import { listedRequest, RequestHistory } from '../../shared/history/requestHistory';
import { type ApplyCommand, type HistoryCommand, parseArgs, type PatchCommand, STDIN_OPERAND, type UndoCommand } from './cliArgs';
import { formatText } from './cliFormat';
import { jsonPieces } from './jsonPieces';
import { commandHelp, globalHelp, usageOf, type CommandName } from './cliHelp';
import { Interruption } from './interruption';
import { startMcpServer } from './mcpLauncher';
import { writeStdout } from './standardOutput';
import { applyScope, historyScope, patchScope } from '../host/cliPaths';
import type { HostScope } from '../host/hostScope';
import { NodeHost } from '../host/nodeHost';

const EXIT_SUCCESS = 0;
const EXIT_ENVELOPE = 1;
const EXIT_USAGE = 2;
/** A bug: an unexpected throw, reported in one line without a stack trace. */
const EXIT_INTERNAL = 70;

/** Input problems that end the run before the engine sees anything: exit 2, no envelope. */
class UsageError extends Error {}

async function main(args: readonly string[]): Promise<number> {
  const command = parseArgs(args);
  switch (command.kind) {
    case 'help':
      process.stdout.write(command.command ? commandHelp(command.command) : globalHelp());
      return EXIT_SUCCESS;
    case 'version':
      process.stdout.write(`${version}\n`);
      return EXIT_SUCCESS;
    case 'usage_error':
      return reportUsageError(command.message, { command: command.command });
    case 'mcp':
      return startMcpServer(command);
    case 'apply':
    case 'patch':
    case 'undo':
    case 'history':
      try {
        return await RUNNERS[command.kind](command as never);
      } catch (error) {
        if (error instanceof UsageError) {
          return reportUsageError(error.message);
        }
        throw error;
      }
  }
}

/** A usage error on stderr; with `usage`, the usage lines of the command it was given to (or of every command) and where help is. */
function reportUsageError(message: string, usage?: { readonly command: CommandName | undefined }): number {
  const helpCommand = usage?.command ? `multi-edit ${usage.command} --help` : 'multi-edit --help';
  const usageText = usage ? `${usageOf(usage.command)}\nRun "${helpCommand}" for details.\n` : '';
  process.stderr.write(`multi-edit: ${message}\n${usageText}`);
  return EXIT_USAGE;
}

const RUNNERS = { apply, patch, undo, history } as const;

/** --root as a directory (default: the working directory); a usage error when it is none. */
async function rootDirectory(option: string | undefined): Promise<string> {
  const root = resolve(process.cwd(), option ?? '.');
  const isDirectory = await stat(root).then((stats) => stats.isDirectory(), () => false);
  if (!isDirectory) {
    throw new UsageError(`--root ${root} is not a directory`);
  }
  return root;
}

async function apply(command: ApplyCommand): Promise<number> {
  const request = parseRequestJson(await readRequestText(command.source), command.source);
  const tool = toolForRequest(request);
  const input = command.dryRun && isRecord(request) ? { ...request, dry_run: true } : request;
  return runAndReport(tool, input, command, applyScope(command.allowProtected), {
    ...(command.insideIndentation ? { insideIndentation: command.insideIndentation } : {}),
    ...(command.insideToken ? { insideToken: command.insideToken } : {}),
    ...(command.maxFileBytes !== undefined ? { maxFileBytes: command.maxFileBytes } : {}),
  });
}

/** `multi-edit patch`: the patch's paths are relative to the root, and must stay inside it. */
async function patch(command: PatchCommand): Promise<number> {
  const root = await rootDirectory(command.root);
  // An empty patch is the engine's VALIDATION_FAILED, answered in the format asked for.
  const text = (await readRequestText(command.source)).replace(/^\uFEFF/, '');
  const input = { patch: text, ...(command.dryRun ? { dry_run: true } : {}), ...(command.fullDiff ? { full_diff: true } : {}) };
  return runAndReport(TOOL_MULTI_EDIT_PATCH, input, command, await patchScope(root, command.allowProtected), {});
}

/** `multi-edit undo`: take back a request of the root's history, wherever its files are (apply edits outside the root too). */
async function undo(command: UndoCommand): Promise<number> {
  const interruption = new Interruption();
  const host = await historyHost(command.root, command.maxFileBytes !== undefined ? { maxFileBytes: command.maxFileBytes } : {});
  const response = await interruption.during(() => host.undo(command.requestId, command.dryRun, interruption));
  return report(response, () => (command.format === 'text' ? [formatText(response, displayPath)] : jsonReport(response)));
}

/** `multi-edit history`: the root's recent requests, newest first. */
async function history(command: HistoryCommand): Promise<number> {
  const listed = await (await historyHost(command.root)).history(command.limit);
  const text = command.format === 'text' ? historyText(listed.entries) : `${JSON.stringify({ root: listed.root, requests: listed.entries.map(listedRequest) })}\n`;
  await writeStdout([text]);
  return EXIT_SUCCESS;
}

/** The host of a history command: the root's history, its protected globs (undo writes nothing they cover), and undo's size limit. */
async function historyHost(rootOption: string | undefined, limits: Partial<Limits> = {}): Promise<NodeHost> {
  const root = await rootDirectory(rootOption);
  return hostFor(await historyScope(root), { syntaxCheck: 'refuse', noHistory: false }, limits);
}

function historyText(entries: readonly HistoryEntry[]): string {
  if (entries.length === 0) {
    return 'no applied request is kept for this root\n';
  }
  return entries.map((entry) => `${entry.request_id}  ${entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}  ${entry.surface}  ${escapeControls(entry.summary)}${entry.undone_at ? '  (undone)' : ''}\n`).join('');
}

/** Runs a request through the host, prints its report, and gives the exit code. */
async function runAndReport(
  tool: string, input: unknown, command: ApplyCommand | PatchCommand, scope: HostScope, limits: Partial<Limits>,
): Promise<number> {
  const interruption = new Interruption();
  // The history never copies a protected file: a command allowed to edit one keeps none.
  const host = hostFor(scope, { ...command, noHistory: command.noHistory || command.allowProtected.length > 0 }, limits);
  if (command.format === 'text') {
    const { response } = await interruption.during(() => host.run(tool, input, interruption));
    return report(response, () => [formatText(response, displayPath)]);
  }
  // The JSON report takes each diff as it is made: a dry run of a sweeping change never holds its diff whole.
  const { response } = await interruption.during(() => host.runWithDiffPieces(tool, input, interruption));
  return report(response, () => jsonReport(response));
}

/** What a command says of how its requests run. */
interface RunSettings {
  readonly syntaxCheck: SyntaxCheckPolicy;
  readonly noHistory: boolean;
  readonly encoding?: string;
  readonly timeLimitMs?: number;
}

function hostFor(scope: HostScope, { syntaxCheck, noHistory, encoding, timeLimitMs }: RunSettings, limits: Partial<Limits>): NodeHost {
  return new NodeHost({
    scope,
    syntaxCheck,
    ...(encoding !== undefined ? { encoding } : {}),
    ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    // A person at a terminal asked for the diff: print all of it (the tools clip theirs for the model).
    limits: { ...limits, maxDiffBytes: Number.POSITIVE_INFINITY },
    displayPath,
    log: (message) => process.stderr.write(`multi-edit: ${message}\n`),
    history: new RequestHistory(historySettingsFromEnv(process.env, noHistory ? { enabled: false } : {}), 'cli'),
  });
}

type CliResponse = EngineResponse | SuccessResponseWith<DiffPieces | string>;

async function report(response: CliResponse, pieces: () => Iterable<string>): Promise<number> {
  const exitCode = response.success ? EXIT_SUCCESS : EXIT_ENVELOPE;
  const unwritten = await writeStdout(pieces());
  if (unwritten) {
    // The exit code still tells whether the edits landed: a script can rely on it.
    const outcome = response.success ? (response.dry_run ? 'the dry run succeeded' : 'the edits were applied') : `the request failed (${response.error_code})`;
    process.stderr.write(`multi-edit: ${outcome}, but the report could not be written to standard output (${unwritten})\n`);
  }
  return exitCode;
}

/** The JSON report as it is written, a piece at a time (its diffs can run to tens of megabytes). */
function* jsonReport(response: CliResponse): Generator<string> {
  yield* jsonPieces(response);
  yield '\n';
}

async function readRequestText(source: string): Promise<string> {
  if (source === STDIN_OPERAND) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the request file "${source}": ${storeFailureFromError(error, 'read').detail}`);
  }
}

function parseRequestJson(text: string, source: string): unknown {
  const from = source === STDIN_OPERAND ? 'standard input' : `"${source}"`;
  const json = text.replace(/^\uFEFF/, '');
  if (json.trim() === '') {
    throw new UsageError(`the request from ${from} is empty; expected a JSON object`);
  }
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new UsageError(`the request from ${from} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Paths inside the current directory read relative to it; others stay absolute. */
function displayPath(absolutePath: string): string {
  const fromCwd = relative(process.cwd(), absolutePath);
  const outside = fromCwd === '' || fromCwd === '..' || fromCwd.startsWith(`..${sep}`) || isAbsolute(fromCwd);
  return outside ? absolutePath : fromCwd;
}

// A pipe closed by the reader reports EPIPE as an event; it is handled where output is written, never fatal.
process.stdout.on('error', () => undefined);

/**
 * Ends the process once stdout and stderr have taken everything written to them. Waiting for
 * the event loop to run dry instead can hang at exit after the syntax gate has compiled its
 * WebAssembly: Node then waits for V8 background tasks, and was seen waiting there for good.
 */
function exitWith(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

void main(process.argv.slice(2)).then(
  (code) => exitWith(code),
  () => {
    process.stderr.write('multi-edit: an internal error stopped the run; please report it with the request\n');
    exitWith(EXIT_INTERNAL);
  },
);
