/**
 * A line diff in linear time for the usual case. After a mismatch it looks for the
 * nearest point where both texts agree again on two lines in a row, and calls what
 * lies between a change. The result is always a correct edit script, though not
 * always the shortest one; a Myers diff is quadratic in the number of changes, and
 * a replace_all over thousands of lines made dry runs take seconds.
 *
 * The lines are read through a window over the text (TextLines), never split into
 * an array: a dry run of a file whose every one of millions of lines changes holds
 * the line starts of a few hundred lines at a time, not one string per line.
 */

export interface LineRun {
  readonly same: boolean;
  readonly oldLines: number;
  readonly newLines: number;
}

/** A sequence of lines read in order, with a bounded look-ahead. */
export interface LineSequence {
  /** Whether line `index` exists. */
  has(index: number): boolean;
  /** Whether line `index` of this sequence equals line `otherIndex` of `other` (terminators included). */
  sameAs(index: number, other: LineSequence, otherIndex: number): boolean;
  /** Lines from `index` to the end. */
  countFrom(index: number): number;
  /** Lines before `index` are not looked at again. */
  release(index: number): void;
  /**
   * Optional: how many lines from `index` equal those of `other` from `otherIndex`,
   * found without looking at each line; both sequences then go on after them.
   */
  skipEqual?(index: number, other: LineSequence, otherIndex: number): number;
}

/** How far (deleted plus inserted lines) a resync is looked for before the rest counts as one change. */
const MAX_RESYNC_DISTANCE = 256;
/** Released line starts are dropped in batches of at least this many. */
const RELEASE_BATCH = 4096;
/** Characters compared at once while skipping equal lines. */
const CHUNK = 4096;

/**
 * The lines of `text` between `from` and `to` (a line start, and a line start or the
 * end of the text), each with its terminator, so a missing final newline is a
 * difference. Line starts are found on demand and forgotten once released.
 */
export class TextLines implements LineSequence {
  private starts: number[] = [];
  /** The line whose start is starts[0]. */
  private first = 0;
  /** The number of lines, once the scan has reached `to`. */
  private total: number | undefined;

  constructor(
    readonly text: string,
    readonly from: number,
    readonly to: number,
  ) {
    if (from < to) {
      this.starts.push(from);
    } else {
      this.total = 0;
    }
  }

  has(index: number): boolean {
    while (this.total === undefined && this.first + this.starts.length <= index) {
      this.scanOne();
    }
    return index < this.first + this.starts.length;
  }

  /** Offset where line `index` starts; the line must exist and not be released. */
  start(index: number): number {
    return this.starts[index - this.first];
  }

  /** Offset just after line `index` and its terminator. */
  end(index: number): number {
    return this.has(index + 1) ? this.start(index + 1) : this.to;
  }

  sameAs(index: number, other: LineSequence, otherIndex: number): boolean {
    if (!(other instanceof TextLines)) {
      return false;
    }
    const start = this.start(index);
    const length = this.end(index) - start;
    const otherStart = other.start(otherIndex);
    return other.end(otherIndex) - otherStart === length && this.text.slice(start, start + length) === other.text.slice(otherStart, otherStart + length);
  }

  countFrom(index: number): number {
    if (this.total !== undefined) {
      return Math.max(0, this.total - index);
    }
    let count = this.first + this.starts.length - index;
    for (let at = this.starts[this.starts.length - 1]; ;) {
      const newline = this.text.indexOf('\n', at);
      if (newline === -1 || newline + 1 >= this.to) {
        return count;
      }
      count++;
      at = newline + 1;
    }
  }

  skipEqual(index: number, other: LineSequence, otherIndex: number): number {
    if (!(other instanceof TextLines)) {
      return 0;
    }
    const start = this.start(index);
    const otherStart = other.start(otherIndex);
    const limit = Math.min(this.to - start, other.to - otherStart);
    let same = 0;
    while (same + CHUNK <= limit && this.text.slice(start + same, start + same + CHUNK) === other.text.slice(otherStart + same, otherStart + same + CHUNK)) {
      same += CHUNK;
    }
    while (same < limit && this.text.charCodeAt(start + same) === other.text.charCodeAt(otherStart + same)) {
      same++;
    }
    // Whole lines only: each ends with a newline inside the equal stretch, or is the last line of both.
    let lines = 0;
    let next = start;
    for (let newline = this.text.indexOf('\n', start); newline !== -1 && newline < start + same; newline = this.text.indexOf('\n', newline + 1)) {
      lines++;
      next = newline + 1;
    }
    if (next < start + same && start + same === this.to && otherStart + same === other.to) {
      lines++;
      next = this.to;
    }
    this.restartAt(index + lines, next);
    other.restartAt(otherIndex + lines, otherStart + (next - start));
    return lines;
  }

