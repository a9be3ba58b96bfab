/**
 * Starts `multi-edit mcp`. The server and the MCP SDK live in their own bundle
 * (dist/mcp.js, next to dist/cli.js), loaded here only when this command runs, so
 * `multi-edit apply` never reads or parses them.
 */
import type { McpCommand } from './cliArgs';

export async function startMcpServer(command: McpCommand): Promise<number> {
  // esbuild.mjs turns this import() into a require() of dist/mcp.js.
  const server = await import('../mcp/server.js');
  return server.runMcpServer(command);
}
