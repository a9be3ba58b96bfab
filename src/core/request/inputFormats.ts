/**
 * One input format per tool: how its input is read into a ParsedRequest and written
 * back. Everything after reading is the same for all of
 * them, so a new format is a new row here, not a new branch in the engine.
 */
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH, TOOL_NAMES, type ToolName } from '../contract/toolNames';
import { readPatchRequest, writePatchRequest } from '../patch/patchRequest';
import { readEditRequest, writeEditRequest } from './editRequest';
import type { ParsedRequest, ParseResult, RequestInput } from './request';

export interface InputFormat {
  /** The response has one file's fields at its top (multi_edit's shape). */
  readonly singleFile: boolean;
  read(input: unknown): Promise<ParseResult>;
  write(request: ParsedRequest): RequestInput;
}

const INPUT_FORMATS: Readonly<Record<ToolName, InputFormat>> = {
  [TOOL_MULTI_EDIT]: { singleFile: true, read: (input) => readEditRequest(TOOL_MULTI_EDIT, input), write: writeEditRequest },
  [TOOL_MULTI_EDIT_FILES]: { singleFile: false, read: (input) => readEditRequest(TOOL_MULTI_EDIT_FILES, input), write: writeEditRequest },
  [TOOL_MULTI_EDIT_PATCH]: { singleFile: false, read: readPatchRequest, write: writePatchRequest },
};

export function isToolName(tool: string): tool is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(tool);
}

export function inputFormatOf(tool: ToolName): InputFormat {
  return INPUT_FORMATS[tool];
}

/** Whether a tool's response names one file at its top; false for an unknown tool. */
export function answersForOneFile(tool: string): boolean {
  return isToolName(tool) && INPUT_FORMATS[tool].singleFile;
}

/** The tool a JSON request object is meant for, by its shape: `patch` for a patch, `files` for several files. */
export function toolForRequest(input: unknown): ToolName {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return TOOL_MULTI_EDIT;
  }
  return 'patch' in input ? TOOL_MULTI_EDIT_PATCH : 'files' in input ? TOOL_MULTI_EDIT_FILES : TOOL_MULTI_EDIT;
}
