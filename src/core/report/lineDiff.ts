/**
 * A line diff in linear time for the usual case. After a mismatch it looks for the
 * nearest point where both texts agree again on two lines in a row, and calls what
 * lies between a change. The result is always a correct edit script, though not
 * always the shortest one; a Myers diff is quadratic in the number of changes, and
 * a replace_all over thousands of lines made dry runs take seconds.
 */

export interface LineRun {
  readonly same: boolean;
  readonly oldLines: number;
  readonly newLines: number;
}

/** How far (deleted plus inserted lines) a resync is looked for before the rest counts as one change. */
const MAX_RESYNC_DISTANCE = 256;

/** Lines with their terminators, so a missing final newline is a difference. */
export function splitLinesKeepingEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
    lines.push(text.slice(start, newline + 1));
    start = newline + 1;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
  }
  return lines;
}

export function lineRuns(before: readonly string[], after: readonly string[]): LineRun[] {
  const runs: LineRun[] = [];
  const push = (same: boolean, oldLines: number, newLines: number): void => {
    const last = runs[runs.length - 1];
    if (last && last.same === same) {
      runs[runs.length - 1] = { same, oldLines: last.oldLines + oldLines, newLines: last.newLines + newLines };
    } else if (oldLines > 0 || newLines > 0) {
      runs.push({ same, oldLines, newLines });
    }
  };
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    if (before[i] === after[j]) {
      push(true, 1, 1);
      i++;
      j++;
      continue;
    }
    const step = resync(before, after, i, j);
    if (!step) {
      break;
    }
    push(false, step.deleted, step.inserted);
    i += step.deleted;
    j += step.inserted;
  }
  push(false, before.length - i, after.length - j);
  return runs;
}

function resync(before: readonly string[], after: readonly string[], i: number, j: number): { deleted: number; inserted: number } | undefined {
  for (let distance = 1; distance <= MAX_RESYNC_DISTANCE; distance++) {
    for (let deleted = 0; deleted <= distance; deleted++) {
      const x = i + deleted;
      const y = j + distance - deleted;
      if (x > before.length || y > after.length) {
        continue;
      }
      if (x === before.length || y === after.length) {
        if (x === before.length && y === after.length) {
          return { deleted, inserted: distance - deleted };
        }
        continue;
      }
      const confirmed = x + 1 === before.length || y + 1 === after.length || before[x + 1] === after[y + 1];
      if (before[x] === after[y] && confirmed) {
        return { deleted, inserted: distance - deleted };
      }
    }
  }
  return undefined;
}
