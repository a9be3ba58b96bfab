/**
 * Where two versions of a document differ, as replacements a WorkspaceEdit can
 * apply. Pure, so unit tests can check it without VS Code.
 */
import { lineRuns, splitLinesKeepingEnds } from '../../core/index';

/**
 * The smallest single range that turns `before` into `after`: the common prefix
 * and suffix stay untouched, so markers, folding and selections elsewhere survive.
 * The range never splits a CRLF pair or a surrogate pair, which VS Code would move.
 */
export function changedSpan(before: string, after: string): { start: number; end: number; text: string } {
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) {
    start++;
  }
  let suffix = 0;
  while (suffix < limit - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) {
    suffix++;
  }
  const splitsPair = (text: string, offset: number): boolean => {
    const previous = text.charCodeAt(offset - 1);
    const next = text.charCodeAt(offset);
    return (previous === 0x0d && next === 0x0a) || (previous >= 0xd800 && previous <= 0xdbff && next >= 0xdc00 && next <= 0xdfff);
  };
  while (start > 0 && splitsPair(before, start)) {
    start--;
  }
  while (suffix > 0 && splitsPair(before, before.length - suffix)) {
    suffix--;
  }
  return { start, end: before.length - suffix, text: after.slice(start, after.length - suffix) };
}

/** Past this many changed runs of lines, one replacement of the whole changed span costs less. */
const MAX_REPLACEMENTS = 1000;

type Span = { start: number; end: number; text: string };

/**
 * The replacements that turn `before` into `after`: one per run of changed lines.
 * Edits spread through a large document then change a few lines each, where one
 * replacement from the first change to the last would hand VS Code the whole text.
 */
export function changedSpans(before: string, after: string): Span[] {
  const outer = changedSpan(before, after);
  const oldLines = splitLinesKeepingEnds(before.slice(outer.start, outer.end));
  const newLines = splitLinesKeepingEnds(outer.text);
  const runs = lineRuns(oldLines, newLines);
  if (runs.length > 2 * MAX_REPLACEMENTS) {
    return [outer];
  }
  const spans: Span[] = [];
  let offset = outer.start;
  let oldAt = 0;
  let newAt = 0;
  for (const run of runs) {
    const length = oldLines.slice(oldAt, oldAt + run.oldLines).reduce((sum, line) => sum + line.length, 0);
    if (!run.same) {
      spans.push({ start: offset, end: offset + length, text: newLines.slice(newAt, newAt + run.newLines).join('') });
    }
    offset += length;
    oldAt += run.oldLines;
    newAt += run.newLines;
  }
  return spans;
}
