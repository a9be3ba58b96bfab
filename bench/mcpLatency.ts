/**
 * The single small edit over MCP: one tools/call of one edit on a 33 KB file, as an
 * agent sends it, timed at the client from request to result. The same SDK client
 * drives `multi-edit mcp` (multi_edit) and @modelcontextprotocol/server-filesystem
 * (edit_file), each on its own copy of the file, taking turns call by call. Calls
 * alternate an edit and its undo, so every call really changes the file.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI_PATH, REPO_ROOT } from './implementations';
import { msText, ratioText, table } from './markdown';
import { percentile } from './measure';
import type { BenchSection } from './sections';
import { sourceLines } from './workloads';

const FILE_BYTES = 33 * 1024;
const FULL_CALLS = 200;
const QUICK_CALLS = 10;
const WARM_UP_CALLS = 10;
const PEER_SERVER = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

interface Server {
  readonly id: 'multiEdit' | 'peer';
  readonly label: string;
  readonly args: (root: string) => string[];
  readonly call: (file: string, oldText: string, newText: string) => { name: string; arguments: Record<string, unknown> };
}

const SERVERS: readonly Server[] = [
  {
    id: 'multiEdit',
    label: 'multi-edit mcp, multi_edit',
    args: (root) => [CLI_PATH, 'mcp', '--root', root],
    call: (file, oldText, newText) => ({ name: 'multi_edit', arguments: { file_path: file, edits: [{ old_string: oldText, new_string: newText }] } }),
  },
  {
    id: 'peer',
    label: 'server-filesystem, edit_file',
    args: (root) => [PEER_SERVER, root],
    call: (file, oldText, newText) => ({ name: 'edit_file', arguments: { path: file, edits: [{ oldText, newText }] } }),
  },
];

interface LatencyFigures {
  readonly calls: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly samplesMs: readonly number[];
}

export interface McpLatencyFigures {
  readonly fileBytes: number;
  readonly servers: Record<Server['id'], LatencyFigures>;
}

interface Session {
  readonly server: Server;
  readonly client: Client;
  readonly file: string;
  readonly samples: number[];
}

async function openSession(server: Server, root: string, text: string): Promise<Session> {
  await mkdir(root, { recursive: true });
  const file = join(root, 'small.ts');
  await writeFile(file, text, 'utf8');
  const transport = new StdioClientTransport({ command: process.execPath, args: server.args(root), cwd: root, stderr: 'ignore' });
  const client = new Client({ name: 'multi-edit-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { server, client, file, samples: [] };
}

async function timedCall(session: Session, oldText: string, newText: string): Promise<number> {
  const started = process.hrtime.bigint();
  const result = (await session.client.callTool(session.server.call(session.file, oldText, newText))) as CallToolResult;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.isError) {
    throw new Error(`MCP latency: ${session.server.id} answered an error: ${JSON.stringify(result.content).slice(0, 300)}`);
  }
  return ms;
}

function figuresOf(samples: readonly number[]): LatencyFigures {
  return { calls: samples.length, p50Ms: percentile(samples, 0.5), p95Ms: percentile(samples, 0.95), samplesMs: samples };
}

export const mcpLatencySection: BenchSection<McpLatencyFigures> = {
  id: 'mcpLatency',
  title: 'One small edit per MCP call',
  async measure({ scratch, quick }) {
    const lines = sourceLines(FILE_BYTES);
    const text = `${lines.join('\n')}\n`;
    const line = lines[lines.length >> 1];
    const edited = line.replace('compute(', 'recompute(');
    const sessions: Session[] = [];
    try {
      for (const server of SERVERS) {
        sessions.push(await openSession(server, join(scratch, `mcp-${server.id}`), text));
      }
      const calls = quick ? QUICK_CALLS : FULL_CALLS;
      // An even number of calls in all, so each file ends as it began.
      for (let call = 0; call < WARM_UP_CALLS + calls; call++) {
        const [from, to] = call % 2 === 0 ? [line, edited] : [edited, line];
        for (const session of sessions) {
          const ms = await timedCall(session, from, to);
          if (call >= WARM_UP_CALLS) {
            session.samples.push(ms);
          }
        }
      }
      for (const session of sessions) {
        if ((await readFile(session.file, 'utf8')) !== text) {
          throw new Error(`MCP latency: ${session.server.id} did not leave the file as the edits and their undos should`);
        }
      }
    } finally {
      await Promise.all(sessions.map((session) => session.client.close()));
    }
    const [ours, peer] = sessions;
    console.error(`MCP small edit: multi_edit p50 ${percentile(ours.samples, 0.5).toFixed(2)} ms, edit_file p50 ${percentile(peer.samples, 0.5).toFixed(2)} ms`);
    return { fileBytes: text.length, servers: { multiEdit: figuresOf(ours.samples), peer: figuresOf(peer.samples) } };
  },
  markdown(figures) {
    const peer = figures.servers.peer;
    const rows = SERVERS.map((server) => {
      const own = figures.servers[server.id];
      const versus = server.id === 'peer' ? '' : ` (${ratioText(own.p50Ms / peer.p50Ms)})`;
      const versus95 = server.id === 'peer' ? '' : ` (${ratioText(own.p95Ms / peer.p95Ms)})`;
      return [server.label, String(own.calls), `${msText(own.p50Ms)}${versus}`, `${msText(own.p95Ms)}${versus95}`];
    });
    return `One \`tools/call\` of one edit on a ${(figures.fileBytes / 1024).toFixed(0)} KB file, timed by the MCP SDK's client from request
to result, over stdio to each server as a child process (after ${WARM_UP_CALLS} warm-up calls; the two servers take
turns call by call, each on its own copy of the file). Ratios are to the peer.

${table(['server, tool', 'calls', 'p50 ms', 'p95 ms'], rows)}`;
  },
  targets(figures) {
    const ratio = figures.servers.multiEdit.p50Ms / figures.servers.peer.p50Ms;
    return [{ what: 'one small edit over MCP: p50 ≤ 1.5× the peer\'s edit_file', measured: ratioText(ratio), met: ratio <= 1.5 }];
  },
  bars(figures) {
    return [{ label: 'MCP small edit p50 / peer edit_file', ratio: figures.servers.multiEdit.p50Ms / figures.servers.peer.p50Ms, target: 1.5 }];
  },
};
