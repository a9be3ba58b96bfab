/**
 * Plans one file: vet the path, read the file, check every edit in memory. Nothing
 * is written here. A file that plans cleanly becomes a PlannedFile; otherwise the
 * result lists each failed and skipped edit and can explain the first failure.
 */
import type { EngineContext } from './engineContext';
import { detectEol, endsWithNewline, eolName, withEol, type Eol } from '../text/eol';
import type { FileStat, StoreResult, StoredText } from '../store/fileStore';
import type { PathCheckResult } from '../store/paths';
import { nearestNames, splitPath } from '../nearMiss/nearbyNames';
import { describeWhitespace } from '../nearMiss/describe';
import { checkEdits, type EditToCheck, type EditVerdict } from '../matching/match';
import type { FilePlan, PlannedFile } from '../plan/filePlan';
import { replacedSpans, type ReplacedSpan } from '../matching/replacedSpans';
import { retryWhileBusy } from './retry';
import type { Edit, Warning } from '../contract/schemas';
import type { HunkPlacement } from '../matching/placement';
import { editFailures, fileLevelFailure } from './planFailures';
import { existingFileMeant } from './pathMeant';
import { tokenCutWarning } from '../nearMiss/tokenCut';
import { unrepresentableFailure } from './encodingCheck';
import { isNotebookPath } from '../notebook/notebookPath';
import { sameText } from '../text/editedText';

export interface FileTarget {
  readonly fileIndex: number;
  readonly requestedPath: string;
  readonly edits: readonly Edit[];
  /** The request's word on the file's encoding (used when it has no BOM and is not UTF-8). */
  readonly encoding?: string;
  readonly pathCheck: PathCheckResult;
  /** The stat of the checked path, already taken to tell files apart. */
  readonly stat: StoreResult<FileStat>;
  /** A dry run writes nothing, so its warnings say what would be written. */
  readonly dryRun: boolean;
  /** A patch: where each edit (a hunk) goes, and where the patch wrote it. */
  readonly hunks?: readonly HunkPlacement[];
  /** A patch: the line where this file's operation starts. */
  readonly patchLine?: number;
}

export async function planFile(target: FileTarget, context: EngineContext): Promise<FilePlan> {
  if (!target.pathCheck.ok) {
    const { code, detail, hints, ownHintsOnly } = target.pathCheck;
    const meant = await existingFileMeant(target.requestedPath, context);
    return fileLevelFailure(target, target.requestedPath, context.displayPath(target.requestedPath), code, detail, hints ?? [], { meant, context }, ownHintsOnly);
  }
  const path = target.pathCheck.path;
  const displayPath = context.displayPath(path);
  const read = await readWithinLimits(path, target.stat, context, target.encoding);
  if (!read.ok) {
    const missing = read.code === 'FILE_NOT_FOUND';
    const nearby = missing ? await nearbyNames(path, context) : [];
    const meant = missing ? await existingFileMeant(target.requestedPath, context) : undefined;
    return fileLevelFailure(target, path, displayPath, read.code, read.detail, read.hints ?? [], { nearby, meant, context });
  }
  const original = read.value;
  if (!target.hunks && isNotebookPath(path)) {
    // Loaded only for a notebook: it reads the file's JSON.
    const { planNotebook } = await import('./planNotebook.js');
    const notebookPlan = planNotebook(target, path, displayPath, original, context);
    if (notebookPlan) {
      return notebookPlan;
    }
  }
  const prepared = prepareEdits(original.text, target.edits);
  const { eol, normalized } = prepared;
  const edits = target.hunks ? prepared.edits.map((edit, index) => ({ ...edit, placement: target.hunks?.[index] ?? { patchLine: 0 } })) : prepared.edits;
  const outcome = await checkEdits(original.text, edits, {
    maxLocations: context.limits.maxMatchLocations,
    insideIndentation: context.limits.insideIndentation,
    insideToken: context.limits.insideToken,
    maxResultBytes: context.limits.maxFileBytes,
    yieldPoint: context.yieldPoint,
  });
  if (outcome.stopped) {
    return fileLevelFailure(target, path, displayPath, 'CANCELLED', context.stopMessage(), []);
  }
  if (outcome.text === undefined) {
    return { ok: false, failure: editFailures(target, path, displayPath, original.text, edits, outcome, context) };
  }
  const { applied, text: newText } = outcome;
  const unrepresentable = await unrepresentableFailure(target, { path, displayPath, original, newText }, edits);
  if (unrepresentable) {
    return { ok: false, failure: unrepresentable };
  }
  const replacements = outcome.applied.reduce((sum, applied) => sum + applied.count, 0);
  let spans: readonly ReplacedSpan[] | undefined;
  const file: PlannedFile = {
    path, displayPath, original, newText, editsApplied: edits.length, replacements, applied,
    // Found when an editor or a preview first asks: a replace_all on every line of a large file has millions, which the CLI and a dry run never read.
    get spans() {
      spans ??= replacedSpans(applied, newText);
      return spans;
    },
  };
  const tokenWarnings = outcome.verdicts.flatMap((verdict, editIndex) => (verdict.status === 'applied' && verdict.insideToken ? [tokenCutWarning(editIndex, verdict.insideToken, file.path, file.displayPath)] : []));
  return { ok: true, file, warnings: [...fileWarnings(file, eol, normalized, target.dryRun), ...hardLinkWarnings(file, target), ...indentationWarnings(file, outcome.verdicts), ...tokenWarnings] };
}

