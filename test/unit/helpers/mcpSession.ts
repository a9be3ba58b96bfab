/**
 * A real MCP session against `dist/cli.js mcp`, driven by the SDK's own client over
 * stdio: the server is a child process, as in every MCP client.
 */
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult, type Root } from '@modelcontextprotocol/sdk/types.js';
import { responseSchema, type EngineResponse } from '../../../src/core/contract/schemas';
import { assertHygienic } from '../../shared/hygiene';
import { CLI } from './cliRun';

export interface McpSessionOptions {
  readonly cwd: string;
  /** Extra arguments after `mcp`, e.g. --root. */
  readonly args?: readonly string[];
  /** When given, the client declares the roots capability and lists what this returns at the time. */
  readonly roots?: () => readonly Root[];
  /** Variables the server gets beside the SDK's default environment (the tests' history folder is always passed on). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface McpSession {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Messages on stdout that were not JSON-RPC (the SDK reports them as transport errors). */
  readonly protocolErrors: Error[];
  /** Calls a tool and returns its result, its response checked by the response schema and for leaks. */
  call(tool: string, args: unknown): Promise<{ readonly result: CallToolResult; readonly response: EngineResponse }>;
  close(): Promise<void>;
}

export async function startMcpSession(options: McpSessionOptions): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...(options.args ?? [])],
    cwd: options.cwd,
    stderr: 'pipe',
    env: {
      ...getDefaultEnvironment(),
      ...(process.env.MULTI_EDIT_HISTORY_DIR ? { MULTI_EDIT_HISTORY_DIR: process.env.MULTI_EDIT_HISTORY_DIR } : {}),
      ...options.env,
    },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const protocolErrors: Error[] = [];
  const client = new Client({ name: 'multi-edit-tests', version: '1.0.0' }, { capabilities: options.roots ? { roots: { listChanged: true } } : {} });
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots()] }));
  }
  await client.connect(transport);
  // Listing the tools makes the client check every later result against the tool's outputSchema.
  await client.listTools();
  // Set after connect: the client installs its own handler there.
  const clientOnError = transport.onerror;
  transport.onerror = (error) => {
    protocolErrors.push(error);
    clientOnError?.(error);
  };
  return {
    client,
    transport,
    stderr: () => stderr,
    protocolErrors,
    async call(tool, args) {
      const result = (await client.callTool({ name: tool, arguments: args as Record<string, unknown> })) as CallToolResult;
      const response = responseSchema.parse(result.structuredContent);
      assertHygienic(response);
      assert.equal(result.isError, !response.success, 'isError is set exactly when the response is an envelope');
      return { result, response };
    },
    close: () => client.close(),
  };
}

/**
 * One session for the describe block it is called in: opened before the block's tests, in the
 * folder `cwd` gives then, and closed after them. The returned function gives it while a test runs.
 */
export function useMcpSession(cwd: () => string, options: Omit<McpSessionOptions, 'cwd'> = {}): () => McpSession {
  let session: McpSession | undefined;
  before(async () => {
    session = await startMcpSession({ ...options, cwd: cwd() });
  });
  after(async () => {
    await session?.close();
    session = undefined;
  });
  return () => {
    if (session === undefined) {
      throw new Error('useMcpSession: the session exists only while its suite runs');
    }
    return session;
  };
}
