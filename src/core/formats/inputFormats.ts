/**
/**
 * One input format per tool: how its input is read into a ParsedRequest and written
 * back. Everything after reading is the same for all of them, so a new format is a
 * new row here, not a new branch in the engine. This layer sits above request/ (the
 * request every format becomes, and the edit formats' reader) and patch/ (the patch
 * readers, which only emit file operations).
 */
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH, TOOL_NAMES, type ToolName } from '../contract/toolNames';
import { readPatchRequest, writePatchRequest } from './patchRequest';
import { readEditRequest, writeEditRequest } from '../request/editRequest';
import type { ParsedRequest, ParseResult, RequestInput } from '../request/request';
import { DEFAULT_LIMITS, type Limits } from '../contract/limits';
import { inputSizeProblem, patchHunkCountProblem, SPLIT_HINT } from '../request/requestLimits';

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

/**
 * Reads raw tool input with its tool's format into a ParsedRequest, or the input error that
 * explains what is wrong with it. A request past the size limits is refused before it is
 * read: reading 200,000 hunks takes seconds in which a server could answer nothing else.
 */
export async function parseRequest(tool: string, input: unknown, bounds: Partial<Pick<Limits, 'maxRequestChars' | 'maxEdits'>> = {}): Promise<ParseResult> {
  if (!isToolName(tool)) {
    return { ok: false, problem: { code: 'UNKNOWN_TOOL', message: `There is no tool named "${clipName(tool)}"` } };
  }
  const limits = { maxRequestChars: bounds.maxRequestChars ?? DEFAULT_LIMITS.maxRequestChars, maxEdits: bounds.maxEdits ?? DEFAULT_LIMITS.maxEdits };
  const tooLarge = inputSizeProblem(input, limits) ?? (tool === TOOL_MULTI_EDIT_PATCH ? patchHunkCountProblem(input, limits) : undefined);
  if (tooLarge) {
    return { ok: false, problem: { code: 'VALIDATION_FAILED', message: tooLarge, hints: [SPLIT_HINT], ownHintsOnly: true } };
  }
  return INPUT_FORMATS[tool].read(input);
}

/** The request in its wire form again, as a caller would send it (defaults left out). */
export function requestInput(request: ParsedRequest): RequestInput {
  return INPUT_FORMATS[request.tool].write(request);
}

function clipName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}
