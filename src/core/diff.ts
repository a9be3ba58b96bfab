/**
 * Unified diffs for dry runs (and real runs with include_diff). The lines both texts
 * share at the start and the end are set aside first, so a small edit to a large file
 * diffs only the lines around it.
 */
import { formatPatch, structuredPatch } from 'diff';

const CONTEXT_LINES = 3;
/** Characters compared at once while measuring the common start and end. */
const CHUNK = 4096;

export function unifiedDiff(displayPath: string, before: string, after: string): string {
  if (before === after) {
    return '';
  }
  const headEnd = commonHeadEnd(before, after);
  const beforeRest = before.slice(headEnd);
  const afterRest = after.slice(headEnd);
  const tail = commonTailLength(beforeRest, afterRest);
  const patch = structuredPatch(
    displayPath, displayPath,
    beforeRest.slice(0, beforeRest.length - tail), afterRest.slice(0, afterRest.length - tail),
    undefined, undefined, { context: CONTEXT_LINES },
  );
  const headLines = countNewlines(before, headEnd);
  for (const hunk of patch.hunks) {
    hunk.oldStart += headLines;
    hunk.newStart += headLines;
  }
  return formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
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
