/**
 * The working text of a patch: the file's lines, indexed once by their content and
 * kept in blocks of a few hundred lines. A hunk's old text is whole lines (and at
 * most a start of one more), and it must start at a line start, so its occurrences
 * are found from the occurrences of its rarest line, each checked line by line
 * against its neighbours; a replacement splices lines inside one or a few blocks.
 * A hunk then costs time in proportion to its rarest line's occurrences, a block and
 * the number of blocks, never to the whole file, so planning grows with the patch
 * and the file, not with their product.
 *
 * The answers are those of the same text held as one string (LineIndex semantics for
 * line numbers: a text ending in a line break has an empty last line); the
 * differential test in lineBlocks.test.ts holds them to that.
 */
import { TextBuilder } from './textBuilder';
import type { Offsets } from './multiSearch';
import type { WorkingText } from './workingText';
import { type EditedText, wholeText } from '../text/editedText';

interface Line {
  /** The line with its "\n"; only the text's last line may lack it. */
  readonly text: string;
  block: Block;
  /** Where it sits in its block, and its offset from the block's start. */
  index: number;
  offset: number;
}

interface Block {
  lines: Line[];
  /** Its index in the list of blocks. */
  position: number;
  firstLine: number;
  firstOffset: number;
  chars: number;
}

/** Blocks are split past twice this; renumbering one costs about this much. */
const BLOCK_LINES = 256;
/** Lines indexed between two questions whether to go on (LineBlocks.indexing). */
const INDEXING_SLICE_LINES = BLOCK_LINES * 64;

/** What placing a hunk asks of the text it goes into (placement.ts). */
export interface HunkSite {
  readonly length: number;
  /** As LineIndex counts them: one more than the line breaks. */
  readonly lineCount: number;
  /** Occurrences of `pattern` that start at a line start, overlapping ones included, ascending. */
  lineStartOccurrences(pattern: string): number[];
  lineOfOffset(offset: number): number;
  /** Offset where a 0-based line starts; the line is clamped to the text. */
  lineStart(line: number): number;
  /** The first line that starts at or after `from` and equals `wanted` once both are trimmed. */
  lineAtOrAfter(from: number, wanted: string): number | undefined;
  slice(from: number, to: number): string;
}

export class LineBlocks implements WorkingText, HunkSite {
  private blocks: Block[] = [];
  private total = 0;
  private lineTotal = 0;
  /** Lines by their text, "\n" included. */
  private readonly byText: LinesBy = new Map();
  /** Lines by their trimmed content; made when a hunk first asks for a line by content. */
  private byTrimmed: LinesBy | undefined;
  private built: string | undefined;

  /** Indexes `text` at once; `LineBlocks.indexing` does it in slices that can stop. */
  constructor(text: string, deferred = false) {
    if (!deferred) {
      const lines = splitLines(text);
      this.indexBlocks(lines, 0, lines.length);
      this.finishIndexing(text);
    }
  }

  /**
   * Indexes `text` a few thousand lines at a time, asking `goOn` between slices, so that a
   * large file gives the event loop its turns (a signal, a ping) while it is indexed.
   * Undefined when `goOn` says stop.
   */
  static async indexing(text: string, goOn: () => boolean | Promise<boolean>): Promise<LineBlocks | undefined> {
    const site = new LineBlocks(text, true);
    const lines = splitLines(text);
    for (let from = 0; from < lines.length; from += INDEXING_SLICE_LINES) {
      site.indexBlocks(lines, from, Math.min(lines.length, from + INDEXING_SLICE_LINES));
      const go = goOn();
      if (!(go === true || (go !== false && (await go)))) {
        return undefined;
      }
    }
    site.finishIndexing(text);
    return site;
  }

  private indexBlocks(lines: readonly string[], from: number, to: number): void {
    for (let start = from; start < to; start += BLOCK_LINES) {
      const block: Block = { lines: [], position: 0, firstLine: 0, firstOffset: 0, chars: 0 };
      block.lines = lines.slice(start, Math.min(to, start + BLOCK_LINES)).map((lineText) => this.indexed({ text: lineText, block, index: 0, offset: 0 }));
      this.blocks.push(block);
    }
  }

