/**
 * Names the cause of a near miss, by precedence:
 * 1. a difference a line-by-line walk can name (line endings, literal escapes,
 *    look-alikes, indentation, other whitespace: walkMiss.ts);
 * 2. a whole-needle change undone (line-number prefixes, diff markers, HTML or JSON
 *    escaping, Unicode normalisation: readings.ts);
 * 3. new_string already present (ALREADY_APPLIED), unless that near miss is where new_string stands;
 * 4. a block whose lines mostly match (a changed line, elided lines, blank lines: blockAlign.ts);
 *    where that finds only changed content, pieces of old_string arranged otherwise in the
 *    file (two stretches glued, lines reordered, lines re-wrapped: structural.ts).
 * Every diagnosis says where the text it compared old_string with stands, and how
 * many places hold that same text, so a fix that would be ambiguous shows up front.
 */
import { findClosestMatch, type TextSpan } from './closestMatch';
import { blockMiss } from './blockAlign';
import { diagnosisOf, type LocatedDiagnosis } from './describe';
import { needleReadings } from './needle';
import { rewrittenMiss } from './readings';
import { findNearMiss } from './walkMiss';
import { lineDifference, structuralMiss } from './structural';
import { TextSearch } from './textSearch';
import type { LineIndex } from '../text/lineIndex';
import type { Diagnosis, DiagnosisKind } from '../contract/schemas';

export type { LocatedDiagnosis } from './describe';

export interface MissInput {
  readonly text: string;
  readonly index: LineIndex;
  /** old_string in the file's line endings. */
  readonly needle: string;
  readonly newString: string;
  readonly closest?: TextSpan;
  /** old_string as the request sent it, when converting its line endings changed it. */
  readonly sentNeedle?: string;
  /** The searches of this explanation so far, for this needle (textSearch.ts). */
  readonly search?: TextSearch;
}

/** Non-blank characters new_string needs before its presence counts as ALREADY_APPLIED. */
const MIN_APPLIED_CHARS = 3;
/** Occurrences of the near-match text counted at most, and lines listed. */
const MAX_OCCURRENCES_COUNTED = 1000;
const MAX_OCCURRENCE_LINES = 20;

/** The diagnosis with the span it points at; undefined when the miss has no nameable cause. */
export function diagnoseMissAt(input: MissInput): LocatedDiagnosis | undefined {
  return input.needle.length === 0 || input.text.includes(input.needle) ? undefined : diagnoseKnownMiss(input);
}

/** diagnoseMissAt for a caller that already knows old_string is not in the text (saves a scan). */
export function diagnoseKnownMiss(input: MissInput): LocatedDiagnosis | undefined {
  const { text, index, needle, newString } = input;
  const search = input.search?.needle === needle ? input.search : new TextSearch(text, needle);
  const readings = needleReadings(needle);
  const closest = input.closest ?? findClosestMatch(text, index, needle, search);
  const sent = input.sentNeedle !== undefined ? needleReadings(input.sentNeedle)[0].lines : undefined;
  const sentBreaks = sent && sent.length === readings[0].lines.length ? sent.map((line) => line.lineBreak) : undefined;
  const nearMiss = closest && findNearMiss(text, index, needle, readings, closest, sentBreaks);
  const exact = (nearMiss && diagnosisOf(nearMiss, index)) ?? rewrittenMiss(search, index, needle, newString);
  // A new_string as short as "}" occurs in most files by chance and proves nothing.
  const applied = newString.trim().length < MIN_APPLIED_CHARS ? -1 : search.indexOf(newString);
  const nearMissIsNewString = exact !== undefined && text.startsWith(newString, exact.span.offset) && exact.span.length === newString.length;
  if (applied !== -1 && (exact === undefined || nearMissIsNewString)) {
    return withOccurrences(search, index, alreadyApplied(index, applied, newString.length));
  }
  const block = exact ?? (closest && blockMiss(text, index, readings[0], closest));
  // Pieces of old_string that are all in the file, arranged otherwise, explain more than one changed line.
  const arranged = block === undefined || block.diagnosis.kind === 'CONTENT_MISMATCH' ? structuralMiss(search, index, needle, closest) : undefined;
  const located = arranged ?? block ?? lineDifference(index, needle, closest);
  return located && withOccurrences(search, index, fromLineStart(text, index, located));
}

/**
 * A near match that starts inside a line's leading whitespace starts at the line
 * instead: copying it then never makes an old_string that matches inside indentation.
 */
function fromLineStart(text: string, index: LineIndex, located: LocatedDiagnosis): LocatedDiagnosis {
  const { offset, length } = located.span;
  const lineStart = index.lineStart(index.lineOfOffset(offset));
  if (lineStart === offset || !/^[ \t]*$/.test(text.slice(lineStart, offset))) {
    return located;
  }
  return { ...located, span: { offset: lineStart, length: length + offset - lineStart } };
}

function alreadyApplied(index: LineIndex, applied: number, length: number): LocatedDiagnosis {
  const { line, column } = index.position(applied);
  return {
    diagnosis: { kind: 'ALREADY_APPLIED', detail: `new_string already occurs in the file at line ${line}, column ${column}, and old_string does not occur`, line, column },
    span: { offset: applied, length },
    focus: applied,
  };
}

