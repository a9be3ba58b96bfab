/** The two request kinds the engine serves, by the tool names every surface exposes. */

export const TOOL_MULTI_EDIT = 'multi_edit';
export const TOOL_MULTI_EDIT_FILES = 'multi_edit_files';
export const TOOL_NAMES = [TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
