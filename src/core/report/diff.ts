/**
 * Unified diffs for dry runs (and real runs with include_diff). The lines both texts
 * share at the start and the end are set aside first, so a small edit to a large file
 * diffs only the lines around it. The rest is read in place: runs of lines are
 * located by offsets into the two texts, and each run is written as one block.
 *
 * A diff comes out a piece at a time (diffPieces): the CLI writes a diff of tens of
 * megabytes as it is made, never holding it whole; unifiedDiff joins the pieces for
 * the surfaces that answer with one string.
 */
import { eachLineRun, TextLines } from './lineDiff';

const CONTEXT_LINES = 3;
/** Characters compared at once while measuring the common start and end. */
const CHUNK = 4096;
const NO_FINAL_NEWLINE = '\\ No newline at end of file';
/** Small pieces of the diff are joined in batches of this many, so millions of lines do not make millions of strings. */
const PIECES_PER_BATCH = 4096;
/** Lines are prefixed a block of about this many characters at a time. */
const BLOCK_CHARS = 1 << 16;

export function unifiedDiff(displayPath: string, before: string, after: string): string {
  const sink = new TextSink();
  for (const piece of diffPieces(displayPath, before, after)) {
    sink.push(piece);
  }
  return sink.text();
}

/**
 * The unified diff of two texts, in order, as pieces of whole lines (none splits a
 * surrogate pair). Nothing when the texts are equal.
 */
export function* diffPieces(displayPath: string, before: string, after: string): Generator<string> {
  if (before === after) {
    return;
  }
  const headEnd = commonHeadEnd(before, after);
  const tail = commonTailLength(before, after, headEnd);
  // The runs are found first: a hunk's header gives its line counts, which only the runs after its start tell.
  const runs = new RunList();
  eachLineRun(new TextLines(before, headEnd, before.length - tail), new TextLines(after, headEnd, after.length - tail), (run) => runs.push(run.same, run.oldLines, run.newLines));
  yield `--- ${displayPath}\n+++ ${displayPath}\n`;
  yield* hunkPieces(before, after, headEnd, countNewlines(before, headEnd), runs);
}

/**
 * A diff made a piece at a time as it is read, from the two texts (which it keeps alive
 * until then): what a caller that writes the response out gets instead of a string.
 */
export class DiffPieces implements Iterable<string> {
  constructor(
    private readonly displayPath: string,
    private readonly before: string,
    private readonly after: string,
  ) {}

  [Symbol.iterator](): Iterator<string> {
    return diffPieces(this.displayPath, this.before, this.after);
  }
}

/**
 * Joins many small strings in batches; a large one is kept as it is. The batches are
 * chained, not joined: the engine keeps them as one string without copying them, and
 * the one copy is made where the diff is first read (a whole join here would hold the
 * diff twice while the texts it compares are still alive).
 */
class TextSink {
  private readonly batches: string[] = [];
  private pieces: string[] = [];

  push(piece: string): void {
    if (piece.length >= BLOCK_CHARS) {
      this.flush();
      this.batches.push(piece);
      return;
    }
    this.pieces.push(piece);
    if (this.pieces.length >= PIECES_PER_BATCH) {
      this.flush();
    }
  }

  text(): string {
    this.flush();
    let text = '';
    for (const batch of this.batches) {
      text += batch;
    }
    return text;
  }

  private flush(): void {
    if (this.pieces.length > 0) {
      this.batches.push(this.pieces.length === 1 ? this.pieces[0] : this.pieces.join(''));
      this.pieces = [];
    }
  }
}

/**
 * The runs of a line diff, two line counts each in a typed array: same and changed
 * runs alternate, so only the first one's kind is kept.
 */
class RunList {
  private counts = new Int32Array(64);
  private size = 0;
  private firstSame = false;

  get length(): number {
    return this.size;
  }

