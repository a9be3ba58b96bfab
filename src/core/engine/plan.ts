/**
 * Plans one file: vet the path, read the file, check every edit in memory. Nothing
 * is written here. A file that plans cleanly becomes a PlannedFile; otherwise the
 * result lists each failed and skipped edit and can explain the first failure.
 */
import type { EngineContext } from './engineContext';
import { detectEol, endsWithNewline, eolName, withEol, type Eol } from '../text/eol';
import type { ErrorCode, NextAction } from '../contract/errorCodes';
import { explainMiss } from '../nearMiss/explain';
import type { FileStat, StoreResult, StoredText } from '../store/fileStore';
import { LineIndex } from '../text/lineIndex';
import { matchLocations, snippetAround } from '../nearMiss/context';
import { nearestNames, splitPath } from '../nearMiss/nearbyNames';
import { describeWhitespace } from '../nearMiss/describe';
import { checkEdits, type EditToCheck, type EditVerdict, type IndentedMatch, type MatchOutcome } from '../matching/match';
import { explainTokenCut, tokenCutWarning } from '../nearMiss/tokenCut';
import type { PathCheckResult } from './options';
import { retryWhileBusy } from './retry';
import type { Diagnosis, Edit, EnvelopeContext, Warning } from '../contract/schemas';
import { earlierEditThatChanged } from './staleness';
import { existingFileMeant } from './pathMeant';

export interface PlannedFile {
  /** The resolved path, as the store knows it. */
  readonly path: string;
  readonly displayPath: string;
  readonly original: StoredText;
  readonly newText: string;
  readonly editsApplied: number;
  readonly replacements: number;
}

export interface FileTarget {
  readonly fileIndex: number;
  readonly requestedPath: string;
  readonly edits: readonly Edit[];
  readonly pathCheck: PathCheckResult;
  /** The stat of the checked path, already taken to tell files apart. */
  readonly stat: StoreResult<FileStat>;
  /** A dry run writes nothing, so its warnings say what would be written. */
  readonly dryRun: boolean;
}

export interface EditProblem {
  readonly editIndex: number;
  readonly status: 'failed' | 'skipped';
  readonly code?: ErrorCode;
  readonly message: string;
  readonly oldStringPreview?: string;
  /** For a skipped edit: the failed edits (0-based, within its file) it waits on. */
  readonly dependsOn?: readonly number[];
  /** The cause and the text around a match failure, so every one can be fixed at once (the envelope's lead has them at the top level). */
  readonly detail?: () => EditDetail;
}

export interface EditDetail {
  readonly diagnosis?: Diagnosis;
  readonly context?: EnvelopeContext;
}

/** The first failure of a file, in full. */
export interface LeadFailure {
  readonly code: ErrorCode;
  readonly editIndex?: number;
  readonly message: string;
  readonly hints: readonly string[];
  readonly diagnosis?: Diagnosis;
  readonly context?: EnvelopeContext;
  readonly action?: NextAction;
  /** The hints above replace the code's general hints (a "did you mean" answers "check the path"). */
  readonly ownHintsOnly?: boolean;
}

export interface FileFailure {
  readonly fileIndex: number;
  readonly filePath: string;
  readonly displayPath: string;
  readonly editCount: number;
  /** Set when the file itself could not be checked; then every edit is skipped. */
  readonly fileCode?: ErrorCode;
  /** Failed and skipped edits, in order. */
  readonly problems: readonly EditProblem[];
  /** The file's text as read, when it was read: other failing edits may have been meant for it. */
  readonly text?: string;
  /** Explains the first failure; called only for the failure the envelope leads with. */
  readonly lead: () => LeadFailure;
}

export type FilePlan =
  | { readonly ok: true; readonly file: PlannedFile; readonly warnings: readonly Warning[] }
  | { readonly ok: false; readonly failure: FileFailure };

const PREVIEW_CHARS = 40;

