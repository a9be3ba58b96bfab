/**
 * The one host of the engine for every Node command: `multi-edit apply`, `patch` and
 * `mcp` are transports over it. It builds the engine's options (through the core's
 * surfaceOptions, as the extension's runner does), and it owns what those commands
 * share: the scope every path is checked against, the store confined to it by the held
 * directory, the turns of calls that name one file, the syntax gate, and, for a server
 * that serves one client across calls, the loop breaker.
 *
 * A call reads its request once: the reading names the files whose turn the call takes,
 * and the engine plans from that same reading.
 *
 * Every applied request gets a request_id; with the history on, its record is kept under
 * the host's history root (the first folder of the scope, or the working directory), and
 * `undo` takes a request back through the same scope and store.
 */
import { realpathSync } from 'node:fs';
import { inspect } from 'node:util';
import {
  type CancellationSignal, type DiffPieces, type EngineOptions, type ErrorEnvelope, type HistoryEntry, type Limits, parseRequest, type ParseResult, RepeatedFailures, type RequestRun,
  runParsedRequest, runParsedRequestWithDiffPieces, type SuccessResponse, type SuccessResponseWith, surfaceOptions, type SurfaceSyntaxGate, type SyntaxCheckPolicy,
} from '../../core/index';
import { historySettingsFromEnv } from '../../shared/history/historyBook';
import { RequestHistory } from '../../shared/history/requestHistory';
import { nodeFs } from '../store/fsApi';
import { NodeFileStore } from '../store/nodeFileStore';
import { SERVER_MEMORY_MS, storeMemory, type StoreMemory } from '../store/storeMemory';
import type { HostScope } from './hostScope';
import { nodeSyntaxGate } from './nodeSyntaxGate';
import { heldForTests } from './testHold';
import { inTurn } from './turns';

export interface HostSettings {
  readonly scope: HostScope;
  readonly syntaxCheck: SyntaxCheckPolicy;
  /** --encoding: a file's encoding when it has no BOM, is not UTF-8 and its request names none. */
  readonly encoding?: string;
  readonly limits?: Partial<Limits>;
  /** How a path reads in answers; default, as the scope shows it. */
  readonly displayPath?: (absolutePath: string) => string;
  /** Where the host tells what no answer carries: a grammar that cannot load, a bug's details. */
  readonly log: (message: string) => void;
  /**
   * One process serving one client across many calls (the MCP server): a failure the client
   * repeats escalates (the loop breaker), and what the stores learn of directories is kept a while.
   */
  readonly session?: boolean;
  /** --max-time: planning longer than this is stopped and answered CANCELLED. */
  readonly timeLimitMs?: number;
  /** The history applied requests are kept in; default, as the environment says (MULTI_EDIT_NO_HISTORY...). */
  readonly history?: RequestHistory;
  /** The folder whose history a command without a root keeps; default, the working directory. */
  readonly workingDirectory?: string;
}

export class NodeHost {
  private readonly syntax: SurfaceSyntaxGate;
  private readonly memory: StoreMemory;
  private readonly repeats: RepeatedFailures | undefined;
  private readonly requestHistory: RequestHistory;

  constructor(private readonly settings: HostSettings) {
    this.requestHistory = settings.history ?? new RequestHistory(historySettingsFromEnv(), settings.session ? 'mcp' : 'cli');
    this.syntax = nodeSyntaxGate(settings.syntaxCheck, settings.log, { shortLived: !settings.session });
    this.memory = storeMemory(settings.session ? SERVER_MEMORY_MS : undefined);
    this.repeats = settings.session ? new RepeatedFailures() : undefined;
  }

  get scope(): HostScope {
    return this.settings.scope;
  }

  /** Runs one call in its turn; the response is the one the caller gets (after the loop breaker, in a session). */
  async run(tool: string, input: unknown, cancellation: CancellationSignal): Promise<RequestRun> {
    const run = await this.inTurn(tool, input, cancellation, runParsedRequest);
    return this.repeats ? { ...run, response: this.repeats.note(tool, input, run.response) } : run;
  }

  /** run() for a caller that writes the response as it goes: each diff comes as pieces, never clipped. */
  runWithDiffPieces(tool: string, input: unknown, cancellation: CancellationSignal): Promise<RequestRun<SuccessResponseWith<DiffPieces | string>>> {
    return this.inTurn(tool, input, cancellation, runParsedRequestWithDiffPieces);
  }

  private async inTurn<Run extends RequestRun<{ readonly success: true; readonly request_id?: string }>>(
    tool: string, input: unknown, cancellation: CancellationSignal, engine: (parsed: Promise<ParseResult>, options: EngineOptions) => Promise<Run>,
  ): Promise<Run> {
    const parsed = parseRequest(tool, input, this.settings.limits);
    // A reading that throws (a bug) names no file; the engine answers it INTERNAL_ERROR.
    const reading = await parsed.catch(() => undefined);
    const options = this.engineOptions(cancellation);
    const { scope } = this.settings;
    const history = this.requestHistory;
    const request = reading?.ok ? reading.request : undefined;
    return inTurn(request, (path) => scope.resolvedPath(path), options.root, async () => {
      if (!request || request.dryRun) {
        return engine(parsed, options);
      }
      const recorded = await history.record(this.historyRoot(options), options.store, options.displayPath ?? ((path) => path));
      const run = await engine(parsed, { ...options, store: recorded.store, requestId: recorded.requestId });
      return { ...run, response: recorded.finish(run.response) };
    });
  }

  /** Undoes request `id` (default: the latest not yet undone) of this host's history root, through its scope and store. */
  undo(id: string | undefined, dryRun: boolean, cancellation: CancellationSignal): Promise<SuccessResponse | ErrorEnvelope> {
    const options = this.engineOptions(cancellation);
    return this.requestHistory.undo(this.historyRoot(options), id, dryRun, options);
  }

  /** The recent requests of this host's history root, newest first. */
  history(limit: number): Promise<{ readonly root: string; readonly entries: HistoryEntry[] }> {
    const options = this.engineOptions({ isCancellationRequested: false });
    const root = this.historyRoot(options);
    return this.requestHistory.list(root, options.store, limit).then((entries) => ({ root, entries }));
  }

  /** The root whose history a call keeps: the scope's first folder, or the working directory; by its real path, as every surface keys it. */
  private historyRoot(options: EngineOptions): string {
    const folder = options.root ?? this.settings.workingDirectory ?? process.cwd();
    try {
      return realpathSync.native(folder);
    } catch {
      return folder;
    }
  }

  /** The options of one call: the scope as it stands now, and a store confined to it. */
  private engineOptions(cancellation: CancellationSignal): EngineOptions {
    const { scope, limits, encoding, displayPath, log, timeLimitMs } = this.settings;
    const surface = scope.surface();
    // MULTI_EDIT_TEST_HOLD (the signal tests only) holds a run at a stage; unset, nothing is wrapped.
    const held = heldForTests({ store: new NodeFileStore(nodeFs, { confine: scope.confinement(), memory: this.memory }), ...this.syntax }, cancellation);
    return {
      ...surfaceOptions({
        scope: displayPath ? { ...surface, displayPath } : surface,
        store: held.store,
        syntax: held.checker ? { ...this.syntax, checker: held.checker } : this.syntax,
        ...(limits ? { limits } : {}),
        ...(encoding !== undefined ? { encoding } : {}),
        cancellation,
        onInternalError: (phase, error) => log(`internal error ${phase}: ${inspect(error)}`),
      }),
      ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    };
  }
}
