/**
 * What the history keeps of an applied request, so that undoing it needs nothing else:
 * the text of every file before and after, and what happened to each file. One schema
 * reads the record back from disk on every surface (the CLI, the MCP server and the
 * extension share one history per root), and the undo tools' inputs live beside it.
 */
import { z } from 'zod';
import { envelopeFor } from './envelope';
import { type ErrorEnvelope, fileOperations } from './schemas';

/**
 * A file's content as the store reads and writes it: the text without the BOM, and whether
 * it has one. What a file held before a request is kept whole (undo writes it back), in the
 * record or, for a large file, as a link to its old bytes; what it held after is kept as a
 * digest of its text (undo only checks it is still there).
 */
const keptTextSchema = z.object({
  text: z.string().optional(),
  sha256: z.string().optional(),
  bom: z.boolean(),
  /** The file's encoding when it is not UTF-8, so the bytes come back as they were. */
  encoding: z.string().optional(),
  /**
   * For a large text kept without copying: the name, in the history's folder, of a hard link
   * to the file as it was (its bytes, BOM included); `sha256` is then the digest of its text.
   */
  original: z.string().optional(),
  /**
   * What a file held after the request: its size in bytes (BOM included), where the surface
   * could tell it (UTF-8 and UTF-16). Undo reads the file up to this size even past its limit.
   */
  bytes: z.number().int().nonnegative().optional(),
}).strict();

/**
 * One file of a request (`before` with its text, `after` with its digest):
 * - update: `path` held `before` and was left holding `after`;
 * - add: `path` was created with `after`;
 * - delete: `path`, which held `before`, was removed;
 * - move: `moved_from`, which held `before`, was removed, and `path` was created with `after`.
 */
export const historyFileSchema = z.object({
  path: z.string(),
  operation: z.enum(fileOperations),
  moved_from: z.string().optional(),
  before: keptTextSchema.optional(),
  after: keptTextSchema.optional(),
}).strict();

export const historySurfaces = ['cli', 'mcp', 'vscode'] as const;

export const historyEntrySchema = z.object({
  request_id: z.string(),
  /** ISO 8601, UTC. */
  time: z.string(),
  surface: z.enum(historySurfaces),
  /** The root the request was applied under (its history's key). */
  root: z.string(),
  summary: z.string(),
  files: z.array(historyFileSchema),
  /** Set once the request has been undone: when, and by which undo. */
  undone_at: z.string().optional(),
}).strict();

export type KeptText = z.infer<typeof keptTextSchema>;
export type HistoryFile = z.infer<typeof historyFileSchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type HistorySurface = (typeof historySurfaces)[number];

/** The MCP tool `multi_edit_undo`: the latest request of the root when no id is given. */
export const undoInputSchema = z.object({
  request_id: z.string().min(1).optional().describe('The request_id of an applied request (from its success response or multi_edit_history). Default: the latest request not yet undone.'),
  dry_run: z.boolean().optional().describe('Show the diff the undo would apply; write nothing. Default false.'),
}).strict();

/** The MCP tool `multi_edit_history`. */
export const historyInputSchema = z.object({
  limit: z.number().int().min(1).max(1000).optional().describe('How many recent requests to list, newest first. Default 20.'),
}).strict();

export type UndoInput = z.infer<typeof undoInputSchema>;
export type HistoryInput = z.infer<typeof historyInputSchema>;


/** The tools of the history, served where a request's history lives outside VS Code (the MCP server). */
export const TOOL_MULTI_EDIT_UNDO = 'multi_edit_undo';
export const TOOL_MULTI_EDIT_HISTORY = 'multi_edit_history';
export const HISTORY_TOOL_NAMES = [TOOL_MULTI_EDIT_UNDO, TOOL_MULTI_EDIT_HISTORY] as const;
export type HistoryToolName = (typeof HISTORY_TOOL_NAMES)[number];

const HISTORY_TOOL_SCHEMAS = { [TOOL_MULTI_EDIT_UNDO]: undoInputSchema, [TOOL_MULTI_EDIT_HISTORY]: historyInputSchema } as const;

/** The JSON schema of each history tool's input, from the zod schemas above. */
export function historyToolJsonSchemas(): Record<HistoryToolName, Record<string, unknown>> {
  return {
    [TOOL_MULTI_EDIT_UNDO]: z.toJSONSchema(undoInputSchema, { target: 'draft-7' }) as Record<string, unknown>,
    [TOOL_MULTI_EDIT_HISTORY]: z.toJSONSchema(historyInputSchema, { target: 'draft-7' }) as Record<string, unknown>,
  };
}

/** A history tool's input, read strictly; a misfit is VALIDATION_FAILED naming each field. */
export function parseHistoryToolInput<Tool extends HistoryToolName>(
  tool: Tool, input: unknown,
): { readonly ok: true; readonly value: z.infer<(typeof HISTORY_TOOL_SCHEMAS)[Tool]> } | { readonly ok: false; readonly envelope: ErrorEnvelope } {
  const parsed = HISTORY_TOOL_SCHEMAS[tool].safeParse(input ?? {});
  if (parsed.success) {
    return { ok: true, value: parsed.data as z.infer<(typeof HISTORY_TOOL_SCHEMAS)[Tool]> };
  }
  const issues = parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || '(input)', path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))), message: issue.message }));
  return {
    ok: false,
    envelope: envelopeFor('VALIDATION_FAILED', `The ${tool} input does not fit its schema: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`, {
      validation_issues: issues,
      hints: [`Send ${tool} only the fields its input schema lists`],
      ownHintsOnly: true,
    }),
  };
}
