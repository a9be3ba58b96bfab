/**
 * The near miss a line-by-line walk can name: the needle's lines laid on the text's
 * lines around the closest match, each pair walked (lineWalk.ts), line endings
 * compared. The first placement where nothing but nameable differences remain is
 * the near miss. All the work stays inside a window a few lines larger than the needle.
 */
import { roleOf, type TextSpan } from './closestMatch';
import { cannotImprove, fitLine, type Difference } from './lineWalk';
import type { LineBreak, NeedleReading } from './needle';
import { textLinesOf, type TextLine } from './textLines';
import type { LineIndex } from '../text/lineIndex';

/** Text lines above and below the closest match where the near miss may start. */
const SEARCH_MARGIN = 3;
/** Characters beyond the needle's length that a window keeps on either side of the closest match. */
const WINDOW_PAD = 4096;

export interface NearMiss {
  readonly differences: readonly Difference[];
  readonly span: TextSpan;
}

/** Lays the needle's lines on the text's lines from `first` on; undefined unless every line fits. */
function layNeedle(needle: NeedleReading, textLines: readonly TextLine[], first: number, atEndOfText: boolean, sentBreaks: readonly LineBreak[] | undefined): NearMiss | undefined {
  const differences: Difference[] = [];
  // Line breaks that differ from the file's, for old_string as converted and as sent: the closer of the two counts.
  const convertedBreaks: Difference[] = [];
  const breaksAsSent: Difference[] = [];
  const withBreaks = (): Difference[] => [...differences, ...(sentBreaks && breaksAsSent.length <= convertedBreaks.length ? breaksAsSent : convertedBreaks)];
  const lineTotal = needle.lines.length;
  let start = 0;
  for (let lineNumber = 0; lineNumber < lineTotal; lineNumber++) {
    const needleLine = needle.lines[lineNumber];
    const textLine = textLines[first + lineNumber];
    if (!textLine) {
      return undefined;
    }
    const fit = fitLine(needleLine.text, textLine.text, roleOf(lineNumber, lineTotal));
    if (!fit) {
      return undefined;
    }
    differences.push(...fit.differences.map((d) => ({ ...d, needleLine: lineNumber, at: textLine.start + d.column })));
    if (lineNumber === 0) {
      start = textLine.start + fit.from;
    }
    if (lineNumber === lineTotal - 1) {
      return { differences: withBreaks(), span: { offset: start, length: textLine.start + fit.to - start } };
    }
    const lineEnd = textLine.start + textLine.text.length;
    if (textLine.lineBreak === '') {
      // The text ends here; the needle may only go on with its own final line break.
      const onlyFinalBreakLeft = lineNumber === lineTotal - 2 && needle.lines[lineTotal - 1].text === '' && atEndOfText;
      if (!onlyFinalBreakLeft) {
        return undefined;
      }
      differences.push({ kind: 'WHITESPACE_ONLY', needleLine: lineNumber, needleColumn: needleLine.text.length, at: lineEnd, needleText: needleLine.lineBreak, fileText: '', where: 'end of text' });
      return { differences: withBreaks(), span: { offset: start, length: lineEnd - start } };
    }
    const sentBreak = sentBreaks?.[lineNumber] ?? needleLine.lineBreak;
    const breakDifference = (needleText: LineBreak): Difference => ({ kind: 'EOL_MISMATCH', needleLine: lineNumber, needleColumn: needleLine.text.length, at: lineEnd, needleText, fileText: textLine.lineBreak, where: 'line end' });
    if (needleLine.lineBreak !== 'ESCAPE' && needleLine.lineBreak !== textLine.lineBreak) {
      convertedBreaks.push(breakDifference(needleLine.lineBreak));
    }
    if (needleLine.lineBreak !== 'ESCAPE' && sentBreak !== textLine.lineBreak) {
      breaksAsSent.push(breakDifference(sentBreak));
    }
  }
  return undefined;
}

/**
 * The near miss around `closest`, trying the needle as written first, then with its
 * literal escapes read. `sentBreaks` are the breaks of old_string as the request
 * sent it, before they were converted to the file's ending.
 */
export function findNearMiss(
  text: string, index: LineIndex, needle: string, readings: readonly NeedleReading[], closest: TextSpan, sentBreaks?: readonly LineBreak[],
): NearMiss | undefined {
  const needleLines = Math.max(...readings.map((reading) => reading.lines.length));
  const closestLine = index.lineOfOffset(closest.offset);
  const firstLine = Math.max(0, closestLine - SEARCH_MARGIN);
  const lastLine = Math.min(index.lineCount - 1, index.lineOfOffset(closest.offset + closest.length) + SEARCH_MARGIN + needleLines);
  const windowStart = Math.max(index.lineStart(firstLine), closest.offset - needle.length - WINDOW_PAD);
  const lineAfter = lastLine + 1 < index.lineCount ? index.lineStart(lastLine + 1) : text.length;
  const windowEnd = Math.min(lineAfter, closest.offset + closest.length + needle.length + WINDOW_PAD);
  const textLines = textLinesOf(text, index, firstLine, lastLine, windowStart, windowEnd);
  const atEndOfText = windowEnd === text.length;
  // Lone CRs add lines the index does not count, so allow for them when trying starts.
  const starts = Math.min(textLines.length, 4 * SEARCH_MARGIN + 1);

  for (const reading of readings) {
    let best: NearMiss | undefined;
    for (let first = 0; first < starts && !cannotImprove(best); first++) {
      const laid = layNeedle(reading, textLines, first, atEndOfText, reading.escapedBreaks === 0 ? sentBreaks : undefined);
      if (laid && (!best || laid.differences.length < best.differences.length)) {
        best = laid;
      }
    }
    if (best) {
      const escapes = reading.escapedBreaks + reading.escapedTabs;
      return escapes === 0 ? best : {
        span: best.span,
        differences: [{
          kind: 'ESCAPED_NEWLINES', needleLine: 0, needleColumn: 0, at: best.span.offset, where: 'inside', needleText: '', fileText: '',
          escapes: { breaks: reading.escapedBreaks, tabs: reading.escapedTabs },
        }, ...best.differences],
      };
    }
  }
  return undefined;
}
