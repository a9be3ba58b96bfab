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
 */
import { inspect } from 'node:util';
import {
  type CancellationSignal, type DiffPieces, type EngineOptions, type Limits, parseRequest, type ParseResult, RepeatedFailures, type RequestRun, runParsedRequest,
  runParsedRequestWithDiffPieces, type SuccessResponseWith, surfaceOptions, type SurfaceSyntaxGate, type SyntaxCheckPolicy,
} from '../../core/index';
import { nodeFs } from '../store/fsApi';
import { NodeFileStore } from '../store/nodeFileStore';
import { SERVER_MEMORY_MS, storeMemory, type StoreMemory } from '../store/storeMemory';
import type { HostScope } from './hostScope';
import { nodeSyntaxGate } from './nodeSyntaxGate';
import { inTurn } from './turns';
import { heldForTests } from './testHold';

export interface HostSettings {
  readonly scope: HostScope;
  readonly syntaxCheck: SyntaxCheckPolicy;
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
  /** --max-time: how long each call's planning may take, in milliseconds. */
  readonly timeLimitMs?: number;
}

export class NodeHost {
  private readonly syntax: SurfaceSyntaxGate;
  private readonly memory: StoreMemory;
  private readonly repeats: RepeatedFailures | undefined;

  constructor(private readonly settings: HostSettings) {
    this.syntax = nodeSyntaxGate(settings.syntaxCheck, settings.log);
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
  runWithDiffPieces(tool: string, input: unknown, cancellation: CancellationSignal): Promise<RequestRun<SuccessResponseWith<DiffPieces>>> {
    return this.inTurn(tool, input, cancellation, runParsedRequestWithDiffPieces);
  }

  private async inTurn<Run>(
    tool: string, input: unknown, cancellation: CancellationSignal, engine: (parsed: Promise<ParseResult>, options: EngineOptions) => Promise<Run>,
  ): Promise<Run> {
    const parsed = parseRequest(tool, input);
    // A reading that throws (a bug) names no file; the engine answers it INTERNAL_ERROR.
    const reading = await parsed.catch(() => undefined);
    const options = this.engineOptions(cancellation);
    const { scope } = this.settings;
    return inTurn(reading?.ok ? reading.request : undefined, (path) => scope.resolvedPath(path), options.root, () => engine(parsed, options));
  }

  /** The options of one call: the scope as it stands now, and a store confined to it. */
  private engineOptions(cancellation: CancellationSignal): EngineOptions {
    const { scope, limits, displayPath, log, timeLimitMs } = this.settings;
    const surface = scope.surface();
    const options = surfaceOptions({
      scope: displayPath ? { ...surface, displayPath } : surface,
      store: new NodeFileStore(nodeFs, { confine: scope.confinement(), memory: this.memory }),
      syntax: this.syntax,
      ...(limits ? { limits } : {}),
      cancellation,
      onInternalError: (phase, error) => log(`internal error ${phase}: ${inspect(error)}`),
    });
    return { ...options, ...heldForTests(options, cancellation), ...(timeLimitMs !== undefined ? { timeLimitMs } : {}) };
  }
}
