/**
 * Turns raw tool input into a request the engine can plan, or into the input error
 * that explains what is wrong with it: the field path and what was expected.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../contract/errorCodes';
import { inputRuleProblem } from './inputRules';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_NAMES, type ToolName } from '../contract/toolNames';
import { multiEditFilesSchema, multiEditSchema, type Edit, type MultiEditFilesRequest, type MultiEditRequest } from '../contract/schemas';

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

export function parseRequest(tool: string, input: unknown): ParseResult {
  if (!isToolName(tool)) {
    return problem({ code: 'UNKNOWN_TOOL', message: `There is no tool named "${clipName(tool)}"` });
  }
  if (tool === TOOL_MULTI_EDIT) {
    const parsed = multiEditSchema.safeParse(input);
    if (!parsed.success) {
      return problem(validationProblem(parsed.error, input, 'files', `${TOOL_MULTI_EDIT} edits one file: pass file_path and edits; for several files call ${TOOL_MULTI_EDIT_FILES}`));
    }
    if (parsed.data.edits.length === 0) {
      return problem({ code: 'EMPTY_EDITS', message: 'edits is empty' });
    }
    const { file_path, edits, dry_run, include_diff } = parsed.data;
    const broken = inputRuleProblem({ filePath: file_path, edits }, '');
    if (broken) {
      return problem({ code: 'VALIDATION_FAILED', message: broken });
    }
    return { ok: true, request: { tool, files: [{ filePath: file_path, edits }], dryRun: dry_run ?? false, includeDiff: include_diff ?? false } };
  }
  const parsed = multiEditFilesSchema.safeParse(input);
  if (!parsed.success) {
    return problem(validationProblem(parsed.error, input, 'file_path', `${TOOL_MULTI_EDIT_FILES} takes a files array of { file_path, edits }; for one file you can also call ${TOOL_MULTI_EDIT}`));
  }
  if (parsed.data.files.length === 0) {
    return problem({ code: 'EMPTY_EDITS', message: 'files is empty' });
  }
  const emptyAt = parsed.data.files.findIndex((file) => file.edits.length === 0);
  if (emptyAt !== -1) {
    const filePath = parsed.data.files[emptyAt].file_path;
    return problem({ code: 'EMPTY_EDITS', message: `files[${emptyAt}].edits is empty`, fileIndex: emptyAt, filePath });
  }
  const { files, dry_run, include_diff } = parsed.data;
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

function problem(value: RequestProblem): ParseResult {
  return { ok: false, problem: value };
}

/**
 * The first schema issue, named by its field path ("edits[2].old_string: expected
 * string, got number"). `otherToolKey` is the key that shows the caller picked the
 * wrong tool; `otherToolHint` says so.
 */
function validationProblem(error: z.ZodError, input: unknown, otherToolKey: string, otherToolHint: string): RequestProblem {
  const [first, ...rest] = error.issues;
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  const usedOtherToolKey = error.issues.some((issue) => issue.code === 'unrecognized_keys' && issue.path.length === 0 && issue.keys.includes(otherToolKey));
  return {
    code: 'VALIDATION_FAILED',
    message: `${describeIssue(first, input)}${more}`,
    ...(usedOtherToolKey ? { hints: [otherToolHint] } : {}),
  };
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  switch (issue.code) {
    case 'invalid_type':
      return `${fieldPath(path)}: expected ${issue.expected}, got ${describeValue(valueAt(input, path))}`;
    case 'unrecognized_keys':
      return issue.keys.map((key) => `${fieldPath([...path, key])}: unknown field`).join('; ');
    default:
      return `${fieldPath(path)}: ${issue.message}`;
  }
}

export function fieldPath(path: readonly (string | number)[]): string {
  if (path.length === 0) {
    return 'request';
  }
  return path.map((key, at) => (typeof key === 'number' ? `[${key}]` : at === 0 ? key : `.${key}`)).join('');
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') {
      return undefined;
    }
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) {
    return 'nothing (the field is missing)';
  }
  if (value === null) {
    return 'null';
  }
  return Array.isArray(value) ? 'array' : typeof value;
}

function clipName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}
