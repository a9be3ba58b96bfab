/**
 * Names the cause of a near miss. The needle is laid over the text around the
 * closest match line by line, and a walker steps through each pair of lines,
 * tolerating only the differences a diagnosis can name: line endings, literal
 * escapes, look-alike characters, indentation and other whitespace. The first
 * placement that fits with nothing else different is the near miss; its
 * differences decide the kind, by precedence. All the work stays inside a window
 * a few lines larger than the needle.
 */
import {
  findClosestMatch, hasLiteralEscapes, isSpaceLike, lookalikeOf, roleOf, verbatimPiecesOf, type LineRole, type TextSpan,
} from './closestMatch';
import type { LineIndex } from '../text/lineIndex';
import type { Diagnosis, DiagnosisKind } from '../contract/schemas';

export interface MissInput {
  readonly text: string;
  readonly index: LineIndex;
  readonly needle: string;
  readonly newString: string;
  readonly closest?: TextSpan;
}

/** A diagnosis and the text it points at: the near miss, or the new_string already present. */
export interface LocatedDiagnosis {
  readonly diagnosis: Diagnosis;
  readonly span: TextSpan;
  /** Offset of the first difference the detail names. */
  readonly focus: number;
}

type NearMissKind = Exclude<DiagnosisKind, 'ALREADY_APPLIED' | 'STALE_CONTENT'>;

const PRECEDENCE: readonly NearMissKind[] = ['EOL_MISMATCH', 'ESCAPED_NEWLINES', 'UNICODE_LOOKALIKE', 'INDENTATION', 'WHITESPACE_ONLY'];

/** Text lines above and below the closest match where the near miss may start. */
const SEARCH_MARGIN = 3;
/** Characters beyond the needle's length that a window keeps on either side of the closest match. */
const WINDOW_PAD = 4096;
/** Non-blank characters new_string needs before its presence counts as ALREADY_APPLIED. */
const MIN_APPLIED_CHARS = 3;
/** Occurrences of one piece tried when a one-line needle is placed inside a line. */
const MAX_INNER_TRIES = 256;
const MIN_INNER_TRIES = 8;
/** Characters of needle walked, summed over the tries, before fewer tries are made. */
const INNER_WALK_BUDGET = 1 << 18;
/** Pieces of a one-line needle tried as the point to split it at. */
const MAX_INNER_PIECES = 4;

// ---- lines with their breaks ----

type LineBreak = 'LF' | 'CRLF' | 'CR' | 'ESCAPE' | '';

interface BrokenLine {
  readonly text: string;
  /** Absolute offset of the line in the text (0 for needle lines). */
  readonly start: number;
  readonly lineBreak: LineBreak;
}

/** Lines split at "\r\n", '\r' and '\n', each remembering which break ended it. */
function splitLines(text: string, base: number): BrokenLine[] {
  const lines: BrokenLine[] = [];
  let lineStart = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code !== 10 && code !== 13) {
      continue;
    }
    const crlf = code === 13 && text.charCodeAt(at + 1) === 10;
    lines.push({ text: text.slice(lineStart, at), start: base + lineStart, lineBreak: crlf ? 'CRLF' : code === 13 ? 'CR' : 'LF' });
    if (crlf) {
      at++;
    }
    lineStart = at + 1;
  }
  lines.push({ text: text.slice(lineStart), start: base + lineStart, lineBreak: '' });
  return lines;
}

interface NeedleReading {
  readonly lines: readonly BrokenLine[];
  /** Literal \n and \t sequences read as a break and a tab; zero for the needle as written. */
  readonly escapedBreaks: number;
  readonly escapedTabs: number;
}

const BREAK_OR_ESCAPE = /\r\n|\r|\n|\\r\\n|\\n|\\r|\\t/g;

const BREAK_NAMES: Readonly<Record<string, LineBreak>> = { '\r\n': 'CRLF', '\r': 'CR', '\n': 'LF' };

/** The needle with literal escapes read as the characters they name; their breaks fit any line ending. */
function readEscapedNeedle(needle: string): NeedleReading {
  let escapedBreaks = 0;
  let escapedTabs = 0;
  const lines: BrokenLine[] = [];
  let line = '';
  let consumed = 0;
  for (const match of needle.matchAll(BREAK_OR_ESCAPE)) {
    line += needle.slice(consumed, match.index);
    consumed = match.index + match[0].length;
    if (match[0] === '\\t') {
      escapedTabs++;
      line += '\t';
      continue;
    }
    const realBreak = BREAK_NAMES[match[0]];
    escapedBreaks += realBreak ? 0 : 1;
    lines.push({ text: line, start: 0, lineBreak: realBreak ?? 'ESCAPE' });
    line = '';
  }
  lines.push({ text: line + needle.slice(consumed), start: 0, lineBreak: '' });
  return { lines, escapedBreaks, escapedTabs };
}

