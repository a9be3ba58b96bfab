/**
 * Turns raw tool input into a request the engine can plan, or into the input error
 * that explains what is wrong with it: the field path and what was expected.
 */
import type { ErrorCode } from '../contract/errorCodes';
import { inputRuleProblem } from './inputRules';
import { fitsRequestSchema } from './requestShape';
import type { SchemaCheck } from './schemaProblem';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_NAMES, type ToolName } from '../contract/toolNames';
import type { Edit, MultiEditFilesRequest, MultiEditRequest } from '../contract/schemas';

export interface FileRequest {
  readonly filePath: string;
  readonly edits: readonly Edit[];
}

export interface ParsedRequest {
  readonly tool: ToolName;
  readonly files: readonly FileRequest[];
  readonly dryRun: boolean;
  readonly includeDiff: boolean;
}

/** A file of a request once the engine checked its path: `path` is absolute, and absent when the check refused it. */
export interface ResolvedFile extends FileRequest {
  readonly path?: string;
}

/** The request as the engine parsed it, with every path it could resolve. */
export interface ResolvedRequest extends ParsedRequest {
  readonly files: readonly ResolvedFile[];
}

export interface RequestProblem {
  readonly code: Extract<ErrorCode, 'VALIDATION_FAILED' | 'EMPTY_EDITS' | 'UNKNOWN_TOOL'>;
  readonly message: string;
  readonly hints?: readonly string[];
  readonly fileIndex?: number;
  readonly filePath?: string;
}

export type ParseResult = { readonly ok: true; readonly request: ParsedRequest } | { readonly ok: false; readonly problem: RequestProblem };

/** The tool a request object is meant for, by its shape: a `files` key makes it multi_edit_files. */
export function toolForRequest(input: unknown): ToolName {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && 'files' in input ? TOOL_MULTI_EDIT_FILES : TOOL_MULTI_EDIT;
}

/** The request in its wire form again, as a caller would send it (defaults left out). */
export function requestInput(request: ParsedRequest): MultiEditRequest | MultiEditFilesRequest {
  const flags = { ...(request.dryRun ? { dry_run: true } : {}), ...(request.includeDiff ? { include_diff: true } : {}) };
  const files = request.files.map((file) => ({ file_path: file.filePath, edits: file.edits.map((edit) => ({ ...edit })) }));
  return request.tool === TOOL_MULTI_EDIT ? { ...files[0], ...flags } : { files, ...flags };
}

export function isToolName(tool: string): tool is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(tool);
}

export async function parseRequest(tool: string, input: unknown): Promise<ParseResult> {
  if (!isToolName(tool)) {
    return problem({ code: 'UNKNOWN_TOOL', message: `There is no tool named "${clipName(tool)}"` });
  }
  const checked = await checkShape(tool, input);
  if (!checked.ok) {
    return problem(checked.problem);
  }
  if (checked.tool === TOOL_MULTI_EDIT) {
    const { file_path, edits, dry_run, include_diff } = checked.data;
    if (edits.length === 0) {
      return problem({ code: 'EMPTY_EDITS', message: 'edits is empty' });
    }
    const broken = inputRuleProblem({ filePath: file_path, edits }, '');
    if (broken) {
      return problem({ code: 'VALIDATION_FAILED', message: broken });
    }
    return { ok: true, request: { tool, files: [{ filePath: file_path, edits }], dryRun: dry_run ?? false, includeDiff: include_diff ?? false } };
  }
  const { files, dry_run, include_diff } = checked.data;
  if (files.length === 0) {
    return problem({ code: 'EMPTY_EDITS', message: 'files is empty' });
  }
  const emptyAt = files.findIndex((file) => file.edits.length === 0);
  if (emptyAt !== -1) {
    const filePath = files[emptyAt].file_path;
    return problem({ code: 'EMPTY_EDITS', message: `files[${emptyAt}].edits is empty`, fileIndex: emptyAt, filePath });
  }
  for (const [fileIndex, file] of files.entries()) {
    const broken = inputRuleProblem({ filePath: file.file_path, edits: file.edits }, `files[${fileIndex}].`);
    if (broken) {
      return problem({ code: 'VALIDATION_FAILED', message: broken, fileIndex });
    }
  }
  return {
    ok: true,
    request: {
      tool,
      files: files.map((file) => ({ filePath: file.file_path, edits: file.edits })),
      dryRun: dry_run ?? false,
      includeDiff: include_diff ?? false,
    },
  };
}

/**
 * The request, typed. A request the quick check accepts is copied as it is (zod
 * would accept it unchanged); anything else goes to zod, loaded only then.
 */
async function checkShape(tool: ToolName, input: unknown): Promise<SchemaCheck> {
  if (fitsRequestSchema(tool, input)) {
    return tool === TOOL_MULTI_EDIT
      ? { ok: true, tool, data: copyFileRequest(input as MultiEditRequest) }
      : { ok: true, tool, data: { ...(input as MultiEditFilesRequest), files: (input as MultiEditFilesRequest).files.map(copyFileRequest) } };
  }
  const { checkWithSchema } = await import('./schemaProblem.js');
  return checkWithSchema(tool, input);
}

/** A copy of a request's edits, as zod's parse would return it: the caller's objects are not shared. */
function copyFileRequest<T extends { readonly edits: readonly Edit[] }>(request: T): T {
  return { ...request, edits: request.edits.map((edit) => ({ ...edit })) };
}

function problem(value: RequestProblem): ParseResult {
  return { ok: false, problem: value };
}

function clipName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}
