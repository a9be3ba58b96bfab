/** The multi_edit_patch input format: `{ patch, dry_run? }`, read into the request every format becomes. */
import { TOOL_MULTI_EDIT_PATCH } from '../contract/toolNames';
import type { MultiEditPatchRequest } from '../contract/schemas';
import { inputRuleProblem } from '../request/inputRules';
import { fitsRequestSchema } from '../request/requestShape';
import type { FileRequest, ParsedRequest, ParseResult } from '../request/request';
import { parsePatch } from './parsePatch';
import type { PatchOperation } from './patchModel';

export async function readPatchRequest(input: unknown): Promise<ParseResult> {
  const checked = await checkShape(input);
  if (!checked.ok) {
    return checked;
  }
  const { patch, dry_run } = checked.data;
  const parsed = parsePatch(patch);
  if (!parsed.ok) {
    const [first, ...rest] = parsed.issues;
    const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
    return {
      ok: false,
      problem: {
        code: 'VALIDATION_FAILED',
        message: `patch line ${first.patchLine}: ${first.message}${more}`,
        hints: ['Fix the patch at the line named and send it again'],
        issues: parsed.issues.map((issue) => ({ field: 'patch', path: ['patch'], message: issue.message, patch_line: issue.patchLine })),
      },
    };
  }
  if (parsed.operations.length === 0) {
    return { ok: false, problem: { code: 'EMPTY_EDITS', message: 'the patch changes no file' } };
  }
  const files = parsed.operations.map(fileRequestOf);
  for (const [fileIndex, file] of files.entries()) {
    const strings = file.content !== undefined ? [{ old_string: '', new_string: file.content }] : file.edits;
    const broken = inputRuleProblem({ filePath: file.filePath, edits: strings }, '') ?? (file.moveTo !== undefined ? inputRuleProblem({ filePath: file.moveTo, edits: [] }, 'move destination ') : undefined);
    if (broken) {
      return { ok: false, problem: { code: 'VALIDATION_FAILED', message: `patch line ${file.patchLine}: ${broken}`, fileIndex, filePath: file.filePath } };
    }
  }
  return { ok: true, request: { tool: TOOL_MULTI_EDIT_PATCH, singleFile: false, rootRelative: true, files, dryRun: dry_run ?? false, includeDiff: false, patch } };
}

export function writePatchRequest(request: ParsedRequest): MultiEditPatchRequest {
  return { patch: request.patch ?? '', ...(request.dryRun ? { dry_run: true } : {}) };
}

function fileRequestOf(operation: PatchOperation): FileRequest {
  const patchLine = operation.patchLine;
  if (operation.kind === 'add') {
    return { filePath: operation.path, edits: [], operation: 'add', content: operation.text, patchLine };
  }
  const edits = operation.hunks.map((hunk) => ({ old_string: hunk.oldText, new_string: hunk.newText }));
  const hunks = operation.hunks.map((hunk) => hunk.placement);
  if (operation.kind === 'delete') {
    return { filePath: operation.path, edits, hunks, operation: 'delete', patchLine };
  }
  const move = operation.moveTo !== undefined ? { operation: 'move' as const, moveTo: operation.moveTo } : { operation: 'update' as const };
  return { filePath: operation.path, edits, hunks, ...move, patchLine };
}

async function checkShape(input: unknown): Promise<{ ok: true; data: MultiEditPatchRequest } | { ok: false; problem: Extract<ParseResult, { ok: false }>['problem'] }> {
  if (fitsRequestSchema(TOOL_MULTI_EDIT_PATCH, input)) {
    return { ok: true, data: { ...(input as MultiEditPatchRequest) } };
  }
  const { checkWithSchema } = await import('../request/schemaProblem.js');
  const checked = checkWithSchema(TOOL_MULTI_EDIT_PATCH, input);
  return checked.ok ? { ok: true, data: checked.data as MultiEditPatchRequest } : checked;
}