// ---- differences ----

type Where = 'indentation' | 'inside' | 'line end' | 'end of text';

interface Difference {
  readonly kind: NearMissKind;
  /** 0-based needle line. */
  readonly needleLine: number;
  /** Absolute text offset the difference is at. */
  readonly at: number;
  readonly needleText: string;
  readonly fileText: string;
  readonly where: Where;
  /** For ESCAPED_NEWLINES: how many literal breaks and tabs the needle holds. */
  readonly escapes?: { readonly breaks: number; readonly tabs: number };
}

type LineDifference = Omit<Difference, 'needleLine' | 'at'> & { readonly column: number };

// ---- walking one pair of lines ----

interface Walk {
  readonly differences: LineDifference[];
  /** Characters of `b` the walk consumed. */
  readonly consumed: number;
}

function spaceRun(text: string, from: number): number {
  let end = from;
  while (end < text.length && isSpaceLike(text.charCodeAt(end))) {
    end++;
  }
  return end - from;
}

function reverse(text: string): string {
  return text.split('').reverse().join('');
}

function hasOddSpace(run: string): boolean {
  for (let at = 0; at < run.length; at++) {
    if (lookalikeOf(run.charCodeAt(at)) !== undefined) {
      return true;
    }
  }
  return false;
}

function foldSpaces(run: string): string {
  let folded = '';
  for (let at = 0; at < run.length; at++) {
    folded += lookalikeOf(run.charCodeAt(at))?.ascii ?? run[at];
  }
  return folded;
}

/**
 * Walks `a` (a needle line) against `b` (a text line) from their starts, or from
 * their ends when `reversed` (the strings then arrive reversed). The walk's start is
 * pinned to `b`'s start; its end must reach `b`'s end unless `openEnd`.
 * Returns undefined as soon as a difference is one no diagnosis names.
 */
function walkLine(a: string, b: string, reversed: boolean, openEnd: boolean): Walk | undefined {
  const differences: LineDifference[] = [];
  // Columns and edges in the lines' own direction, whichever way the walk goes.
  const originalStart = (text: string, at: number, length: number): number => (reversed ? text.length - at - length : at);
  const touchesEnd = (text: string, at: number, length: number): boolean => originalStart(text, at, length) + length === text.length;
  const note = (kind: NearMissKind, at: number, length: number, needleText: string, fileText: string, where: Where): void => {
    const inOrder = (text: string): string => (reversed ? reverse(text) : text);
    differences.push({ kind, column: originalStart(b, at, length), needleText: inOrder(needleText), fileText: inOrder(fileText), where });
  };

  let i = 0;
  let j = 0;
  while (i < a.length) {
    const runA = spaceRun(a, i);
    const runB = spaceRun(b, j);
    if (runA > 0 || runB > 0) {
      const spaceA = a.slice(i, i + runA);
      let spaceB = b.slice(j, j + runB);
      const endsNeedle = i + runA === a.length;
      if (openEnd && endsNeedle && spaceB.startsWith(spaceA)) {
        spaceB = spaceA;
      } else if (spaceA !== spaceB) {
        const atLineStart = originalStart(a, i, runA) === 0 && originalStart(b, j, runB) === 0;
        const atLineEnd = touchesEnd(a, i, runA) && touchesEnd(b, j, runB);
        const where: Where = atLineStart ? 'indentation' : atLineEnd ? 'line end' : 'inside';
        const foldedEqual = foldSpaces(spaceA) === foldSpaces(spaceB);
        if (hasOddSpace(spaceA) || hasOddSpace(spaceB)) {
          note('UNICODE_LOOKALIKE', j, runB, spaceA, spaceB, where);
        }
        if (!foldedEqual) {
          note(atLineStart ? 'INDENTATION' : 'WHITESPACE_ONLY', j, runB, spaceA, spaceB, where);
        }
      }
      i += runA;
      j += spaceB.length;
      continue;
    }
    if (j >= b.length) {
      return undefined;
    }
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const step = lookalikeStep(a, i, b, j, reversed);
    if (!step) {
      return undefined;
    }
    note('UNICODE_LOOKALIKE', j, step.fromB, a.slice(i, i + step.fromA), b.slice(j, j + step.fromB), 'inside');
    i += step.fromA;
    j += step.fromB;
  }
  if (!openEnd && j < b.length) {
    const trailing = spaceRun(b, j);
    if (j + trailing < b.length) {
      return undefined;
    }
    note('WHITESPACE_ONLY', j, trailing, '', b.slice(j), 'line end');
    j = b.length;
  }
  return { differences, consumed: j };
}