  /** Goes on from line `index`, which starts at `offset` (or is past the end when `offset` is `to`). */
  private restartAt(index: number, offset: number): void {
    this.first = index;
    if (offset < this.to) {
      this.starts = [offset];
      this.total = undefined;
    } else {
      this.starts = [];
      this.total = index;
    }
  }

  release(index: number): void {
    const drop = Math.min(index - this.first, this.starts.length - 1);
    if (drop >= RELEASE_BATCH) {
      this.starts = this.starts.slice(drop);
      this.first += drop;
    }
  }

  private scanOne(): void {
    const newline = this.text.indexOf('\n', this.starts[this.starts.length - 1]);
    if (newline === -1 || newline + 1 >= this.to) {
      this.total = this.first + this.starts.length;
    } else {
      this.starts.push(newline + 1);
    }
  }
}

/** Lines already in an array, each with its terminator. */
class ArrayLines implements LineSequence {
  constructor(readonly lines: readonly string[]) {}

  has(index: number): boolean {
    return index < this.lines.length;
  }

  sameAs(index: number, other: LineSequence, otherIndex: number): boolean {
    return other instanceof ArrayLines && this.lines[index] === other.lines[otherIndex];
  }

  countFrom(index: number): number {
    return Math.max(0, this.lines.length - index);
  }

  release(): void {
    // The array is the caller's.
  }
}

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
  eachLineRun(new ArrayLines(before), new ArrayLines(after), (run) => runs.push(run));
  return runs;
}

/**
 * Calls `onRun` with each run of equal or changed lines, in order; consecutive runs
 * alternate between same and changed, and none is empty.
 */
export function eachLineRun(before: LineSequence, after: LineSequence, onRun: (run: LineRun) => void): void {
  let pending: { same: boolean; oldLines: number; newLines: number } | undefined;
  const push = (same: boolean, oldLines: number, newLines: number): void => {
    if (pending && pending.same === same) {
      pending.oldLines += oldLines;
      pending.newLines += newLines;
      return;
    }
    if (oldLines === 0 && newLines === 0) {
      return;
    }
    if (pending) {
      onRun(pending);
    }
    pending = { same, oldLines, newLines };
  };
  let i = 0;
  let j = 0;
  while (before.has(i) && after.has(j)) {
    if (before.sameAs(i, after, j)) {
      const equal = Math.max(1, before.skipEqual?.(i, after, j) ?? 1);
      push(true, equal, equal);
      i += equal;
      j += equal;
      before.release(i);
      after.release(j);
      continue;
    }
    const step = resync(before, after, i, j);
    if (!step) {
      break;
    }
    push(false, step.deleted, step.inserted);
    i += step.deleted;
    j += step.inserted;
    before.release(i);
    after.release(j);
  }
  push(false, before.countFrom(i), after.countFrom(j));
  if (pending) {
    onRun(pending);
  }
}

function resync(before: LineSequence, after: LineSequence, i: number, j: number): { deleted: number; inserted: number } | undefined {
  for (let distance = 1; distance <= MAX_RESYNC_DISTANCE; distance++) {
    for (let deleted = 0; deleted <= distance; deleted++) {
      const x = i + deleted;
      const y = j + distance - deleted;
      const hasX = before.has(x);
      const hasY = after.has(y);
      if (!hasX || !hasY) {
        // Both sequences end here: the rest of each is the change.
        if (!hasX && !hasY && (x === i || before.has(x - 1)) && (y === j || after.has(y - 1))) {
          return { deleted, inserted: distance - deleted };
        }
        continue;
      }
      const confirmed = !before.has(x + 1) || !after.has(y + 1) || before.sameAs(x + 1, after, y + 1);
      if (before.sameAs(x, after, y) && confirmed) {
        return { deleted, inserted: distance - deleted };
      }
    }
  }
  return undefined;
}