  private finishIndexing(text: string): void {
    this.renumberFrom(0);
    this.built = text;
  }

  get length(): number {
    return this.total;
  }

  get lineCount(): number {
    return this.lineTotal + (this.endsWithBreak() ? 1 : 0);
  }

  occurrences(pattern: string): Offsets {
    return this.lineStartOccurrences(pattern);
  }

  lineStartOccurrences(pattern: string): number[] {
    if (pattern === '') {
      return [];
    }
    const { full, tail } = patternLines(pattern);
    const starts: number[] = [];
    if (full.length === 0) {
      for (const block of this.blocks) {
        for (const line of block.lines) {
          if (line.text.startsWith(tail)) {
            starts.push(offsetOf(line));
          }
        }
      }
      return starts;
    }
    const anchor = rarest(full, this.byText);
    for (const candidate of linesOf(this.byText, full[anchor])) {
      const first = this.lineAt(lineNumberOf(candidate) - anchor);
      if (first !== undefined && this.matchesFrom(first, full, tail)) {
        starts.push(offsetOf(first));
      }
    }
    return starts.sort((a, b) => a - b);
  }

  lineOfOffset(offset: number): number {
    const target = clamp(offset, 0, this.total);
    if (target === this.total) {
      return this.lineCount - 1;
    }
    const line = this.lineContaining(target);
    return lineNumberOf(line);
  }

  lineStart(line: number): number {
    const clamped = clamp(Math.trunc(line) || 0, 0, this.lineCount - 1);
    return clamped >= this.lineTotal ? this.total : offsetOf(this.lineAt(clamped) as Line);
  }

  lineAtOrAfter(from: number, wanted: string): number | undefined {
    const key = wanted.trim();
    let best: Line | undefined;
    for (const line of linesOf(this.trimmedIndex(), key)) {
      const offset = offsetOf(line);
      if (offset >= from && (best === undefined || offset < offsetOf(best))) {
        best = line;
      }
    }
    if (best !== undefined) {
      return lineNumberOf(best);
    }
    // The empty line after a final line break, as LineIndex counts it.
    return key === '' && this.endsWithBreak() && this.total >= from ? this.lineTotal : undefined;
  }

  slice(from: number, to: number): string {
    const start = clamp(from, 0, this.total);
    const end = clamp(to, start, this.total);
    if (this.built !== undefined) {
      return this.built.slice(start, end);
    }
    const parts: string[] = [];
    for (let line = start < this.total ? this.lineContaining(start) : undefined; line !== undefined && offsetOf(line) < end; line = this.next(line)) {
      const lineStart = offsetOf(line);
      parts.push(line.text.slice(Math.max(0, start - lineStart), end - lineStart));
    }
    return parts.join('');
  }

  edited(): EditedText {
    return wholeText(this.text());
  }

  text(): string {
    if (this.built === undefined) {
      const builder = new TextBuilder();
      for (const block of this.blocks) {
        for (const line of block.lines) {
          builder.push(line.text);
        }
      }
      this.built = builder.build();
    }
    return this.built;
  }

  replace(starts: Offsets, length: number, replacement: string): void {
    // Right to left, so that each start still means the text it was found in.
    for (let index = starts.length - 1; index >= 0; index--) {
      this.replaceOne(starts[index], length, replacement);
    }
  }

  private replaceOne(start: number, length: number, replacement: string): void {
    const end = start + length;
    const first = start < this.total ? this.lineContaining(start) : undefined;
    // The lines from `first` through `last` are replaced; `first` undefined is the end of the text.
    let last = end > start ? this.lineContaining(end - 1) : first;
    let joined = (first ? first.text.slice(0, start - offsetOf(first)) : '') + replacement;
    if (last) {
      joined += last.text.slice(end - offsetOf(last));
    }
    const removedFrom = first ?? this.lastLine();
    if (first === undefined && removedFrom !== undefined && !removedFrom.text.endsWith('\n')) {
      // Appending to a last line without a break joins that line.
      joined = removedFrom.text + joined;
      last = removedFrom;
    }
    const from = first ?? (last === removedFrom && last !== undefined ? last : undefined);
    let after = last ? this.next(last) : undefined;
    if (joined !== '' && !joined.endsWith('\n') && after !== undefined) {
      joined += after.text;
      last = after;
      after = this.next(after);
    }
    this.splice(from, last, splitLines(joined));
  }