/** How many characters of each side a look-alike difference covers at (i, j), if it is one. */
function lookalikeStep(a: string, i: number, b: string, j: number, reversed: boolean): { fromA: number; fromB: number } | undefined {
  const likeA = lookalikeOf(a.charCodeAt(i));
  const likeB = lookalikeOf(b.charCodeAt(j));
  if (likeA?.ascii === '') {
    return { fromA: 1, fromB: 0 };
  }
  if (likeB?.ascii === '') {
    return { fromA: 0, fromB: 1 };
  }
  if (!likeA && !likeB) {
    return undefined;
  }
  const asciiA = likeA ? (reversed ? reverse(likeA.ascii) : likeA.ascii) : a[i];
  const asciiB = likeB ? (reversed ? reverse(likeB.ascii) : likeB.ascii) : b[j];
  if (asciiA === asciiB) {
    return { fromA: 1, fromB: 1 };
  }
  if (likeA && b.startsWith(asciiA, j)) {
    return { fromA: 1, fromB: asciiA.length };
  }
  if (likeB && a.startsWith(asciiB, i)) {
    return { fromA: asciiB.length, fromB: 1 };
  }
  return undefined;
}

// ---- laying needle lines on text lines ----

interface LineFit {
  readonly differences: LineDifference[];
  /** Where the needle line starts and ends inside the text line. */
  readonly from: number;
  readonly to: number;
}

/** The first line of a multi-line needle must end the text line; only its start is free. */
function fitLineEnd(a: string, b: string): LineFit | undefined {
  const walk = walkLine(reverse(a), reverse(b), true, true);
  return walk && { differences: walk.differences, from: b.length - walk.consumed, to: b.length };
}

function fitLine(a: string, b: string, role: LineRole): LineFit | undefined {
  if (role === 'first') {
    return fitLineEnd(a, b);
  }
  if (role === 'inner') {
    return fitInside(a, b);
  }
  const walk = walkLine(a, b, false, role === 'last');
  return walk && { differences: walk.differences, from: 0, to: walk.consumed };
}

/**
 * A one-line needle anywhere inside a text line: both are split at an occurrence of
 * one of the needle's pieces (longest first; a piece may itself hold a look-alike's
 * ASCII image, so later pieces get their turn), and the halves are walked outwards.
 */
function fitInside(a: string, b: string): LineFit | undefined {
  const pieces = verbatimPiecesOf(a).slice(0, MAX_INNER_PIECES);
  if (pieces.length === 0) {
    return fitAnywhere(a, b);
  }
  for (const piece of pieces) {
    const fit = fitAroundPiece(a, b, piece);
    if (fit) {
      return fit;
    }
  }
  return undefined;
}

function fewerDifferences(best: LineFit | undefined, fit: LineFit | undefined): LineFit | undefined {
  return fit && (!best || fit.differences.length < best.differences.length) ? fit : best;
}

/** A miss has at least one difference, so a fit with one cannot be beaten. */
function cannotImprove(fit: { readonly differences: readonly unknown[] } | undefined): boolean {
  return fit !== undefined && fit.differences.length <= 1;
}

/** Occurrences worth trying for a needle line of this length, so the walking stays bounded. */
function innerTries(needleLength: number): number {
  return Math.max(MIN_INNER_TRIES, Math.min(MAX_INNER_TRIES, Math.floor(INNER_WALK_BUDGET / (needleLength + 1))));
}

