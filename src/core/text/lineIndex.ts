/**
 * Line starts of one text, collected in a single pass. Offsets map to lines by
 * binary search, so nothing ever re-splits the text to find a line.
 * A line ends at '\n'; a "\r\n" line ends at its '\n'; a lone '\r' is not a break.
 */
export class LineIndex {
  private constructor(
    private readonly text: string,
    private readonly starts: readonly number[],
  ) {}

  static of(text: string): LineIndex {
    const starts = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      starts.push(at + 1);
    }
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 0-based line holding `offset` (clamped to the text). */
  lineOfOffset(offset: number): number {
    const target = this.clampOffset(offset);
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.starts[middle] <= target) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return low;
  }

  /** 1-based line and column; the column counts UTF-16 code units. */
  position(offset: number): { line: number; column: number } {
    const target = this.clampOffset(offset);
    const line0 = this.lineOfOffset(target);
    return { line: line0 + 1, column: target - this.starts[line0] + 1 };
  }

  /** Offset of the first character of a 0-based line (the line is clamped to the text). */
  lineStart(line0: number): number {
    return this.starts[this.clampLine(line0)];
  }

  /** Offset where a 0-based line's content ends, before its "\r\n" or "\n". */
  lineEnd(line0: number): number {
    const line = this.clampLine(line0);
    if (line === this.starts.length - 1) {
      return this.text.length;
    }
    const newline = this.starts[line + 1] - 1;
    const hasCarriageReturn = newline > this.starts[line] && this.text.charCodeAt(newline - 1) === 13;
    return hasCarriageReturn ? newline - 1 : newline;
  }

  /** The content of a 0-based line, without its line ending. */
  lineText(line0: number): string {
    return this.text.slice(this.lineStart(line0), this.lineEnd(line0));
  }

  private clampOffset(offset: number): number {
    return Math.min(Math.max(Math.trunc(offset) || 0, 0), this.text.length);
  }

  private clampLine(line0: number): number {
    return Math.min(Math.max(Math.trunc(line0) || 0, 0), this.starts.length - 1);
  }
}