  /** Replaces the lines `from` through `to` (both undefined: none, at the end) with `lines`. */
  private splice(from: Line | undefined, to: Line | undefined, lines: readonly string[]): void {
    this.built = undefined;
    let block: Block;
    let at: number;
    if (from === undefined || to === undefined) {
      block = this.blocks[this.blocks.length - 1] ?? this.newBlockAt(0);
      at = block.lines.length;
    } else {
      block = from.block;
      at = from.index;
      this.removeLines(from, to);
    }
    const added = lines.map((text) => this.indexed({ text, block, index: 0, offset: 0 }));
    block.lines.splice(at, 0, ...added);
    const blockIndex = block.position;
    this.splitIfLarge(blockIndex);
    this.blocks = this.blocks.filter((kept) => kept.lines.length > 0);
    this.renumberFrom(Math.max(0, Math.min(blockIndex, this.blocks.length - 1)));
  }

  private removeLines(from: Line, to: Line): void {
    const firstBlock = from.block.position;
    const lastBlock = to.block.position;
    for (let index = firstBlock; index <= lastBlock; index++) {
      const block = this.blocks[index];
      const start = index === firstBlock ? from.index : 0;
      const stop = index === lastBlock ? to.index + 1 : block.lines.length;
      for (const removed of block.lines.splice(start, stop - start)) {
        this.unindexed(removed);
      }
    }
    // The lines left in the last block join the first, so that the insertion point stays in one block.
    if (lastBlock > firstBlock) {
      const rest = this.blocks[lastBlock].lines.splice(0);
      for (const line of rest) {
        line.block = from.block;
      }
      from.block.lines.push(...rest);
    }
  }

  private splitIfLarge(blockIndex: number): void {
    const block = this.blocks[blockIndex];
    if (block.lines.length <= 2 * BLOCK_LINES) {
      return;
    }
    const pieces: Block[] = [];
    for (let from = 0; from < block.lines.length; from += BLOCK_LINES) {
      const piece: Block = { lines: block.lines.slice(from, from + BLOCK_LINES), position: 0, firstLine: 0, firstOffset: 0, chars: 0 };
      for (const line of piece.lines) {
        line.block = piece;
      }
      pieces.push(piece);
    }
    this.blocks.splice(blockIndex, 1, ...pieces);
  }

  private newBlockAt(index: number): Block {
    const block: Block = { lines: [], position: 0, firstLine: 0, firstOffset: 0, chars: 0 };
    this.blocks.splice(index, 0, block);
    return block;
  }

  private renumberFrom(blockIndex: number): void {
    const previous = this.blocks[blockIndex - 1];
    let lineNumber = previous ? previous.firstLine + previous.lines.length : 0;
    let offset = previous ? previous.firstOffset + previous.chars : 0;
    for (let index = blockIndex; index < this.blocks.length; index++) {
      const block = this.blocks[index];
      block.position = index;
      block.firstLine = lineNumber;
      block.firstOffset = offset;
      if (index === blockIndex || block.chars === 0) {
        let chars = 0;
        block.lines.forEach((line, at) => {
          line.index = at;
          line.offset = chars;
          chars += line.text.length;
        });
        block.chars = chars;
      }
      lineNumber += block.lines.length;
      offset += block.chars;
    }
    this.lineTotal = lineNumber;
    this.total = offset;
  }

  private indexed(line: Line): Line {
    addTo(this.byText, line.text, line);
    if (this.byTrimmed) {
      addTo(this.byTrimmed, trimmedContent(line.text), line);
    }
    return line;
  }

  private unindexed(line: Line): void {
    removeFrom(this.byText, line.text, line);
    if (this.byTrimmed) {
      removeFrom(this.byTrimmed, trimmedContent(line.text), line);
    }
  }

