/**
 * Unified diffs for dry runs (and real runs with include_diff). The lines both texts
 * share at the start and the end are set aside first, so a small edit to a large file
 * diffs only the lines around it. The rest is read in place: runs of lines are
 * located by offsets into the two texts, and each run is written as one block, so a
 * diff costs about its own size in memory, whatever the number of lines.
 */
import { eachLineRun, TextLines, type LineRun } from './lineDiff';

const CONTEXT_LINES = 3;
/** Characters compared at once while measuring the common start and end. */
const CHUNK = 4096;
const NO_FINAL_NEWLINE = '\\ No newline at end of file';
/** Small pieces of the diff are joined in batches of this many, so millions of lines do not make millions of strings. */
const PIECES_PER_BATCH = 4096;
/** Lines are prefixed a block of about this many characters at a time. */
const BLOCK_CHARS = 1 << 16;

export function unifiedDiff(displayPath: string, before: string, after: string): string {
  if (before === after) {
    return '';
  }
  const headEnd = commonHeadEnd(before, after);
  const tail = commonTailLength(before, after, headEnd);
  const writer = new HunkWriter(before, after, headEnd, countNewlines(before, headEnd));
  eachLineRun(new TextLines(before, headEnd, before.length - tail), new TextLines(after, headEnd, after.length - tail), (run) => writer.run(run));
  writer.finish();
  return `--- ${displayPath}\n+++ ${displayPath}\n${writer.text()}`;
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

  append(sink: TextSink): void {
    sink.flush();
    for (const batch of sink.batches) {
      this.push(batch);
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

interface OpenHunk {
  readonly oldStart: number;
  readonly newStart: number;
  oldLines: number;
  newLines: number;
  readonly body: TextSink;
}

/**
 * Groups the runs of a line diff into hunks with CONTEXT_LINES lines of context.
 * Runs arrive in order; a run of equal lines is held until the next one shows
 * whether it is the last.
 */
class HunkWriter {
  private readonly out = new TextSink();
  private current: OpenHunk | undefined;
  private held: LineRun | undefined;
  /** Lines of each text before the next run, counted from the first line of the file. */
  private oldLine: number;
  private newLine: number;

  constructor(
    private readonly before: string,
    private readonly after: string,
    /** Offset of the next run in both texts (they agree up to here). */
    private oldAt: number,
    firstLine: number,
    private newAt = oldAt,
  ) {
    this.oldLine = firstLine;
    this.newLine = firstLine;
  }

  run(run: LineRun): void {
    if (this.held) {
      this.same(this.held, false);
      this.held = undefined;
    }
    if (run.same) {
      this.held = run;
    } else {
      this.changed(run);
    }
  }

  finish(): void {
    if (this.held) {
      this.same(this.held, true);
    }
    if (this.current) {
      this.close(this.current);
    }
  }

  text(): string {
    return this.out.text();
  }

  private same(run: LineRun, isLast: boolean): void {
    const end = advanceLines(this.before, this.oldAt, run.oldLines);
    if (this.current && (isLast || run.oldLines > 2 * CONTEXT_LINES)) {
      const context = Math.min(CONTEXT_LINES, run.oldLines);
      this.addLines(' ', this.before, this.oldAt, advanceLines(this.before, this.oldAt, context), context, context);
      this.close(this.current);
      this.current = undefined;
    } else if (this.current) {
      this.addLines(' ', this.before, this.oldAt, end, run.oldLines, run.newLines);
    }
    this.oldAt = end;
    this.newAt = advanceLines(this.after, this.newAt, run.newLines);
    this.oldLine += run.oldLines;
    this.newLine += run.newLines;
  }

  private changed(run: LineRun): void {
    if (!this.current) {
      const contextStart = retreatLines(this.before, this.oldAt, CONTEXT_LINES);
      const context = countNewlines(this.before, this.oldAt, contextStart);
      this.current = { oldStart: this.oldLine - context + 1, newStart: this.newLine - context + 1, oldLines: 0, newLines: 0, body: new TextSink() };
      this.addLines(' ', this.before, contextStart, this.oldAt, context, context);
    }
    const oldEnd = advanceLines(this.before, this.oldAt, run.oldLines);
    const newEnd = advanceLines(this.after, this.newAt, run.newLines);
    this.addLines('-', this.before, this.oldAt, oldEnd, run.oldLines, 0);
    this.addLines('+', this.after, this.newAt, newEnd, 0, run.newLines);
    this.oldAt = oldEnd;
    this.newAt = newEnd;
    this.oldLine += run.oldLines;
    this.newLine += run.newLines;
  }

  /** The lines of `text` from `start` to `end` (whole lines), each behind `prefix`. */
  private addLines(prefix: ' ' | '-' | '+', text: string, start: number, end: number, oldLines: number, newLines: number): void {
    const hunk = this.current;
    if (!hunk || start === end) {
      return;
    }
    for (let at = start; at < end;) {
      const cut = blockEnd(text, at, end);
      const ended = text.charCodeAt(cut - 1) === 10;
      // split and join, a block at a time: replaceAll with millions of matches costs gigabytes.
      hunk.body.push(prefix + text.slice(at, ended ? cut - 1 : cut).split('\n').join(`\n${prefix}`) + (ended ? '\n' : `\n${NO_FINAL_NEWLINE}\n`));
      at = cut;
    }
    hunk.oldLines += oldLines;
    hunk.newLines += newLines;
  }

  private close(hunk: OpenHunk): void {
    // Unified diff writes an empty range as starting at the line before it.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    this.out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@\n`);
    this.out.append(hunk.body);
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
function countNewlines(text: string, end: number, start = 0): number {
  let lines = 0;
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    lines++;
  }
  return lines;
}
