/**
 * Where a patch hunk goes. A hunk still needs an exact occurrence of its old lines,
 * starting at a line start; the placement only chooses among several of them, or
 * pins the hunk to the start or end of the file. It never moves a hunk to a place
 * whose text differs.
 */
import { LineIndex } from '../text/lineIndex';
import type { HunkSite } from './lineBlocks';
import { occurrencesOf } from './multiSearch';

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
 * The one place for a hunk in the text `site` holds, or why there is none: no
 * occurrence, a line of afterLines missing, or several occurrences the placement
 * cannot tell apart (`candidates` then holds them all).
 */
export function placeHunk(site: HunkSite, oldString: string, newString: string, placement: Placement): PlacedHunk {
  if (oldString === '') {
    return { found: true, start: insertionPoint(site, placement), oldString, newString };
  }
  let old = oldString;
  let replacement = newString;
  let starts = site.lineStartOccurrences(old);
  const length = site.length;
  if (starts.length === 0 && placement.finalNewlineOptional && !endsWith(site, '\n')) {
    const bare = withoutFinalBreak(oldString);
    if (bare !== oldString && endsWith(site, bare) && isLineStart(site, length - bare.length)) {
      old = bare;
      replacement = withoutFinalBreak(newString);
      starts = [length - bare.length];
    }
  }
  if (placement.atStart) {
    starts = starts.filter((start) => start === 0);
  }
  if (placement.atEnd) {
    starts = starts.filter((start) => start + old.length === length);
  }
  if (placement.afterLines && placement.afterLines.length > 0) {
    let from = 0;
    for (const line of placement.afterLines) {
      const found = site.lineAtOrAfter(from, line);
      if (found === undefined) {
        return { found: false, missingLine: line, candidates: [] };
      }
      from = site.lineStart(found + 1) === site.lineStart(found) ? length : site.lineStart(found + 1);
    }
    starts = starts.filter((start) => start >= from).slice(0, 1);
  }
  if (starts.length > 1 && placement.nearLine !== undefined) {
    starts = [nearest(starts, site, placement.nearLine)];
  }
  return starts.length === 1 ? { found: true, start: starts[0], oldString: old, newString: replacement } : { found: false, candidates: starts };
}

/** A text held as one string, as a place for hunks: its line index is made when first asked for. */
export function textSite(text: string): HunkSite {
  let index: LineIndex | undefined;
  const lines = (): LineIndex => (index ??= LineIndex.of(text));
  return {
    length: text.length,
    get lineCount() {
      return lines().lineCount;
    },
    lineStartOccurrences: (pattern) => Array.from(occurrencesOf(text, pattern)).filter((start) => start === 0 || text.charCodeAt(start - 1) === 10),
    lineOfOffset: (offset) => lines().lineOfOffset(offset),
    lineStart: (line) => lines().lineStart(line),
    lineAtOrAfter: (from, wanted) => {
      const trimmed = wanted.trim();
      const index = lines();
      for (let line = index.lineOfOffset(from); line < index.lineCount; line++) {
        if (index.lineStart(line) >= from && index.lineText(line).trim() === trimmed) {
          return line;
        }
      }
      return undefined;
    },
    slice: (from, to) => text.slice(from, to),
  };
}

function insertionPoint(site: HunkSite, placement: Placement): number {
  if (placement.atStart) {
    return 0;
  }
  if (placement.nearLine !== undefined && !placement.atEnd) {
    return placement.nearLine >= site.lineCount ? site.length : site.lineStart(placement.nearLine);
  }
  return site.length;
}

function endsWith(site: HunkSite, suffix: string): boolean {
  return suffix.length <= site.length && site.slice(site.length - suffix.length, site.length) === suffix;
}

function isLineStart(site: HunkSite, offset: number): boolean {
  return offset === 0 || site.slice(offset - 1, offset) === '\n';
}

function withoutFinalBreak(value: string): string {
  return value.endsWith('\r\n') ? value.slice(0, -2) : value.endsWith('\n') ? value.slice(0, -1) : value;
}

/** The start whose line is nearest `line`; at equal distance the later one, as git apply looks forward first. */
function nearest(starts: readonly number[], site: HunkSite, line: number): number {
  let best = starts[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const start of starts) {
    const startLine = site.lineOfOffset(start);
    const distance = Math.abs(startLine - line);
    if (distance < bestDistance || (distance === bestDistance && startLine > line)) {
      best = start;
      bestDistance = distance;
    }
  }
  return best;
}
