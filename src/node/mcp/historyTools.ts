/**
 * The history's tools as MCP serves them: `multi_edit_undo` takes back an applied
 * request of the server's root, all or nothing; `multi_edit_history` lists the recent
 * ones (read-only). Their input schemas come from the core's zod schemas; they exist
 * only here, where an agent has no editor undo to fall back on.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  HISTORY_TOOL_NAMES, type HistoryToolName, historyToolJsonSchemas, parseHistoryToolInput, TOOL_MULTI_EDIT_UNDO,
} from '../../core';
import { listedRequest } from '../../shared/history/requestHistory';
import type { NodeHost } from '../host/nodeHost';
import { toolResult } from './tools';

const DESCRIPTIONS: Record<HistoryToolName, { readonly title: string; readonly description: string }> = {
  multi_edit_undo: {
    title: 'Undo an applied request',
    description: 'Take back a request this server applied (multi_edit, multi_edit_files or multi_edit_patch), every file or none: '
      + 'updated files get their text back, added files are removed, deleted ones re-created, moved ones moved back. Pass the '
      + 'request_id from the request\'s success response, or none for the latest request not yet undone. dry_run: true returns '
      + 'the diff it would apply. When a file changed since the request, nothing changes and the answer is STALE_CONTENT naming '
      + 'each file and the later request that changed it: undo that one first, or ask the user. A file that cannot be read '
      + '(too large, not readable, busy) gives the read\'s own code and changes nothing.',
  },
  multi_edit_history: {
    title: 'List applied requests',
    description: 'List the recent requests applied under this server\'s root (by this server, the multi-edit command line or '
      + 'VS Code), newest first: request_id, time, surface, what each did to which files, and whether it was undone.',
  },
};

export const isHistoryTool = (name: string): name is HistoryToolName => (HISTORY_TOOL_NAMES as readonly string[]).includes(name);

export function historyToolDefinitions(): Tool[] {
  const schemas = historyToolJsonSchemas();
  return HISTORY_TOOL_NAMES.map((name) => {
    const { title, description } = DESCRIPTIONS[name];
    const inputSchema: Record<string, unknown> = { ...schemas[name] };
    delete inputSchema.$schema;
    const undo = name === TOOL_MULTI_EDIT_UNDO;
    return {
      name,
      title,
      description,
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: { title, readOnlyHint: !undo, destructiveHint: undo, idempotentHint: !undo, openWorldHint: false },
    };
  });
}

/** Runs a history tool through the host: its answer, as the other tools answer. */
export async function callHistoryTool(name: HistoryToolName, args: unknown, host: NodeHost, cancellation: { readonly isCancellationRequested: boolean }): Promise<CallToolResult> {
  if (name === TOOL_MULTI_EDIT_UNDO) {
    const input = parseHistoryToolInput(name, args);
    return toolResult(input.ok ? await host.undo(input.value.request_id, input.value.dry_run === true, cancellation) : input.envelope);
  }
  const input = parseHistoryToolInput(name, args);
  if (!input.ok) {
    return toolResult(input.envelope);
  }
  const { root, entries } = await host.history(input.value.limit ?? 20);
  const listing = { root, requests: entries.map(listedRequest) };
  const summary = entries.length === 0 ? `No applied request is kept for ${root}` : `${entries.length} recent requests under ${root}, newest first`;
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(listing)}` }], structuredContent: listing };
}