function fitAroundPiece(a: string, b: string, piece: { token: string; column: number }): LineFit | undefined {
  const reversedHead = reverse(a.slice(0, piece.column));
  const tail = a.slice(piece.column);
  // Reversed once: the text left of any occurrence, reversed, is a suffix of this.
  const reversedLine = reverse(b);
  let best: LineFit | undefined;
  let found = b.indexOf(piece.token);
  for (let tries = innerTries(a.length); found !== -1 && tries > 0 && !cannotImprove(best); tries--) {
    const left = reversedHead.length === 0 ? { differences: [], consumed: 0 } : walkLine(reversedHead, reversedLine.slice(b.length - found), true, true);
    const right = walkLine(tail, b.slice(found), false, true);
    if (left && right) {
      const at = found;
      best = fewerDifferences(best, {
        differences: [...left.differences, ...right.differences.map((d) => ({ ...d, column: d.column + at }))],
        from: found - left.consumed,
        to: found + right.consumed,
      });
    }
    found = b.indexOf(piece.token, found + 1);
  }
  return best;
}

/** A needle with no token characters at all (only whitespace and look-alikes): try the first starts. */
function fitAnywhere(a: string, b: string): LineFit | undefined {
  let best: LineFit | undefined;
  for (let start = 0; start <= b.length && start < innerTries(a.length) && !cannotImprove(best); start++) {
    const walk = walkLine(a, b.slice(start), false, true);
    best = fewerDifferences(best, walk && { differences: walk.differences.map((d) => ({ ...d, column: d.column + start })), from: start, to: start + walk.consumed });
  }
  return best;
}

interface NearMiss {
  readonly differences: readonly Difference[];
  readonly span: TextSpan;
}

/** Lays the needle's lines on the text's lines from `first` on; undefined unless every line fits. */
function layNeedle(needle: NeedleReading, textLines: readonly BrokenLine[], first: number, atEndOfText: boolean): NearMiss | undefined {
  const differences: Difference[] = [];
  const lineTotal = needle.lines.length;
  let start = 0;
  for (let lineNumber = 0; lineNumber < lineTotal; lineNumber++) {
    const needleLine = needle.lines[lineNumber];
    const textLine = textLines[first + lineNumber];
    if (!textLine) {
      return undefined;
    }
    const fit = fitLine(needleLine.text, textLine.text, roleOf(lineNumber, lineTotal));
    if (!fit) {
      return undefined;
    }
    differences.push(...fit.differences.map((d) => ({ ...d, needleLine: lineNumber, at: textLine.start + d.column })));
    if (lineNumber === 0) {
      start = textLine.start + fit.from;
    }
    if (lineNumber === lineTotal - 1) {
      return { differences, span: { offset: start, length: textLine.start + fit.to - start } };
    }
    const lineEnd = textLine.start + textLine.text.length;
    if (textLine.lineBreak === '') {
      // The text ends here; the needle may only go on with its own final line break.
      const onlyFinalBreakLeft = lineNumber === lineTotal - 2 && needle.lines[lineTotal - 1].text === '' && atEndOfText;
      if (!onlyFinalBreakLeft) {
        return undefined;
      }
      differences.push({ kind: 'WHITESPACE_ONLY', needleLine: lineNumber, at: lineEnd, needleText: needleLine.lineBreak, fileText: '', where: 'end of text' });
      return { differences, span: { offset: start, length: lineEnd - start } };
    }
    if (needleLine.lineBreak !== 'ESCAPE' && needleLine.lineBreak !== textLine.lineBreak) {
      differences.push({ kind: 'EOL_MISMATCH', needleLine: lineNumber, at: lineEnd, needleText: needleLine.lineBreak, fileText: textLine.lineBreak, where: 'line end' });
    }
  }
  return undefined;
}

/** The near miss around `closest`, trying the needle as written first, then with its literal escapes read. */
function findNearMiss(text: string, index: LineIndex, needle: string, closest: TextSpan): NearMiss | undefined {
  const readings: NeedleReading[] = [{ lines: splitLines(needle, 0), escapedBreaks: 0, escapedTabs: 0 }];
  if (hasLiteralEscapes(needle)) {
    readings.push(readEscapedNeedle(needle));
  }
  const needleLines = Math.max(...readings.map((reading) => reading.lines.length));
  const closestLine = index.lineOfOffset(closest.offset);
  const firstLine = Math.max(0, closestLine - SEARCH_MARGIN);
  const lastLine = Math.min(index.lineCount - 1, index.lineOfOffset(closest.offset + closest.length) + SEARCH_MARGIN + needleLines);
  const windowStart = Math.max(index.lineStart(firstLine), closest.offset - needle.length - WINDOW_PAD);
  const lineAfter = lastLine + 1 < index.lineCount ? index.lineStart(lastLine + 1) : text.length;
  const windowEnd = Math.min(lineAfter, closest.offset + closest.length + needle.length + WINDOW_PAD);
  const textLines = splitLines(text.slice(windowStart, windowEnd), windowStart);
  const atEndOfText = windowEnd === text.length;
  // Lone CRs add lines the index does not count, so allow for them when trying starts.
  const starts = Math.min(textLines.length, 4 * SEARCH_MARGIN + 1);

  for (const reading of readings) {
    let best: NearMiss | undefined;
    for (let first = 0; first < starts && !cannotImprove(best); first++) {
      const laid = layNeedle(reading, textLines, first, atEndOfText);
      if (laid && (!best || laid.differences.length < best.differences.length)) {
        best = laid;
      }
    }
    if (best) {
      const escapes = reading.escapedBreaks + reading.escapedTabs;
      return escapes === 0 ? best : {
        span: best.span,
        differences: [{
          kind: 'ESCAPED_NEWLINES', needleLine: 0, at: best.span.offset, where: 'inside', needleText: '', fileText: '',
          escapes: { breaks: reading.escapedBreaks, tabs: reading.escapedTabs },
        }, ...best.differences],
      };
    }
  }
  return undefined;
}

