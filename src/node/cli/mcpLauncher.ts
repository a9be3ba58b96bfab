/**
 * Starts `multi-edit mcp`. The server and the MCP SDK live in their own bundle
 * (dist/mcp.js, next to dist/cli.js), loaded here only when this command runs, so
 * `multi-edit apply` never reads or parses them.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpCommand } from './cliArgs';

type ServerModule = typeof import('../mcp/server');

/** The bundle's file name; esbuild.mjs builds it from src/node/mcp/server.ts. */
export const MCP_BUNDLE = 'mcp.js';

export async function startMcpServer(command: McpCommand): Promise<number> {
  // A path computed at run time, so the CLI bundle keeps this import out of itself.
  const bundle = pathToFileURL(join(__dirname, MCP_BUNDLE)).href;
  const server = (await import(bundle)) as ServerModule;
  return server.runMcpServer(command);
}
