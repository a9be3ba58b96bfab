/**
 * Near misses of a block of lines that no whitespace walk explains: a line that
 * someone else changed (CONTENT_MISMATCH), lines left out behind a marker such as
 * "// ... existing code ..." (ELIDED_CONTENT), a blank line collapsed or doubled
 * (BLANK_LINES). The needle's lines are aligned with the file's lines around the
 * closest match by a longest common subsequence of whole lines; the gaps of the
 * alignment are the differences. The window and the needle are bounded in lines,
 * so the table stays small.
 */
import { roleOf, type LineRole, type TextSpan } from './closestMatch';
import type { LocatedDiagnosis } from './describe';
import type { NeedleLine, NeedleReading } from './needle';
import { textLinesOf, type TextLine } from './textLines';
import { commonSubsequence } from '../text/lcs';
import type { LineIndex } from '../text/lineIndex';
import type { DiagnosisKind } from '../contract/schemas';

/** Needles longer than this many lines are not aligned. */
const MAX_BLOCK_LINES = 400;
/** File lines above the closest match where the block may start. */
const MARGIN = 8;
/** File lines an elision marker may stand for. */
const ELISION_REACH = 400;
/** File lines a gap without a marker may hold beyond the needle's own. */
const MAX_EXTRA_LINES = 6;

