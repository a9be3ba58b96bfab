/**
 * Misses where every piece of old_string is in the file, arranged otherwise:
 * - SPLIT_HUNKS: its first lines occur at one place and its last lines at another;
 * - REORDERED_LINES: its lines are the lines of one block of the file, in another order;
 * - REWRAPPED_LINES: its characters, whitespace aside, are a stretch of the file that
 *   breaks its lines elsewhere (a chain joined onto one line, a long line split).
 * Each is a fact found by indexOf scans or inside a bounded window around the closest
 * match, and is asked only when the line-by-line walk named no cause.
 */
import type { TextSpan } from './closestMatch';
import type { TextSearch } from './textSearch';
import type { LocatedDiagnosis } from './describe';
import type { LineIndex } from '../text/lineIndex';

/**
 * Lines between the two parts below which the parts read as one block with lines added
 * in between (a stale read, which the block diagnosis explains), not as two hunks.
 */
const MIN_GAP_LINES = 4;
/** Split points of old_string tried at most (each costs two indexOf scans). */
const MAX_SPLIT_POINTS = 64;
/** Lines around the closest match searched for reordered or re-wrapped lines. */
const WINDOW_LINES = 40;
/** Characters of that window at most, and of old_string (whitespace aside) for a re-wrap search. */
const MAX_WINDOW_CHARS = 32 * 1024;
const MAX_REWRAP_CHARS = 1024;

/**
 * Lines longer than this are "long": a snippet shows them clipped (the default
 * maxSnippetLineChars), so the column of the difference is the fact a reader needs.
 * A difference in a shorter line shows in the snippet itself.
 */
const LONG_LINE_CHARS = 240;
/** Share of a one-line old_string that must agree with the file's line, from both ends, to name one difference in it. */
const MIN_AGREEMENT = 0.8;