/** The names in the missing file's directory closest to its name; none when the directory cannot be listed. */
async function nearbyNames(path: string, context: EngineContext): Promise<string[]> {
  const parts = splitPath(path);
  const listed = parts && context.store.listNames ? await context.store.listNames(parts.directory) : undefined;
  return parts && listed?.ok ? nearestNames(parts.name, listed.value) : [];
}

/** Stats a path, retrying while it is busy. */
export function statWithRetry(path: string, context: EngineContext): Promise<StoreResult<FileStat>> {
  return retryWhileBusy(() => context.store.stat(path), context.retry, context.sleep, context.isCancelled);
}

export async function readWithinLimits(path: string, stat: StoreResult<FileStat>, context: EngineContext, encoding = context.encoding): Promise<StoreResult<StoredText>> {
  const { store, retry, sleep, isCancelled, limits } = context;
  if (!stat.ok) {
    return stat;
  }
  if (stat.value.kind === 'directory') {
    return { ok: false, code: 'IS_DIRECTORY', detail: 'the path is a directory' };
  }
  if (stat.value.kind === 'other') {
    return { ok: false, code: 'NOT_REGULAR_FILE', detail: 'the path is a FIFO, socket, device or other special file, so it was not opened' };
  }
  if (stat.value.size > limits.maxFileBytes) {
    return { ok: false, code: 'FILE_TOO_LARGE', detail: `the file has ${stat.value.size} bytes; the limit is ${limits.maxFileBytes}` };
  }
  return retryWhileBusy(() => store.read(path, limits.maxFileBytes, encoding), retry, sleep, isCancelled);
}

/** The edits with their newlines in the file's line ending, and which edits that changed. */
function prepareEdits(text: string, edits: readonly Edit[]): { edits: EditToCheck[]; eol?: Eol; normalized: number[] } {
  const hasNewline = edits.some((edit) => edit.old_string.includes('\n') || edit.new_string.includes('\n'));
  if (!hasNewline) {
    return { edits: edits.map(asEditToCheck), normalized: [] };
  }
  const eol = detectEol(text);
  const normalized: number[] = [];
  const prepared = edits.map((edit, editIndex) => {
    const oldString = withEol(edit.old_string, eol);
    const newString = withEol(edit.new_string, eol);
    if (oldString !== edit.old_string || newString !== edit.new_string) {
      normalized.push(editIndex);
    }
    const asSent = oldString !== edit.old_string ? { asSent: { oldString: edit.old_string, newString: edit.new_string } } : {};
    return { oldString, newString, replaceAll: edit.replace_all ?? false, ...asSent };
  });
  return { edits: prepared, eol, normalized };
}

function asEditToCheck(edit: Edit): EditToCheck {
  return { oldString: edit.old_string, newString: edit.new_string, replaceAll: edit.replace_all ?? false };
}

function fileWarnings(file: PlannedFile, eol: Eol | undefined, normalized: readonly number[], dryRun: boolean): Warning[] {
  const warnings: Warning[] = [];
  if (eol !== undefined && normalized.length > 0) {
    const numbers = normalized.map((editIndex) => editIndex + 1);
    const which = numbers.length === 1 ? `edit ${numbers[0]}` : `edits ${numbers.join(', ')}`;
    warnings.push({
      code: 'EOL_NORMALIZED',
      message: `Line breaks in ${which} ${dryRun ? 'would be written' : 'were written'} as ${eolName(eol)} to match ${file.displayPath}`,
      file_path: file.path,
    });
  }
  if (file.original.text !== '' && !endsWithNewline(file.original.text) && !endsWithNewline(file.newText)) {
    warnings.push({
      code: 'NO_FINAL_NEWLINE',
      message: `${file.displayPath} does not end with a newline; it was kept that way`,
      file_path: file.path,
    });
  }
  return warnings;
}

/** A file with other hard links is replaced by a new one: those names keep the old text, and the answer says so. */
function hardLinkWarnings(file: PlannedFile, target: FileTarget): Warning[] {
  const links = target.stat.ok ? target.stat.value.otherHardLinks : undefined;
  if (links === undefined || sameText(file.newText, file.original.text)) {
    return [];
  }
  const names = links === 1 ? '1 other hard link' : `${links} other hard links`;
  return [{
    code: 'HARD_LINK_SPLIT',
    message: `${file.displayPath} has ${names}; it ${target.dryRun ? 'would be' : 'was'} replaced by a new file, so ${links === 1 ? 'that name keeps' : 'those names keep'} the old text`,
    file_path: file.path,
  }];
}

/** A warning for each edit that matched inside a line's indentation and was applied. */
function indentationWarnings(file: PlannedFile, verdicts: readonly EditVerdict[]): Warning[] {
  return verdicts.flatMap((verdict, editIndex) => (verdict.status === 'applied' && verdict.insideIndentation ? [{
    code: 'MATCH_INSIDE_INDENTATION',
    message: `Edit ${editIndex + 1}'s old_string matched inside the indentation of a line of ${file.displayPath}, after ${describeWhitespace(verdict.insideIndentation.indentBefore)} more: the replacement keeps that indentation, and any later line of new_string lands as written; check the result`,
    file_path: file.path,
  }] : []));
}