  push(same: boolean, oldLines: number, newLines: number): void {
    if (this.size === 0) {
      this.firstSame = same;
    }
    if (2 * this.size + 2 > this.counts.length) {
      const grown = new Int32Array(2 * this.counts.length);
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[2 * this.size] = oldLines;
    this.counts[2 * this.size + 1] = newLines;
    this.size++;
  }

  same(index: number): boolean {
    return this.firstSame === (index % 2 === 0);
  }

  oldLines(index: number): number {
    return this.counts[2 * index];
  }

  newLines(index: number): number {
    return this.counts[2 * index + 1];
  }
}

/**
 * The hunks of a line diff, each with CONTEXT_LINES lines of context: a run of equal
 * lines between two changes stays inside one hunk unless it is longer than twice the
 * context. The runs start at `headEnd`, a line start up to which both texts agree,
 * and the first of them at line `firstLine` (0-based) of both.
 */
function* hunkPieces(before: string, after: string, headEnd: number, firstLine: number, runs: RunList): Generator<string> {
  let oldAt = headEnd;
  let newAt = headEnd;
  let oldLine = firstLine;
  let newLine = firstLine;
  for (let index = 0; index < runs.length;) {
    if (runs.same(index)) {
      oldAt = advanceLines(before, oldAt, runs.oldLines(index));
      newAt = advanceLines(after, newAt, runs.newLines(index));
      oldLine += runs.oldLines(index);
      newLine += runs.newLines(index);
      index++;
      continue;
    }
    const contextStart = retreatLines(before, oldAt, CONTEXT_LINES);
    const contextBefore = countNewlines(before, oldAt, contextStart);
    const extent = hunkExtent(runs, index);
    const oldLines = contextBefore + extent.oldLines;
    const newLines = contextBefore + extent.newLines;
    // Unified diff writes an empty range as starting at the line before it.
    const oldStart = oldLine - contextBefore + (oldLines === 0 ? 0 : 1);
    const newStart = newLine - contextBefore + (newLines === 0 ? 0 : 1);
    yield `@@ -${oldStart},${oldLines} +${newStart},${newLines} @@\n`;
    yield* linePieces(' ', before, contextStart, oldAt);
    for (; index < extent.end; index++) {
      const oldEnd = advanceLines(before, oldAt, runs.oldLines(index));
      const newEnd = advanceLines(after, newAt, runs.newLines(index));
      if (runs.same(index)) {
        yield* linePieces(' ', before, oldAt, oldEnd);
      } else {
        yield* linePieces('-', before, oldAt, oldEnd);
        yield* linePieces('+', after, newAt, newEnd);
      }
      oldAt = oldEnd;
      newAt = newEnd;
      oldLine += runs.oldLines(index);
      newLine += runs.newLines(index);
    }
    // The run of equal lines that ends the hunk: its first lines are the context after, and the loop passes over it.
    yield* linePieces(' ', before, oldAt, advanceLines(before, oldAt, extent.contextAfter));
  }
}

/**
 * Where the hunk opened by the changed run `first` ends: `end` is the run of equal
 * lines that closes it (or the end of the runs), of which `contextAfter` lines are
 * shown; the line counts cover the runs from `first` and that context.
 */
function hunkExtent(runs: RunList, first: number): { end: number; contextAfter: number; oldLines: number; newLines: number } {
  let oldLines = 0;
  let newLines = 0;
  for (let index = first; index < runs.length; index++) {
    const isLast = index === runs.length - 1;
    if (runs.same(index) && (isLast || runs.oldLines(index) > 2 * CONTEXT_LINES)) {
      const contextAfter = Math.min(CONTEXT_LINES, runs.oldLines(index));
      return { end: index, contextAfter, oldLines: oldLines + contextAfter, newLines: newLines + contextAfter };
    }
    oldLines += runs.oldLines(index);
    newLines += runs.newLines(index);
  }
  return { end: runs.length, contextAfter: 0, oldLines, newLines };
}

/** The lines of `text` from `start` to `end` (whole lines), each behind `prefix`, a block at a time. */
function* linePieces(prefix: ' ' | '-' | '+', text: string, start: number, end: number): Generator<string> {
  for (let at = start; at < end;) {
    const cut = blockEnd(text, at, end);
    const ended = text.charCodeAt(cut - 1) === 10;
    // split and join, a block at a time: replaceAll with millions of matches costs gigabytes.
    yield prefix + text.slice(at, ended ? cut - 1 : cut).split('\n').join(`\n${prefix}`) + (ended ? '\n' : `\n${NO_FINAL_NEWLINE}\n`);
    at = cut;
  }
}

/** The end of a block of whole lines from `start`: about BLOCK_CHARS long, or one longer line, or up to `end`. */
function blockEnd(text: string, start: number, end: number): number {
  if (end - start <= BLOCK_CHARS) {
    return end;
  }
  const lastNewline = text.lastIndexOf('\n', start + BLOCK_CHARS - 1);
  if (lastNewline >= start) {
    return lastNewline + 1;
  }
  const nextNewline = text.indexOf('\n', start + BLOCK_CHARS);
  return nextNewline === -1 || nextNewline >= end ? end : nextNewline + 1;
}

/** The offset `lines` whole lines after `offset` (or the end of the text). */
function advanceLines(text: string, offset: number, lines: number): number {
  let at = offset;
  for (let left = lines; left > 0; left--) {
    const newline = text.indexOf('\n', at);
    if (newline === -1) {
      return text.length;
    }
    at = newline + 1;
  }
  return at;
}

/** The start of the line `lines` lines before the line starting at `offset` (or 0). */
function retreatLines(text: string, offset: number, lines: number): number {
  let at = offset;
  for (let left = lines; left > 0 && at > 0; left--) {
    at = lineStartAtOrBefore(text, at - 1);
  }
  return at;
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
  return retreatLines(before, lineStartAtOrBefore(before, same), CONTEXT_LINES);
}

/**
 * Length of a common suffix after `headEnd` that starts at a line start in both texts
 * (just after a newline that both share), CONTEXT_LINES lines after the last difference.
 */
function commonTailLength(before: string, after: string, headEnd: number): number {
  const limit = Math.min(before.length, after.length) - headEnd;
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

/** Newlines in `text` before `end` (from `start`). */
export function countNewlines(text: string, end: number, start = 0): number {
  let lines = 0;
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    lines++;
  }
  return lines;
}