/** A character as a message shows it: visible, quoted. */
function shownChar(char: string | undefined): string {
  return char === undefined ? 'the end of the line' : `${JSON.stringify(char)} (U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * A one-line old_string that differs from one long line of the file in a single stretch:
 * the column of the first difference and the characters on both sides. On a long line
 * this is the one fact a reader needs, as the snippet can show only part of it.
 */
export function lineDifference(index: LineIndex, needle: string, closest: TextSpan | undefined): LocatedDiagnosis | undefined {
  if (!closest || needle.includes('\n')) {
    return undefined;
  }
  const line0 = index.lineOfOffset(closest.offset);
  const lineStart = index.lineStart(line0);
  const lineText = index.lineText(line0);
  if (lineText.length <= LONG_LINE_CHARS) {
    return undefined;
  }
  const from = closest.offset - lineStart;
  let head = 0;
  while (head < needle.length && from + head < lineText.length && needle[head] === lineText[from + head]) {
    head++;
  }
  // The tail is matched against the line as far as the needle reaches, allowing for a length difference.
  const segmentEnd = Math.min(lineText.length, from + Math.max(closest.length, needle.length));
  let tail = 0;
  while (tail < needle.length - head && segmentEnd - 1 - tail >= from + head && needle[needle.length - 1 - tail] === lineText[segmentEnd - 1 - tail]) {
    tail++;
  }
  if (head === needle.length || head + tail < MIN_AGREEMENT * needle.length) {
    return undefined;
  }
  const offset = lineStart + from + head;
  const { line, column } = index.position(offset);
  const sent = needle.slice(head, needle.length - tail);
  const found = lineText.slice(from + head, segmentEnd - tail);
  return {
    diagnosis: {
      kind: 'CONTENT_MISMATCH',
      detail: `old_string differs from line ${line} (${lineText.length} characters) at column ${column}: the file has ${shownChar(found[0])} where old_string has ${shownChar(sent[0])}${found.length + sent.length > 2 ? ` (${found.length} characters in the file against ${sent.length} in old_string, from there until the rest agrees)` : ''}`,
      line, column, old_string_line: 1,
    },
    span: { offset: lineStart + from, length: segmentEnd - from },
    focus: offset,
  };
}

export function structuralMiss(search: TextSearch, index: LineIndex, needle: string, closest: TextSpan | undefined): LocatedDiagnosis | undefined {
  const lines = needle.split('\n');
  return (closest && reordered(index, lines, closest)) ?? splitHunks(search, index, lines) ?? (closest && rewrapped(search.text, index, needle, closest));
}

function splitHunks(search: TextSearch, index: LineIndex, lines: readonly string[]): LocatedDiagnosis | undefined {
  const lastCut = Math.min(lines.length - 1, MAX_SPLIT_POINTS);
  // A head is a prefix of old_string: the search answers it from its prefix steps, without reading the text.
  const headAt = (cut: number): number => search.indexOf(lines.slice(0, cut).join('\n'));
  const tailAt = (cut: number): number => search.indexOf(lines.slice(cut).join('\n'));
  // A head occurs only if every shorter head does, and a tail whenever a longer one does, so the
  // cuts where both occur are one run, found in a few scans of the text rather than two per cut.
  const lastHeadCut = lastCutWhere(1, lastCut, (cut) => headAt(cut) !== -1);
  const firstTailCut = lastHeadCut === 0 ? 1 : lastCut + 1 - lastCutWhere(1, lastCut, (fromEnd) => tailAt(lastCut + 1 - fromEnd) !== -1);
  for (let cut = firstTailCut; cut <= lastHeadCut; cut++) {
    const head = lines.slice(0, cut).join('\n');
    const tail = lines.slice(cut).join('\n');
    if (head.trim() === '' || tail.trim() === '') {
      continue;
    }
    const headOffset = search.indexOf(head);
    const tailOffset = search.indexOf(tail);
    const headLine = index.lineOfOffset(headOffset) + 1;
    const tailLine = index.lineOfOffset(tailOffset) + 1;
    const gap = tailLine > headLine ? tailLine - (headLine + cut) : headLine - (tailLine + lines.length - cut);
    if (gap < MIN_GAP_LINES) {
      continue;
    }
    return {
      diagnosis: {
        kind: 'SPLIT_HUNKS',
        detail: `old_string is two separate stretches of the file joined: its lines 1-${cut} occur at line ${headLine}, and its lines ${cut + 1}-${lines.length} at line ${tailLine}, ${gap} lines ${tailLine > headLine ? 'further down' : 'further up'}`,
        line: headLine, column: index.position(headOffset).column, old_string_line: cut + 1,
        parts: [
          { first_old_string_line: 1, last_old_string_line: cut, line: headLine },
          { first_old_string_line: cut + 1, last_old_string_line: lines.length, line: tailLine },
        ],
      },
      span: { offset: headOffset, length: head.length },
      focus: tailOffset,
    };
  }
  return undefined;
}

/** The last of first..last where `holds` is true, for a `holds` true up to some point and false after it; first - 1 when it holds nowhere. */
function lastCutWhere(first: number, last: number, holds: (cut: number) => boolean): number {
  let low = first - 1;
  let high = last;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (holds(middle)) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

/** The 0-based lines of a window around the closest match. */
function windowAround(index: LineIndex, closest: TextSpan, extra: number): { first: number; last: number } {
  const line = index.lineOfOffset(closest.offset);
  const first = Math.max(0, line - extra);
  let last = Math.min(index.lineCount - 1, line + extra + WINDOW_LINES);
  while (last > first && index.lineEnd(last) - index.lineStart(first) > MAX_WINDOW_CHARS) {
    last--;
  }
  return { first, last };
}

function reordered(index: LineIndex, lines: readonly string[], closest: TextSpan): LocatedDiagnosis | undefined {
  const content = lines.filter((line) => line.trim() !== '');
  if (content.length < 2 || content.length !== lines.length) {
    return undefined;
  }
  const { first, last } = windowAround(index, closest, lines.length);
  const used = new Set<number>();
  const found: number[] = [];
  for (const line of lines) {
    let at = first;
    while (at <= last && (used.has(at) || index.lineText(at).replace(/\r$/, '') !== line.replace(/\r$/, ''))) {
      at++;
    }
    if (at > last) {
      return undefined;
    }
    used.add(at);
    found.push(at);
  }
  const top = Math.min(...found);
  const bottom = Math.max(...found);
  const inOrder = found.every((line, at) => at === 0 || line > found[at - 1]);
  if (inOrder || bottom - top + 1 !== lines.length) {
    return undefined;
  }
  const moved = found.map((line, at) => ({ old: at + 1, line: line + 1 })).filter(({ old, line }) => line - top !== old - 1);
  const start = index.lineStart(top);
  return {
    diagnosis: {
      kind: 'REORDERED_LINES',
      detail: `the lines of old_string are lines ${top + 1}-${bottom + 1} of the file in another order: ${moved.map(({ old, line }) => `its line ${old} is line ${line}`).join(', ')}`,
      line: moved[0].line, column: 1, old_string_line: moved[0].old,
      line_map: found.map((line, at) => ({ old_string_line: at + 1, line: line + 1 })),
    },
    span: { offset: start, length: index.lineEnd(bottom) - start },
    focus: index.lineStart(moved[0].line - 1),
  };
}

function rewrapped(text: string, index: LineIndex, needle: string, closest: TextSpan): LocatedDiagnosis | undefined {
  const core = needle.trim();
  const compact = core.replace(/\s+/g, '');
  if (compact.length < 8 || compact.length > MAX_REWRAP_CHARS) {
    return undefined;
  }
  const { first, last } = windowAround(index, closest, Math.max(8, needle.split('\n').length));
  const windowStart = index.lineStart(first);
  const windowText = text.slice(windowStart, index.lineEnd(last));
  const pattern = new RegExp(Array.from(compact, (char) => char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\s*'));
  const match = pattern.exec(windowText);
  if (!match) {
    return undefined;
  }
  const fileLines = match[0].split('\n').length;
  const needleLines = core.split('\n').length;
  if (fileLines === needleLines) {
    return undefined;
  }
  const offset = windowStart + match.index;
  const startLine = index.lineOfOffset(offset) + 1;
  const endLine = index.lineOfOffset(offset + match[0].length) + 1;
  return {
    diagnosis: {
      kind: 'REWRAPPED_LINES',
      detail: `old_string has the characters of lines ${startLine}-${endLine} of the file, apart from whitespace, with other line breaks: the file breaks them over ${fileLines} ${fileLines === 1 ? 'line' : 'lines'} where old_string has ${needleLines} (a formatter or the model re-wrapped or joined them)`,
      line: startLine, column: index.position(offset).column, old_string_line: 1,
    },
    span: { offset, length: match[0].length },
    focus: offset,
  };
}