  private trimmedIndex(): LinesBy {
    if (!this.byTrimmed) {
      const byTrimmed: LinesBy = new Map();
      for (const block of this.blocks) {
        for (const line of block.lines) {
          addTo(byTrimmed, trimmedContent(line.text), line);
        }
      }
      this.byTrimmed = byTrimmed;
    }
    return this.byTrimmed;
  }

  private matchesFrom(first: Line, full: readonly string[], tail: string): boolean {
    let line: Line | undefined = first;
    for (const wanted of full) {
      if (line === undefined || line.text !== wanted) {
        return false;
      }
      line = this.next(line);
    }
    return tail === '' || (line !== undefined && line.text.startsWith(tail));
  }

  /** The 0-based line `number`, or undefined past the last line that has text. */
  private lineAt(number: number): Line | undefined {
    if (number < 0 || number >= this.lineTotal) {
      return undefined;
    }
    const block = this.blocks[searchLast(this.blocks, (candidate) => candidate.firstLine <= number)];
    return block.lines[number - block.firstLine];
  }

  /** The line holding `offset`, which must be inside the text. */
  private lineContaining(offset: number): Line {
    const block = this.blocks[searchLast(this.blocks, (candidate) => candidate.firstOffset <= offset)];
    return block.lines[searchLast(block.lines, (line) => line.offset <= offset - block.firstOffset)];
  }

  private next(line: Line): Line | undefined {
    const inBlock = line.block.lines[line.index + 1];
    if (inBlock) {
      return inBlock;
    }
    return this.blocks[line.block.position + 1]?.lines[0];
  }

  private lastLine(): Line | undefined {
    const block = this.blocks[this.blocks.length - 1];
    return block?.lines[block.lines.length - 1];
  }

  private endsWithBreak(): boolean {
    const last = this.lastLine();
    return last === undefined || last.text.endsWith('\n');
  }
}

function offsetOf(line: Line): number {
  return line.block.firstOffset + line.offset;
}

function lineNumberOf(line: Line): number {
  return line.block.firstLine + line.index;
}

/** The text cut after each "\n"; a final line break opens no further line. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) {
    lines.push(text.slice(from));
  }
  return lines;
}

/** A pattern as the whole lines it starts with (each with its "\n") and what follows the last break. */
function patternLines(pattern: string): { full: string[]; tail: string } {
  const lines = splitLines(pattern);
  const last = lines[lines.length - 1];
  return last !== undefined && !last.endsWith('\n') ? { full: lines.slice(0, -1), tail: last } : { full: lines, tail: '' };
}

/** The index of the line of `full` that occurs least often in the text. */
function rarest(full: readonly string[], byText: LinesBy): number {
  let best = 0;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const [index, line] of full.entries()) {
    const count = countOf(byText, line);
    if (count < bestCount) {
      best = index;
      bestCount = count;
      if (count === 0) {
        break;
      }
    }
  }
  return best;
}

function trimmedContent(lineText: string): string {
  return lineText.trim();
}

/** Lines by a key: most keys name one line, which is held without a set of its own. */
type LinesBy = Map<string, Line | Set<Line>>;

function addTo(map: LinesBy, key: string, line: Line): void {
  const held = map.get(key);
  if (held === undefined) {
    map.set(key, line);
  } else if (held instanceof Set) {
    held.add(line);
  } else {
    map.set(key, new Set([held, line]));
  }
}

function removeFrom(map: LinesBy, key: string, line: Line): void {
  const held = map.get(key);
  if (held === line) {
    map.delete(key);
  } else if (held instanceof Set) {
    held.delete(line);
    if (held.size === 1) {
      map.set(key, held.values().next().value as Line);
    }
  }
}

function linesOf(map: LinesBy, key: string): Iterable<Line> {
  const held = map.get(key);
  return held === undefined ? [] : held instanceof Set ? held : [held];
}

function countOf(map: LinesBy, key: string): number {
  const held = map.get(key);
  return held === undefined ? 0 : held instanceof Set ? held.size : 1;
}

/** The last index whose item satisfies `test`, which holds for a prefix of `items` (at least the first). */
function searchLast<T>(items: readonly T[], test: (item: T) => boolean): number {
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (test(items[middle])) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
