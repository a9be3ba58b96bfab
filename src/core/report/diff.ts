/**
 * Unified diffs for dry runs (and real runs with include_diff). The lines both texts
 * share at the start and the end are set aside first, so a small edit to a large file
 * diffs only the lines around it.
 */
import { formatPatch, type StructuredPatchHunk } from 'diff';
import { lineRuns, splitLinesKeepingEnds } from './lineDiff';

const CONTEXT_LINES = 3;
/** Characters compared at once while measuring the common start and end. */
const CHUNK = 4096;
const NO_FINAL_NEWLINE = '\\ No newline at end of file';

export function unifiedDiff(displayPath: string, before: string, after: string): string {
  if (before === after) {
    return '';
  }
  const headEnd = commonHeadEnd(before, after);
  const beforeRest = before.slice(headEnd);
  const afterRest = after.slice(headEnd);
  const tail = commonTailLength(beforeRest, afterRest);
  const oldLines = splitLinesKeepingEnds(beforeRest.slice(0, beforeRest.length - tail));
  const newLines = splitLinesKeepingEnds(afterRest.slice(0, afterRest.length - tail));
  const hunks = hunksOf(oldLines, newLines, countNewlines(before, headEnd));
  return formatPatch(
    { oldFileName: displayPath, newFileName: displayPath, oldHeader: undefined, newHeader: undefined, hunks },
    { includeIndex: false, includeUnderline: false, includeFileHeaders: true },
  );
}

/** Groups the changes of a line diff into hunks with CONTEXT_LINES lines of context. */
function hunksOf(oldLines: readonly string[], newLines: readonly string[], firstLine: number): StructuredPatchHunk[] {
  const hunks: StructuredPatchHunk[] = [];
  let current: StructuredPatchHunk | undefined;
  let oldAt = 0;
  let newAt = 0;
  const runs = lineRuns(oldLines, newLines);
  for (const [index, run] of runs.entries()) {
    if (run.same) {
      const isLast = index === runs.length - 1;
      if (current && (isLast || run.oldLines > 2 * CONTEXT_LINES)) {
        addLines(current, ' ', oldLines, oldAt, Math.min(CONTEXT_LINES, run.oldLines));
        hunks.push(current);
        current = undefined;
      } else if (current) {
        addLines(current, ' ', oldLines, oldAt, run.oldLines);
      }
    } else {
      if (!current) {
        const context = Math.min(CONTEXT_LINES, oldAt);
        current = { oldStart: firstLine + oldAt - context + 1, oldLines: 0, newStart: firstLine + newAt - context + 1, newLines: 0, lines: [] };
        addLines(current, ' ', oldLines, oldAt - context, context);
      }
      addLines(current, '-', oldLines, oldAt, run.oldLines);
      addLines(current, '+', newLines, newAt, run.newLines);
    }
    oldAt += run.oldLines;
    newAt += run.newLines;
  }
  if (current) {
    hunks.push(current);
  }
  // formatPatch itself writes an empty range as starting at the line before it.
  return hunks;
}

function addLines(hunk: StructuredPatchHunk, prefix: ' ' | '-' | '+', lines: readonly string[], from: number, count: number): void {
  for (let at = from; at < from + count; at++) {
    const line = lines[at];
    const ended = line.endsWith('\n');
    hunk.lines.push(prefix + (ended ? line.slice(0, -1) : line));
    if (!ended) {
      hunk.lines.push(NO_FINAL_NEWLINE);
    }
    if (prefix !== '+') hunk.oldLines++;
    if (prefix !== '-') hunk.newLines++;
  }
}

/** A line start inside the common prefix, CONTEXT_LINES lines before the first difference. */
function commonHeadEnd(before: string, after: string): number {
  const limit = Math.min(before.length, after.length);
  let same = 0;
  while (same + CHUNK <= limit && before.slice(same, same + CHUNK) === after.slice(same, same + CHUNK)) {
    same += CHUNK;
  }
  while (same < limit && before.charCodeAt(same) === after.charCodeAt(same)) {
    same++;
  }
  let cut = lineStartAtOrBefore(before, same);
  for (let kept = 0; kept < CONTEXT_LINES && cut > 0; kept++) {
    cut = lineStartAtOrBefore(before, cut - 1);
  }
  return cut;
}

/**
 * Length of a common suffix that starts at a line start in both texts (just after a
 * newline that both share), CONTEXT_LINES lines after the last difference.
 */
function commonTailLength(before: string, after: string): number {
  const limit = Math.min(before.length, after.length);
  let same = 0;
  while (same + CHUNK <= limit && endsMatch(before, after, same, CHUNK)) {
    same += CHUNK;
  }
  while (same < limit && before.charCodeAt(before.length - 1 - same) === after.charCodeAt(after.length - 1 - same)) {
    same++;
  }
  let cut = before.length - same;
  for (let lines = 0; lines <= CONTEXT_LINES; lines++) {
    const newline = before.indexOf('\n', cut);
    if (newline === -1) {
      return 0;
    }
    cut = newline + 1;
  }
  return before.length - cut;
}

function endsMatch(before: string, after: string, skip: number, length: number): boolean {
  return before.slice(before.length - skip - length, before.length - skip) === after.slice(after.length - skip - length, after.length - skip);
}

/** The start of the line holding `offset`. */
function lineStartAtOrBefore(text: string, offset: number): number {
  return offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

function countNewlines(text: string, end: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    lines++;
  }
  return lines;
}
