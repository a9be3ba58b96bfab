/** The success response: what was (or, in a dry run, would be) applied to each file. */
import { clipDiffs } from './diffBudget';
import { countNewlines, DiffPieces, unifiedDiff } from './diff';
import { plural } from '../contract/format';
import type { PlannedFile } from '../plan/filePlan';
import type { SuccessResponse, SuccessResponseWith, Warning } from '../contract/schemas';

export interface SuccessInput {
  readonly multiFile: boolean;
  readonly files: readonly PlannedFile[];
  readonly warnings: readonly Warning[];
  readonly dryRun: boolean;
  readonly includeDiff: boolean;
  /** A deleted file's diff shows every line it had; without it, the diff says how many lines go. */
  readonly fullDiff?: boolean;
  readonly maxDiffBytes: number;
  /** The id the surface gave an applied request; a dry run has none. */
  readonly requestId?: string;
}

export function successResponse(input: SuccessInput): SuccessResponse {
  const clipped = withDiff(input)
    ? clipDiffs(input.files.map((file) => deletionSummary(file, input) ?? unifiedDiff(diffLabel(file), file.original.text, file.newText.whole())), input.maxDiffBytes)
    : undefined;
  return successResponseWith(input, clipped?.diffs, clipped?.warning);
}

/** The success response with each diff as DiffPieces, whole: there is no budget to clip them to. */
export function streamedSuccessResponse(input: SuccessInput): SuccessResponseWith<DiffPieces | string> {
  const diffs = withDiff(input) ? input.files.map((file) => deletionSummary(file, input) ?? new DiffPieces(diffLabel(file), file.original.text, file.newText.whole())) : undefined;
  return successResponseWith(input, diffs, undefined);
}

const withDiff = (input: SuccessInput): boolean => input.dryRun || input.includeDiff;

/**
 * A deleted file's diff, unless the caller asked for the full diff: one line naming the file and
 * how many lines it had ("delete src/big.ts (3,683 lines)"), where the diff would print them all.
 */
function deletionSummary(file: PlannedFile, input: SuccessInput): string | undefined {
  if (file.operation !== 'delete' || input.fullDiff) {
    return undefined;
  }
  const text = file.original.text;
  const lines = countNewlines(text, text.length) + (text === '' || text.endsWith('\n') ? 0 : 1);
  return `delete ${file.displayPath} (${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}; the full diff shows them)\n`;
}

const diffLabel = (file: PlannedFile): string => (file.movedFrom !== undefined ? `${file.displayPath} (moved)` : file.displayPath);

function successResponseWith<Diff>(
  { multiFile, files, warnings, dryRun, requestId }: SuccessInput, diffs: readonly Diff[] | undefined, diffWarning: Warning | undefined,
): SuccessResponseWith<Diff> {
  const results = files.map((file, index) => ({
    file_path: file.path,
    edits_applied: file.editsApplied,
    replacements: file.replacements,
    ...(diffs ? { diff: diffs[index] } : {}),
    ...(file.operation ? { operation: file.operation } : {}),
    ...(file.movedFrom !== undefined ? { moved_from: file.movedFrom } : {}),
  }));
  const allWarnings = diffWarning ? [...warnings, diffWarning] : warnings;
  const edits = files.reduce((sum, file) => sum + file.editsApplied, 0);
  const replacements = files.reduce((sum, file) => sum + file.replacements, 0);
  const target = multiFile ? plural(files.length, 'file') : files[0].displayPath;
  const work = files.some((file) => file.operation !== undefined)
    ? `${plural(edits, 'hunk')}${operationCounts(files)}`
    : `${plural(edits, 'edit')} (${plural(replacements, 'replacement')})`;
  const summary = dryRun ? `Dry run: ${work} would apply to ${target}; nothing was written` : `Applied ${work} to ${target}`;
  return {
    success: true,
    summary,
    files: results,
    ...(allWarnings.length > 0 ? { warnings: [...allWarnings] } : {}),
    dry_run: dryRun,
    ...(requestId !== undefined && !dryRun ? { request_id: requestId } : {}),
    ...(multiFile ? {} : { file_path: results[0].file_path, edits_applied: results[0].edits_applied, replacements: results[0].replacements }),
  };
}

/** " (1 added, 1 deleted, 1 moved)": the file operations other than updates, when there are any. */
function operationCounts(files: readonly PlannedFile[]): string {
  const counts = (['add', 'delete', 'move'] as const)
    .map((operation) => [operation, files.filter((file) => file.operation === operation).length] as const)
    .filter(([, count]) => count > 0)
    .map(([operation, count]) => `${count} ${OPERATION_PAST[operation]}`);
  return counts.length > 0 ? ` (${counts.join(', ')})` : '';
}

const OPERATION_PAST = { add: 'added', delete: 'deleted', move: 'moved' } as const;
