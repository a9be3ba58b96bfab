/**
 * The syntax gate's windows: for JavaScript and TypeScript, the stretches around a
 * change that can be parsed alone instead of the whole file. A window runs from a
 * statement start at or before the change to the next one at or after it (or to the
 * file's start or end), as scanStatementStarts finds them in the original text.
 *
 * Why a clean parse of both windows means the edit adds no error. Write the original as
 * P + W + Q and the new text as P + W' + Q, W and W' the old and new windows.
 * - P ends just before a line whose first token is a declaration keyword, with no bracket
 *   open, outside any comment or literal, the last token `;` or a `}`. So the original's
 *   parse is between two top-level statements there; W' is checked to open with such a
 *   keyword too (or to hold no token), and after `;` or `}` such a keyword cannot continue
 *   the statement before it. The same holds at the end: W' is checked to end with a line
 *   break after `;` or `}`, no bracket open and no comment or literal running on, and Q
 *   opens with a declaration keyword.
 * - So the new text's parse meets W' in the state the original's met W (between statements
 *   at top level), reads W' as W' reads alone, which has no error, and leaves it in that
 *   state again, where Q reads as it did in the original.
 * A wrong boundary is what could break this: a "statement start" inside a comment, a
 * template literal or a block would let W' close that comment or literal or leave it open:
 * `k = 2 *` followed by `/a/;` parses alone as a multiplication by a pattern, yet its star
 * and slash end a comment that began in P, and what follows them is then broken.
 * The boundaries come from a scan of the whole original from its start, which gives up
 * wherever it cannot be sure of the lexical state, never from a guess by indentation; a
 * window whose end the scan did not reach is not used.
 * Left: the original may already hold errors in P or Q; error recovery is local to the
 * statements around an error, and the gate's comparison takes an error there as old, so
 * P and Q read as before. Any doubt falls back to parsing everything.
 */
import type { TextChange, TextView } from '../../core/index';
import { scanStatementStarts, type ScriptDialect } from './statementStarts';

/** A window: [oldStart, oldEnd) of the original and [newStart, newEnd) of the new text. */
export interface SyntaxWindow {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

/**
 * The windows around `change`'s replacements, or undefined when the scan cannot place them
 * or when they would hold as much text as the whole file (a full parse is then no slower).
 */
export function statementWindows(change: TextChange, text: TextView, dialect: ScriptDialect): SyntaxWindow[] | undefined {
  const { from, replaced } = change;
  if (replaced.length === 0) {
    return undefined;
  }
  const scan = scanStatementStarts(from, dialect, { fileStart: true, stopAfter: replaced[replaced.length - 1].end });
  const { starts } = scan;
  const windows: SyntaxWindow[] = [];
  let startIndex = 0;
  let parsedChars = 0;
  for (const span of replaced) {
    while (startIndex < starts.length && starts[startIndex] <= span.start) {
      startIndex++;
    }
    const oldStart = startIndex === 0 ? 0 : starts[startIndex - 1];
    let endIndex = startIndex;
    while (endIndex < starts.length && starts[endIndex] < span.end) {
      endIndex++;
    }
    const oldEnd = endIndex < starts.length ? starts[endIndex] : scan.readTo === from.length ? from.length : -1;
    if (oldEnd === -1) {
      return undefined;
    }
    // Between a window's ends and its span lies text of the original, moved as the span moves its start or its end (a later span in the same window moves the end again, below).
    const newStart = oldStart + span.newStart - span.start;
    const newEnd = oldEnd + span.newStart + span.text.length - span.end;
    const previous = windows.at(-1);
    if (previous && oldStart < previous.oldEnd) {
      parsedChars -= previous.oldEnd - previous.oldStart + previous.newEnd - previous.newStart;
      windows[windows.length - 1] = { oldStart: previous.oldStart, oldEnd, newStart: previous.newStart, newEnd };
    } else {
      windows.push({ oldStart, oldEnd, newStart, newEnd });
    }
    const last = windows[windows.length - 1];
    parsedChars += last.oldEnd - last.oldStart + last.newEnd - last.newStart;
    if (parsedChars >= from.length) {
      return undefined;
    }
  }
  return windows.every((window) => readsAlone(window, from.length, text, dialect)) ? windows : undefined;
}

/** Whether the new window opens and closes at statement boundaries, as the old one does. */
function readsAlone(window: SyntaxWindow, originalLength: number, text: TextView, dialect: ScriptDialect): boolean {
  const newWindow = text.slice(window.newStart, window.newEnd);
  if (newWindow.length === 0) {
    return true;
  }
  const scan = scanStatementStarts(newWindow, dialect, { fileStart: window.newStart === 0 });
  if (scan.readTo !== newWindow.length) {
    return false;
  }
  const opens = window.oldStart === 0 || scan.empty || scan.opensWithStatement;
  const closes = window.oldEnd === originalLength || (newWindow.endsWith('\n') && (scan.empty || scan.closesStatement));
  return opens && closes;
}
