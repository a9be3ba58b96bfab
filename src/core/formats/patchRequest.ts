/** The multi_edit_patch input format: `{ patch, dry_run? }`, read into the request every format becomes. */
import { TOOL_MULTI_EDIT_PATCH } from '../contract/toolNames';
import type { MultiEditPatchRequest } from '../contract/schemas';
import { inputRuleProblem } from '../request/inputRules';
import { fitsRequestSchema } from '../request/requestShape';
import type { FileRequest, ParsedRequest, ParseResult } from '../request/request';
import { parsePatch } from '../patch/parsePatch';
import type { PatchIssue, PatchOperation } from '../patch/patchModel';

/** What a malformed patch is answered with: the code's general hints speak of edits' strings, which a patch has none of. */
const PATCH_HINTS = [
  'Fix the patch at the line named and send it again',
  'Each file needs a header with its path relative to the root ("*** Update File: src/app.py", "+++ b/src/app.py", or the path above "<<<<<<< SEARCH"); docs/patch.md shows each format',
];

/** A call whose fields are wrong: the tool takes the patch's text and two flags, never edits. */
const SHAPE_HINT = 'Send { "patch": "<the patch text>" }, with "dry_run": true to see the diffs and write nothing (and "full_diff": true to see a deleted file\'s every line)';

function malformed(message: string, issues: readonly PatchIssue[], file?: { fileIndex: number; filePath: string }): ParseResult {
  return {
    ok: false,
    problem: {
      code: 'VALIDATION_FAILED',
      message,
      hints: PATCH_HINTS,
      ownHintsOnly: true,
      issues: issues.map((issue) => ({ field: 'patch', path: ['patch'], message: issue.message, patch_line: issue.patchLine })),
      ...(file ? { fileIndex: file.fileIndex, filePath: file.filePath } : {}),
    },
  };
}

export async function readPatchRequest(input: unknown): Promise<ParseResult> {
  const checked = await checkShape(input);
  if (!checked.ok) {
    return checked;
  }
  const { patch, dry_run, full_diff } = checked.data;
  const parsed = parsePatch(patch);
  if (!parsed.ok) {
    const [first, ...rest] = parsed.issues;
    const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
    return malformed(`patch line ${first.patchLine}: ${first.message}${more}`, parsed.issues);
  }
  if (parsed.operations.length === 0) {
    return { ok: false, problem: { code: 'EMPTY_EDITS', message: 'the patch changes no file' } };
  }
  const unnamed = parsed.operations.flatMap(unnamedPathIssues);
  if (unnamed.length > 0) {
    return malformed(`patch line ${unnamed[0].patchLine}: ${unnamed[0].message}`, unnamed);
  }
  const files = parsed.operations.map(fileRequestOf);
  for (const [fileIndex, file] of files.entries()) {
    const strings = file.content !== undefined ? [{ old_string: '', new_string: file.content }] : file.edits;
    const broken = inputRuleProblem({ filePath: file.filePath, edits: strings }, '') ?? (file.moveTo !== undefined ? inputRuleProblem({ filePath: file.moveTo, edits: [] }, 'move destination ') : undefined);
    if (broken) {
      const issue = { patchLine: file.patchLine ?? 1, message: broken };
      return malformed(`patch line ${issue.patchLine}: ${broken}`, [issue], { fileIndex, filePath: file.filePath });
    }
  }
  return {
    ok: true,
    request: { tool: TOOL_MULTI_EDIT_PATCH, singleFile: false, rootRelative: true, files, dryRun: dry_run ?? false, includeDiff: false, ...(full_diff ? { fullDiff: true } : {}), patch },
  };
}

/** A header that names no file (nothing after "*** Update File:", "+++ b/", "./"): the patch is malformed, whatever its format. */
function unnamedPathIssues(operation: PatchOperation): PatchIssue[] {
  const issues: PatchIssue[] = [];
  if (operation.path === '') {
    issues.push({ patchLine: operation.patchLine, message: `expected the path of the file to ${operation.kind}, found an empty name` });
  }
  if (operation.kind === 'update' && operation.moveTo === '') {
    issues.push({ patchLine: operation.patchLine, message: 'expected the path the file moves to, found an empty name' });
  }
  return issues;
}

export function writePatchRequest(request: ParsedRequest): MultiEditPatchRequest {
  return { patch: request.patch ?? '', ...(request.dryRun ? { dry_run: true } : {}), ...(request.fullDiff ? { full_diff: true } : {}) };
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
  if (checked.ok) {
    return { ok: true, data: checked.data as MultiEditPatchRequest };
  }
  return { ok: false, problem: { ...checked.problem, hints: [...(checked.problem.hints ?? []), SHAPE_HINT], ownHintsOnly: true } };
}
