/**
 * How a file that did not plan is put into words: the failed and skipped edits, and for the
 * failure the envelope leads with, its message, hints, diagnosis and context.
 */
import type { EngineContext } from './engineContext';
import type { ErrorCode } from '../contract/errorCodes';
import { oldStringExcerpt } from '../contract/format';
import { explainMiss } from '../nearMiss/explain';
import { contextLineCount, matchLocations, snippetAround, snippetOfLines } from '../nearMiss/context';
import { describeWhitespace } from '../nearMiss/describe';
import type { EditToCheck, EditVerdict, IndentedMatch, MatchOutcome } from '../matching/match';
import { LineIndex } from '../text/lineIndex';
import type { EditDetail, EditProblem, FileFailure, FilePlan, LeadFailure } from '../plan/filePlan';
import type { FileTarget } from './planFile';
import { type StaleSpan, staleSpan } from './staleness';
import { explainTokenCut } from '../nearMiss/tokenCut';

/** What a file-level failure can say about the file the caller meant. */
export interface MeantFile {
  /** FILE_NOT_FOUND: the closest names in the directory. */
  readonly nearby?: readonly string[];
  /** A path written with backslashes that names this existing file with forward slashes. */
  readonly meant?: string;
  readonly context: EngineContext;
}

export function fileLevelFailure(
  target: FileTarget, filePath: string, displayPath: string, code: ErrorCode, detail: string, hints: readonly string[], meantFile?: MeantFile, ownHintsOnly = false,
): FilePlan {
  const problems = target.edits.map((_edit, editIndex): EditProblem => ({
    editIndex,
    status: 'skipped',
    message: `not checked: ${displayPath} could not be edited (${code})`,
  }));
  const nearby = meantFile?.nearby ?? [];
  const meant = meantFile?.meant;
  const context = {
    ...(nearby.length > 0 ? { nearby_names: [...nearby] } : {}),
    ...(meant !== undefined ? { existing_path: meant } : {}),
    ...(target.patchLine !== undefined ? { patch_line: target.patchLine } : {}),
  };
  // A name the directory holds answers "check the path" better than the code's general hint.
  const didYouMean = meant !== undefined && meantFile
    ? [`Did you mean ${meantFile.context.displayPath(meant)}? That file exists: the path was written with backslashes where it has forward slashes; send context.existing_path as file_path`]
    : nearby.length > 0 ? [`Did you mean ${nearby[0]}? It is the closest name in the directory (context.nearby_names lists the ${nearby.length === 1 ? 'only one' : `${nearby.length} closest`})`] : [];
  const lead = (): LeadFailure => ({
    code,
    message: `Cannot edit ${displayPath}: ${detail}`,
    hints: [...didYouMean, ...hints],
    ...(didYouMean.length > 0 || ownHintsOnly ? { ownHintsOnly: true } : {}),
    ...(Object.keys(context).length > 0 ? { context } : {}),
  });
  return {
    ok: false,
    failure: { fileIndex: target.fileIndex, filePath, displayPath, editCount: target.edits.length, fileCode: code, problems, lead },
  };
}

