/**
 * Near misses of a block of lines that no whitespace walk explains: a line that
 * someone else changed (CONTENT_MISMATCH), lines left out behind a marker such as
 * "// ... existing code ..." (ELIDED_CONTENT), a blank line collapsed or doubled
 * (BLANK_LINES). The needle's lines are aligned with the file's lines around the
 * closest match by a longest common subsequence of whole lines; the gaps of the
 * alignment are the differences, and the lines of a gap of changed content are
 * paired by cost (lineAlign.ts), so a line added or removed since the read shifts
 * no pairing. The window and the needle are bounded in lines, so the tables stay small.
 */
import { roleOf, type LineRole, type TextSpan } from './closestMatch';
import type { LocatedDiagnosis } from './describe';
import { alignGap, byPosition, type GapToAlign, type LineOp } from './lineAlign';
import type { NeedleLine, NeedleReading } from './needle';
import { textLinesOf, type TextLine } from './textLines';
import { commonSubsequence } from '../text/lcs';
import type { LineIndex } from '../text/lineIndex';
import type { Diagnosis, DiagnosisKind } from '../contract/schemas';

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

interface Gap extends GapToAlign {
  readonly kind: GapKind;
}

function classify(needle: readonly NeedleLine[], file: readonly TextLine[], gap: GapToAlign): Gap {
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

/**
 * The gaps of an alignment, the unmatched lines before the first pair and after the last
 * included. A gap of changed content at an edge may reach a few file lines further than
 * old_string has lines (`open`), so a line added there since the read leaves the pairing intact.
 */
function gapsOf(needle: readonly NeedleLine[], file: readonly TextLine[], pairs: readonly [number, number][]): Gap[] | undefined {
  const gaps: Gap[] = [];
  const [firstNeedle, firstFile] = pairs[0];
  if (firstNeedle > 0) {
    const positional = { needleFrom: 0, needleCount: firstNeedle, fileFrom: firstFile - firstNeedle, fileCount: firstNeedle };
    const gap = positional.fileFrom < 0 ? undefined : classify(needle, file, positional);
    if (gap === undefined && needle.slice(0, firstNeedle).some((line) => isElisionMarker(line.text))) {
      return undefined;
    }
    const widest = Math.max(0, firstFile - firstNeedle - MAX_EXTRA_LINES);
    gaps.push(gap && gap.kind !== 'content' ? gap : { ...positional, kind: 'content', fileFrom: widest, fileCount: firstFile - widest, open: 'start' });
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
    const positional = { needleFrom: lastNeedle + 1, needleCount: after, fileFrom: lastFile + 1, fileCount: after };
    const gap = lastFile + after >= file.length ? undefined : classify(needle, file, positional);
    if (gap === undefined && needle.slice(lastNeedle + 1).some((line) => isElisionMarker(line.text))) {
      return undefined;
    }
    const reach = Math.min(file.length - positional.fileFrom, after + MAX_EXTRA_LINES);
    gaps.push(gap && gap.kind !== 'content' ? gap : { ...positional, kind: 'content', fileCount: reach, open: 'end' });
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
  if (!pairs.some(([i]) => needle[i].text.trim() !== '')) {
    return undefined;
  }
  const gaps = gapsOf(needle, file, pairs);
  const lead = gaps && GAP_PRECEDENCE.map((kind) => gaps.filter((gap) => gap.kind === kind)).find((ofKind) => ofKind.length > 0);
  if (!gaps || !lead) {
    return undefined;
  }
  // Every line of old_string against the file's: exact pairs, and the gaps' lines paired by cost.
  // A gap stands before the pair whose needle line ends it, so ordering by needle line puts every op in the block's order.
  const segments = [
    ...pairs.map(([needleLine, fileLine]) => ({ order: needleLine, ops: [{ kind: 'same', needle: needleLine, file: fileLine } as const] })),
    ...gaps.map((gap) => ({ order: gap.needleFrom - 0.5, ops: gap.kind === 'content' ? alignGap(needle, file, gap) ?? byPosition(gap) : byPosition(gap) })),
  ];
  const ops: LineOp[] = segments.sort((a, b) => a.order - b.order).flatMap((segment) => segment.ops);
  if (!convincing(needle, pairs, ops)) {
    return undefined;
  }
  const covered = ops.flatMap((op) => fileLinesOf(op));
  if (covered.length === 0) {
    return undefined;
  }
  const first = Math.min(...covered);
  const last = Math.max(...covered);
  const exactFirst = pairs[0][0] === 0 && pairs[0][1] === first;
  const exactLast = pairs[pairs.length - 1][0] === needle.length - 1 && pairs[pairs.length - 1][1] === last;
  const start = exactFirst ? file[first].start + file[first].text.length - needle[0].text.length : file[first].start;
  const end = exactLast ? file[last].start + needle[needle.length - 1].text.length : file[last].start + file[last].text.length;
  const gap = lead[0];
  const fileLineNumber = (windowLine: number): number => index.lineOfOffset(file[windowLine].start) + 1;
  const others = GAP_PRECEDENCE.filter((kind) => kind !== gap.kind && gaps.some((other) => other.kind === kind));
  const also = others.length > 0 ? `; it also differs in ${others.map((kind) => GAP_WORDS[kind]).join(', ')}` : '';
  const spanLines = `old_string spans file lines ${fileLineNumber(first)}-${fileLineNumber(last)}`;
  const span = { offset: start, length: Math.max(0, end - start) };
  if (gap.kind === 'content') {
    return contentMiss(index, needle, file, ops, fileLineNumber, spanLines, also, span);
  }
  const focusLine = file[Math.min(gap.fileFrom, file.length - 1)];
  const { line, column } = index.position(focusLine.start);
  const detail = gap.kind === 'elided'
    ? `line ${gap.needleFrom + 1} of old_string ("${needle.find((l, at) => at >= gap.needleFrom && isElisionMarker(l.text))?.text.trim()}") stands for file ${lineRange(line, gap.fileCount)}, which old_string leaves out; ${spanLines}`
    : blankLinesDetail(needle, file, gap, fileLineNumber, spanLines);
  return {
    diagnosis: { kind: KIND_OF_GAP[gap.kind], detail: detail + also, line, column, old_string_line: gap.needleFrom + 1 },
    span,
    focus: focusLine.start,
  };
}

/** Characters (whitespace aside) the exact lines at both ends of a block must have between them to pin it. */
const MIN_PINNING_CHARS = 24;

/**
 * Whether the alignment is a near miss of this block rather than a chance resemblance: at
 * least half of old_string's content lines stand for file lines whose text they have (exactly,
 * changed only in places, or joined or split differently), or its first and last lines both
 * match exactly, with enough text between them to place it, and the lines between differ
 * (a stretch of lines replaced, such as an alias the agent expanded).
 */
function convincing(needle: readonly NeedleLine[], pairs: readonly [number, number][], ops: readonly LineOp[]): boolean {
  const content = (at: number): boolean => needle[at].text.trim() !== '' && !isElisionMarker(needle[at].text);
  const contentLines = needle.filter((_line, at) => content(at)).length;
  let alike = 0;
  for (const op of ops) {
    if (op.kind === 'same' || op.kind === 'changed' || op.kind === 'split') {
      alike += content(op.needle) ? 1 : 0;
    } else if (op.kind === 'joined') {
      for (let k = 0; k < op.count; k++) {
        alike += content(op.needle + k) ? 1 : 0;
      }
    }
  }
  const exact = pairs.filter(([i]) => content(i)).length;
  if (exact > 0 && alike * 2 >= contentLines) {
    return true;
  }
  const pinned = pairs[0][0] === 0 && pairs[pairs.length - 1][0] === needle.length - 1 && pairs.length >= 2;
  const pinningChars = pairs.reduce((sum, [i]) => sum + needle[i].key.replace(/ /g, '').length, 0);
  return pinned && pinningChars >= MIN_PINNING_CHARS;
}

/** The window lines an op stands on. */
function fileLinesOf(op: LineOp): number[] {
  switch (op.kind) {
    case 'needle only':
      return [];
    case 'split':
      return [op.file, op.file + op.count - 1];
    default:
      return [op.file];
  }
}

/** Differences named in a detail at most; the count and line_map say the rest. */
const MAX_NAMED_DIFFERENCES = 8;
/** old_strings of more lines get no line_map (its entries would outweigh the snippet). */
const MAX_MAPPED_LINES = 100;

/**
 * CONTENT_MISMATCH from the lines paired: the detail names each line that differs (changed,
 * added in the file, missing from it, joined, split) in the file's order; line and column
 * stand on the first changed line (a line both sides have, with other text), or else on the
 * first difference; line_map says which file lines each line of old_string stands for.
 */
function contentMiss(
  index: LineIndex, needle: readonly NeedleLine[], file: readonly TextLine[], ops: readonly LineOp[],
  fileLineNumber: (windowLine: number) => number, spanLines: string, also: string, span: TextSpan,
): LocatedDiagnosis {
  const differing = ops.filter((op) => op.kind !== 'same');
  // A run of lines only one side has is named once.
  const runs = differing.filter((op, at) => {
    const before = differing[at - 1];
    return !(op.kind === 'file only' && before?.kind === 'file only' && before.file === op.file - 1)
      && !(op.kind === 'needle only' && before?.kind === 'needle only' && before.needle === op.needle - 1);
  });
  const runEnd = (op: LineOp): number => {
    let last = differing.indexOf(op);
    while (differing[last + 1]?.kind === op.kind && !runs.includes(differing[last + 1])) {
      last++;
    }
    const end = differing[last];
    return end.kind === 'file only' ? fileLineNumber(end.file) : end.kind === 'needle only' ? end.needle + 1 : 0;
  };
  const named = runs.map((op) => {
    switch (op.kind) {
      case 'changed':
        return `line ${op.needle + 1} of old_string differs from file line ${fileLineNumber(op.file)}`;
      case 'file only': {
        const end = runEnd(op);
        return end === fileLineNumber(op.file) ? `file line ${end} is not in old_string` : `file lines ${fileLineNumber(op.file)}-${end} are not in old_string`;
      }
      case 'needle only': {
        const end = runEnd(op);
        return end === op.needle + 1 ? `line ${end} of old_string is not in the file` : `lines ${op.needle + 1}-${end} of old_string are not in the file`;
      }
      case 'joined':
        return `lines ${op.needle + 1}-${op.needle + op.count} of old_string are file line ${fileLineNumber(op.file)}, joined`;
      case 'split':
        return `line ${op.needle + 1} of old_string is file lines ${fileLineNumber(op.file)}-${fileLineNumber(op.file + op.count - 1)}, split`;
      default:
        return '';
    }
  });
  const shown = named.slice(0, MAX_NAMED_DIFFERENCES).join('; ') + (named.length > MAX_NAMED_DIFFERENCES ? `; and ${named.length - MAX_NAMED_DIFFERENCES} more` : '');
  const count = differing.length;
  const detail = `${shown} (${plural(count, 'line')} differ${count === 1 ? 's' : ''}); the other lines match: ${spanLines}${also}`;
  const focusOp = differing.find((op) => op.kind === 'changed') ?? differing[0];
  const focusWindowLine = focusOp === undefined ? undefined : fileLinesOf(focusOp)[0] ?? nextFileLine(ops, focusOp);
  const focus = focusWindowLine === undefined ? span.offset : file[Math.min(focusWindowLine, file.length - 1)].start;
  const { line, column } = index.position(focus);
  const oldStringLine = focusOp === undefined ? 1 : 'needle' in focusOp ? focusOp.needle + 1 : nextNeedleLine(ops, focusOp, needle.length);
  const lineMap: NonNullable<Diagnosis['line_map']> = [];
  for (const op of ops) {
    if (op.kind === 'same' || op.kind === 'changed') {
      lineMap.push({ old_string_line: op.needle + 1, line: fileLineNumber(op.file), ...(op.kind === 'changed' ? { differs: true } : {}) });
    } else if (op.kind === 'joined') {
      for (let k = 0; k < op.count; k++) {
        lineMap.push({ old_string_line: op.needle + k + 1, line: fileLineNumber(op.file) });
      }
    } else if (op.kind === 'split') {
      lineMap.push({ old_string_line: op.needle + 1, line: fileLineNumber(op.file), last_line: fileLineNumber(op.file + op.count - 1) });
    }
  }
  const fileOnly = ops.flatMap((op) => (op.kind === 'file only' ? [fileLineNumber(op.file)] : []));
  const needleOnly = ops.flatMap((op) => (op.kind === 'needle only' ? [op.needle + 1] : []));
  return {
    diagnosis: {
      kind: 'CONTENT_MISMATCH', detail, line, column, old_string_line: oldStringLine,
      ...(needle.length <= MAX_MAPPED_LINES ? { line_map: lineMap } : {}),
      ...(fileOnly.length > 0 ? { file_only_lines: fileOnly } : {}),
      ...(needleOnly.length > 0 ? { old_string_only_lines: needleOnly } : {}),
    },
    span,
    focus,
  };
}

function nextFileLine(ops: readonly LineOp[], op: LineOp): number | undefined {
  const after = ops.slice(ops.indexOf(op) + 1).find((other) => other.kind !== 'needle only');
  return after === undefined ? undefined : fileLinesOf(after)[0];
}

function nextNeedleLine(ops: readonly LineOp[], op: LineOp, total: number): number {
  const after = ops.slice(ops.indexOf(op) + 1).find((other) => 'needle' in other);
  return after !== undefined && 'needle' in after ? after.needle + 1 : total;
}
