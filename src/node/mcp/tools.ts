/**
 * The tools as MCP lists and calls them. Their schemas come from the core's zod
 * schemas (the same source as the VS Code tools' inputSchema), and their
 * descriptions and titles from the extension manifest, so every surface teaches the
 * model the same contract.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { contributes } from '../../../package.json';
import manifestStrings from '../../../package.nls.json';
import { formatForModel, requestJsonSchemas, responseSchema, TOOL_NAMES, type EngineResponse } from '../../core';

type JsonObjectSchema = Tool['inputSchema'];

/** The model APIs behind MCP clients want a bare object schema: no "$schema" key. */
function withoutDialect(schema: object): Record<string, unknown> {
  const bare: Record<string, unknown> = { ...schema };
  delete bare.$schema;
  return bare;
}

/**
 * MCP requires an outputSchema of type "object"; the response is a union of two
 * objects (success or envelope), so the union is kept and the type stated over it.
 */
function responseOutputSchema(): Tool['outputSchema'] {
  return { type: 'object', ...withoutDialect(z.toJSONSchema(responseSchema, { target: 'draft-7' })) } as Tool['outputSchema'];
}

/** A manifest value as people read it: a "%key%" placeholder resolved from package.nls.json. */
function resolveManifestString(value: string): string {
  const key = /^%(.+)%$/.exec(value)?.[1];
  if (key === undefined) {
    return value;
  }
  const resolved = (manifestStrings as Record<string, string | undefined>)[key];
  if (resolved === undefined) {
    throw new Error(`package.nls.json has no string ${key}`);
  }
  return resolved;
}

export function toolDefinitions(): Tool[] {
  const inputSchemas = requestJsonSchemas();
  const outputSchema = responseOutputSchema();
  return TOOL_NAMES.map((name) => {
    const manifest = contributes.languageModelTools.find((tool) => tool.name === name);
    if (manifest === undefined) {
      throw new Error(`package.json contributes no language-model tool named ${name}`);
    }
    const title = resolveManifestString(manifest.displayName);
    return {
      name,
      title,
      description: manifest.modelDescription,
      inputSchema: withoutDialect(inputSchemas[name]) as JsonObjectSchema,
      outputSchema,
      annotations: {
        title,
        readOnlyHint: false,
        // It rewrites existing text, although always all or nothing and never outside the roots.
        destructiveHint: true,
        // The same edits sent twice do not leave the same file: the second finds its old_string gone.
        idempotentHint: false,
        openWorldHint: false,
      },
    };
  });
}

/** The response as structured content, and as the text many clients show the model: the summary line, then the JSON. */
export function toolResult(response: EngineResponse): CallToolResult {
  return {
    content: [{ type: 'text', text: formatForModel(response) }],
    structuredContent: response,
    isError: !response.success,
  };
}
