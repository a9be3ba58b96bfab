/**
 * The one reader of old_string for near-miss work. A needle is read as lines, each
 * remembering the break that ended it, with a comparable key (whitespace collapsed,
 * look-alikes folded) and a weight for scoring. A needle holding literal escapes
 * (\n, \t written as a backslash and a letter) has a second reading with them read
 * as the characters they name. Both the closest-match search and the diagnosis use
 * these readings, so the two never disagree on where a needle's lines are.
 */
import { comparableKey } from './lookalikes';

/** What ended a line: a real break, a literal escape read as one, or nothing (the last line). */
export type LineBreak = 'LF' | 'CRLF' | 'CR' | 'ESCAPE' | '';

export interface NeedleLine {
  readonly text: string;
  readonly lineBreak: LineBreak;
  /** The line reduced to what survives whitespace and look-alike differences. */
  readonly key: string;
  /** How much the line counts when placements are scored. */
  readonly weight: number;
}

export interface NeedleReading {
  readonly lines: readonly NeedleLine[];
  /** Literal \n and \t sequences read as a break and a tab; zero for the needle as written. */
  readonly escapedBreaks: number;
  readonly escapedTabs: number;
}

/** Literal escapes a writer may have put where the file has a line break or a tab. */
const LITERAL_ESCAPE = /\\r\\n|\\n|\\r|\\t/;

const BREAK_OR_ESCAPE = /\r\n|\r|\n|\\r\\n|\\n|\\r|\\t/g;
const BREAK_ONLY = /\r\n|\r|\n/g;

const BREAK_NAMES: Readonly<Record<string, LineBreak>> = { '\r\n': 'CRLF', '\r': 'CR', '\n': 'LF' };

export function hasLiteralEscapes(needle: string): boolean {
  return LITERAL_ESCAPE.test(needle);
}

function needleLine(text: string, lineBreak: LineBreak): NeedleLine {
  const key = comparableKey(text);
  return { text, lineBreak, key, weight: 4 + Math.min(key.length, 120) };
}

/** Splits at "\r\n", '\r' and '\n' alike (and at literal escapes when `escapes`), so endings never decide a placement. */
function read(needle: string, escapes: boolean): NeedleReading {
  let escapedBreaks = 0;
  let escapedTabs = 0;
  const lines: NeedleLine[] = [];
  let line = '';
  let consumed = 0;
  for (const match of needle.matchAll(escapes ? BREAK_OR_ESCAPE : BREAK_ONLY)) {
    line += needle.slice(consumed, match.index);
    consumed = match.index + match[0].length;
    if (match[0] === '\\t') {
      escapedTabs++;
      line += '\t';
      continue;
    }
    const realBreak = BREAK_NAMES[match[0]];
    escapedBreaks += realBreak ? 0 : 1;
    lines.push(needleLine(line, realBreak ?? 'ESCAPE'));
    line = '';
  }
  lines.push(needleLine(line + needle.slice(consumed), ''));
  return { lines, escapedBreaks, escapedTabs };
}

/** The needle as written, then, when it holds literal escapes, with them read. */
export function needleReadings(needle: string): NeedleReading[] {
  const asWritten = read(needle, false);
  return hasLiteralEscapes(needle) ? [asWritten, read(needle, true)] : [asWritten];
}