/** The diagnosis with where its near-match text stands and how many places hold that text. */
function withOccurrences(search: TextSearch, index: LineIndex, located: LocatedDiagnosis): LocatedDiagnosis {
  const { text } = search;
  const { span } = located;
  const start = index.position(span.offset);
  const end = index.position(span.offset + span.length);
  const nearMatch = { start_line: start.line, start_column: start.column, end_line: end.line, end_column: end.column };
  if (span.length === 0) {
    return { ...located, diagnosis: { ...located.diagnosis, near_match: nearMatch } };
  }
  const piece = text.slice(span.offset, span.offset + span.length);
  const lines: number[] = [];
  let count = 0;
  for (let at = search.indexOf(piece); at !== -1 && count < MAX_OCCURRENCES_COUNTED; at = search.indexOf(piece, at + 1)) {
    count++;
    if (lines.length < MAX_OCCURRENCE_LINES) {
      lines.push(index.lineOfOffset(at) + 1);
    }
  }
  const where = count > 1 ? `; that text occurs ${count} times in the file (lines ${lines.join(', ')}${count > lines.length ? ', ...' : ''}), so a corrected old_string needs more surrounding lines to be unique` : '';
  return {
    ...located,
    diagnosis: { ...located.diagnosis, detail: located.diagnosis.detail + where, near_match: nearMatch, occurrences: count, occurrence_lines: lines },
  };
}

export function diagnoseMiss(input: MissInput): Diagnosis | undefined {
  return diagnoseMissAt(input)?.diagnosis;
}

const KIND_HINTS: Readonly<Record<DiagnosisKind, readonly string[]>> = {
  EOL_MISMATCH: [
    'The file mixes line endings here: copy the line breaks exactly as the file has them (context.snippet keeps every \\r), or split the edit into edits that each stay within one line',
  ],
  ESCAPED_NEWLINES: [
    'Write line breaks and tabs in old_string as real characters, not as backslash sequences like \\n or \\t',
  ],
  UNICODE_LOOKALIKE: [
    'The file and old_string use different characters that look alike (quotes, dashes, spaces): copy them from the file exactly',
  ],
  INDENTATION: [
    'Copy each line\'s leading whitespace exactly: tabs and spaces are different characters',
  ],
  WHITESPACE_ONLY: [
    'Match spaces, tabs and trailing whitespace character for character',
  ],
  UNICODE_NORMALIZATION: [
    'Copy accented letters from the file: a composed letter and a letter with a combining mark look the same but differ',
  ],
  ESCAPED_TEXT: [
    'Write old_string as the file\'s raw text, with one level of escaping: no HTML entities, no JSON escapes such as \\" or \\\\n',
  ],
  LINE_NUMBER_PREFIX: [
    'Leave out the line numbers a read tool puts at the start of each line: they are not part of the file',
  ],
  DIFF_MARKERS: [
    'Leave out the " ", "-" or "+" a diff puts at the start of each line: they are not part of the file; take them off new_string too when diagnosis.markers_in_new_string is true',
  ],
  BLANK_LINES: [
    'Copy the blank lines between the lines of old_string exactly as the file has them',
  ],
  ELIDED_CONTENT: [
    'Write out every line that old_string spans; a placeholder such as "..." or "// existing code" is matched literally and never stands for lines',
  ],
  CONTENT_MISMATCH: [
    'The file has other text on the line named in the diagnosis, perhaps changed since it was read: re-read those lines and rebuild old_string and new_string from them',
  ],
  ALREADY_APPLIED: [
    'new_string is already in the file: re-read it to check whether this edit was applied earlier, and drop the edit if so',
  ],
  STALE_CONTENT: [
    'The file changed after it was read: re-read it and rebuild the edits against its current text',
  ],
  IN_OTHER_FILE: [
    'The text of old_string is in the file named by diagnosis.other_file: send the edit for that file (its entry in files, or its own request), or re-read this file if the change belongs here',
  ],
  REWRAPPED_LINES: [
    'The file breaks these lines differently (a formatter re-wrapped or joined them): copy the lines of diagnosis.near_match from context.snippet as they are, and make the same change in them',
  ],
  SPLIT_HUNKS: [
    'old_string joins two stretches of the file that are apart: split the edit into one edit per part in diagnosis.parts, each with its own new_string',
  ],
  REORDERED_LINES: [
    'The file has these lines in another order (diagnosis.line_map): copy them in the file\'s order from context.snippet, and order the lines of new_string the same way',
  ],
  INSIDE_TOKEN: [
    'old_string must start and end where the file\'s words and numbers start and end: extend it over the whole token (or the whole line, as context.snippet shows it), and make new_string replace exactly that text; to rename part of a word on purpose, use replace_all',
  ],
};

/**
 * General recovery hints for a diagnosis kind, to follow the code's own hints (which
 * already say to re-read the file); never a rewritten old_string.
 */
export function hintsForDiagnosis(kind: DiagnosisKind): readonly string[] {
  return KIND_HINTS[kind];
}
