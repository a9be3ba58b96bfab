/**
 * `multi-edit mcp`: the engine as an MCP server on stdio, with the official SDK.
 * Bundled on its own (dist/mcp.js) and loaded only by this command, so `apply`
 * never loads the SDK. Standard output carries the protocol only; logs go to stderr.
 *
 * It uses the SDK's low-level Server, which the SDK keeps for such cases, rather than
 * McpServer.registerTool: registerTool validates arguments itself and answers a schema
 * failure with a bare text, where this server answers with a VALIDATION_FAILED
 * envelope, and it cannot declare an outputSchema that is a union (success or envelope).
 */
import * as fsPromises from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, McpError, RootsListChangedNotificationSchema, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../../package.json';
import type { InsideTokenPolicy, SyntaxCheckPolicy } from '../../core';
import { historySettingsFromEnv } from '../../shared/history/historyBook';
import { RequestHistory } from '../../shared/history/requestHistory';
import { NodeHost } from '../host/nodeHost';
import { absoluteRoot, mcpScope, type RootScope } from '../host/scope';
import { exitCodeFor, Lifecycle } from './shutdown';
import { callHistoryTool, historyToolDefinitions, isHistoryTool } from './historyTools';
import { toolDefinitions, toolResult } from './tools';
import { LineTransport } from './lineTransport';

export interface McpServerCommand {
  /** The --root directories as given; relative ones are taken from the working directory. */
  readonly roots: readonly string[];
  /** --inside-token: the insideToken policy for every call. */
  readonly insideToken?: InsideTokenPolicy;
  /** What an edit that breaks a file's parse does. */
  readonly syntaxCheck: SyntaxCheckPolicy;
  /** --allow-protected: globs of protected paths the user means to let the client edit. */
  readonly allowProtected: readonly string[];
  /** --max-time: how long each call's planning may take, in milliseconds. */
  readonly timeLimitMs?: number;
  /** --encoding: a file's encoding when it has no BOM, is not UTF-8 and its request names none. */
  readonly encoding?: string;
  /** --no-history: keep no record of the requests applied. */
  readonly noHistory: boolean;
  /** --max-file-size: every tool's size limit, in bytes (undefined: the default). */
  readonly maxFileBytes?: number;
}

/** A client that claims roots but does not answer must not hold every call up for the SDK's minute. */
const ROOTS_TIMEOUT_MS = 5_000;
const EXIT_USAGE = 2;

/**
 * The name and arguments of a tools/call, read here rather than by the SDK's schema,
 * whose failure is a multi-line dump. A call that breaks the protocol is InvalidParams
 * in one line; arguments that fit no tool's schema still reach the engine, which
 * answers with a VALIDATION_FAILED envelope.
 */
function toolCallOf(request: JSONRPCRequest): { readonly name: string; readonly args: unknown } {
  const params: Record<string, unknown> = request.params ?? {};
  if (typeof params.name !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, `tools/call: params.name must be a string, the tool's name (got ${describeValue(params.name)})`);
  }
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new McpError(ErrorCode.InvalidParams, `tools/call: params.arguments must be an object (got ${describeValue(args)})`);
  }
  return { name: params.name, args };
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function log(message: string): void {
  process.stderr.write(`multi-edit mcp: ${message}\n`);
}

/** Serves until stdin ends or a signal arrives; resolves to the exit code. */
export async function runMcpServer(command: McpServerCommand): Promise<number> {
  const cwd = process.cwd();
  const roots = command.roots.map((root) => absoluteRoot(root, cwd));
  const notADirectory = await firstNonDirectory(roots);
  if (notADirectory !== undefined) {
    log(`--root ${notADirectory} is not a directory`);
    return EXIT_USAGE;
  }
  const scope = await mcpScope(roots, cwd, command.allowProtected);
  // One process serves one client: a session, whose repeated failures escalate.
  const host = new NodeHost({
    scope,
    syntaxCheck: command.syntaxCheck,
    ...(command.encoding !== undefined ? { encoding: command.encoding } : {}),
    limits: {
      ...(command.insideToken ? { insideToken: command.insideToken } : {}),
      ...(command.maxFileBytes !== undefined ? { maxFileBytes: command.maxFileBytes } : {}),
    },
    log,
    session: true,
    ...(command.timeLimitMs !== undefined ? { timeLimitMs: command.timeLimitMs } : {}),
    // The history never copies a protected file: a server allowed to edit one keeps none.
    history: new RequestHistory(historySettingsFromEnv(process.env, command.noHistory || command.allowProtected.length > 0 ? { enabled: false } : {}), 'mcp'),
  });
  const lifecycle = new Lifecycle();
  const server = new Server({ name: 'multi-edit', title: 'Multi-Edit', version }, { capabilities: { tools: {} } });
  let rootsReady: Promise<void> = Promise.resolve();

  const refreshRoots = (): void => {
    if (server.getClientCapabilities()?.roots === undefined) {
      return;
    }
    rootsReady = server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS }).then(
      async ({ roots: listed }) => {
        const ignored = await scope.setClientRoots(listed);
        if (ignored.length > 0) {
          log(`ignored roots that are not file: URIs of a folder: ${ignored.join(', ')}`);
        }
        log(scope.keepsCliRoots() ? `the client lists no root; the --root folders stay in force; roots: ${describeRoots(scope)}` : `roots: ${describeRoots(scope)}`);
      },
      () => {
        scope.clientRootsUnreadable();
        log(`the client did not list its roots; roots: ${describeRoots(scope)}`);
      },
    );
  };

  const tools = [...toolDefinitions(), ...historyToolDefinitions()];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // tools/call is served as the fallback so that toolCallOf, not the SDK's schema, reads its params.
  server.fallbackRequestHandler = (request, extra) => {
    if (request.method !== 'tools/call') {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
    const { name, args } = toolCallOf(request);
    return lifecycle.track((async () => {
      await rootsReady;
      const started = performance.now();
      const cancellation = lifecycle.cancellationFor(extra.signal);
      if (isHistoryTool(name)) {
        const result = await callHistoryTool(name, args, host, cancellation);
        log(`${name}: ${result.isError ? 'failed' : 'ok'} in ${Math.round(performance.now() - started)} ms`);
        return result;
      }
      // The raw arguments go to the host, whose engine makes a schema failure an envelope.
      const { response } = await host.run(name, args, cancellation);
      log(`${name}: ${response.success ? 'ok' : response.error_code} in ${Math.round(performance.now() - started)} ms`);
      return toolResult(response);
    })());
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, refreshRoots);
  server.oninitialized = refreshRoots;
  server.onerror = (error) => log(`protocol error: ${error.message}`);

  lifecycle.watch();
  await server.connect(new LineTransport());
  log(`serving ${tools.map((tool) => tool.name).join(', ')} on stdio; roots: ${describeRoots(scope)}`);
  const reason = await lifecycle.whenStopped();
  await server.close();
  log(reason.kind === 'signal' ? `stopped by ${reason.signal}` : 'standard input closed; stopped');
  return exitCodeFor(reason);
}

function describeRoots(scope: RootScope): string {
  const folders = scope.folders();
  return folders.length === 0 ? `none (${scope.emptyReason() ?? 'no root'})` : folders.map((folder) => folder.path).join(', ');
}

async function firstNonDirectory(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    const isDirectory = await fsPromises.stat(path).then((stats) => stats.isDirectory(), () => false);
    if (!isDirectory) {
      return path;
    }
  }
  return undefined;
}