const COMMENT_OPEN = /^(?:\/{2,}|#+|--|;+|\/[*]+|<!--|[*]|%|REM\b)\s*/i;
const COMMENT_CLOSE = /\s*(?:[*]\/|-->)$/;
const ELLIPSIS = /^(?:\.{3}|…|\[\.\.\.\])$/;
const ELISION_WORDS = /^(?:(?:\.{3}|…)\s*)?(?:(?:the )?(?:rest|remainder) of\b|(?:existing|unchanged|previous|remaining|other|same)\s+(?:code|content|lines?|methods?|fields?|functions?|imports?|tests?|cases?|logic|implementation|config(?:uration)?|settings|entries|keys|items|steps|text)\b|(?:code|content|lines?)\s+(?:unchanged|omitted|elided|as before)\b|(?:keep|kept)\s+(?:as is|existing))/i;

/** Whether a line stands for lines left out: "...", "// ...", "# ... existing code ...". */
export function isElisionMarker(line: string): boolean {
  const inner = line.trim().replace(COMMENT_OPEN, '').replace(COMMENT_CLOSE, '').trim();
  return ELLIPSIS.test(inner) || (inner.length <= 80 && ELISION_WORDS.test(inner));
}

function fits(needle: NeedleLine, file: TextLine, role: LineRole): boolean {
  switch (role) {
    case 'first':
      return file.text.endsWith(needle.text);
    case 'last':
      return file.text.startsWith(needle.text);
    default:
      return file.text === needle.text;
  }
}

/** Pairs (needle line, file line) of a longest common subsequence, in order. */
function alignLines(needle: readonly NeedleLine[], file: readonly TextLine[]): [number, number][] {
  return commonSubsequence(needle.length, file.length, (i, j) => fits(needle[i], file[j], roleOf(i, needle.length)));
}

type GapKind = 'elided' | 'blank' | 'content';

interface Gap {
  readonly kind: GapKind;
  /** First needle line and first file line of the gap (0-based; file lines in the window). */
  readonly needleFrom: number;
  readonly needleCount: number;
  readonly fileFrom: number;
  readonly fileCount: number;
}

function classify(needle: readonly NeedleLine[], file: readonly TextLine[], gap: Omit<Gap, 'kind'>): Gap {
  const needleLines = needle.slice(gap.needleFrom, gap.needleFrom + gap.needleCount);
  const fileLines = file.slice(gap.fileFrom, gap.fileFrom + gap.fileCount);
  const blank = (text: string): boolean => text.trim() === '';
  if (needleLines.some((line) => isElisionMarker(line.text)) && needleLines.every((line) => blank(line.text) || isElisionMarker(line.text))) {
    return { ...gap, kind: 'elided' };
  }
  if (needleLines.every((line) => blank(line.text)) && fileLines.every((line) => blank(line.text))) {
    return { ...gap, kind: 'blank' };
  }
  return { ...gap, kind: 'content' };
}

/** The gaps of an alignment, the unmatched lines before the first pair and after the last included. */
function gapsOf(needle: readonly NeedleLine[], file: readonly TextLine[], pairs: readonly [number, number][]): Gap[] | undefined {
  const gaps: Gap[] = [];
  const [firstNeedle, firstFile] = pairs[0];
  if (firstNeedle > 0) {
    if (firstFile - firstNeedle < 0) {
      return undefined;
    }
    gaps.push(classify(needle, file, { needleFrom: 0, needleCount: firstNeedle, fileFrom: firstFile - firstNeedle, fileCount: firstNeedle }));
  }
  for (let at = 1; at < pairs.length; at++) {
    const [needleBefore, fileBefore] = pairs[at - 1];
    const [needleAfter, fileAfter] = pairs[at];
    const needleCount = needleAfter - needleBefore - 1;
    const fileCount = fileAfter - fileBefore - 1;
    if (needleCount > 0 || fileCount > 0) {
      gaps.push(classify(needle, file, { needleFrom: needleBefore + 1, needleCount, fileFrom: fileBefore + 1, fileCount }));
    }
  }
  const [lastNeedle, lastFile] = pairs[pairs.length - 1];
  const after = needle.length - 1 - lastNeedle;
  if (after > 0) {
    if (lastFile + after >= file.length) {
      return undefined;
    }
    gaps.push(classify(needle, file, { needleFrom: lastNeedle + 1, needleCount: after, fileFrom: lastFile + 1, fileCount: after }));
  }
  // Without a marker, a gap far longer in the file than in old_string is another block, not a near miss.
  return gaps.every((gap) => gap.kind === 'elided' || gap.fileCount <= gap.needleCount + MAX_EXTRA_LINES) ? gaps : undefined;
}

const KIND_OF_GAP: Readonly<Record<GapKind, DiagnosisKind>> = { elided: 'ELIDED_CONTENT', content: 'CONTENT_MISMATCH', blank: 'BLANK_LINES' };
const GAP_PRECEDENCE: readonly GapKind[] = ['elided', 'content', 'blank'];
const GAP_WORDS: Readonly<Record<GapKind, string>> = { elided: 'elided lines', content: 'changed lines', blank: 'blank lines' };

function lineRange(first: number, count: number): string {
  return count <= 1 ? `line ${first}` : `lines ${first}-${first + count - 1}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The blank lines of one side around a gap: the gap's own and the blank lines next to it. */
function blankRun(isBlank: (at: number) => boolean, from: number, count: number, total: number): { first: number; count: number } {
  let first = from;
  while (first > 0 && isBlank(first - 1)) {
    first--;
  }
  let end = from + count;
  while (end < total && isBlank(end)) {
    end++;
  }
  return { first, count: end - first };
}

function blankLinesDetail(
  needle: readonly NeedleLine[], file: readonly TextLine[], gap: Gap, fileLineNumber: (windowLine: number) => number, spanLines: string,
): string {
  const inNeedle = blankRun((at) => needle[at].text.trim() === '', gap.needleFrom, gap.needleCount, needle.length);
  const inFile = blankRun((at) => file[at].text.trim() === '', gap.fileFrom, gap.fileCount, file.length);
  const fileFirst = fileLineNumber(inFile.first);
  const where = inFile.count === 0 ? `none before file line ${fileFirst}` : lineRange(fileFirst, inFile.count);
  const after = inNeedle.first === 0 ? 'at its start' : `after its line ${inNeedle.first}`;
  return `old_string has ${plural(inNeedle.count, 'blank line')} ${after} where the file has ${plural(inFile.count, 'blank line')} (${where}); ${spanLines}`;
}

/** The block near miss around `closest`, or undefined when the alignment is not convincing. */
export function blockMiss(text: string, index: LineIndex, reading: NeedleReading, closest: TextSpan): LocatedDiagnosis | undefined {
  const needle = reading.lines;
  if (needle.length < 2 || needle.length > MAX_BLOCK_LINES) {
    return undefined;
  }
  const closestLine = index.lineOfOffset(closest.offset);
  const windowFirst = Math.max(0, closestLine - needle.length - MARGIN);
  const file = textLinesOf(text, index, windowFirst, closestLine + needle.length + ELISION_REACH);
  const pairs = alignLines(needle, file);
  const contentLines = needle.filter((line) => line.text.trim() !== '' && !isElisionMarker(line.text)).length;
  const matchedContent = pairs.filter(([i]) => needle[i].text.trim() !== '').length;
  if (matchedContent === 0 || matchedContent * 2 < contentLines) {
    return undefined;
  }
  const gaps = gapsOf(needle, file, pairs);
  const lead = gaps && GAP_PRECEDENCE.map((kind) => gaps.filter((gap) => gap.kind === kind)).find((ofKind) => ofKind.length > 0);
  if (!gaps || !lead) {
    return undefined;
  }
  const [firstNeedle, firstFile] = pairs[0];
  const [lastNeedle, lastFile] = pairs[pairs.length - 1];
  const startLine = file[firstFile - firstNeedle];
  const endLine = file[lastFile + (needle.length - 1 - lastNeedle)];
  const start = firstNeedle === 0 ? startLine.start + startLine.text.length - needle[0].text.length : startLine.start;
  const lastText = needle[needle.length - 1].text;
  const end = lastNeedle === needle.length - 1 ? endLine.start + lastText.length : endLine.start + endLine.text.length;
  const gap = lead[0];
  const fileLineNumber = (windowLine: number): number => index.lineOfOffset(file[windowLine].start) + 1;
  const focusLine = file[Math.min(gap.fileFrom, file.length - 1)];
  const { line, column } = index.position(focusLine.start);
  const others = GAP_PRECEDENCE.filter((kind) => kind !== gap.kind && gaps.some((other) => other.kind === kind));
  const also = others.length > 0 ? `; it also differs in ${others.map((kind) => GAP_WORDS[kind]).join(', ')}` : '';
  const spanLines = `old_string spans file lines ${fileLineNumber(firstFile - firstNeedle)}-${fileLineNumber(lastFile + (needle.length - 1 - lastNeedle))}`;
  const differing = lead.reduce((sum, each) => sum + Math.max(each.needleCount, each.fileCount), 0);
  const detail = gap.kind === 'elided'
    ? `line ${gap.needleFrom + 1} of old_string ("${needle.find((l, at) => at >= gap.needleFrom && isElisionMarker(l.text))?.text.trim()}") stands for file ${lineRange(line, gap.fileCount)}, which old_string leaves out; ${spanLines}`
    : gap.kind === 'blank'
      ? blankLinesDetail(needle, file, gap, fileLineNumber, spanLines)
      : `${gap.needleCount === 0 ? `old_string has no line where file line ${line} stands` : `line ${gap.needleFrom + 1} of old_string differs from file line ${line}`} (${plural(differing, 'line')} differ${differing === 1 ? 's' : ''}); the other lines match: ${spanLines}`;
  return {
    diagnosis: { kind: KIND_OF_GAP[gap.kind], detail: detail + also, line, column, old_string_line: gap.needleFrom + 1 },
    span: { offset: start, length: Math.max(0, end - start) },
    focus: focusLine.start,
  };
}