export function editFailures(
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
      // Lines apart from each match are only named when every match is known.
      const all = verdict.matchOffsets.length === verdict.totalMatches ? { offsets: verdict.matchOffsets, breaks: lineBreaksIn(edits[editIndex].oldString) } : undefined;
      const locations = matchLocations(textBefore, index, verdict.firstOffsets, context.limits, all);
      const matchLines = verdict.matchOffsets.map((offset) => index.lineOfOffset(offset) + 1);
      const shown = locations.length < verdict.totalMatches
        ? [`context.match_locations shows the first ${locations.length} of ${verdict.totalMatches} matches in detail, and context.match_lines the line of ${matchLines.length === verdict.totalMatches ? 'every one' : `the first ${matchLines.length}`}`]
        : [];
      const apart = locations.some((location) => location.distinct_above || location.distinct_below)
        ? ['Each context.match_locations entry names the nearest lines that tell it apart (distinct_above, distinct_below): grow old_string up to one of them at the intended match and it occurs once']
        : [];
      return { hints: [...apart, ...shown], context: { match_locations: locations, total_matches: verdict.totalMatches, match_lines: matchLines } };
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
      oldStringPreview: oldStringExcerpt(target.edits[editIndex].old_string),
      ...(textBefore !== undefined ? { detail: () => detailOf(explain(editIndex, textBefore)) } : {}),
    });
  });

  const lead = (): LeadFailure => {
    const first = outcome.firstFailedEdit;
    const verdict = first === undefined ? undefined : outcome.verdicts[first];
    if (first === undefined || verdict === undefined || verdict.status !== 'failed') {
      throw new Error('a failed file has a first failed edit');
    }
    const hunk = target.hunks?.[first];
    const what = hunk ? `Hunk ${first + 1} of ${edits.length} (patch line ${hunk.patchLine})` : `Edit ${first + 1} of ${edits.length}`;
    const message = `${what} failed: ${verdictMessage(verdict, displayPath)}`;
    const base = { code: verdict.code, editIndex: first, message };
    const textBefore = outcome.failureTexts.get(first);
    const explained = textBefore === undefined ? { ...base, hints: [] } : { ...base, ...explain(first, textBefore) };
    return hunk ? { ...explained, context: { ...explained.context, patch_line: hunk.patchLine } } : explained;
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
  const stale = staleSpan(original, edit.oldString, outcome.applied, editIndex);
  if (stale !== undefined) {
    return explainStale(textBefore, stale, context);
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

/**
 * STALE_CONTENT: the earlier edits that changed the text old_string was written against, and as
 * near_match that text as they left it (whole in the snippet), so the edit can be rewritten in one retry.
 */
function explainStale(textBefore: string, stale: StaleSpan, context: EngineContext): Pick<LeadFailure, 'hints' | 'diagnosis' | 'context'> {
  const index = LineIndex.of(textBefore);
  const start = index.position(stale.start);
  const end = index.position(stale.end);
  const around = contextLineCount(context.limits);
  const names = stale.changedBy.map((editIndex) => `${editIndex + 1}`);
  const edits = names.length === 1 ? `edit ${names[0]}` : `edits ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const snippet = snippetOfLines(textBefore, index, {
    first: start.line - 1 - around, last: end.line - 1 + around, focusLine: start.line - 1, focusOffset: stale.start,
    whole: { first: start.line - 1, last: end.line - 1 },
  }, context.limits.maxSnippetLineChars);
  return {
    context: { ...snippet, closest_line: start.line },
    diagnosis: {
      kind: 'STALE_CONTENT',
      detail: `old_string is in the file as read, but ${edits} of this request changed that text first; edits apply in order, each to the text the earlier edits leave, and diagnosis.near_match is that text as ${edits} left it`,
      line: start.line, column: start.column, old_string_line: 1,
      near_match: { start_line: start.line, start_column: start.column, end_line: end.line, end_column: end.column },
      changed_by: [...stale.changedBy],
    },
    hints: [`Write old_string against the text of diagnosis.near_match (as ${edits} left it) and make this edit's change in it, or merge this edit into ${edits}`],
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
      if (verdict.missingLine !== undefined) {
        return `the hunk's "@@ ${verdict.missingLine}" line was not found in ${displayPath} (after the @@ lines before it)`;
      }
      return verdict.insideIndentation
        ? `old_string occurs in ${displayPath} only inside the indentation of a line, which the insideIndentation setting refuses`
        : `old_string was not found in ${displayPath}`;
    case 'AMBIGUOUS_MATCH':
      return `old_string occurs ${verdict.totalMatches} times in ${displayPath}; it must occur exactly once unless replace_all is true`;
    case 'FILE_TOO_LARGE':
      return `applying it would make ${displayPath} ${verdict.projectedChars} characters long, so at least ${verdict.projectedChars} bytes; the limit is ${verdict.limitBytes} bytes, so nothing was built or written`;
  }
}

/** How many lines a text spans beyond its first (CRLF and LF both count once). */
function lineBreaksIn(text: string): number {
  return text.split('\n').length - 1;
}
