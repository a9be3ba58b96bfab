/**
 * The tools every surface exposes. A tool name says what the caller sends (its input
 * format); how the engine runs a request and shapes its answer is in the parsed
 * request itself (request/request.ts), never read from the name.
 */

export const TOOL_MULTI_EDIT = 'multi_edit';
export const TOOL_MULTI_EDIT_FILES = 'multi_edit_files';
export const TOOL_MULTI_EDIT_PATCH = 'multi_edit_patch';
export const TOOL_NAMES = [TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** "multi_edit, multi_edit_files or multi_edit_patch": every tool, for texts that name them all. */
export const TOOL_LIST = `${TOOL_NAMES.slice(0, -1).join(', ')} or ${TOOL_NAMES[TOOL_NAMES.length - 1]}`;
