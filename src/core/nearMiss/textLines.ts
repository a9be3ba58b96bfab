/**
 * The lines of a window of a text, read through its one LineIndex: only the
 * window is sliced, never the whole text. A lone CR also ends a line here, so a
 * diagnosis can name it; the index itself does not count it as a break.
 */
import type { LineIndex } from '../text/lineIndex';
import type { LineBreak } from './needle';

export interface TextLine {
  readonly text: string;
  /** Absolute offset of the line's first character. */
  readonly start: number;
  readonly lineBreak: LineBreak;
}

/** Lines `first..last` (0-based, index lines), cut to [from, to) when a line reaches past it. */
export function textLinesOf(text: string, index: LineIndex, first: number, last: number, from = 0, to = text.length): TextLine[] {
  const lines: TextLine[] = [];
  for (let line = Math.max(0, first); line <= Math.min(last, index.lineCount - 1); line++) {
    const start = Math.max(from, index.lineStart(line));
    const contentEnd = index.lineEnd(line);
    const end = Math.min(to, contentEnd);
    if (start > end) {
      continue;
    }
    const cut = end < contentEnd;
    const isLast = line === index.lineCount - 1;
    const ending: LineBreak = cut || isLast ? '' : text.charCodeAt(contentEnd) === 13 ? 'CRLF' : 'LF';
    pushSplitAtLoneCr(lines, text.slice(start, end), start, ending);
  }
  return lines;
}

function pushSplitAtLoneCr(lines: TextLine[], content: string, start: number, ending: LineBreak): void {
  let from = 0;
  for (let cr = content.indexOf('\r'); cr !== -1; cr = content.indexOf('\r', cr + 1)) {
    lines.push({ text: content.slice(from, cr), start: start + from, lineBreak: 'CR' });
    from = cr + 1;
  }
  lines.push({ text: content.slice(from), start: start + from, lineBreak: ending });
}