// ---- words ----

function codePointLabel(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

const ASCII_NAMES: ReadonlyMap<string, string> = new Map([
  ["'", "an ASCII apostrophe (')"],
  ['"', 'an ASCII double quote (")'],
  ['-', 'an ASCII hyphen-minus (-)'],
  ['...', 'three ASCII full stops (...)'],
  ['.', 'an ASCII full stop (.)'],
  ['/', 'an ASCII slash (/)'],
  [';', 'an ASCII semicolon (;)'],
  [' ', 'a space'],
  ['\t', 'a tab'],
]);

/** Names the characters of a short piece of text, e.g. "U+2019 RIGHT SINGLE QUOTATION MARK". */
function describeCharacters(piece: string): string {
  if (piece === '') {
    return 'nothing';
  }
  const asciiName = ASCII_NAMES.get(piece);
  if (asciiName) {
    return asciiName;
  }
  const code = piece.charCodeAt(0);
  const lookalike = lookalikeOf(code);
  if (piece.length === 1 && lookalike) {
    return `${codePointLabel(code)} ${lookalike.name}`;
  }
  return piece.length === 1 ? `"${piece}" (${codePointLabel(code)})` : `"${piece}"`;
}

/** Names a run of whitespace, e.g. "2 spaces", "a tab then 4 spaces", "no whitespace". */
function describeWhitespace(run: string): string {
  if (run === '') {
    return 'no whitespace';
  }
  const groups: string[] = [];
  for (let at = 0; at < run.length;) {
    let end = at;
    while (end < run.length && run[end] === run[at]) {
      end++;
    }
    const count = end - at;
    const name = run[at] === ' ' ? 'space' : run[at] === '\t' ? 'tab' : describeCharacters(run[at]);
    const plain = run[at] === ' ' || run[at] === '\t';
    groups.push(plain ? (count === 1 ? `a ${name}` : `${count} ${name}s`) : count === 1 ? name : `${count} × ${name}`);
    at = end;
  }
  return groups.join(' then ');
}

function describeBreak(lineBreak: string): string {
  return lineBreak === 'CR' ? 'a lone CR' : lineBreak;
}

function describe(difference: Difference, index: LineIndex): string {
  const { line, column } = index.position(difference.at);
  const needleLine = `line ${difference.needleLine + 1} of old_string`;
  switch (difference.kind) {
    case 'EOL_MISMATCH':
      return `file line ${line} ends with ${describeBreak(difference.fileText)} where old_string has ${describeBreak(difference.needleText)} after its line ${difference.needleLine + 1}; the file mixes line endings`;
    case 'ESCAPED_NEWLINES': {
      const { breaks, tabs } = difference.escapes ?? { breaks: 0, tabs: 0 };
      const parts = [breaks > 0 ? `${breaks} literal \\n` : '', tabs > 0 ? `${tabs} literal \\t` : ''].filter((part) => part !== '');
      return `old_string contains ${parts.join(' and ')} (a backslash followed by a letter) where the file has real ${[breaks > 0 ? 'line breaks' : '', tabs > 0 ? 'tabs' : ''].filter((part) => part !== '').join(' and ')}; the text it was meant to match starts at file line ${line}`;
    }
    case 'UNICODE_LOOKALIKE': {
      const isSpace = (piece: string): boolean => piece !== '' && [...piece].every((ch) => isSpaceLike(ch.charCodeAt(0)));
      const show = (piece: string): string => (isSpace(piece) ? describeWhitespace(piece) : describeCharacters(piece));
      return `${needleLine} has ${show(difference.needleText)} where the file has ${show(difference.fileText)} at line ${line}, column ${column}`;
    }
    case 'INDENTATION':
      return `${needleLine} is indented with ${describeWhitespace(difference.needleText)} where the file has ${describeWhitespace(difference.fileText)} at line ${line}`;
    case 'WHITESPACE_ONLY':
      if (difference.where === 'end of text') {
        return `old_string ends with a line break, but the file ends at line ${line} without one`;
      }
      return difference.where === 'line end'
        ? `${needleLine} ends with ${describeWhitespace(difference.needleText)} where file line ${line} ends with ${describeWhitespace(difference.fileText)}`
        : `${needleLine} has ${describeWhitespace(difference.needleText)} where the file has ${describeWhitespace(difference.fileText)} at line ${line}, column ${column}`;
  }
}

const KIND_WORDS: Readonly<Record<NearMissKind, string>> = {
  EOL_MISMATCH: 'line endings',
  ESCAPED_NEWLINES: 'literal escapes',
  UNICODE_LOOKALIKE: 'look-alike characters',
  INDENTATION: 'indentation',
  WHITESPACE_ONLY: 'other whitespace',
};

function diagnosisOf(nearMiss: NearMiss, index: LineIndex): LocatedDiagnosis | undefined {
  const kinds = PRECEDENCE.filter((kind) => nearMiss.differences.some((d) => d.kind === kind));
  if (kinds.length === 0) {
    return undefined;
  }
  const [kind, ...others] = kinds;
  const ofKind = nearMiss.differences.filter((d) => d.kind === kind);
  let detail = describe(ofKind[0], index);
  if (ofKind.length > 1) {
    detail += ` (${ofKind.length - 1} more difference${ofKind.length > 2 ? 's' : ''} of this kind)`;
  }
  if (others.length > 0) {
    detail += `; it also differs in ${others.map((other) => KIND_WORDS[other]).join(', ')}`;
  }
  return { diagnosis: { kind, detail }, span: nearMiss.span, focus: ofKind[0].at };
}

// ---- entry points ----

/** The diagnosis with the span it points at; undefined when the miss has no nameable cause. */
export function diagnoseMissAt(input: MissInput): LocatedDiagnosis | undefined {
  return input.needle.length === 0 || input.text.includes(input.needle) ? undefined : diagnoseKnownMiss(input);
}

/** diagnoseMissAt for a caller that already knows old_string is not in the text (saves a scan). */
export function diagnoseKnownMiss(input: MissInput): LocatedDiagnosis | undefined {
  const { text, index, needle, newString } = input;
  const closest = input.closest ?? findClosestMatch(text, index, needle);
  const nearMiss = closest && findNearMiss(text, index, needle, closest);
  // A new_string as short as "}" occurs in most files by chance and proves nothing.
  const applied = newString.trim().length < MIN_APPLIED_CHARS ? -1 : text.indexOf(newString);
  // A new_string that is part of old_string proves nothing when old_string nearly occurs.
  if (applied !== -1 && !(nearMiss && needle.includes(newString))) {
    const { line, column } = index.position(applied);
    return {
      diagnosis: { kind: 'ALREADY_APPLIED', detail: `new_string already occurs in the file at line ${line}, column ${column}, and old_string does not occur` },
      span: { offset: applied, length: newString.length },
      focus: applied,
    };
  }
  return nearMiss && diagnosisOf(nearMiss, index);
}

export function diagnoseMiss(input: MissInput): Diagnosis | undefined {
  return diagnoseMissAt(input)?.diagnosis;
}

const KIND_HINTS: Readonly<Record<DiagnosisKind, readonly string[]>> = {
  EOL_MISMATCH: [
    'The file mixes line endings here, so no old_string can span these line breaks: split the edit into edits that each stay within one line',
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
  ALREADY_APPLIED: [
    'new_string is already in the file: re-read it to check whether this edit was applied earlier, and drop the edit if so',
  ],
  STALE_CONTENT: [
    'The file changed after it was read: re-read it and rebuild the edits against its current text',
  ],
};

/**
 * General recovery hints for a diagnosis kind, to follow the code's own hints (which
 * already say to re-read the file); never a rewritten old_string.
 */
export function hintsForDiagnosis(kind: DiagnosisKind): readonly string[] {
  return KIND_HINTS[kind];
}
