/**
 * The two JSON input formats: multi_edit (one file_path and its edits) and
 * multi_edit_files (a files array of them). Both read into the same ParsedRequest.
 */
import { inputRuleProblem } from './inputRules';
import { fitsRequestSchema } from './requestShape';
import type { SchemaCheck } from './schemaProblem';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, type TOOL_MULTI_EDIT_PATCH } from '../contract/toolNames';
import type { Edit, MultiEditFilesRequest, MultiEditRequest } from '../contract/schemas';
import type { ParsedRequest, ParseResult, RequestProblem } from './request';

type EditTool = typeof TOOL_MULTI_EDIT | typeof TOOL_MULTI_EDIT_FILES;

export async function readEditRequest(tool: EditTool, input: unknown): Promise<ParseResult> {
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
    return { ok: true, request: { tool, singleFile: true, files: [{ filePath: file_path, edits }], dryRun: dry_run ?? false, includeDiff: include_diff ?? false } };
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
      singleFile: false,
      files: files.map((file) => ({ filePath: file.file_path, edits: file.edits })),
      dryRun: dry_run ?? false,
      includeDiff: include_diff ?? false,
    },
  };
}

/** A JSON request in its wire form again. */
export function writeEditRequest(request: ParsedRequest): MultiEditRequest | MultiEditFilesRequest {
  const flags = { ...(request.dryRun ? { dry_run: true } : {}), ...(request.includeDiff ? { include_diff: true } : {}) };
  const files = request.files.map((file) => ({ file_path: file.filePath, edits: file.edits.map((edit) => ({ ...edit })) }));
  return request.singleFile ? { ...files[0], ...flags } : { files, ...flags };
}

/**
 * The request, typed. A request the quick check accepts is copied as it is (zod
 * would accept it unchanged); anything else goes to zod, loaded only then.
 */
async function checkShape(tool: EditTool, input: unknown): Promise<Exclude<SchemaCheck, { tool: typeof TOOL_MULTI_EDIT_PATCH }>> {
  if (fitsRequestSchema(tool, input)) {
    return tool === TOOL_MULTI_EDIT
      ? { ok: true, tool, data: copyFileRequest(input as MultiEditRequest) }
      : { ok: true, tool, data: { ...(input as MultiEditFilesRequest), files: (input as MultiEditFilesRequest).files.map(copyFileRequest) } };
  }
  const { checkWithSchema } = await import('./schemaProblem.js');
  return checkWithSchema(tool, input) as Exclude<SchemaCheck, { tool: typeof TOOL_MULTI_EDIT_PATCH }>;
}

/** A copy of a request's edits, as zod's parse would return it: the caller's objects are not shared. */
function copyFileRequest<T extends { readonly edits: readonly Edit[] }>(request: T): T {
  return { ...request, edits: request.edits.map((edit) => ({ ...edit })) };
}

function problem(value: RequestProblem): ParseResult {
  return { ok: false, problem: value };
}