export async function planFile(target: FileTarget, context: EngineContext): Promise<FilePlan> {
  if (!target.pathCheck.ok) {
    const { code, detail, hints } = target.pathCheck;
    const meant = await existingFileMeant(target.requestedPath, context);
    return fileLevelFailure(target, target.requestedPath, context.displayPath(target.requestedPath), code, detail, hints ?? [], { meant, context });
  }
  const path = target.pathCheck.path;
  const displayPath = context.displayPath(path);
  const read = await readWithinLimits(path, target.stat, context);
  if (!read.ok) {
    const missing = read.code === 'FILE_NOT_FOUND';
    const nearby = missing ? await nearbyNames(path, context) : [];
    const meant = missing ? await existingFileMeant(target.requestedPath, context) : undefined;
    return fileLevelFailure(target, path, displayPath, read.code, read.detail, [], { nearby, meant, context });
  }
  const original = read.value;
  const { edits, eol, normalized } = prepareEdits(original.text, target.edits);
  const outcome = checkEdits(original.text, edits, {
    maxLocations: context.limits.maxMatchLocations,
    insideIndentation: context.limits.insideIndentation,
    insideToken: context.limits.insideToken,
  });
  if (outcome.text === undefined) {
    return { ok: false, failure: editFailures(target, path, displayPath, original.text, edits, outcome, context) };
  }
  const replacements = outcome.applied.reduce((sum, applied) => sum + applied.starts.length, 0);
  const file: PlannedFile = { path, displayPath, original, newText: outcome.text, editsApplied: edits.length, replacements };
  const tokenWarnings = outcome.verdicts.flatMap((verdict, editIndex) => (verdict.status === 'applied' && verdict.insideToken ? [tokenCutWarning(editIndex, verdict.insideToken, file.path, file.displayPath)] : []));
  return { ok: true, file, warnings: [...fileWarnings(file, eol, normalized, target.dryRun), ...indentationWarnings(file, outcome.verdicts), ...tokenWarnings] };
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

async function readWithinLimits(path: string, stat: StoreResult<FileStat>, context: EngineContext): Promise<StoreResult<StoredText>> {
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
  return retryWhileBusy(() => store.read(path, limits.maxFileBytes), retry, sleep, isCancelled);
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

/** A warning for each edit that matched inside a line's indentation and was applied. */
function indentationWarnings(file: PlannedFile, verdicts: readonly EditVerdict[]): Warning[] {
  return verdicts.flatMap((verdict, editIndex) => (verdict.status === 'applied' && verdict.insideIndentation ? [{
    code: 'MATCH_INSIDE_INDENTATION',
    message: `Edit ${editIndex + 1}'s old_string matched inside the indentation of a line of ${file.displayPath}, after ${describeWhitespace(verdict.insideIndentation.indentBefore)} more: the replacement keeps that indentation, and any later line of new_string lands as written; check the result`,
    file_path: file.path,
  }] : []));
}

/** What a file-level failure can say about the file the caller meant. */
interface MeantFile {
  /** FILE_NOT_FOUND: the closest names in the directory. */
  readonly nearby?: readonly string[];
  /** A path written with backslashes that names this existing file with forward slashes. */
  readonly meant?: string;
  readonly context: EngineContext;
}

function fileLevelFailure(
  target: FileTarget, filePath: string, displayPath: string, code: ErrorCode, detail: string, hints: readonly string[], meantFile?: MeantFile,
): FilePlan {
  const problems = target.edits.map((_edit, editIndex): EditProblem => ({
    editIndex,
    status: 'skipped',
    message: `not checked: ${displayPath} could not be edited (${code})`,
  }));
  const nearby = meantFile?.nearby ?? [];
  const meant = meantFile?.meant;
  const context = nearby.length > 0 || meant !== undefined
    ? { context: { ...(nearby.length > 0 ? { nearby_names: [...nearby] } : {}), ...(meant !== undefined ? { existing_path: meant } : {}) } }
    : {};
  // A name the directory holds answers "check the path" better than the code's general hint.
  const didYouMean = meant !== undefined && meantFile
    ? [`Did you mean ${meantFile.context.displayPath(meant)}? That file exists: the path was written with backslashes where it has forward slashes; send context.existing_path as file_path`]
    : nearby.length > 0 ? [`Did you mean ${nearby[0]}? It is the closest name in the directory (context.nearby_names lists the ${nearby.length === 1 ? 'only one' : `${nearby.length} closest`})`] : [];
  const lead = (): LeadFailure => ({
    code,
    message: `Cannot edit ${displayPath}: ${detail}`,
    hints: [...didYouMean, ...hints],
    ...(didYouMean.length > 0 ? { ownHintsOnly: true } : {}),
    ...context,
  });
  return {
    ok: false,
    failure: { fileIndex: target.fileIndex, filePath, displayPath, editCount: target.edits.length, fileCode: code, problems, lead },
  };
}

function editFailures(
  target: FileTarget, filePath: string, displayPath: string, original: string,
  edits: readonly EditToCheck[], outcome: MatchOutcome, context: EngineContext,
): FileFailure {
  /** Hints, cause and context of one match failure, from the text it was checked against. */
  const explain = (editIndex: number, textBefore: string): Omit<LeadFailure, 'code' | 'editIndex' | 'message'> => {
    const verdict = outcome.verdicts[editIndex];
    if (verdict.status === 'failed' && verdict.code === 'MATCH_NOT_FOUND') {
      if (verdict.insideToken) {
        return explainTokenCut(textBefore, edits[editIndex], verdict.insideToken, context.limits);
      }
      return verdict.insideIndentation
        ? explainIndentedMatch(textBefore, verdict.insideIndentation, context)
        : explainNotFound(textBefore, original, edits[editIndex], editIndex, outcome, context);
    }
    if (verdict.status === 'failed' && verdict.code === 'AMBIGUOUS_MATCH') {
      const index = LineIndex.of(textBefore);
      const locations = matchLocations(textBefore, index, verdict.firstOffsets, context.limits);
      const matchLines = verdict.matchOffsets.map((offset) => index.lineOfOffset(offset) + 1);
      const shown = locations.length < verdict.totalMatches
        ? [`context.match_locations shows the first ${locations.length} of ${verdict.totalMatches} matches in detail, and context.match_lines the line of ${matchLines.length === verdict.totalMatches ? 'every one' : `the first ${matchLines.length}`}`]
        : [];
      return { hints: shown, context: { match_locations: locations, total_matches: verdict.totalMatches, match_lines: matchLines } };
    }
    return { hints: [] };
  };

  const problems: EditProblem[] = [];
  outcome.verdicts.forEach((verdict, editIndex) => {
    if (verdict.status === 'applied') {
      return;
    }
    const textBefore = outcome.failureTexts.get(editIndex);
    problems.push({
      editIndex,
      status: verdict.status,
      ...(verdict.status === 'failed' ? { code: verdict.code } : { dependsOn: [failedEditBehind(outcome.verdicts, verdict.dependsOn)] }),
      message: verdictMessage(verdict, displayPath),
      oldStringPreview: preview(target.edits[editIndex].old_string),
      ...(textBefore !== undefined ? { detail: () => detailOf(explain(editIndex, textBefore)) } : {}),
    });
  });

  const lead = (): LeadFailure => {
    const first = outcome.firstFailedEdit;
    const verdict = first === undefined ? undefined : outcome.verdicts[first];
    if (first === undefined || verdict === undefined || verdict.status !== 'failed') {
      throw new Error('a failed file has a first failed edit');
    }
    const message = `Edit ${first + 1} of ${edits.length} failed: ${verdictMessage(verdict, displayPath)}`;
    const base = { code: verdict.code, editIndex: first, message };
    const textBefore = outcome.failureTexts.get(first);
    return textBefore === undefined ? { ...base, hints: [] } : { ...base, ...explain(first, textBefore) };
  };

  return { fileIndex: target.fileIndex, filePath, displayPath, editCount: edits.length, problems, lead, text: original };
}

/** The failed edit at the end of a chain of skipped edits, each waiting on the one before. */
function failedEditBehind(verdicts: readonly EditVerdict[], editIndex: number): number {
  let current = editIndex;
  for (let verdict = verdicts[current]; verdict.status === 'skipped'; verdict = verdicts[current]) {
    current = verdict.dependsOn;
  }
  return current;
}

function explainNotFound(
  textBefore: string, original: string, edit: EditToCheck, editIndex: number, outcome: MatchOutcome, context: EngineContext,
): Pick<LeadFailure, 'hints' | 'diagnosis' | 'context' | 'action'> {
  const explanation = explainMiss(textBefore, LineIndex.of(textBefore), edit.oldString, edit.newString, context.limits, edit.asSent?.oldString);
  const changedBy = earlierEditThatChanged(original, edit.oldString, outcome.applied, editIndex);
  if (changedBy !== undefined) {
    return {
      context: explanation.context,
      diagnosis: {
        kind: 'STALE_CONTENT',
        detail: `old_string is in the file as read, but edit ${changedBy + 1} of this request changed that text first; edits apply in order, each to the text the earlier edits leave`,
      },
      hints: [`Write old_string against the text as edit ${changedBy + 1} leaves it, or fold this change into edit ${changedBy + 1}`],
    };
  }
  const longerThanText = edit.oldString.length > textBefore.length
    ? [`old_string has ${edit.oldString.length} characters and the text only ${textBefore.length}, so it cannot occur; re-read the file and copy old_string from it`]
    : [];
  return {
    context: explanation.context,
    ...(explanation.diagnosis ? { diagnosis: explanation.diagnosis } : {}),
    hints: [...longerThanText, ...explanation.hints],
    ...(explanation.diagnosis?.kind === 'ALREADY_APPLIED' ? { action: 'reread_and_retry' as const } : {}),
  };
}

/** A match refused because it starts inside a line's indentation: INDENTATION, at that line. */
function explainIndentedMatch(textBefore: string, match: IndentedMatch, context: EngineContext): Pick<LeadFailure, 'hints' | 'diagnosis' | 'context'> {
  const index = LineIndex.of(textBefore);
  const { line } = index.position(match.offset);
  const lineStart = index.lineStart(line - 1);
  const end = index.position(index.lineEnd(line - 1));
  const indent = /^[ \t]*/.exec(textBefore.slice(lineStart, index.lineEnd(line - 1)))?.[0] ?? '';
  return {
    diagnosis: {
      kind: 'INDENTATION',
      detail: `old_string occurs only inside the indentation of line ${line}, ${describeWhitespace(match.indentBefore)} in: line 1 of old_string is indented less than the file's ${describeWhitespace(indent)}, and the insideIndentation setting refuses such a match, since later lines of new_string would land mis-indented`,
      line, column: 1, old_string_line: 1,
      near_match: { start_line: line, start_column: 1, end_line: end.line, end_column: end.column },
      occurrences: 1, occurrence_lines: [line],
    },
    context: snippetAround(textBefore, index, match.offset, context.limits),
    hints: ['Copy the whole line with its leading whitespace into old_string, and indent every line of new_string as the file does'],
  };
}

function detailOf({ diagnosis, context }: Pick<LeadFailure, 'diagnosis' | 'context'>): EditDetail {
  return { ...(diagnosis ? { diagnosis } : {}), ...(context ? { context } : {}) };
}

function verdictMessage(verdict: Exclude<EditVerdict, { status: 'applied' }>, displayPath: string): string {
  if (verdict.status === 'skipped') {
    return `depends on edit ${verdict.dependsOn + 1}: its old_string occurs only in the new_string of edit ${verdict.dependsOn + 1}, which was not applied`;
  }
  switch (verdict.code) {
    case 'EMPTY_OLD_STRING':
      return 'old_string is empty';
    case 'NO_OP_EDIT':
      return 'old_string and new_string are the same';
    case 'DUPLICATE_OLD_STRING':
      return `old_string is the same as the old_string of edit ${verdict.duplicateOf + 1}`;
    case 'MATCH_NOT_FOUND':
      if (verdict.insideToken) {
        return `old_string occurs in ${displayPath} only where its ${verdict.insideToken.side} falls inside a word or number, which the insideToken setting refuses`;
      }
      return verdict.insideIndentation
        ? `old_string occurs in ${displayPath} only inside the indentation of a line, which the insideIndentation setting refuses`
        : `old_string was not found in ${displayPath}`;
    case 'AMBIGUOUS_MATCH':
      return `old_string occurs ${verdict.totalMatches} times in ${displayPath}; it must occur exactly once unless replace_all is true`;
  }
}

/** The first characters of an old_string, never splitting a surrogate pair. */
export function preview(value: string): string {
  if (value.length <= PREVIEW_CHARS) {
    return value;
  }
  let end = PREVIEW_CHARS;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    end--;
  }
  return `${value.slice(0, end)}…`;
}
