/**
 * Where a patch hunk goes. A hunk still needs an exact occurrence of its old lines,
 * starting at a line start; the placement only chooses among several of them, or
 * pins the hunk to the start or end of the file. It never moves a hunk to a place
 * whose text differs.
 */
import { LineIndex } from '../text/lineIndex';

export interface Placement {
  /** The 0-based line where the hunk should start (unified diff): the nearest occurrence wins, ties going forward as git apply's do. */
  readonly nearLine?: number;
  /** Lines to find first, each after the one before (a Codex "@@" line, compared without surrounding whitespace): the hunk is the first occurrence after them. */
  readonly afterLines?: readonly string[];
  readonly atStart?: boolean;
  readonly atEnd?: boolean;
  /** The hunk's last line may stand without its line break at the end of a file that has none (Codex and SEARCH/REPLACE blocks always end lines). */
  readonly finalNewlineOptional?: boolean;
}

/** Where a hunk of a patch goes, and the 1-based line of the patch where it starts. */
export interface HunkPlacement extends Placement {
  readonly patchLine: number;
}

export type PlacedHunk =
  | { readonly found: true; readonly start: number; readonly oldString: string; readonly newString: string }
  | { readonly found: false; readonly missingLine?: string; readonly candidates: readonly number[] };

/**
 * The one place for a hunk in `text`, or why there is none: no occurrence, a line
 * of afterLines missing, or several occurrences the placement cannot tell apart
 * (`candidates` then holds them all).
 */
export function placeHunk(text: string, oldString: string, newString: string, placement: Placement, occurrences: (pattern: string) => number[]): PlacedHunk {
  const index = LineIndex.of(text);
  if (oldString === '') {
    return { found: true, start: insertionPoint(text, index, placement), oldString, newString };
  }
  let old = oldString;
  let replacement = newString;
  let starts = atLineStarts(text, occurrences(old));
  if (starts.length === 0 && placement.finalNewlineOptional && !text.endsWith('\n')) {
    const bare = withoutFinalBreak(oldString);
    if (bare !== oldString && text.endsWith(bare) && isLineStart(text, text.length - bare.length)) {
      old = bare;
      replacement = withoutFinalBreak(newString);
      starts = [text.length - bare.length];
    }
  }
  if (placement.atStart) {
    starts = starts.filter((start) => start === 0);
  }
  if (placement.atEnd) {
    starts = starts.filter((start) => start + old.length === text.length);
  }
  if (placement.afterLines && placement.afterLines.length > 0) {
    let from = 0;
    for (const line of placement.afterLines) {
      const found = lineAtOrAfter(index, from, line);
      if (found === undefined) {
        return { found: false, missingLine: line, candidates: [] };
      }
      from = index.lineStart(found + 1) === index.lineStart(found) ? text.length : index.lineStart(found + 1);
    }
    starts = starts.filter((start) => start >= from).slice(0, 1);
  }
  if (starts.length > 1 && placement.nearLine !== undefined) {
    starts = [nearest(starts, index, placement.nearLine)];
  }
  return starts.length === 1 ? { found: true, start: starts[0], oldString: old, newString: replacement } : { found: false, candidates: starts };
}

function insertionPoint(text: string, index: LineIndex, placement: Placement): number {
  if (placement.atStart) {
    return 0;
  }
  if (placement.nearLine !== undefined && !placement.atEnd) {
    return placement.nearLine >= index.lineCount ? text.length : index.lineStart(placement.nearLine);
  }
  return text.length;
}

function atLineStarts(text: string, starts: readonly number[]): number[] {
  return starts.filter((start) => isLineStart(text, start));
}

function isLineStart(text: string, offset: number): boolean {
  return offset === 0 || text.charCodeAt(offset - 1) === 10;
}

function withoutFinalBreak(value: string): string {
  return value.endsWith('\r\n') ? value.slice(0, -2) : value.endsWith('\n') ? value.slice(0, -1) : value;
}

/** The first 0-based line at or after `from` equal to `wanted`, exactly or without surrounding whitespace. */
function lineAtOrAfter(index: LineIndex, from: number, wanted: string): number | undefined {
  const trimmed = wanted.trim();
  for (let line = index.lineOfOffset(from); line < index.lineCount; line++) {
    if (index.lineStart(line) < from) {
      continue;
    }
    const text = index.lineText(line);
    if (text === wanted || text.trim() === trimmed) {
      return line;
    }
  }
  return undefined;
}

/** The start whose line is nearest `line`; at equal distance the later one, as git apply looks forward first. */
function nearest(starts: readonly number[], index: LineIndex, line: number): number {
  let best = starts[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const start of starts) {
    const distance = Math.abs(index.lineOfOffset(start) - line);
    if (distance < bestDistance || (distance === bestDistance && index.lineOfOffset(start) > line)) {
      best = start;
      bestDistance = distance;
    }
  }
  return best;
}
